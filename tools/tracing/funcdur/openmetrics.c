// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur top and hist --format openmetrics: one exposition of an
 * instance's statistics in the text format that Prometheus scrapes and
 * node_exporter's textfile collector reads, ended by "# EOF" as
 * OpenMetrics ends one. Times are in seconds, printed exactly from the
 * kernel's nanoseconds; counters carry their _total suffix in the
 * family's name, which both text parsers accept.
 *
 * The histogram is the kernel's log2 one (function_duration/hist) as
 * classic cumulative "le" buckets: bucket n holds [2^n, 2^(n+1) - 1] ns,
 * so "le" is 2^(n+1) - 1 ns and every count is exact. All the bounds are
 * printed, empty or not, so that a series keeps its buckets from one
 * scrape to the next.
 */
#include <stdlib.h>
#include <string.h>

#include "funcdur.h"

/* function_duration's log2 orders: 0 to 33, and 34 for 2^34 ns and more */
#define HIST_ORDERS	34

static void seconds(FILE *f, unsigned long long ns)
{
	fprintf(f, "%llu.%09llu", ns / NS_PER_SEC, ns % NS_PER_SEC);
}

/* A label value, escaped as the exposition format asks. */
static void label_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{ftrace_instance="...",function="..."[,extra] */
static void sample(FILE *f, const char *name, const char *inst,
		   const char *func, const char *extra)
{
	fprintf(f, "%s{ftrace_instance=", name);
	label_value(f, inst);
	if (func) {
		fputs(",function=", f);
		label_value(f, func);
	}
	if (extra)
		fprintf(f, ",%s", extra);
	fputs("} ", f);
}

static struct fd_hist *find_hist(struct fd_hist *h, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(h[i].name, name))
			return &h[i];
	return NULL;
}

/* The log2 order of a bucket of function_duration/hist, from its bounds. */
static int bucket_order(const struct fd_bucket *b)
{
	int n;

	if (!b->hi)
		return HIST_ORDERS;
	for (n = 0; n < HIST_ORDERS; n++)
		if (b->hi == (1ULL << (n + 1)) - 1)
			return n;
	return -1;
}

static void print_histogram(FILE *f, const char *inst, struct fd_row *r,
			    struct fd_hist *h)
{
	unsigned long long count[HIST_ORDERS + 1] = { 0 }, cum = 0;
	char le[40];
	int i, n;

	for (i = 0; h && i < h->nr_buckets; i++) {
		n = bucket_order(&h->buckets[i]);
		if (n >= 0)
			count[n] += h->buckets[i].count;
	}
	for (n = 0; n < HIST_ORDERS; n++) {
		unsigned long long hi = (1ULL << (n + 1)) - 1;

		cum += count[n];
		snprintf(le, sizeof(le), "le=\"%llu.%09llu\"", hi / NS_PER_SEC,
			 hi % NS_PER_SEC);
		sample(f, "funcdur_duration_seconds_bucket", inst, r->name, le);
		fprintf(f, "%llu\n", cum);
	}
	cum += count[HIST_ORDERS];
	sample(f, "funcdur_duration_seconds_bucket", inst, r->name, "le=\"+Inf\"");
	fprintf(f, "%llu\n", cum);
	sample(f, "funcdur_duration_seconds_sum", inst, r->name, NULL);
	seconds(f, r->total);
	fputc('\n', f);
	sample(f, "funcdur_duration_seconds_count", inst, r->name, NULL);
	fprintf(f, "%llu\n", cum);
}

/* Offsets of struct fd_row's counters, for the loops below. */
#define ROW(member)	offsetof(struct fd_row, member)
#define ROW_VAL(r, off)	(*(unsigned long long *)((char *)(r) + (off)))

/**
 * openmetrics_print() - print one exposition of an instance's statistics
 * @f:		where to
 * @inst:	the instance's name, the value of the ftrace_instance label
 * @st:		its function_duration/stats, in the order to print
 * @h:		its function_duration/hist, @nr functions
 * @nr:		the number of functions of @h
 * @rows:	the number of rows of @st to print (--top)
 * @breakdown:	the breakdown is on: print its parts
 */
void openmetrics_print(FILE *f, const char *inst, struct fd_stats *st,
		       struct fd_hist *h, int nr, int rows, bool breakdown)
{
	static const struct {
		const char *name, *type, *help;
		size_t off;
		bool seconds;
	} per_func[] = {
		{ "funcdur_calls_total", "counter",
		  "Calls of the function that returned, since the statistics' start or reset.",
		  ROW(calls), false },
		{ "funcdur_time_seconds_total", "counter",
		  "Time spent in the function's calls, their callees included.",
		  ROW(total), true },
		{ "funcdur_self_seconds_total", "counter",
		  "Time spent in the function's calls outside the calls this instance traced from them.",
		  ROW(self), true },
		{ "funcdur_min_seconds", "gauge", "The shortest call.", ROW(min), true },
		{ "funcdur_max_seconds", "gauge", "The longest call.", ROW(max), true },
	};
	static const struct { const char *label; size_t off; } quantiles[] = {
		{ "quantile=\"0.5\"", ROW(p50) }, { "quantile=\"0.9\"", ROW(p90) },
		{ "quantile=\"0.99\"", ROW(p99) },
	};
	static const struct { const char *label; size_t off; } parts[] = {
		{ "part=\"running\"", ROW(running) }, { "part=\"runnable\"", ROW(runnable) },
		{ "part=\"blocked\"", ROW(blocked) }, { "part=\"irq\"", ROW(irq) },
	};
	struct fd_footer *ft = &st->footer;
	static const struct { const char *label; size_t off; } drops[] = {
		{ "reason=\"over_limit\"", offsetof(struct fd_footer, over_limit) },
		{ "reason=\"nmi\"", offsetof(struct fd_footer, nmi) },
		{ "reason=\"no_shadow_stack\"", offsetof(struct fd_footer, no_stack) },
		{ "reason=\"negative\"", offsetof(struct fd_footer, negative) },
		{ "reason=\"no_memory\"", offsetof(struct fd_footer, no_memory) },
	};
	size_t k;
	int i;

