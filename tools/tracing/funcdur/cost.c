// SPDX-License-Identifier: GPL-2.0
/*
 * --cost: what timing a call costs on this machine, measured before the
 * run, in an instance of its own, with the run's threshold and
 * breakdown. funcdur calls getppid() COST_CALLS times, whose
 * __task_pid_nr_ns() does almost nothing, with the tracer off and then
 * timing that function; each loop is timed in user space, and the
 * fastest of COST_ROUNDS loops is kept, to leave out what else ran.
 *
 *  - the floor: the median duration the tracer reports for that
 *    near-empty function, what a call that does nothing shows (its
 *    statistics' P50). A MIN or P50 near it says little more than that
 *    the call was short;
 *  - the overhead: what timing a call adds to its caller's time, the
 *    difference between the two loops per call.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "funcdur.h"

#define COST_FUNCTION	"__task_pid_nr_ns"
#define COST_CALLS	5000
#define COST_ROUNDS	5

/* The fastest of COST_ROUNDS loops of COST_CALLS getppid(), per call. */
static unsigned long long fastest_loop(void)
{
	unsigned long long best = ~0ULL, t;
	int r, i;

	for (r = 0; r < COST_ROUNDS; r++) {
		t = now_ns();
		for (i = 0; i < COST_CALLS; i++)
			syscall(SYS_getppid);
		t = now_ns() - t;
		if (t < best)
			best = t;
	}
	return best / COST_CALLS;
}

static int write_inst(struct tracefs_instance *inst, const char *file, const char *val)
{
	if (tracefs_instance_file_write(inst, file, val) < 0) {
		warnx_fd("--cost: cannot write '%s' to %s: %s", val, file, strerror(errno));
		return -1;
	}
	return 0;
}

/**
 * cost_measure() - measure what timing a call costs, in an instance of its own
 * @threshold:	the run's threshold_ns
 * @breakdown:	the run's breakdown is on
 * @cost:	the result
 *
 * Return: 0, or -1 with a message (the instance is removed either way).
 */
int cost_measure(unsigned long long threshold, bool breakdown, struct fd_cost *cost)
{
	struct tracefs_instance *inst;
	unsigned long long off, on;
	struct fd_stats st = { 0 };
	char name[64], buf[32];
	int i, ret = -1;

	memset(cost, 0, sizeof(*cost));
	snprintf(name, sizeof(name), "funcdur-cost-%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst || !tracefs_instance_is_new(inst)) {
		warnx_fd("--cost: cannot create instance %s", name);
		tracefs_instance_free(inst);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%d", (int)getpid());
	if (write_inst(inst, "set_ftrace_filter", COST_FUNCTION) ||
	    write_inst(inst, "set_ftrace_pid", buf))
		goto out;
	snprintf(buf, sizeof(buf), "%llu", threshold);
	if (write_inst(inst, "function_duration/threshold_ns", buf) ||
	    (breakdown && write_inst(inst, "function_duration/breakdown", "1")))
		goto out;
	off = fastest_loop();
	if (write_inst(inst, "current_tracer", "function_duration"))
		goto out;
	on = fastest_loop();
	if (write_inst(inst, "current_tracer", "nop") || stats_read(inst, &st))
		goto out;
	for (i = 0; i < st.nr_rows; i++) {
		if (strcmp(st.rows[i].name, COST_FUNCTION))
			continue;
		cost->calls = st.rows[i].calls;
		cost->floor_ns = st.rows[i].p50;
		cost->overhead_ns = on > off ? on - off : 0;
		ret = 0;
	}
	if (ret)
		warnx_fd("--cost: %s was not timed", COST_FUNCTION);
	stats_free(&st);
out:
	tracefs_instance_file_write(inst, "current_tracer", "nop");
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return ret;
}

/**
 * cost_print() - one line that says what timing a call costs
 * @f:		where to
 * @cost:	what cost_measure() found
 */
void cost_print(FILE *f, const struct fd_cost *cost)
{
	char floor[32], overhead[32];

	format_ns(floor, sizeof(floor), cost->floor_ns);
	format_ns(overhead, sizeof(overhead), cost->overhead_ns);
	fprintf(f, "timing here: a near-empty call shows as %s (P50 of %llu calls of %s); ",
		floor, cost->calls, COST_FUNCTION);
	fprintf(f, "timing a call adds %s to its caller\n", overhead);
}
