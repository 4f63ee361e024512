// SPDX-License-Identifier: GPL-2.0
/*
 * Guest helper of `make bench`: the context-switch workload, timed with
 * CLOCK_MONOTONIC (under QEMU -icount shift=0 a guest nanosecond is one
 * instruction).
 *
 *   fdswitch N [CPU]    N round trips of one byte between two processes
 *                       over two pipes, both pinned to CPU (default 0);
 *                       prints "<ns> <context switches>" of the N trips
 *
 * Each round trip is two context switches on that CPU (each process
 * blocks once in read(2), or is preempted by the wakeup and then finds
 * its byte there), and two wakeups. The switches printed are what
 * getrusage(2) counted for both processes over the timed loop, voluntary
 * and involuntary, as a check: 2 N if nothing else ran on the CPU.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static int xread(int fd, void *buf, size_t n)
{
	return read(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

static int xwrite(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

int main(int argc, char **argv)
{
	int ab[2], ba[2], status, cpu = 0;
	unsigned long long t0, t1;
	long i, n, sw0, sw, child_sw;
	cpu_set_t set;
	char c = 'x';
	pid_t pid;

	if (argc < 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: fdswitch N [CPU]\n");
		return 2;
	}
	if (argc > 2)
		cpu = atoi(argv[2]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* Before the fork: the child inherits the affinity */
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("fdswitch: sched_setaffinity");
		return 1;
	}
	if (pipe(ab) || pipe(ba)) {
		perror("fdswitch: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fdswitch: fork");
		return 1;
	}
	if (pid == 0) {
		/* The handshake, then one byte back for each byte */
		if (xread(ab[0], &c, 1))
			_exit(1);
		sw0 = switches();
		if (xwrite(ba[1], &c, 1))
			_exit(1);
		for (i = 0; i < n; i++)
			if (xread(ab[0], &c, 1) || xwrite(ba[1], &c, 1))
				_exit(1);
		sw = switches() - sw0;
		_exit(xwrite(ba[1], &sw, sizeof(sw)) ? 1 : 0);
	}
	if (xwrite(ab[1], &c, 1) || xread(ba[0], &c, 1))
		return 1;
	sw0 = switches();
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (xwrite(ab[1], &c, 1) || xread(ba[0], &c, 1))
			return 1;
	t1 = now_ns();
	sw = switches() - sw0;
	if (xread(ba[0], &child_sw, sizeof(child_sw)) ||
	    waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	printf("%llu %ld\n", t1 - t0, sw + child_sw);
	return 0;
}
