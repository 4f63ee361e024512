// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur trace, and the report of -a: the calls the tracer wrote to the
 * instance's ring buffer, read in binary from trace_pipe_raw and decoded
 * by libtraceevent with the formats of ftrace/funcduration and
 * ftrace/funcduration_breakdown.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>

#include "funcdur.h"

/* The calls kept for -a's report: the last ones read. */
#define KEEP_EVENTS	65536
#define MAX_STACK	64
/* The exited tasks whose comm nobody saved: /proc is asked once. */
#define NR_UNKNOWN_PIDS	256

struct fd_event {
	unsigned long long	ts, calltime, duration, retval;
	unsigned long long	running, runnable, blocked, irq;
	unsigned long long	func, caller;
	int			pid, cpu, depth;
};

struct symbol {
	unsigned long long	addr;
	char			*name;
};

struct trace_ctx {
	struct funcdur_session	*s;
	struct tep_handle	*tep;
	struct tep_event	*fd_event, *bd_event, *stack_event;
	struct fd_event		*kept;
	struct folded		*folded;	/* --format folded */
	struct chrome		*chrome;	/* --format chrome */
	unsigned long		nr_kept;	/* ever; kept[nr % keep] */
	unsigned long		stop_nr;	/* -a: the stopping call's nr + 1 */
	unsigned long		keep;		/* KEEP_EVENTS with -a, else 1 */
	unsigned long long	stack[MAX_STACK];
	int			stack_len, stack_pid;
	long long		missed;
	int			unknown_pids[NR_UNKNOWN_PIDS];
	bool			print, breakdown, header_done;
};

static struct symbol *syms;
static size_t nr_syms;

static int sym_cmp(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The kernel's text symbols, for the addresses of the events. */
static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], mod[256], type;
	unsigned long long addr;
	size_t alloc = 0;
	int n;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		n = sscanf(line, "%llx %c %255s %255s", &addr, &type, name, mod);
		if (n < 3 || (type != 't' && type != 'T') || !addr)
			continue;
		if (nr_syms == alloc) {
			alloc = alloc ? alloc * 2 : 65536;
			syms = realloc(syms, alloc * sizeof(*syms));
			if (!syms)
				fatal("out of memory");
		}
		if (n == 4) {
			char full[520];

			snprintf(full, sizeof(full), "%s %s", name, mod);
			syms[nr_syms].name = xstrdup(full);
		} else {
			syms[nr_syms].name = xstrdup(name);
		}
		syms[nr_syms++].addr = addr;
	}
	fclose(f);
	qsort(syms, nr_syms, sizeof(*syms), sym_cmp);
}

/* "name", or "name+0x1f" with @offset; the address if unknown. */
static const char *sym_name(unsigned long long addr, bool offset, char *buf, size_t size)
{
	size_t lo = 0, hi = nr_syms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (!nr_syms || syms[lo].addr > addr) {
		snprintf(buf, size, "0x%llx", addr);
	} else if (offset && addr != syms[lo].addr) {
		char *mod = strchr(syms[lo].name, ' ');

		if (mod)
			snprintf(buf, size, "%.*s+0x%llx%s", (int)(mod - syms[lo].name),
				 syms[lo].name, addr - syms[lo].addr, mod);
		else
			snprintf(buf, size, "%s+0x%llx", syms[lo].name, addr - syms[lo].addr);
	} else {
		snprintf(buf, size, "%s", syms[lo].name);
	}
	return buf;
}

static unsigned long long val(struct tep_event *ev, struct tep_record *rec,
			      const char *name)
{
	unsigned long long v = 0;

	tep_get_any_field_val(NULL, ev, name, rec, &v, 0);
	return v;
}

/*
 * The kernel saves a task's comm when the task is switched out after an
 * event: a task still running when its events are read has none yet.
 * Such a task is alive, so ask /proc once and keep the answer; a pid that
 * /proc does not know (the task exited) is remembered and not asked again.
 */
static const char *comm_of(struct trace_ctx *c, int pid)
{
	const char *comm = tep_data_comm_from_pid(c->tep, pid);
	int *unknown = &c->unknown_pids[(unsigned int)pid % NR_UNKNOWN_PIDS];
	char path[32], buf[64];

	if (comm)
		return comm;
	if (pid <= 0 || *unknown == pid)
		return "<...>";
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (!read_first_line(path, buf, sizeof(buf)) || tep_register_comm(c->tep, buf, pid)) {
		*unknown = pid;
		return "<...>";
	}
	comm = tep_data_comm_from_pid(c->tep, pid);
	return comm ? comm : "<...>";
}

