// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur trace --format chrome: the calls read, as the Trace Event
 * Format's complete ("X") events in one JSON object, which Perfetto,
 * Trace Compass and speedscope load. One event per call: the function
 * as name, its start (ts) and duration (dur) in microseconds with the
 * nanoseconds as decimals, the task as tid and its thread group as pid,
 * and the caller, depth, return value and breakdown as args (speedscope
 * makes one frame of the calls with the same name and args: no CPU).
 *
 * The viewers require the events of one thread to nest strictly. Any
 * set of calls does, but the clock of a call's entry and that of its
 * return may be two CPUs' when the task migrated: a call that ends
 * after the one it was called from is cut at that one's end, and their
 * number is told on standard error. The calls are kept until the run
 * ends, sorted by thread and start, then printed.
 */
#include <stdlib.h>
#include <string.h>

#include "funcdur.h"

struct chrome_call {
	unsigned long long	start, dur;
	long long		retval;
	unsigned long long	running, runnable, blocked, irq;
	int			pid, depth;
	int			comm, func, caller;	/* chrome.names */
};

/* The names are kept once each: there are few, and many calls. */
struct chrome {
	struct chrome_call	*calls;
	size_t			nr, alloc;
	char			**names;
	int			nr_names;
	int			*slots;		/* open addressing, -1: free */
	size_t			nr_slots;
	bool			breakdown;
};

static size_t find_slot(struct chrome *ch, const char *s)
{
	size_t i = str_hash(s) & (ch->nr_slots - 1);

	while (ch->slots[i] >= 0 && strcmp(ch->names[ch->slots[i]], s))
		i = (i + 1) & (ch->nr_slots - 1);
	return i;
}

static void grow_slots(struct chrome *ch)
{
	size_t i, n = ch->nr_slots ? ch->nr_slots * 2 : 1024;

	free(ch->slots);
	ch->slots = malloc(n * sizeof(*ch->slots));
	if (!ch->slots)
		fatal("out of memory");
	ch->nr_slots = n;
	for (i = 0; i < n; i++)
		ch->slots[i] = -1;
	for (i = 0; i < (size_t)ch->nr_names; i++)
		ch->slots[find_slot(ch, ch->names[i])] = i;
}

static int intern(struct chrome *ch, const char *s)
{
	size_t i;

	if (2 * (ch->nr_names + 1) > (int)ch->nr_slots)
		grow_slots(ch);
	i = find_slot(ch, s);
	if (ch->slots[i] < 0) {
		ch->names = realloc(ch->names, (ch->nr_names + 1) * sizeof(*ch->names));
		if (!ch->names)
			fatal("out of memory");
		ch->names[ch->nr_names] = xstrdup(s);
		ch->slots[i] = ch->nr_names++;
	}
	return ch->slots[i];
}

/**
 * chrome_new() - an empty list of calls
 * @breakdown:	the calls have the breakdown's parts
 *
 * Return: the list; exits if out of memory.
 */
struct chrome *chrome_new(bool breakdown)
{
	struct chrome *ch = xzalloc(sizeof(*ch));

	ch->breakdown = breakdown;
	grow_slots(ch);
	return ch;
}

/**
 * chrome_add() - keep a call
 * @ch:		the list
 * @comm:	the task's name
 * @func:	the function's name
 * @caller:	the caller, as symbol+offset
 * @pid:	the task
 * @depth:	its depth in the task's call graph
 * @calltime:	its start, ns
 * @dur:	its duration, ns
 * @retval:	its return value, as the kernel's signed long
 * @parts:	running, runnable, blocked and irq, ns
 */
void chrome_add(struct chrome *ch, const char *comm, const char *func,
		const char *caller, int pid, int depth,
		unsigned long long calltime, unsigned long long dur,
		long long retval, const unsigned long long parts[4])
{
	struct chrome_call *c;

	if (ch->nr == ch->alloc) {
		ch->alloc = ch->alloc ? ch->alloc * 2 : 4096;
		ch->calls = realloc(ch->calls, ch->alloc * sizeof(*ch->calls));
		if (!ch->calls)
			fatal("out of memory");
	}
	c = &ch->calls[ch->nr++];
	c->start = calltime;
	c->dur = dur;
	c->retval = retval;
	c->running = parts[0];
	c->runnable = parts[1];
	c->blocked = parts[2];
	c->irq = parts[3];
	c->pid = pid;
	c->depth = depth;
	c->comm = intern(ch, comm);
	c->func = intern(ch, func);
	c->caller = intern(ch, caller);
}

/* By thread, then start; of two calls that start together, the longer first. */
static int call_cmp(const void *a, const void *b)
{
	const struct chrome_call *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->depth - y->depth;
}

/* A task's thread group, from /proc while it lives; else the task. */
static int tgid_of(int pid)
{
	char path[32], line[64];
	FILE *f;
	int tgid = pid;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return pid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

static void us(FILE *f, unsigned long long ns)
{
	fprintf(f, "%llu.%03llu", ns / 1000, ns % 1000);
}

#define MAX_NEST	256

/**
 * chrome_print_free() - print the calls as one JSON object, and free them
 * @ch:		the list
 * @f:		where to
 *
 * Return: the number of calls cut to nest in their caller's.
 */
unsigned long chrome_print_free(struct chrome *ch, FILE *f)
{
	unsigned long long open_end[MAX_NEST];
	unsigned long cut = 0;
	int depth = 0, pid = -1, tgid = 0, i;
	size_t n;

	qsort(ch->calls, ch->nr, sizeof(*ch->calls), call_cmp);
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
	for (n = 0; n < ch->nr; n++) {
		struct chrome_call *c = &ch->calls[n];

		if (c->pid != pid) {
			pid = c->pid;
			tgid = tgid_of(pid);
			depth = 0;
			fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_name\",");
			fprintf(f, "\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", tgid, pid);
			json_string(f, ch->names[c->comm]);
			fputs("}},\n", f);
		}
		/* the calls that ended before this one started are closed */
		while (depth && open_end[depth - 1] <= c->start)
			depth--;
		if (depth && c->start + c->dur > open_end[depth - 1]) {
			c->dur = open_end[depth - 1] - c->start;
			cut++;
		}
		if (depth < MAX_NEST)
			open_end[depth++] = c->start + c->dur;
		fputs("{\"ph\":\"X\",\"cat\":\"funcdur\",\"name\":", f);
		json_string(f, ch->names[c->func]);
		fputs(",\"ts\":", f);
		us(f, c->start);
		fputs(",\"dur\":", f);
		us(f, c->dur);
		fprintf(f, ",\"pid\":%d,\"tid\":%d,\"args\":{\"caller\":", tgid, pid);
		json_string(f, ch->names[c->caller]);
		fprintf(f, ",\"depth\":%d,\"retval\":%lld", c->depth, c->retval);
		if (ch->breakdown)
			fprintf(f, ",\"running_ns\":%llu,\"runnable_ns\":%llu", c->running,
				c->runnable);
		if (ch->breakdown)
			fprintf(f, ",\"blocked_ns\":%llu,\"irq_ns\":%llu", c->blocked, c->irq);
		fprintf(f, "}}%s\n", n + 1 < ch->nr ? "," : "");
	}
	fputs("]}\n", f);
	fflush(f);
	for (i = 0; i < ch->nr_names; i++)
		free(ch->names[i]);
	free(ch->names);
	free(ch->slots);
	free(ch->calls);
	free(ch);
	return cut;
}
