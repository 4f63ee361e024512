// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur: a front end of the function_duration tracer.
 *
 *   funcdur top|hist|trace|record [OPTIONS] [FUNC_GLOB...] [-- CMD [ARGS]]
 *
 * Every option is checked before anything is written to tracefs; then
 * the run sets up an instance of its own (session.c), reads it, and
 * leaves the system as it found it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "funcdur.h"

static const char *const usage_text[] = {
	"usage: funcdur top|hist|trace|record [OPTIONS] [FUNC_GLOB...] [-- CMD [ARGS]]",
	"",
	"  top      a table of the functions' statistics, refreshed every -i",
	"  hist     the histograms of their durations, at the end of the run",
	"  trace    one line per call that took at least the threshold",
	"  record   a trace.dat of the run (trace-cmd extract), statistics beside it",
	"",
	"  -f, --function GLOB     trace the functions matching GLOB (repeatable)",
	"  -N, --notrace GLOB      do not trace those functions (repeatable)",
	"  -T, --threshold TIME    write the calls of TIME or more to the buffer",
	"                          (default: 0 for trace and record; for top and hist,",
	"                          none (statistics only), or a tenth of -a's TIME)",
	"  -p, --pid PID[,PID..]   trace only these tasks",
	"  -c, --comm NAME         trace only the tasks named NAME (a glob), rescanned",
	"  -d, --duration TIME     stop after TIME",
	"  -i, --interval TIME     refresh or read every TIME (default 1s; chrome, trace 100ms)",
	"  -a, --auto TIME         stop at the first call of TIME or more, save the trace",
	"                          and report on that call",
	"  -t, --trace-file FILE   where -a saves the trace (default funcdur_trace.txt)",
	"  -b, --breakdown         split each call into running, runnable, blocked, irq",
	"  -s, --sort KEY          total (default), self, avg, min, max, p50, p90, p99,",
	"                          calls, rate, name, running, runnable, blocked, irq",
	"      --top N             only the first N functions",
	"      --once              top: print one table, at the end of the run",
	"      --format FMT        table (default), csv, json, folded (flame graphs),",
	"                          chrome (trace and record: Perfetto, speedscope) or",
	"                          openmetrics (top and hist: Prometheus; with -o, the",
	"                          file is replaced whole at each refresh)",
	"  -o, --output FILE       write there (record: the trace.dat, default trace.dat;",
	"                          with --format chrome, default trace.json)",
	"  -B, --instance NAME     use or create the instance NAME",
	"      --attach NAME       read the instance NAME as it is, changing nothing",
	"                          ('/' for the top level)",
	"      --keep              leave the instance in place at the end",
	"      --no-sleep-time     do not count the time a task is switched out",
	"      --cost              measure first what timing a call costs here; show it",
	"      --buffer-size KB    the ring buffer's size per CPU",
	"  -h, --help              this help",
	"",
	"TIME is a number with ns (default), us, ms or s. Root only.",
	NULL,
};

static void usage(int status)
{
	int i;

	for (i = 0; usage_text[i]; i++)
		fprintf(status ? stderr : stdout, "%s\n", usage_text[i]);
	exit(status);
}

static void bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "funcdur: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s\nTry 'funcdur --help'.\n", usage_text[0]);
	exit(FUNCDUR_EXIT_USAGE);
}

static unsigned long long time_arg(const char *opt, const char *arg)
{
	unsigned long long ns;

	if (parse_time_ns(arg, &ns))
		bad("bad time for %s (a number with ns, us, ms or s)", opt);
	return ns;
}

static void add_pids(struct funcdur_params *p, char *arg)
{
	char *tok, *save, *end;
	long pid;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		pid = strtol(tok, &end, 10);
		if (*end || end == tok || errno || pid <= 0 || pid > 4194304)
			bad("bad pid '%s'", tok);
		p->pids = list_add(p->pids, &p->nr_pids, tok);
	}
}

static char **add_glob(char **list, int *nr, const char *glob)
{
	if (!*glob || strlen(glob) > 256 || strpbrk(glob, " \t\n"))
		bad("bad function glob '%s'", glob);
	return list_add(list, nr, glob);
}

enum {
	OPT_TOP = 256, OPT_ONCE, OPT_FORMAT, OPT_ATTACH, OPT_KEEP,
	OPT_NO_SLEEP_TIME, OPT_BUFFER_SIZE, OPT_COST,
};