static void print_header(struct trace_ctx *c, FILE *f)
{
	switch (c->s->params->format) {
	case FORMAT_TABLE:
		fprintf(f, "%-14s %-16s %7s %3s %14s  %s%s\n", "TIME(s)", "COMM", "PID",
			"CPU", "DURATION(us)", "FUNCTION <- CALLER  DEPTH",
			c->breakdown ? "  RUN WAIT BLK IRQ (us)" : "");
		break;
	case FORMAT_CSV:
		fputs("time_ns,comm,pid,cpu,duration,function,caller,depth,calltime,retval,",
		      f);
		fputs("running,runnable,blocked,irq\n", f);
		break;
	case FORMAT_JSON:
	case FORMAT_FOLDED:
	case FORMAT_CHROME:
	case FORMAT_OPENMETRICS:
		break;
	}
}

static void print_event(struct trace_ctx *c, FILE *f, struct fd_event *e)
{
	char fn[300], caller[300];
	const char *comm = comm_of(c, e->pid);

	sym_name(e->func, false, fn, sizeof(fn));
	sym_name(e->caller, true, caller, sizeof(caller));
	switch (c->s->params->format) {
	case FORMAT_TABLE:
		fprintf(f, "%-14.6f %-16s %7d %3d %14.3f  %s <- %s  %d", e->ts / 1e9,
			comm, e->pid, e->cpu, e->duration / 1e3, fn, caller, e->depth);
		if (c->breakdown)
			fprintf(f, "  %.3f %.3f %.3f %.3f", e->running / 1e3,
				e->runnable / 1e3, e->blocked / 1e3, e->irq / 1e3);
		fputc('\n', f);
		break;
	case FORMAT_CSV:
		fprintf(f, "%llu,", e->ts);
		csv_string(f, comm);
		fprintf(f, ",%d,%d,%llu,", e->pid, e->cpu, e->duration);
		csv_string(f, fn);
		fputc(',', f);
		csv_string(f, caller);
		fprintf(f, ",%d,%llu,%llu,%llu,%llu,%llu,%llu\n", e->depth, e->calltime,
			e->retval, e->running, e->runnable, e->blocked, e->irq);
		break;
	case FORMAT_JSON:
		fprintf(f, "{\"time_ns\":%llu,\"comm\":", e->ts);
		json_string(f, comm);
		fprintf(f, ",\"pid\":%d,\"cpu\":%d,\"duration\":%llu,\"function\":",
			e->pid, e->cpu, e->duration);
		json_string(f, fn);
		fputs(",\"caller\":", f);
		json_string(f, caller);
		fprintf(f,
			",\"depth\":%d,\"calltime\":%llu,\"retval\":%llu,\"running\":%llu,\"runnable\":%llu,\"blocked\":%llu,\"irq\":%llu}\n",
			e->depth, e->calltime, e->retval, e->running, e->runnable,
			e->blocked, e->irq);
		break;
	case FORMAT_FOLDED:
		folded_add(c->folded, comm, sym_name(e->caller, false, caller, sizeof(caller)),
			   fn, e->duration);
		break;
	case FORMAT_CHROME: {
		unsigned long long parts[4] = { e->running, e->runnable, e->blocked, e->irq };

		/* an error is negative in the kernel's long */
		long long ret = tep_get_long_size(c->tep) == 4 ? (int)e->retval
							       : (long long)e->retval;

		chrome_add(c->chrome, comm, fn, caller, e->pid, e->depth,
			   e->calltime, e->duration, ret, parts);
		break;
	}
	case FORMAT_OPENMETRICS:
		break;
	}
}

/*
 * -a: the stacktrace trigger writes its stack right after the call that
 * fired it, on the same CPU, where the buffer keeps the order. A call at
 * or over the threshold read later may have been in flight on another
 * CPU when the traceoff trigger stopped the buffer.
 */
