/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FUNCDUR_H
#define FUNCDUR_H

#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <tracefs.h>

#define FUNCDUR_EXIT_ERROR	1	/* failed while running */
#define FUNCDUR_EXIT_USAGE	2	/* bad options, not root, no tracer */

#define NS_PER_SEC		1000000000ULL
#define THRESHOLD_OFF		18446744073709551615ULL	/* stats only */

enum funcdur_mode { MODE_TOP, MODE_HIST, MODE_TRACE, MODE_RECORD };
enum funcdur_format {
	FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_FOLDED, FORMAT_CHROME,
	FORMAT_OPENMETRICS,
};

/* What the command line asked for; filled before anything is changed. */
struct funcdur_params {
	enum funcdur_mode	mode;
	const char		*prog;		/* "funcdur top", for messages */
	char			**functions;	/* -f and positional globs */
	int			nr_functions;
	char			**notrace;	/* -N */
	int			nr_notrace;
	char			**pids;		/* -p, as given */
	int			nr_pids;
	const char		*comm;		/* -c */
	unsigned long long	threshold;	/* -T, in ns */
	bool			threshold_set;
	unsigned long long	auto_ns;	/* -a, 0 if not given */
	unsigned long long	duration;	/* -d, 0 for no limit */
	unsigned long long	interval;	/* -i */
	enum funcdur_format	format;
	const char		*output;	/* -o */
	const char		*trace_file;	/* -t: -a saves the trace there */
	const char		*instance;	/* -B */
	const char		*attach;	/* --attach */
	bool			keep;		/* --keep */
	bool			once;		/* --once */
	bool			breakdown;	/* --breakdown */
	bool			no_sleep_time;	/* --no-sleep-time */
	bool			cost;		/* --cost */
	const char		*sort;		/* -s */
	int			top;		/* --top */
	size_t			buffer_kb;	/* --buffer-size */
	char			**cmd;		/* -- CMD ARGS */
};

/* A function's row of function_duration/stats. */
struct fd_row {
	char			*name;
	unsigned long long	calls, total, self, avg, min, max, stddev;
	unsigned long long	p50, p90, p99;
	unsigned long long	bd_calls, running, runnable, blocked, irq;
	double			rate;		/* calls per second, top only */
};

/* The footer of function_duration/stats. */
struct fd_footer {
	unsigned long long	functions, max_functions, calls, total;
	unsigned long long	over_limit, nmi, no_stack, negative, no_memory;
	unsigned long long	bd_calls, window_ns;
	bool			running;
};

/* What timing a call costs here (--cost, cost.c). */
struct fd_cost {
	unsigned long long	calls;		/* of the near-empty function */
	unsigned long long	floor_ns;	/* their P50 */
	unsigned long long	overhead_ns;	/* added to a traced call's caller */
};

struct fd_stats {
	struct fd_row		*rows;
	int			nr_rows;
	struct fd_footer	footer;
	const struct fd_cost	*cost;		/* --cost, or NULL */
};

/* One bucket of a function's log2 histogram: [lo, hi], hi 0 for "inf". */
struct fd_bucket {
	unsigned long long	lo, hi, count;
};

struct fd_hist {
	char			*name;
	unsigned long long	calls;
	struct fd_bucket	*buckets;
	int			nr_buckets;
};

/* The run: the instance it reads and what it changed, to be undone. */
struct funcdur_session {
	struct funcdur_params	*params;
	struct tracefs_instance	*inst;
	bool			created;	/* the instance is ours */
	bool			configured;	/* we set its tracer */
	struct fd_cost		cost;		/* --cost: calls 0 if not measured */
	pid_t			child;		/* -- CMD, or 0 */
	int			child_go;	/* pipe that releases the child */
	int			child_status;
	bool			child_done;
	FILE			*out;
};

/* utils.c */
int parse_time_ns(const char *s, unsigned long long *ns);
void format_ns(char *buf, size_t size, unsigned long long ns);
__printf(1, 2) void fatal(const char *fmt, ...);
__printf(1, 2) void warnx_fd(const char *fmt, ...);
void *xzalloc(size_t size);
char *xstrdup(const char *s);
char **list_add(char **list, int *nr, const char *s);
bool read_first_line(const char *path, char *buf, size_t size);
unsigned long str_hash(const char *s);
void json_string(FILE *f, const char *s);
void csv_string(FILE *f, const char *s);

/* session.c */
extern bool funcdur_stop;	/* set by SIGINT, SIGTERM, SIGHUP: READ_ONCE() */
int session_start(struct funcdur_session *s);
int session_go(struct funcdur_session *s);
void session_end(struct funcdur_session *s);
bool session_should_stop(struct funcdur_session *s, unsigned long long start_ns);
int session_write(struct funcdur_session *s, const char *file, const char *val);
unsigned long long now_ns(void);
void session_rescan_comm(struct funcdur_session *s);
void session_wait(struct funcdur_session *s, unsigned long long ns);

/* stats.c */
int stats_read(struct tracefs_instance *inst, struct fd_stats *st);
void stats_free(struct fd_stats *st);
int hist_read(struct tracefs_instance *inst, struct fd_hist **hists, int *nr);
void hist_free(struct fd_hist *hists, int nr);
int stats_sort(struct fd_stats *st, const char *key);
bool stats_sort_key_valid(const char *key);
void stats_print(FILE *f, struct fd_stats *st, struct funcdur_params *p,
		 bool breakdown, bool with_rate, const char *title);
void hist_print(FILE *f, struct fd_hist *h, int nr, struct fd_stats *st,
		struct funcdur_params *p);

/* cost.c */
int cost_measure(unsigned long long threshold, bool breakdown, struct fd_cost *cost);
void cost_print(FILE *f, const struct fd_cost *cost);

/* openmetrics.c */
void openmetrics_print(FILE *f, const char *inst, struct fd_stats *st,
		       struct fd_hist *h, int nr, int rows, bool breakdown);

/* folded.c */
struct folded;
void folded_stats_print(FILE *f, struct fd_stats *st, int top);
struct folded *folded_new(void);
void folded_add(struct folded *fd, const char *comm, const char *caller,
		const char *func, unsigned long long weight);
void folded_print_free(struct folded *fd, FILE *f);

/* chrome.c */
struct chrome;
struct chrome *chrome_new(bool breakdown);
void chrome_add(struct chrome *ch, const char *comm, const char *func,
		const char *caller, int pid, int depth,
		unsigned long long calltime, unsigned long long dur,
		long long retval, const unsigned long long parts[4]);
unsigned long chrome_print_free(struct chrome *ch, FILE *f);

/* top.c, trace.c, record.c */
int funcdur_top(struct funcdur_session *s);
int funcdur_trace(struct funcdur_session *s);
int funcdur_record(struct funcdur_params *p);

#endif
