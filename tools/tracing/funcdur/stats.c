// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur: reading function_duration/stats and /hist, and printing them
 * as a table, CSV or JSON.
 *
 * The columns of stats are found by the names of its header line, so a
 * column added later does not shift the others. The function is the
 * rest of the row after the numbers: it can hold a space ("foo [mod]").
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "funcdur.h"

struct column {
	const char	*name;		/* in stats' header, and lower case in CSV/JSON */
	size_t		offset;
};

#define COL(n, f)	{ n, offsetof(struct fd_row, f) }
static const struct column columns[] = {
	COL("CALLS", calls), COL("TOTAL", total), COL("SELF", self),
	COL("AVG", avg), COL("MIN", min), COL("MAX", max),
	COL("STDDEV", stddev), COL("P50", p50), COL("P90", p90),
	COL("P99", p99), COL("BD_CALLS", bd_calls), COL("RUNNING", running),
	COL("RUNNABLE", runnable), COL("BLOCKED", blocked), COL("IRQ", irq),
};

#define NR_COLUMNS	ARRAY_SIZE(columns)
#define MAX_FIELDS	32

static unsigned long long *field(struct fd_row *r, const struct column *c)
{
	return (unsigned long long *)((char *)r + c->offset);
}

/* The header: which column of ours each number of a row is, or -1. */
static int parse_header(char *line, int *map)
{
	char *tok, *save;
	int n = 0;
	size_t c;

	for (tok = strtok_r(line + 1, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strcmp(tok, "FUNCTION"))
			return n;
		if (n == MAX_FIELDS)
			return -1;
		map[n] = -1;
		for (c = 0; c < NR_COLUMNS; c++)
			if (!strcmp(tok, columns[c].name))
				map[n] = c;
		n++;
	}
	return -1;
}

static void parse_footer(const char *line, struct fd_footer *f)
{
	char state[16];

	if (sscanf(line, "# functions: %llu of at most %llu, calls: %llu, total: %llu",
		   &f->functions, &f->max_functions, &f->calls, &f->total) == 4)
		return;
	if (sscanf(line,
		   "# dropped calls: %llu over the function limit, %llu in NMI, %llu without shadow stack room, %llu with a negative duration, %llu without memory",
		   &f->over_limit, &f->nmi, &f->no_stack, &f->negative,
		   &f->no_memory) == 5)
		return;
	if (sscanf(line, "# calls with a breakdown: %llu", &f->bd_calls) == 1)
		return;
	if (sscanf(line, "# window: %llu ns, %15s", &f->window_ns, state) == 2)
		f->running = !strcmp(state, "running");
}

/* Read the statistics of @inst. Returns 0, or -1 if they are unreadable. */
int stats_read(struct tracefs_instance *inst, struct fd_stats *st)
{
	char *text = tracefs_instance_file_read(inst, "function_duration/stats", NULL);
	int map[MAX_FIELDS], nr_fields = -1, i;
	char *line, *save, *p, *end;
	bool no_stats = false;
	struct fd_row row;

	memset(st, 0, sizeof(*st));
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			if (strstr(line, " CALLS ") && strstr(line, "FUNCTION"))
				nr_fields = parse_header(line, map);
			else if (!strncmp(line, "# no statistics", 15))
				no_stats = true;
			else
				parse_footer(line, &st->footer);
			continue;
		}
		if (nr_fields < 0)
			continue;
		memset(&row, 0, sizeof(row));
		p = line;
		for (i = 0; i < nr_fields; i++) {
			unsigned long long v;

			errno = 0;
			v = strtoull(p, &end, 10);
			if (end == p || errno)
				break;
			if (map[i] >= 0)
				*field(&row, &columns[map[i]]) = v;
			p = end;
		}
		if (i < nr_fields)
			continue;
		while (*p == ' ')
			p++;
		row.name = xstrdup(p);
		st->rows = realloc(st->rows, (st->nr_rows + 1) * sizeof(row));
		if (!st->rows)
			fatal("out of memory");
		st->rows[st->nr_rows++] = row;
	}
	free(text);
	if (nr_fields < 0 && !no_stats) {
		warnx_fd("function_duration/stats has no header line");
		return -1;
	}
	return 0;
}