static unsigned long stopping_call(struct trace_ctx *c, int cpu, int pid)
{
	unsigned long first = c->nr_kept > c->keep ? c->nr_kept - c->keep : 0;
	unsigned long i;
	struct fd_event *e;

	for (i = c->nr_kept; i-- > first;) {
		e = &c->kept[i % c->keep];
		if (e->cpu == cpu && e->pid == pid &&
		    e->duration >= c->s->params->auto_ns)
			return i + 1;
	}
	return 0;
}

static int on_event(struct tep_event *ev, struct tep_record *rec, int cpu, void *data)
{
	struct trace_ctx *c = data;
	struct fd_event *e;

	c->missed += rec->missed_events > 0 ? rec->missed_events : 0;
	if (ev == c->stack_event) {
		int len = 0, i, n = (int)val(ev, rec, "size");
		unsigned char *raw = tep_get_field_raw(NULL, ev, "caller", rec, &len, 0);
		/* The kernel's long, which a 32-bit funcdur on arm64 does not share */
		int size = tep_get_long_size(c->tep);
		unsigned long long a, end = size == 4 ? 0xffffffffULL : ~0ULL;

		/* "size" entries of the "caller" array are the stack */
		if (n > len / size)
			n = len / size;
		c->stack_pid = tep_data_pid(c->tep, rec);
		c->stack_len = 0;
		for (i = 0; raw && i < MAX_STACK && i < n; i++) {
			a = tep_read_number(c->tep, raw + i * size, size);
			if (!a || a == end)
				break;
			c->stack[c->stack_len++] = a;
		}
		if (c->s->params->auto_ns && !c->stop_nr)
			c->stop_nr = stopping_call(c, cpu, c->stack_pid);
		return 0;
	}
	if (ev != c->fd_event && ev != c->bd_event)
		return 0;
	e = &c->kept[c->nr_kept++ % c->keep];
	e->ts = rec->ts;
	e->cpu = cpu;
	e->pid = tep_data_pid(c->tep, rec);
	e->func = val(ev, rec, "func");
	e->caller = val(ev, rec, "caller");
	e->retval = val(ev, rec, "retval");
	e->calltime = val(ev, rec, "calltime");
	e->duration = val(ev, rec, "duration");
	e->running = val(ev, rec, "running");
	e->runnable = val(ev, rec, "runnable");
	e->blocked = val(ev, rec, "blocked");
	e->irq = val(ev, rec, "irq");
	e->depth = (int)val(ev, rec, "depth");
	if (c->print) {
		if (!c->header_done)
			print_header(c, c->s->out);
		c->header_done = true;
		print_event(c, c->s->out, e);
	}
	return 0;
}

/*
 * The command of the run (-- CMD) can exit before the kernel saved its
 * comm, and before /proc can be asked: name it as exec names it.
 */
static void name_child(struct trace_ctx *c, struct funcdur_session *s)
{
	const char *cmd = s->params->cmd[0];
	const char *base = strrchr(cmd, '/');
	char comm[16];

	snprintf(comm, sizeof(comm), "%s", base ? base + 1 : cmd);
	tep_override_comm(c->tep, comm, s->child);
}

static int trace_init(struct trace_ctx *c, struct funcdur_session *s, bool print)
{
	static const char * const systems[] = { "ftrace", NULL };
	long long bd = 0;

	memset(c, 0, sizeof(*c));
	c->s = s;
	c->print = print;
	c->tep = tracefs_local_events_system(NULL, systems);
	if (!c->tep) {
		warnx_fd("cannot read the event formats of tracefs");
		return -1;
	}
	c->fd_event = tep_find_event_by_name(c->tep, "ftrace", "funcduration");
	/* With the breakdown on, the calls are written with their parts */
	c->bd_event = tep_find_event_by_name(c->tep, "ftrace", "funcduration_breakdown");
	c->stack_event = tep_find_event_by_name(c->tep, "ftrace", "kernel_stack");
	if (!c->fd_event) {
		warnx_fd("no ftrace/funcduration event format");
		return -1;
	}
	c->keep = s->params->auto_ns ? KEEP_EVENTS : 1;
	if (s->params->format == FORMAT_FOLDED)
		c->folded = folded_new();
	c->kept = xzalloc(c->keep * sizeof(*c->kept));
	c->breakdown = !tracefs_instance_file_read_number(s->inst, "function_duration/breakdown",
							   &bd) && bd;
	if (s->params->format == FORMAT_CHROME)
		c->chrome = chrome_new(c->breakdown);
	tracefs_load_cmdlines(NULL, c->tep);
	if (s->child > 0)
		name_child(c, s);
	load_kallsyms();
	return 0;
}

