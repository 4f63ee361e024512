// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur: the instance a run reads, what it writes there, and how all of
 * it is undone.
 *
 * A run owns a private instance (funcdur-<pid>, or -B NAME when that
 * does not exist yet), removed at the end unless --keep: nothing written
 * there needs restoring. A file of an instance that existed before the
 * run (-B NAME, or -B / for the top level) is saved before its first
 * write and written back at the end, on every exit path that is not
 * SIGKILL: normal end, error (fatal() exits through atexit) and SIGINT,
 * SIGTERM, SIGHUP or SIGPIPE (the reader of the output exited), which
 * stop the run's loop.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "funcdur.h"

bool funcdur_stop;

struct saved_file {
	struct tracefs_instance	*inst;	/* NULL: the top level */
	char			*file;
	char			*old;	/* NULL: remove @added instead */
	char			*added;	/* a trigger we appended */
};

static struct saved_file *saved;
static int nr_saved;
static struct funcdur_session *current;

unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

static void on_signal(int sig)
{
	WRITE_ONCE(funcdur_stop, true);
}

static bool child_signalled;

static void on_child(int sig)
{
	/* ends a wait; session_should_stop() reaps */
	WRITE_ONCE(child_signalled, true);
}

static void set_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* funcdur trace | head: the writes after head exits fail with EPIPE */
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
}

