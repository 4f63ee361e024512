// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur top and hist: the statistics the kernel keeps per function,
 * read from function_duration/stats and /hist of the run's instance.
 * Nothing is read from the ring buffer unless -a stops the run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "funcdur.h"

int funcdur_auto_report(struct funcdur_session *s);

static int name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fd_row *)a)->name, ((const struct fd_row *)b)->name);
}

/* Calls per second of each function since the previous snapshot. */
static void set_rates(struct fd_stats *cur, struct fd_stats *prev, double secs)
{
	struct fd_row *old;
	int i;

	qsort(prev->rows, prev->nr_rows, sizeof(*prev->rows), name_cmp);
	for (i = 0; i < cur->nr_rows; i++) {
		struct fd_row *r = &cur->rows[i];

		old = bsearch(r, prev->rows, prev->nr_rows, sizeof(*r), name_cmp);
		if (secs > 0)
			r->rate = (r->calls - (old ? old->calls : 0)) / secs;
	}
}

static void title(char *buf, size_t size, struct funcdur_session *s,
		  struct fd_stats *st, unsigned long long elapsed)
{
	const char *name = tracefs_instance_get_name(s->inst);
	unsigned long long th = 0;
	char thbuf[32] = "off (statistics only)";

	if (!tracefs_instance_file_read_number(s->inst, "function_duration/threshold_ns",
					       (long long *)&th) && th != THRESHOLD_OFF)
		format_ns(thbuf, sizeof(thbuf), th);
	elapsed /= NS_PER_SEC;
	snprintf(buf, size,
		 "funcdur %s: instance %s, %d functions, threshold %s, %02llu:%02llu:%02llu%s",
		 s->params->mode == MODE_HIST ? "hist" : "top", name ? name : "(top level)",
		 st->nr_rows, thbuf, elapsed / 3600, elapsed / 60 % 60, elapsed % 60,
		 st->footer.running ? "" : ", stopped");
}

static bool breakdown_on(struct funcdur_session *s)
{
	long long v = 0;

	return !tracefs_instance_file_read_number(s->inst, "function_duration/breakdown", &v) && v;
}

/* The tracer stopped its buffer: -a's traceoff trigger fired. */
static bool auto_hit(struct funcdur_session *s)
{
	return s->params->auto_ns && tracefs_trace_is_on(s->inst) == 0;
}

/*
 * One OpenMetrics exposition, to the output; with -o, into a new file
 * renamed over FILE, so that a reader (node_exporter's textfile
 * collector) never sees half of one.
 */
static int exposition(struct funcdur_session *s, struct fd_stats *st)
{
	struct funcdur_params *p = s->params;
	const char *name = tracefs_instance_get_name(s->inst);
	int nr, rows = p->top > 0 && p->top < st->nr_rows ? p->top : st->nr_rows;
	char tmp[4096];
	struct fd_hist *h;
	FILE *f = s->out;

	if (hist_read(s->inst, &h, &nr))
		return -1;
	if (p->output) {
		snprintf(tmp, sizeof(tmp), "%s.%d.tmp", p->output, (int)getpid());
		f = fopen(tmp, "w");
		if (!f) {
			warnx_fd("cannot write %s: %s", tmp, strerror(errno));
			hist_free(h, nr);
			return -1;
		}
	}
	openmetrics_print(f, name ? name : "", st, h, nr, rows, breakdown_on(s));
	hist_free(h, nr);
	if (!p->output)
		return fflush(f);
	if (fclose(f) || rename(tmp, p->output)) {
		warnx_fd("cannot write %s: %s", p->output, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int funcdur_top(struct funcdur_session *s)
{
	struct funcdur_params *p = s->params;
	struct fd_stats cur = { 0 }, prev = { 0 };
	unsigned long long start = now_ns(), t;
	bool tty = p->format == FORMAT_TABLE && !p->output && isatty(STDOUT_FILENO);
	bool live = p->mode == MODE_TOP && !p->once;
	bool hit = false;
	char head[256];

	if (session_go(s))
		return FUNCDUR_EXIT_ERROR;
	for (;;) {
		bool stop;

		/* --once and hist print at the end; attached, that is now */
		if (!(p->attach && !live))
			session_wait(s, p->interval);
		session_rescan_comm(s);
		hit = auto_hit(s);
		stop = hit || session_should_stop(s, start) || (p->attach && !live) ||
		       (p->once && !p->duration && !s->child && !p->comm);
		if (!live && !stop)
			continue;
		t = now_ns();
		if (stats_read(s->inst, &cur))
			return FUNCDUR_EXIT_ERROR;
		/* the kernel's window: since the tracer's start, or the last read */
		set_rates(&cur, &prev, ((double)cur.footer.window_ns -
					(double)prev.footer.window_ns) / 1e9);
		stats_sort(&cur, p->sort);
		cur.cost = s->cost.calls ? &s->cost : NULL;
		if (p->format == FORMAT_OPENMETRICS) {
			if (exposition(s, &cur))
				return FUNCDUR_EXIT_ERROR;
		} else if (p->format == FORMAT_FOLDED) {
			folded_stats_print(s->out, &cur, p->top);
		} else if (p->mode == MODE_TOP) {
			title(head, sizeof(head), s, &cur, t - start);
			if (tty && live)
				fputs("\033[H\033[2J", s->out);
			stats_print(s->out, &cur, p, breakdown_on(s), true, head);
		} else {
			struct fd_hist *h;
			int nr;

			if (hist_read(s->inst, &h, &nr))
				return FUNCDUR_EXIT_ERROR;
			if (p->format == FORMAT_TABLE) {
				title(head, sizeof(head), s, &cur, t - start);
				fprintf(s->out, "%s\n", head);
				if (cur.cost)
					cost_print(s->out, cur.cost);
				fputc('\n', s->out);
			}
			hist_print(s->out, h, nr, &cur, p);
			hist_free(h, nr);
		}
		stats_free(&prev);
		prev = cur;
		if (stop)
			break;
	}
	stats_free(&prev);
	if (hit)
		return funcdur_auto_report(s);
	return 0;
}