static void trace_read(struct trace_ctx *c)
{
	tracefs_load_cmdlines(NULL, c->tep);
	tracefs_iterate_raw_events(c->tep, c->s->inst, NULL, 0, on_event, c);
	fflush(c->s->out);
}

static void trace_free(struct trace_ctx *c)
{
	free(c->kept);
	tep_free(c->tep);
}

static void percent(FILE *f, const char *what, unsigned long long part,
		    unsigned long long whole)
{
	char t[32];

	format_ns(t, sizeof(t), part);
	fprintf(f, "  %-9s %10s  %5.1f%%\n", what, t, whole ? 100.0 * part / whole : 0.0);
}

/*
 * What the buffer tells about the call that stopped the run: the
 * calls it made that were slow (they returned before it, so they are
 * in the buffer before it), its callers (the stack the stacktrace
 * trigger took), where its time went, and its function's statistics.
 */
static int auto_report(struct trace_ctx *c)
{
	struct funcdur_params *p = c->s->params;
	unsigned long first = c->nr_kept > c->keep ? c->nr_kept - c->keep : 0;
	struct fd_event *hit = NULL, *e;
	unsigned long i;
	char fn[150], caller[150], t[32];
	FILE *f = stderr;
	struct fd_stats st;
	int n = 0;

	if (c->stop_nr > first) {
		hit = &c->kept[(c->stop_nr - 1) % c->keep];
	} else {
		/* No stack: the trigger fires on the first call over it */
		for (i = first; i < c->nr_kept; i++) {
			e = &c->kept[i % c->keep];
			if (e->duration >= p->auto_ns) {
				hit = e;
				break;
			}
		}
	}
	format_ns(t, sizeof(t), p->auto_ns);
	fprintf(f, "\n## funcdur: stopped by a call of %s or more\n", t);
	if (!hit) {
		fprintf(f, "the call is not in the buffer (%lld events lost)\n", c->missed);
		return FUNCDUR_EXIT_ERROR;
	}
	format_ns(t, sizeof(t), hit->duration);
	fprintf(f, "%s, pid %d (%s), CPU %d, at %.6f s: %s <- %s, depth %d\n",
		t, hit->pid, comm_of(c, hit->pid), hit->cpu, hit->ts / 1e9,
		sym_name(hit->func, false, fn, sizeof(fn)),
		sym_name(hit->caller, true, caller, sizeof(caller)), hit->depth);

	if (c->breakdown && hit->running + hit->runnable + hit->blocked + hit->irq) {
		fprintf(f, "\nwhere its time went:\n");
		percent(f, "running", hit->running, hit->duration);
		percent(f, "runnable", hit->runnable, hit->duration);
		percent(f, "blocked", hit->blocked, hit->duration);
		percent(f, "irq", hit->irq, hit->duration);
	}

	fprintf(f, "\nits calls over the threshold, in the order they returned:\n");
	for (i = first; i < c->nr_kept; i++) {
		e = &c->kept[i % c->keep];
		if (e == hit)
			break;
		if (e->pid != hit->pid || e->depth <= hit->depth ||
		    e->calltime < hit->calltime ||
		    e->calltime + e->duration > hit->calltime + hit->duration)
			continue;
		format_ns(t, sizeof(t), e->duration);
		fprintf(f, "  %*s%-10s %s <- %s\n", 2 * (e->depth - hit->depth - 1), "",
			t, sym_name(e->func, false, fn, sizeof(fn)),
			sym_name(e->caller, true, caller, sizeof(caller)));
		n++;
	}
	if (!n)
		fprintf(f, "  none\n");

	if (c->stack_len && c->stack_pid == hit->pid) {
		unsigned long from = 0;

		/* the trigger runs in the return handler: its frames first */
		for (i = 0; i < (unsigned long)c->stack_len; i++)
			if (!strncmp(sym_name(c->stack[i], false, fn, sizeof(fn)),
				     "return_to_handler", 17))
				from = i + 1;
		if (from == (unsigned long)c->stack_len)
			from = 0;
		fprintf(f, "\nits stack (from the stacktrace trigger):\n");
		for (i = from; i < (unsigned long)c->stack_len; i++)
			fprintf(f, "  => %s\n", sym_name(c->stack[i], true, fn, sizeof(fn)));
	}

	if (!stats_read(c->s->inst, &st)) {
		sym_name(hit->func, false, fn, sizeof(fn));
		for (i = 0; i < (unsigned long)st.nr_rows; i++) {
			struct fd_row *r = &st.rows[i];
			char a[32], s1[32], p99[32];

			if (strcmp(r->name, fn))
				continue;
			format_ns(a, sizeof(a), r->avg);
			format_ns(s1, sizeof(s1), r->calls ? r->self / r->calls : 0);
			format_ns(p99, sizeof(p99), r->p99);
			fprintf(f, "\n%s in this run: %llu calls, avg %s, self avg %s, p99 %s\n",
				fn, r->calls, a, s1, p99);
		}
		stats_free(&st);
	}
	if (c->missed)
		fprintf(f, "\n%lld events were lost: the buffer was too small\n", c->missed);
	return 0;
}