static void parse_args(struct funcdur_params *p, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "function",	required_argument, NULL, 'f' },
		{ "notrace",	required_argument, NULL, 'N' },
		{ "threshold",	required_argument, NULL, 'T' },
		{ "pid",	required_argument, NULL, 'p' },
		{ "comm",	required_argument, NULL, 'c' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "interval",	required_argument, NULL, 'i' },
		{ "auto",	required_argument, NULL, 'a' },
		{ "trace-file",	required_argument, NULL, 't' },
		{ "breakdown",	no_argument,	   NULL, 'b' },
		{ "sort",	required_argument, NULL, 's' },
		{ "output",	required_argument, NULL, 'o' },
		{ "instance",	required_argument, NULL, 'B' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "top",	required_argument, NULL, OPT_TOP },
		{ "once",	no_argument,	   NULL, OPT_ONCE },
		{ "format",	required_argument, NULL, OPT_FORMAT },
		{ "attach",	required_argument, NULL, OPT_ATTACH },
		{ "keep",	no_argument,	   NULL, OPT_KEEP },
		{ "no-sleep-time", no_argument,	   NULL, OPT_NO_SLEEP_TIME },
		{ "cost",	no_argument,	   NULL, OPT_COST },
		{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
		{ NULL, 0, NULL, 0 },
	};
	int nopts = argc, c, i;
	bool changes;
	char *end;

	/* "--" ends the options and globs: the rest is the command */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			nopts = i;
			if (i + 1 == argc)
				bad("%s: no command after --", "");
			p->cmd = &argv[i + 1];
			break;
		}
	}
	opterr = 0;
	while ((c = getopt_long(nopts, argv, ":f:N:T:p:c:d:i:a:t:bs:o:B:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			p->functions = add_glob(p->functions, &p->nr_functions, optarg);
			break;
		case 'N':
			p->notrace = add_glob(p->notrace, &p->nr_notrace, optarg);
			break;
		case 'T':
			p->threshold = time_arg("-T", optarg);
			p->threshold_set = true;
			break;
		case 'p':
			add_pids(p, optarg);
			break;
		case 'c':
			if (!*optarg || strlen(optarg) > 64)
				bad("bad task name '%s'", optarg);
			p->comm = optarg;
			break;
		case 'd':
			p->duration = time_arg("-d", optarg);
			if (!p->duration)
				bad("%s-d must be more than 0", "");
			break;
		case 'i':
			p->interval = time_arg("-i", optarg);
			if (p->interval < 1000000)
				bad("%s-i must be 1ms or more", "");
			break;
		case 'a':
			p->auto_ns = time_arg("-a", optarg);
			if (!p->auto_ns)
				bad("%s-a must be more than 0", "");
			break;
		case 't':
			p->trace_file = optarg;
			break;
		case 'b':
			p->breakdown = true;
			break;
		case 's':
			if (!stats_sort_key_valid(optarg))
				bad("bad sort key '%s'", optarg);
			p->sort = optarg;
			break;
		case 'o':
			p->output = optarg;
			break;
		case 'B':
			if (!*optarg || strlen(optarg) > 200 || strchr(optarg, '/') ||
			    !strcmp(optarg, ".") || !strcmp(optarg, ".."))
				bad("bad instance name '%s'", optarg);
			p->instance = optarg;
			break;
		case 'h':
			usage(0);
			break;
		case OPT_TOP:
			errno = 0;
			p->top = strtol(optarg, &end, 10);
			if (*end || errno || p->top <= 0)
				bad("bad --top '%s'", optarg);
			break;
		case OPT_ONCE:
			p->once = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "table"))
				p->format = FORMAT_TABLE;
			else if (!strcmp(optarg, "csv"))
				p->format = FORMAT_CSV;
			else if (!strcmp(optarg, "json"))
				p->format = FORMAT_JSON;
			else if (!strcmp(optarg, "folded"))
				p->format = FORMAT_FOLDED;
			else if (!strcmp(optarg, "chrome"))
				p->format = FORMAT_CHROME;
			else if (!strcmp(optarg, "openmetrics"))
				p->format = FORMAT_OPENMETRICS;
			else
				bad("bad format '%s' (see --format in --help)", optarg);
			break;
		case OPT_ATTACH:
			if (!*optarg || strlen(optarg) > 200 ||
			    (strchr(optarg, '/') && strcmp(optarg, "/")))
				bad("bad instance name '%s'", optarg);
			p->attach = optarg;
			break;
		case OPT_KEEP:
			p->keep = true;
			break;
		case OPT_NO_SLEEP_TIME:
			p->no_sleep_time = true;
			break;
		case OPT_COST:
			p->cost = true;
			break;
		case OPT_BUFFER_SIZE:
			errno = 0;
			p->buffer_kb = strtoul(optarg, &end, 10);
			if (*end || errno || !p->buffer_kb || end == optarg)
				bad("bad --buffer-size '%s' (KB)", optarg);
			break;
		case ':':
			bad("option %s needs a value", argv[optind - 1]);
			break;
		default:
			bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	for (i = optind; i < nopts; i++)
		p->functions = add_glob(p->functions, &p->nr_functions, argv[i]);

	changes = p->nr_functions || p->nr_notrace || p->nr_pids || p->comm ||
		  p->threshold_set || p->auto_ns || p->breakdown || p->instance ||
		  p->no_sleep_time || p->buffer_kb || p->cmd || p->keep;
	if (p->attach && changes)
		bad("%s--attach reads an instance as it is: no option may change it", "");
	if (p->cost && (p->attach || p->mode == MODE_RECORD))
		bad("%s--cost is for top, hist and trace runs of their own", "");
	if (p->attach && (p->mode == MODE_RECORD || p->mode == MODE_TRACE))
		bad("%s--attach is for top and hist", "");
	if (p->mode == MODE_RECORD && (p->auto_ns || p->keep))
		bad("%srecord takes neither -a nor --keep", "");
	if (p->mode == MODE_RECORD && p->format != FORMAT_TABLE && p->format != FORMAT_CHROME)
		bad("%srecord writes a trace.dat, or with --format chrome a JSON trace", "");
	if ((p->mode == MODE_RECORD || p->mode == MODE_TRACE) && (p->sort || p->top))
		bad("%s-s and --top are for top and hist", "");
	if (p->auto_ns && p->threshold_set && p->threshold > p->auto_ns)
		bad("%s-T above -a: the calls that would stop the run are not written", "");
	if (p->trace_file && !p->auto_ns)
		bad("%s-t is where -a saves the trace: it needs -a", "");
	if (p->auto_ns && !p->trace_file)
		p->trace_file = "funcdur_trace.txt";
	if (p->format == FORMAT_OPENMETRICS && p->mode == MODE_TRACE)
		bad("%s--format openmetrics is for top and hist", "");
	if (p->format == FORMAT_CHROME && p->mode != MODE_TRACE && p->mode != MODE_RECORD)
		bad("%s--format chrome is for trace and record", "");
	if (p->once && p->mode != MODE_TOP)
		bad("%s--once is for top", "");
	if (p->cmd && (p->nr_pids || p->comm))
		bad("%s-- CMD traces that command: no -p or -c with it", "");
	if (!p->interval)
		p->interval = p->mode == MODE_TRACE || p->format == FORMAT_CHROME ?
			      100000000ULL : NS_PER_SEC;
}