void stats_free(struct fd_stats *st)
{
	int i;

	for (i = 0; i < st->nr_rows; i++)
		free(st->rows[i].name);
	free(st->rows);
	st->rows = NULL;
	st->nr_rows = 0;
}

/* Read the log2 histograms of function_duration/hist, in stats' order. */
int hist_read(struct tracefs_instance *inst, struct fd_hist **hists, int *nr)
{
	char *text = tracefs_instance_file_read(inst, "function_duration/hist", NULL);
	struct fd_hist *h = NULL, *cur = NULL;
	char *line, *save, *calls;
	struct fd_bucket b;
	char hi[32];
	int n = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "function: ", 10)) {
			calls = strstr(line, "  calls: ");
			if (!calls)
				continue;
			h = realloc(h, (n + 1) * sizeof(*h));
			if (!h)
				fatal("out of memory");
			cur = &h[n++];
			memset(cur, 0, sizeof(*cur));
			*calls = '\0';
			cur->name = xstrdup(line + 10);
			cur->calls = strtoull(calls + 9, NULL, 10);
			continue;
		}
		if (!cur || sscanf(line, "%llu -> %31s : %llu", &b.lo, hi, &b.count) != 3)
			continue;
		b.hi = strcmp(hi, "inf") ? strtoull(hi, NULL, 10) : 0;
		cur->buckets = realloc(cur->buckets, (cur->nr_buckets + 1) * sizeof(b));
		if (!cur->buckets)
			fatal("out of memory");
		cur->buckets[cur->nr_buckets++] = b;
	}
	free(text);
	*hists = h;
	*nr = n;
	return 0;
}

void hist_free(struct fd_hist *hists, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		free(hists[i].name);
		free(hists[i].buckets);
	}
	free(hists);
}

static const char *const sort_keys[] = {
	"total", "self", "avg", "min", "max", "p50", "p90", "p99", "calls",
	"rate", "name", "running", "runnable", "blocked", "irq", NULL,
};

bool stats_sort_key_valid(const char *key)
{
	int i;

	for (i = 0; sort_keys[i]; i++)
		if (!strcmp(key, sort_keys[i]))
			return true;
	return false;
}

static const char *sort_key;

static int row_cmp(const void *a, const void *b)
{
	const struct fd_row *x = a, *y = b;
	unsigned long long vx, vy;
	size_t c;

	if (!strcmp(sort_key, "name"))
		return strcmp(x->name, y->name);
	if (!strcmp(sort_key, "rate")) {
		if (x->rate != y->rate)
			return x->rate < y->rate ? 1 : -1;
		return strcmp(x->name, y->name);
	}
	for (c = 0; c < NR_COLUMNS; c++)
		if (!strcasecmp(sort_key, columns[c].name))
			break;
	if (c == NR_COLUMNS)
		return 0;
	vx = *field((struct fd_row *)x, &columns[c]);
	vy = *field((struct fd_row *)y, &columns[c]);
	if (vx != vy)
		return vx < vy ? 1 : -1;	/* largest first */
	return strcmp(x->name, y->name);
}

/* Sort the rows, largest first (by name: alphabetically). */
int stats_sort(struct fd_stats *st, const char *key)
{
	sort_key = key ? key : "total";
	qsort(st->rows, st->nr_rows, sizeof(*st->rows), row_cmp);
	return 0;
}

static void print_table(FILE *f, struct fd_stats *st, int nr,
			struct funcdur_params *p, bool breakdown, bool with_rate)
{
	static const char *const bd_names[] = { "RUN", "WAIT", "BLK", "IRQ" };
	char cell[9][16];
	int i, j, width = 8;

