// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur record: a trace.dat of the run, which trace-cmd report and
 * KernelShark read, and the statistics of the run beside it
 * (FILE.stats and FILE.hist).
 *
 * With --format chrome, FILE (default trace.json) is what trace
 * --format chrome prints, read during the run: a JSON trace that
 * Perfetto and speedscope load.
 *
 * The run fills the instance's buffer, in non-overwrite mode, so that a
 * full buffer drops the newest calls and counts them rather than losing
 * the oldest unseen; at its end, tracing stops, the statistics are
 * saved, and "trace-cmd extract -B <instance>" writes the buffer to
 * FILE, and removes the instance. (trace-cmd 3.1's own "record -B" of
 * an instance, without a command, fails on the SIGINT that ends it.)
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "funcdur.h"

static int save_file(struct funcdur_session *s, const char *file, const char *path)
{
	char *text = tracefs_instance_file_read(s->inst, file, NULL);
	FILE *f;

	if (!text)
		return -1;
	f = fopen(path, "w");
	if (!f) {
		warnx_fd("cannot write %s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	fputs(text, f);
	free(text);
	return fclose(f) ? -1 : 0;
}

/* The run's statistics beside FILE: FILE.stats and FILE.hist */
static int save_stats(struct funcdur_session *s, const char *file)
{
	char path[4096];
	int ret = 0;

	snprintf(path, sizeof(path), "%s.stats", file);
	if (save_file(s, "function_duration/stats", path))
		ret = -1;
	snprintf(path, sizeof(path), "%s.hist", file);
	if (save_file(s, "function_duration/hist", path))
		ret = -1;
	return ret;
}

static int run_extract(struct funcdur_session *s, const char *file)
{
	const char * const argv[] = {
		"trace-cmd", "extract", "-B", tracefs_instance_get_name(s->inst),
		"-o", file, NULL,
	};
	char log[] = "/tmp/funcdur-extract-XXXXXX", line[256];
	int status, fd;
	FILE *f;
	pid_t pid;

	/* what it prints (the size of each CPU's data) is shown if it fails */
	fd = mkstemp(log);
	if (fd < 0)
		fatal("cannot create %s: %s", log, strerror(errno));
	unlink(log);
	pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (!pid) {
		signal(SIGINT, SIG_IGN);	/* the run is over: let it write */
		/* Until exec, funcdur's handlers would only set a flag here */
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(127);
		execvp("trace-cmd", (char **)argv);
		fprintf(stderr, "funcdur: cannot run trace-cmd: %s\n", strerror(errno));
		_exit(127);
	}
	status = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (status != -1 && WIFEXITED(status) && !WEXITSTATUS(status)) {
		close(fd);
		return 0;
	}
	lseek(fd, 0, SEEK_SET);
	f = fdopen(fd, "r");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stderr);
	if (f)
		fclose(f);
	else
		close(fd);
	warnx_fd("trace-cmd extract failed");
	return -1;
}

/* The calls the full buffer could not take, from per_cpu/cpuN/stats. */
static unsigned long long count_dropped(struct funcdur_session *s)
{
	unsigned long long n = 0, v;
	char file[64], *text, *l;
	int cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		if (!tracefs_file_exists(s->inst, file))
			break;
		text = tracefs_instance_file_read(s->inst, file, NULL);
		l = text ? strstr(text, "dropped events: ") : NULL;
		if (l && sscanf(l, "dropped events: %llu", &v) == 1)
			n += v;
		free(text);
	}
	return n;
}

/* --format chrome: what trace prints, read during the run, into FILE */
static int record_chrome(struct funcdur_params *p)
{
	struct funcdur_session s = { .params = p };
	const char *file = p->output ? p->output : "trace.json";
	unsigned long long lost;
	int ret;

	if (session_start(&s)) {
		session_end(&s);
		return FUNCDUR_EXIT_ERROR;
	}
	s.out = fopen(file, "w");
	if (!s.out) {
		warnx_fd("cannot write %s: %s", file, strerror(errno));
		session_end(&s);
		return FUNCDUR_EXIT_ERROR;
	}
	ret = funcdur_trace(&s);	/* it stops tracing before its last read */
	if (save_stats(&s, file))
		ret = FUNCDUR_EXIT_ERROR;
	lost = count_dropped(&s);
	session_end(&s);
	if (fclose(s.out)) {
		warnx_fd("cannot write %s", file);
		ret = FUNCDUR_EXIT_ERROR;
	}
	if (lost)
		warnx_fd("%llu calls were dropped with the buffer full (--buffer-size)", lost);
	if (!ret)
		fprintf(stderr, "funcdur: %s, with %s.stats and %s.hist\n", file, file, file);
	return ret;
}

int funcdur_record(struct funcdur_params *p)
{
	struct funcdur_session s = { .params = p, .out = stdout };
	const char *file = p->output ? p->output : "trace.dat";
	unsigned long long start, lost;
	int ret = 0;

	if (p->format == FORMAT_CHROME)
		return record_chrome(p);

	if (p->instance && tracefs_instance_exists(p->instance)) {
		warnx_fd("record: instance %s exists, and trace-cmd extract removes its instance",
			 p->instance);
		return FUNCDUR_EXIT_ERROR;
	}
	if (session_start(&s) || session_go(&s)) {
		session_end(&s);
		return FUNCDUR_EXIT_ERROR;
	}
	start = now_ns();
	while (!session_should_stop(&s, start)) {
		session_wait(&s, p->interval);
		session_rescan_comm(&s);
	}
	session_write(&s, "tracing_on", "0");
	if (save_stats(&s, file))
		ret = FUNCDUR_EXIT_ERROR;
	lost = count_dropped(&s);
	if (run_extract(&s, file))
		ret = FUNCDUR_EXIT_ERROR;
	if (lost)
		warnx_fd("%llu calls were dropped with the buffer full (--buffer-size)", lost);
	if (!ret)
		fprintf(stderr, "funcdur: %s, with %s.stats and %s.hist\n", file, file, file);
	session_end(&s);
	return ret;
}
