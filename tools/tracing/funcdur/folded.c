// SPDX-License-Identifier: GPL-2.0
/*
 * --format folded: the "folded stacks" that flamegraph.pl, inferno and
 * speedscope read, one "frame;frame;frame weight" line per stack, the
 * weight in nanoseconds.
 *
 * top and hist: one frame per function, weighted by its self time, so
 * that the widths add up to the time spent in the traced functions
 * without counting a callee's time twice.
 *
 * trace: "comm;caller;function", weighted by the total time (the
 * duration, callees included) of the calls written to the buffer,
 * summed over the run and printed at its end.
 */
#include <stdlib.h>
#include <string.h>

#include "funcdur.h"

/**
 * folded_stats_print() - the statistics as one-frame folded stacks
 * @f:		where to
 * @st:		the statistics, in the order to print
 * @top:	print the first @top rows only, if more than 0
 */
void folded_stats_print(FILE *f, struct fd_stats *st, int top)
{
	int i;

	for (i = 0; i < st->nr_rows && (top <= 0 || i < top); i++)
		if (st->rows[i].self)
			fprintf(f, "%s %llu\n", st->rows[i].name, st->rows[i].self);
	fflush(f);
}

struct folded_entry {
	char			*stack;
	unsigned long long	weight;
};

/* An open-addressing table of the stacks seen, grown at half full. */
struct folded {
	struct folded_entry	*slots;
	size_t			size, used;
};

static struct folded_entry *slot(struct folded_entry *slots, size_t size,
				 const char *stack)
{
	size_t i = str_hash(stack) & (size - 1);

	while (slots[i].stack && strcmp(slots[i].stack, stack))
		i = (i + 1) & (size - 1);
	return &slots[i];
}

static void grow(struct folded *fd)
{
	size_t i, size = fd->size ? fd->size * 2 : 1024;
	struct folded_entry *slots = xzalloc(size * sizeof(*slots));

	for (i = 0; i < fd->size; i++)
		if (fd->slots[i].stack)
			*slot(slots, size, fd->slots[i].stack) = fd->slots[i];
	free(fd->slots);
	fd->slots = slots;
	fd->size = size;
}

/**
 * folded_new() - an empty table of folded stacks
 *
 * Return: the table; exits if out of memory.
 */
struct folded *folded_new(void)
{
	struct folded *fd = xzalloc(sizeof(*fd));

	grow(fd);
	return fd;
}

/* A frame's name: ';' separates frames and the last ' ' the weight. */
static void frame(char *dst, size_t size, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++)
		dst[i] = name[i] == ';' ? ':' : name[i];
	dst[i] = '\0';
}

/**
 * folded_add() - add a call's weight to the stack "comm;caller;function"
 * @fd:		the table
 * @comm:	the task's name
 * @caller:	the calling function's name
 * @func:	the function's name
 * @weight:	nanoseconds
 */
void folded_add(struct folded *fd, const char *comm, const char *caller,
		const char *func, unsigned long long weight)
{
	char a[64], b[300], c[300], stack[700];
	struct folded_entry *e;

	frame(a, sizeof(a), comm);
	frame(b, sizeof(b), caller);
	frame(c, sizeof(c), func);
	snprintf(stack, sizeof(stack), "%s;%s;%s", a, b, c);
	e = slot(fd->slots, fd->size, stack);
	if (!e->stack) {
		if (2 * (fd->used + 1) > fd->size) {
			grow(fd);
			e = slot(fd->slots, fd->size, stack);
		}
		e->stack = xstrdup(stack);
		fd->used++;
	}
	e->weight += weight;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct folded_entry *x = a, *y = b;

	if (!x->stack || !y->stack)
		return !x->stack - !y->stack;
	return strcmp(x->stack, y->stack);
}

/**
 * folded_print_free() - print the stacks, sorted, and free the table
 * @fd:		the table
 * @f:		where to
 */
void folded_print_free(struct folded *fd, FILE *f)
{
	size_t i;

	qsort(fd->slots, fd->size, sizeof(*fd->slots), entry_cmp);
	for (i = 0; i < fd->used; i++) {
		if (fd->slots[i].weight)
			fprintf(f, "%s %llu\n", fd->slots[i].stack, fd->slots[i].weight);
		free(fd->slots[i].stack);
	}
	fflush(f);
	free(fd->slots);
	free(fd);
}