	for (i = 0; i < nr; i++)
		if ((int)strlen(st->rows[i].name) > width)
			width = strlen(st->rows[i].name);
	if (width > 40)
		width = 40;
	fprintf(f, "%-*s", width, "FUNCTION");
	if (with_rate)
		fprintf(f, " %9s", "CALLS/s");
	fprintf(f, " %10s %9s %9s %9s %9s %9s %9s", "CALLS", "TOTAL", "SELF",
		"AVG", "P50", "P99", "MAX");
	if (breakdown)
		fprintf(f, " %10s", "BD_CALLS");
	for (j = 0; breakdown && j < 4; j++)
		fprintf(f, " %9s", bd_names[j]);
	fputc('\n', f);
	for (i = 0; i < nr; i++) {
		struct fd_row *r = &st->rows[i];
		unsigned long long v[] = { r->total, r->self, r->avg, r->p50,
					   r->p99, r->max, r->running,
					   r->runnable, r->blocked };

		fprintf(f, "%-*.*s", width, width, r->name);
		if (with_rate)
			fprintf(f, " %9.0f", r->rate);
		fprintf(f, " %10llu", r->calls);
		for (j = 0; j < 6; j++) {
			format_ns(cell[j], sizeof(cell[j]), v[j]);
			fprintf(f, " %9s", cell[j]);
		}
		if (breakdown)
			fprintf(f, " %10llu", r->bd_calls);
		for (j = 0; breakdown && j < 4; j++) {
			format_ns(cell[0], sizeof(cell[0]), j < 3 ? v[6 + j] : r->irq);
			fprintf(f, " %9s", cell[0]);
		}
		fputc('\n', f);
	}
}

static void print_footer(FILE *f, struct fd_stats *st)
{
	struct fd_footer *ft = &st->footer;

	fprintf(f,
		"functions: %llu of at most %llu, calls: %llu; dropped: %llu over limit, %llu NMI, %llu no shadow stack, %llu negative, %llu no memory\n",
		ft->functions, ft->max_functions, ft->calls, ft->over_limit,
		ft->nmi, ft->no_stack, ft->negative, ft->no_memory);
}

static void print_csv(FILE *f, struct fd_stats *st, int nr, bool with_rate,
		      unsigned long long window)
{
	size_t c;
	int i;

	fputs("window_ns,function", f);
	for (c = 0; c < NR_COLUMNS; c++) {
		char name[16];
		int k;

		for (k = 0; columns[c].name[k]; k++)
			name[k] = tolower(columns[c].name[k]);
		name[k] = '\0';
		fprintf(f, ",%s", name);
	}
	if (with_rate)
		fputs(",rate", f);
	fputc('\n', f);
	for (i = 0; i < nr; i++) {
		fprintf(f, "%llu,", window);
		csv_string(f, st->rows[i].name);
		for (c = 0; c < NR_COLUMNS; c++)
			fprintf(f, ",%llu", *field(&st->rows[i], &columns[c]));
		if (with_rate)
			fprintf(f, ",%.1f", st->rows[i].rate);
		fputc('\n', f);
	}
}

static void json_row(FILE *f, struct fd_row *r, bool with_rate)
{
	size_t c;
	int k;

	fputs("{\"function\":", f);
	json_string(f, r->name);
	for (c = 0; c < NR_COLUMNS; c++) {
		fputs(",\"", f);
		for (k = 0; columns[c].name[k]; k++)
			fputc(tolower(columns[c].name[k]), f);
		fprintf(f, "\":%llu", *field(r, &columns[c]));
	}
	if (with_rate)
		fprintf(f, ",\"rate\":%.1f", r->rate);
	fputc('}', f);
}

static void json_footer(FILE *f, struct fd_footer *ft)
{
	fprintf(f,
		"\"window_ns\":%llu,\"running\":%s,\"calls\":%llu,\"max_functions\":%llu,",
		ft->window_ns, ft->running ? "true" : "false", ft->calls,
		ft->max_functions);
	fprintf(f,
		"\"dropped\":{\"over_limit\":%llu,\"nmi\":%llu,\"no_shadow_stack\":%llu,\"negative\":%llu,\"no_memory\":%llu}",
		ft->over_limit, ft->nmi, ft->no_stack, ft->negative, ft->no_memory);
}

/*
 * One snapshot of the statistics. JSON: one object per snapshot, on
 * one line; CSV: a header, then a row per function, each with the
 * window it covers.
 */