/* Write @val to @file of @inst, replacing it (O_TRUNC). */
static int write_file(struct tracefs_instance *inst, const char *file,
		      const char *val, bool append)
{
	char *path = tracefs_instance_get_file(inst, file);
	ssize_t n, len = strlen(val);
	int fd, err = 0;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return -errno;
	/* A list file takes one entry per write(): write until all is taken. */
	while (len > 0) {
		n = write(fd, val, len);
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		val += n;
		len -= n;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/*
 * What a file read back must be written as to restore it: the lists
 * without their "all" lines, a buffer size without its "(expanded: N)".
 * The function probes of set_ftrace_filter ("func:traceoff") are left
 * out: truncating the file does not remove them.
 */
static char *restorable(const char *file, char *content)
{
	char *line, *save, *out = content;

	if (!strcmp(file, "set_ftrace_filter") || !strcmp(file, "set_ftrace_notrace")) {
		for (line = strtok_r(content, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (line[0] == '#' || (strchr(line, ':') && !strstr(line, ":mod:")))
				continue;
			/* out never passes line: move it down */
			memmove(out, line, strlen(line));
			out += strlen(line);
			*out++ = '\n';
		}
		*out = '\0';
	} else if (!strcmp(file, "set_ftrace_pid") ||
		   !strcmp(file, "set_ftrace_notrace_pid")) {
		if (!strncmp(content, "no pid", 6))
			content[0] = '\0';
	} else if (!strcmp(file, "buffer_size_kb")) {
		content[strcspn(content, " ")] = '\0';
	}
	return content;
}

static void save_file(struct tracefs_instance *inst, const char *file,
		      const char *added)
{
	struct saved_file *sf;
	char *old = NULL;
	int i;

	for (i = 0; i < nr_saved; i++)
		if (saved[i].inst == inst && !strcmp(saved[i].file, file) &&
		    !saved[i].added && !added)
			return;		/* the first value is the one to restore */
	if (!added) {
		old = tracefs_instance_file_read(inst, file, NULL);
		if (!old)
			fatal("cannot read %s", file);
		restorable(file, old);
	}
	saved = realloc(saved, (nr_saved + 1) * sizeof(*saved));
	if (!saved)
		fatal("out of memory");
	sf = &saved[nr_saved++];
	sf->inst = inst;
	sf->file = xstrdup(file);
	sf->old = old;
	sf->added = added ? xstrdup(added) : NULL;
}

/*
 * Write a file of the run's instance (or, with a name starting with
 * '/', of the top level), saving it first when the instance is not
 * ours. Returns 0 or -errno, after saying what failed and why.
 */
int session_write(struct funcdur_session *s, const char *file, const char *val)
{
	struct tracefs_instance *inst = s->inst;
	bool trigger = strstr(file, "/trigger");
	char *err;
	int ret;

	if (file[0] == '/') {
		inst = NULL;
		file++;
	}
	if (!inst || !s->created)
		save_file(inst, file, trigger ? val : NULL);
	tracefs_error_clear(inst);
	ret = write_file(inst, file, val, trigger);
	if (ret) {
		err = tracefs_error_last(inst);
		warnx_fd("cannot write '%s' to %s: %s%s%s", val, file, strerror(-ret),
			 err ? "\n  error_log: " : "", err ? err : "");
		free(err);
	}
	return ret;
}

/*
 * Write a list (globs or pids) to a list file, one element per write,
 * each ended by a newline: ftrace parses a glob when it sees its end,
 * and one that ends the file is parsed at close, where no error is
 * returned.
 */
static int write_list(struct funcdur_session *s, const char *file, char **list,
		      int nr)
{
	char buf[512];
	int i, ret;

	ret = session_write(s, file, "");
	for (i = 0; !ret && i < nr; i++) {
		snprintf(buf, sizeof(buf), "%s\n", list[i]);
		ret = write_file(s->inst, file, buf, true);
		if (ret == -EINVAL && strcmp(file, "set_ftrace_pid"))
			warnx_fd("%s: no traceable function matches '%s'", file, list[i]);
		else if (ret)
			warnx_fd("cannot add '%s' to %s: %s", list[i], file, strerror(-ret));
	}
	return ret;
}

static void restore_files(void)
{
	struct saved_file *sf;
	char buf[4096];
	int ret;

	while (nr_saved) {
		sf = &saved[--nr_saved];
		if (sf->added) {
			snprintf(buf, sizeof(buf), "!%s", sf->added);
			ret = write_file(sf->inst, sf->file, buf, true);
		} else {
			ret = write_file(sf->inst, sf->file, sf->old, false);
		}
		if (ret)
			warnx_fd("could not restore %s: %s", sf->file, strerror(-ret));
		free(sf->file);
		free(sf->old);
		free(sf->added);
	}
	free(saved);
	saved = NULL;
}

static bool comm_matches(const char *path, const char *pattern)
{
	char comm[64];

	return read_first_line(path, comm, sizeof(comm)) && !fnmatch(pattern, comm, 0);
}

/* The tasks added to set_ftrace_pid by -c, so that a rescan adds new ones only. */
static pid_t *comm_pids;
static int nr_comm_pids;

static bool comm_pid_known(pid_t tid)
{
	int i;

	for (i = 0; i < nr_comm_pids; i++)
		if (comm_pids[i] == tid)
			return true;
	return false;
}

/*
 * Add the tasks (threads included) named like -c, a glob, to
 * set_ftrace_pid. Returns how many tasks match so far.
 */
static int add_comm_pids(struct funcdur_session *s)
{
	char path[300], pid[32];
	struct dirent *d, *t;
	DIR *dir, *tasks;

	dir = opendir("/proc");
	if (!dir)
		fatal("cannot read /proc: %s", strerror(errno));
	while ((d = readdir(dir))) {
		if (atoi(d->d_name) <= 0 || atoi(d->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", d->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;
		while ((t = readdir(tasks))) {
			pid_t tid = atoi(t->d_name);

			if (tid <= 0 || comm_pid_known(tid))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%d/comm", d->d_name, tid);
			if (!comm_matches(path, s->params->comm))
				continue;
			snprintf(pid, sizeof(pid), "%d", tid);
			if (write_file(s->inst, "set_ftrace_pid", pid, true))
				continue;	/* it exited meanwhile */
			comm_pids = realloc(comm_pids, (nr_comm_pids + 1) * sizeof(*comm_pids));
			if (!comm_pids)
				fatal("out of memory");
			comm_pids[nr_comm_pids++] = tid;
		}
		closedir(tasks);
	}
	closedir(dir);
	return nr_comm_pids;
}

/* -c: tasks started since the last scan join the pid filter. */
void session_rescan_comm(struct funcdur_session *s)
{
	if (s->params->comm && !s->params->attach)
		add_comm_pids(s);
}

static void start_child(struct funcdur_session *s)
{
	int go[2], status[2];

	if (pipe(go) || pipe2(status, O_CLOEXEC))
		fatal("pipe: %s", strerror(errno));
	/*
	 * The command's own children become ours when it dies, so that a
	 * run ended early ends them too (end_child()). Not a process group
	 * of its own: that would take an interactive command off the
	 * terminal.
	 */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		fatal("prctl(PR_SET_CHILD_SUBREAPER): %s", strerror(errno));
	s->child = fork();
	if (s->child < 0)
		fatal("fork: %s", strerror(errno));
	if (!s->child) {
		char c;
		int err;

		close(go[1]);
		close(status[0]);
		/* Released once tracing is set up; EOF if funcdur gave up. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		execvp(s->params->cmd[0], s->params->cmd);
		err = errno;
		if (write(status[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(status[1]);
	s->child_go = go[1];
	/* the read end of status is kept to learn whether exec worked */
	s->child_status = status[0];
}

/*
 * Send @sig to each process whose parent is funcdur: the command's
 * descendants that its death handed to us. Return how many there were.
 */
static int signal_orphans(int sig)
{
	int ppid, n = 0;
	struct dirent *d;
	char buf[128], *p;
	DIR *proc;
	FILE *f;
	pid_t pid;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while ((d = readdir(proc))) {
		pid = atoi(d->d_name);
		if (pid <= 0)
			continue;
		snprintf(buf, sizeof(buf), "/proc/%d/stat", pid);
		f = fopen(buf, "r");
		if (!f)
			continue;
		/* "pid (comm) state ppid": comm may hold spaces and ')' */
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && sscanf(p + 1, " %*c %d", &ppid) == 1 &&
		    ppid == getpid() && !kill(pid, sig))
			n++;
	}
	closedir(proc);
	return n;
}

/*
 * End the command and everything it started that is still running:
 * SIGTERM, and SIGKILL two seconds later. A command that exited by
 * itself leaves its descendants alone.
 */
static void end_child(struct funcdur_session *s)
{
	int i;

	if (s->child <= 0 || s->child_done)
		return;
	if (s->child_go >= 0) {		/* never released: it exits */
		close(s->child_go);
		s->child_go = -1;
		waitpid(s->child, NULL, 0);
		s->child_done = true;
		return;
	}
	kill(s->child, SIGTERM);
	for (i = 0; i < 40; i++) {
		/* Reap the command and the orphans that exited */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (kill(s->child, 0) && errno == ESRCH &&
		    !signal_orphans(i < 20 ? SIGTERM : SIGKILL))
			break;
		if (i == 20)
			kill(s->child, SIGKILL);
		usleep(100000);
	}
	s->child_done = true;
}

static void cleanup(void)
{
	struct funcdur_session *s = current;

	if (!s)
		return;
	current = NULL;
	end_child(s);
	if (s->configured)
		write_file(s->inst, "current_tracer", "nop", false);
	restore_files();
	/* trace-cmd extract (record) removes the instance it read */
	if (s->created && !s->params->keep && tracefs_instance_destroy(s->inst) &&
	    tracefs_instance_exists(tracefs_instance_get_name(s->inst)))
		warnx_fd("could not remove instance %s: %s",
			 tracefs_instance_get_name(s->inst), strerror(errno));
	else if (s->created && s->params->keep)
		fprintf(stderr, "funcdur: instance %s kept\n",
			tracefs_instance_get_name(s->inst));
	tracefs_instance_free(s->inst);
	s->inst = NULL;
}

/*
 * funcdur-PID, unless a run that had this pid was killed and left it:
 * then say so, leave it alone, and take funcdur-PID-N.
 */
static void default_instance_name(char *name, size_t size)
{
	int n;

	snprintf(name, size, "funcdur-%d", getpid());
	if (!tracefs_instance_exists(name))
		return;
	warnx_fd("instance %s was left by an earlier run (remove it with rmdir)", name);
	for (n = 1; n < 100; n++) {
		snprintf(name, size, "funcdur-%d-%d", getpid(), n);
		if (!tracefs_instance_exists(name))
			return;
	}
	fatal("no free instance name funcdur-%d-N", getpid());
}

static void attach_instance(struct funcdur_session *s)
{
	const char *name = s->params->attach;

	if (strcmp(name, "/")) {
		if (!tracefs_instance_exists(name))
			fatal("no instance %s to attach to", name);
		s->inst = tracefs_instance_alloc(NULL, name);
		if (!s->inst)
			fatal("cannot open instance %s", name);
	}
	if (!tracefs_file_exists(s->inst, "function_duration/stats"))
		fatal("instance %s has no function_duration/stats", name);
}

/*
 * Set the run up, tracer started last (which clears the statistics);
 * a -- CMD child is forked now, stopped until session_go().
 */
int session_start(struct funcdur_session *s)
{
	struct funcdur_params *p = s->params;
	unsigned long long threshold;
	char name[256], buf[128];
	bool breakdown;
	char *tracer;

	s->child_go = -1;
	s->child_status = -1;
	current = s;
	atexit(cleanup);
	set_signals();
	if (p->attach) {
		attach_instance(s);
		return 0;
	}

	if (p->instance)
		snprintf(name, sizeof(name), "%s", p->instance);
	else
		default_instance_name(name, sizeof(name));
	s->inst = tracefs_instance_create(name);
	if (!s->inst)
		fatal("cannot create instance %s: %s", name, strerror(errno));
	s->created = tracefs_instance_is_new(s->inst);
	if (!s->created) {
		tracer = tracefs_instance_file_read(s->inst, "current_tracer", NULL);
		if (tracer && strcmp(tracer, "nop\n")) {
			tracer[strcspn(tracer, "\n")] = '\0';
			fprintf(stderr, "funcdur: instance %s is running tracer %s\n",
				name, tracer);
			free(tracer);
			tracefs_instance_free(s->inst);
			s->inst = NULL;
			current = NULL;
			exit(FUNCDUR_EXIT_ERROR);
		}
		free(tracer);
	}

	/* record: a full buffer drops the newest calls, and counts them */
	if (p->mode == MODE_RECORD && session_write(s, "options/overwrite", "0"))
		return -1;
	if (p->buffer_kb) {
		snprintf(buf, sizeof(buf), "%zu", p->buffer_kb);
		if (session_write(s, "buffer_size_kb", buf))
			return -1;
	}
	if (write_list(s, "set_ftrace_filter", p->functions, p->nr_functions) ||
	    write_list(s, "set_ftrace_notrace", p->notrace, p->nr_notrace) ||
	    write_list(s, "set_ftrace_pid", p->pids, p->nr_pids))
		return -1;
	/* funcdur's own reads of tracefs are not the user's calls */
	snprintf(buf, sizeof(buf), "%d", getpid());
	if (tracefs_file_exists(s->inst, "set_ftrace_notrace_pid") &&
	    session_write(s, "set_ftrace_notrace_pid", buf))
		return -1;
	if (p->cmd) {
		start_child(s);
		snprintf(buf, sizeof(buf), "%d", s->child);
		if (write_file(s->inst, "set_ftrace_pid", buf, true)) {
			warnx_fd("cannot add pid %s to set_ftrace_pid", buf);
			return -1;
		}
		if (session_write(s, "options/function-fork", "1"))
			return -1;
	}
	if (p->comm) {
		if (!tracefs_file_exists(s->inst, "set_ftrace_pid"))
			fatal("no set_ftrace_pid: -c needs CONFIG_DYNAMIC_FTRACE");
		while (!add_comm_pids(s) && !READ_ONCE(funcdur_stop)) {
			fprintf(stderr, "funcdur: waiting for a task named %s\n", p->comm);
			session_wait(s, NS_PER_SEC);
		}
	}

	threshold = p->threshold;
	if (!p->threshold_set)
		threshold = p->mode == MODE_TRACE || p->mode == MODE_RECORD ? 0 :
			    p->auto_ns ? p->auto_ns / 10 : THRESHOLD_OFF;
	snprintf(buf, sizeof(buf), "%llu", threshold);
	if (session_write(s, "function_duration/threshold_ns", buf))
		return -1;
	breakdown = (p->breakdown || p->auto_ns) &&
		    tracefs_file_exists(s->inst, "function_duration/breakdown");
	if (breakdown && session_write(s, "function_duration/breakdown", "1"))
		return -1;
	if (p->auto_ns) {
		/* The event the calls are written as, with a breakdown or not */
		const char *trigger = breakdown ?
			"events/ftrace/funcduration_breakdown/trigger" :
			"events/ftrace/funcduration/trigger";

		/* traceoff first: the newest trigger runs first, the stack before the stop */
		snprintf(buf, sizeof(buf), "traceoff:1 if duration >= %llu", p->auto_ns);
		if (session_write(s, trigger, buf))
			return -1;
		snprintf(buf, sizeof(buf), "stacktrace:1 if duration >= %llu", p->auto_ns);
		if (session_write(s, trigger, buf))
			return -1;
	}
	/* The instance's own option: before the tracer starts, which reads it */
	if (p->no_sleep_time &&
	    session_write(s, "options/funcduration-sleep-time", "0"))
		return -1;
	if (!s->created && session_write(s, "tracing_on", "1"))
		return -1;
	if (p->cost) {
		if (cost_measure(threshold, breakdown, &s->cost))
			return -1;
		if (p->mode == MODE_TRACE)
			cost_print(stderr, &s->cost);
	}
	if (session_write(s, "current_tracer", "function_duration"))
		return -1;
	s->configured = true;
	return 0;
}

/* Release the -- CMD child; fails if it could not be executed. */
int session_go(struct funcdur_session *s)
{
	int err;

	if (s->child <= 0)
		return 0;
	if (write(s->child_go, "g", 1) != 1)
		fatal("cannot release %s: %s", s->params->cmd[0], strerror(errno));
	close(s->child_go);
	s->child_go = -1;
	if (read(s->child_status, &err, sizeof(err)) == sizeof(err)) {
		warnx_fd("cannot run %s: %s", s->params->cmd[0], strerror(err));
		return -1;
	}
	close(s->child_status);
	return 0;
}

/* The end of the run: a signal, -d, the -- CMD exited, or tracing off. */
bool session_should_stop(struct funcdur_session *s, unsigned long long start)
{
	int status;

	if (READ_ONCE(funcdur_stop))
		return true;
	if (s->params->duration && now_ns() - start >= s->params->duration)
		return true;
	if (s->child > 0 && !s->child_done &&
	    waitpid(s->child, &status, WNOHANG) == s->child) {
		s->child_done = true;
		return true;
	}
	return false;
}

/* Sleep @ns, or less when a signal (SIGCHLD included) comes. */
void session_wait(struct funcdur_session *s, unsigned long long ns)
{
	struct timespec ts = { ns / NS_PER_SEC, ns % NS_PER_SEC };
	sigset_t handled, old;

	/*
	 * Blocked from the test to the wait, which unblocks them: a signal
	 * in between ends the wait at once instead of an interval later.
	 */
	sigemptyset(&handled);
	sigaddset(&handled, SIGINT);
	sigaddset(&handled, SIGTERM);
	sigaddset(&handled, SIGHUP);
	sigaddset(&handled, SIGPIPE);
	sigaddset(&handled, SIGCHLD);
	sigprocmask(SIG_BLOCK, &handled, &old);
	if (!READ_ONCE(funcdur_stop) && !READ_ONCE(child_signalled))
		ppoll(NULL, 0, &ts, &old);
	WRITE_ONCE(child_signalled, false);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void session_end(struct funcdur_session *s)
{
	if (current == s)
		cleanup();
}
