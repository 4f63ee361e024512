// SPDX-License-Identifier: GPL-2.0
/*
 * Guest helper of `make bench`, timed with CLOCK_MONOTONIC (under QEMU
 * -icount shift=0 a guest nanosecond is one instruction):
 *
 *   fdbench getppid N        N getppid() system calls; prints the ns
 *   fdbench exec CMD ARGS... runs CMD, waits for it; prints the ns
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1;

	if (argc >= 3 && !strcmp(argv[1], "getppid")) {
		long i, n = atol(argv[2]);

		t0 = now_ns();
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		t1 = now_ns();
	} else if (argc >= 3 && !strcmp(argv[1], "exec")) {
		int status;
		pid_t pid;

		t0 = now_ns();
		pid = fork();
		if (pid == 0) {
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
		t1 = now_ns();
	} else {
		fprintf(stderr, "usage: fdbench getppid N | exec CMD [ARGS...]\n");
		return 2;
	}
	printf("%llu\n", t1 - t0);
	return 0;
}