	for (k = 0; k < ARRAY_SIZE(per_func); k++) {
		family(f, per_func[k].name, per_func[k].type, per_func[k].help);
		for (i = 0; i < rows; i++) {
			sample(f, per_func[k].name, inst, st->rows[i].name, NULL);
			if (per_func[k].seconds)
				seconds(f, ROW_VAL(&st->rows[i], per_func[k].off));
			else
				fprintf(f, "%llu", ROW_VAL(&st->rows[i], per_func[k].off));
			fputc('\n', f);
		}
	}

	family(f, "funcdur_duration_seconds", "histogram",
	       "The durations of the function's calls, in the kernel's log2 buckets.");
	for (i = 0; i < rows; i++)
		print_histogram(f, inst, &st->rows[i], find_hist(h, nr, st->rows[i].name));

	/* percentiles of the kernel's buckets, never above the longest call */
	family(f, "funcdur_quantile_seconds", "summary",
	       "Percentiles of the durations, within 12.5% (from the kernel's buckets).");
	for (i = 0; i < rows; i++) {
		struct fd_row *r = &st->rows[i];

		for (k = 0; k < ARRAY_SIZE(quantiles); k++) {
			unsigned long long v = ROW_VAL(r, quantiles[k].off);

			sample(f, "funcdur_quantile_seconds", inst, r->name, quantiles[k].label);
			seconds(f, v < r->max ? v : r->max);
			fputc('\n', f);
		}
		sample(f, "funcdur_quantile_seconds_sum", inst, r->name, NULL);
		seconds(f, r->total);
		fputc('\n', f);
		sample(f, "funcdur_quantile_seconds_count", inst, r->name, NULL);
		fprintf(f, "%llu\n", r->calls);
	}

	if (breakdown) {
		family(f, "funcdur_breakdown_calls_total", "counter",
		       "Calls split into where their time went.");
		for (i = 0; i < rows; i++) {
			sample(f, "funcdur_breakdown_calls_total", inst, st->rows[i].name, NULL);
			fprintf(f, "%llu\n", st->rows[i].bd_calls);
		}
		family(f, "funcdur_breakdown_seconds_total", "counter",
		       "Time of those calls running, runnable (waiting for a CPU), blocked, or in interrupts.");
		for (i = 0; i < rows; i++) {
			for (k = 0; k < ARRAY_SIZE(parts); k++) {
				sample(f, "funcdur_breakdown_seconds_total", inst,
				       st->rows[i].name, parts[k].label);
				seconds(f, ROW_VAL(&st->rows[i], parts[k].off));
				fputc('\n', f);
			}
		}
	}

	family(f, "funcdur_functions", "gauge", "Functions with statistics in the instance.");
	sample(f, "funcdur_functions", inst, NULL, NULL);
	fprintf(f, "%llu\n", ft->functions);
	family(f, "funcdur_dropped_calls_total", "counter",
	       "Calls the statistics could not count, by reason.");
	for (k = 0; k < ARRAY_SIZE(drops); k++) {
		sample(f, "funcdur_dropped_calls_total", inst, NULL, drops[k].label);
		fprintf(f, "%llu\n", ROW_VAL(ft, drops[k].off));
	}
	if (st->cost) {
		family(f, "funcdur_timing_floor_seconds", "gauge",
		       "What a near-empty call shows as here (--cost): the P50 of __task_pid_nr_ns.");
		sample(f, "funcdur_timing_floor_seconds", inst, NULL, NULL);
		seconds(f, st->cost->floor_ns);
		fputc('\n', f);
		family(f, "funcdur_timing_overhead_seconds", "gauge",
		       "What timing a call adds to its caller's time here (--cost).");
		sample(f, "funcdur_timing_overhead_seconds", inst, NULL, NULL);
		seconds(f, st->cost->overhead_ns);
		fputc('\n', f);
	}
	family(f, "funcdur_window_seconds", "gauge",
	       "The time the statistics cover, from the tracer's start or the last reset.");
	sample(f, "funcdur_window_seconds", inst, NULL, NULL);
	seconds(f, ft->window_ns);
	fputc('\n', f);
	fputs("# EOF\n", f);
}