int main(int argc, char **argv)
{
	struct funcdur_params params = { 0 };
	struct funcdur_session s = { .params = &params, .out = stdout };
	int ret;

	if (argc < 2)
		usage(FUNCDUR_EXIT_USAGE);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(0);
	if (!strcmp(argv[1], "top"))
		params.mode = MODE_TOP;
	else if (!strcmp(argv[1], "hist"))
		params.mode = MODE_HIST;
	else if (!strcmp(argv[1], "trace"))
		params.mode = MODE_TRACE;
	else if (!strcmp(argv[1], "record"))
		params.mode = MODE_RECORD;
	else
		bad("unknown command '%s'", argv[1]);
	parse_args(&params, argc - 1, argv + 1);

	if (geteuid()) {
		fprintf(stderr, "funcdur: needs root (the tracing directory is root's)\n");
		return FUNCDUR_EXIT_USAGE;
	}
	if (!tracefs_tracing_dir()) {
		fprintf(stderr, "funcdur: tracefs is not mounted\n");
		return FUNCDUR_EXIT_USAGE;
	}
	if (!tracefs_tracer_available(NULL, "function_duration")) {
		fprintf(stderr,
			"funcdur: this kernel has no function_duration tracer (available_tracers)\n");
		return FUNCDUR_EXIT_USAGE;
	}

	if (params.mode == MODE_RECORD)
		return funcdur_record(&params);
	/* an exposition replaces the file whole, at each refresh (top.c) */
	if (params.output && params.format != FORMAT_OPENMETRICS) {
		s.out = fopen(params.output, "w");
		if (!s.out) {
			fprintf(stderr, "funcdur: cannot write %s: %s\n", params.output,
				strerror(errno));
			return FUNCDUR_EXIT_ERROR;
		}
	}
	if (session_start(&s)) {
		session_end(&s);
		return FUNCDUR_EXIT_ERROR;
	}
	if (params.mode == MODE_TRACE)
		ret = funcdur_trace(&s);
	else
		ret = funcdur_top(&s);
	session_end(&s);
	if (s.out != stdout && fclose(s.out)) {
		fprintf(stderr, "funcdur: cannot write %s\n", params.output);
		ret = FUNCDUR_EXIT_ERROR;
	}
	return ret;
}