/* -a, top and hist: the instance's trace, before it is read (consumed). */
static void save_trace_text(struct funcdur_session *s)
{
	const char *file = s->params->trace_file;
	char *text = tracefs_instance_file_read(s->inst, "trace", NULL);
	FILE *f = fopen(file, "w");

	if (!f || !text || fputs(text, f) < 0 || fclose(f)) {
		warnx_fd("cannot save the trace to %s: %s", file, strerror(errno));
		if (f)
			fclose(f);
	} else {
		fprintf(stderr, "funcdur: trace saved to %s\n", file);
	}
	free(text);
}

/* -a, trace: the calls read and printed, the last KEEP_EVENTS of them. */
static void save_kept(struct trace_ctx *c)
{
	const char *file = c->s->params->trace_file;
	enum funcdur_format format = c->s->params->format;
	unsigned long i;
	FILE *f = fopen(file, "w");

	if (!f) {
		warnx_fd("cannot save the trace to %s: %s", file, strerror(errno));
		return;
	}
	c->s->params->format = FORMAT_TABLE;
	print_header(c, f);
	for (i = c->nr_kept > c->keep ? c->nr_kept - c->keep : 0; i < c->nr_kept; i++)
		print_event(c, f, &c->kept[i % c->keep]);
	c->s->params->format = format;
	if (fclose(f))
		warnx_fd("cannot save the trace to %s: %s", file, strerror(errno));
	else
		fprintf(stderr, "funcdur: trace saved to %s\n", file);
}

/* The report of -a, for top and hist: the buffer is read only now. */
int funcdur_auto_report(struct funcdur_session *s)
{
	struct trace_ctx c;
	int ret;

	if (trace_init(&c, s, false))
		return FUNCDUR_EXIT_ERROR;
	save_trace_text(s);
	trace_read(&c);
	ret = auto_report(&c);
	trace_free(&c);
	return ret;
}

int funcdur_trace(struct funcdur_session *s)
{
	struct funcdur_params *p = s->params;
	unsigned long long start;
	struct trace_ctx c;
	bool hit = false;
	int ret = 0;

	if (trace_init(&c, s, true))
		return FUNCDUR_EXIT_ERROR;
	print_header(&c, s->out);
	c.header_done = true;
	if (session_go(s)) {
		trace_free(&c);
		return FUNCDUR_EXIT_ERROR;
	}
	start = now_ns();
	while (!session_should_stop(s, start)) {
		session_wait(s, p->interval);
		session_rescan_comm(s);
		trace_read(&c);
		if (p->auto_ns && !p->attach && tracefs_trace_is_on(s->inst) == 0) {
			hit = true;
			break;
		}
	}
	/* record: the last read takes every call its statistics count */
	if (p->mode == MODE_RECORD)
		session_write(s, "tracing_on", "0");
	trace_read(&c);
	if (c.folded) {
		folded_print_free(c.folded, s->out);
		c.folded = NULL;
	}
	if (c.chrome) {
		unsigned long cut = chrome_print_free(c.chrome, s->out);

		c.chrome = NULL;
		if (cut)
			warnx_fd("%lu calls cut at the end of their caller's, to nest", cut);
	}
	if (c.missed)
		warnx_fd("%lld events lost", c.missed);
	if (hit) {
		save_kept(&c);
		ret = auto_report(&c);
	}
	trace_free(&c);
	return ret;
}