void stats_print(FILE *f, struct fd_stats *st, struct funcdur_params *p,
		 bool breakdown, bool with_rate, const char *title)
{
	int i, nr = st->nr_rows;

	if (p->top > 0 && nr > p->top)
		nr = p->top;
	switch (p->format) {
	case FORMAT_TABLE:
		if (title)
			fprintf(f, "%s\n", title);
		print_table(f, st, nr, p, breakdown, with_rate);
		print_footer(f, st);
		if (st->cost)
			cost_print(f, st->cost);
		break;
	case FORMAT_CSV:
		print_csv(f, st, nr, with_rate, st->footer.window_ns);
		break;
	case FORMAT_JSON:
		fputs("{", f);
		json_footer(f, &st->footer);
		if (st->cost)
			fprintf(f, ",\"cost\":{\"calls\":%llu,\"floor_ns\":%llu,%s%llu}",
				st->cost->calls, st->cost->floor_ns, "\"overhead_ns\":",
				st->cost->overhead_ns);
		fputs(",\"functions\":[", f);
		for (i = 0; i < nr; i++) {
			if (i)
				fputc(',', f);
			json_row(f, &st->rows[i], with_rate);
		}
		fputs("]}\n", f);
		break;
	case FORMAT_FOLDED:
	case FORMAT_CHROME:		/* not for top */
	case FORMAT_OPENMETRICS:	/* top.c prints them */
		break;
	}
	fflush(f);
}

static struct fd_row *find_row(struct fd_stats *st, const char *name)
{
	int i;

	for (i = 0; st && i < st->nr_rows; i++)
		if (!strcmp(st->rows[i].name, name))
			return &st->rows[i];
	return NULL;
}

/* The histograms, in the order of @st's rows (sorted), or of hist. */
void hist_print(FILE *f, struct fd_hist *h, int nr, struct fd_stats *st,
		struct funcdur_params *p)
{
	int i, j, k, shown = 0, order[nr ? nr : 1];
	unsigned long long top;
	struct fd_row *r;

	for (i = 0; i < nr; i++)
		order[i] = i;
	if (st) {	/* stats' sort order; functions without a row last */
		k = 0;
		for (i = 0; i < st->nr_rows; i++)
			for (j = 0; j < nr; j++)
				if (!strcmp(h[j].name, st->rows[i].name))
					order[k++] = j;
		for (j = 0; j < nr; j++)
			if (!find_row(st, h[j].name))
				order[k++] = j;
	}
	if (p->format == FORMAT_CSV)
		fputs("function,lo,hi,count\n", f);
	for (i = 0; i < nr; i++) {
		struct fd_hist *x = &h[order[i]];

		if (p->top > 0 && shown++ >= p->top)
			break;
		r = find_row(st, x->name);
		switch (p->format) {
		case FORMAT_TABLE:
			fprintf(f, "%sfunction: %s  calls: %llu", i ? "\n" : "",
				x->name, x->calls);
			if (r)
				fprintf(f,
					"  avg: %llu ns  p50: %llu ns  p99: %llu ns  max: %llu ns",
					r->avg, r->p50, r->p99, r->max);
			fprintf(f, "\n%24s : %-10s %s\n", "ns", "count", "distribution");
			top = 0;
			for (j = 0; j < x->nr_buckets; j++)
				if (x->buckets[j].count > top)
					top = x->buckets[j].count;
			for (j = 0; j < x->nr_buckets; j++) {
				struct fd_bucket *b = &x->buckets[j];
				int len = top ? (b->count * 40 + top - 1) / top : 0;
				char hi[24];

				if (b->hi)
					snprintf(hi, sizeof(hi), "%llu", b->hi);
				else
					snprintf(hi, sizeof(hi), "inf");
				fprintf(f, "%11llu -> %-10s : %-10llu |%-40.*s|\n",
					b->lo, hi, b->count, len,
					"****************************************");
			}
			break;
		case FORMAT_CSV:
			for (j = 0; j < x->nr_buckets; j++) {
				csv_string(f, x->name);
				fprintf(f, ",%llu,%llu,%llu\n", x->buckets[j].lo,
					x->buckets[j].hi, x->buckets[j].count);
			}
			break;
		case FORMAT_JSON:
			fputs("{\"function\":", f);
			json_string(f, x->name);
			fprintf(f, ",\"calls\":%llu,\"hist\":[", x->calls);
			for (j = 0; j < x->nr_buckets; j++)
				fprintf(f, "%s[%llu,%llu,%llu]", j ? "," : "",
					x->buckets[j].lo, x->buckets[j].hi,
					x->buckets[j].count);
			fputs("]}\n", f);
			break;
		case FORMAT_FOLDED:
		case FORMAT_CHROME:		/* not for hist */
		case FORMAT_OPENMETRICS:	/* top.c prints them */
			break;
		}
	}
	fflush(f);
}
