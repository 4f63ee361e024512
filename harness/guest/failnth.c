// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - run one file system operation with its N-th fault
 * injection point failed (/proc/thread-self/fail-nth), and say whether
 * the fault was injected.
 *
 * Usage:
 *   failnth N mkdir DIR
 *   failnth N rmdir DIR
 *   failnth N write FILE STRING     open(O_WRONLY|O_TRUNC) first, then
 *                                   write(STRING) + close() are the op
 *   failnth N append FILE STRING    the same with O_APPEND, no O_TRUNC
 *   failnth N close FILE STRING     open and write(STRING) first (must
 *                                   succeed), close() alone is the op:
 *                                   set_ftrace_filter applies at close
 *
 * N = 0 injects nothing. Everything the tool needs (fail-nth, the file)
 * is opened before N is written to fail-nth, so that the count starts
 * at the operation itself; fail-nth is read back through the same fd
 * and reset to 0 right after the operation.
 *
 * Prints one line: "<ret> <errno name|OK> <injected 0|1> <points used>"
 *   ret       0, or -1 if the operation (write or close) failed
 *   injected  1 if the N-th point was reached (remaining count 0)
 *   used      fault injection points the operation went through, exact
 *             when not injected (N - remaining), N when injected
 * Exit status: 0 when the line was printed, 2 on a usage or setup error.
 *
 * Fault injection points are the allocations that failslab and
 * fail_page_alloc consider (see their ignore-gfp-wait, min-order...).
 * Build: gcc -O2 -static -Wall -o failnth failnth.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail_fd = -1;

static void usage(void)
{
	fprintf(stderr,
		"usage: failnth N mkdir|rmdir DIR\n"
		"       failnth N write|append|close FILE STRING\n");
	exit(2);
}

static int set_nth(unsigned long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", n);

	return pwrite(fail_fd, buf, len, 0) == len ? 0 : -1;
}

static long get_nth(void)
{
	char buf[32];
	ssize_t len = pread(fail_fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		return -1;
	buf[len] = '\0';
	return strtol(buf, NULL, 10);
}

int main(int argc, char **argv)
{
	const char *op, *path, *str = NULL;
	int fd = -1, ret, err = 0;
	unsigned long n;
	long left;
	char *end;

	if (argc < 4)
		usage();
	n = strtoul(argv[1], &end, 10);
	if (*end || n > 0x7fffffffUL)
		usage();
	op = argv[2];
	path = argv[3];

	fail_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_fd < 0) {
		perror("failnth: /proc/thread-self/fail-nth");
		return 2;
	}

	if (!strcmp(op, "mkdir") || !strcmp(op, "rmdir")) {
		if (argc != 4)
			usage();
	} else if (!strcmp(op, "write") || !strcmp(op, "append") ||
		   !strcmp(op, "close")) {
		if (argc != 5)
			usage();
		str = argv[4];
		fd = open(path, O_WRONLY |
			  (!strcmp(op, "append") ? O_APPEND : O_TRUNC));
		if (fd < 0) {
			fprintf(stderr, "failnth: open %s: %s\n", path,
				strerror(errno));
			return 2;
		}
		if (!strcmp(op, "close") &&
		    write(fd, str, strlen(str)) != (ssize_t)strlen(str)) {
			fprintf(stderr, "failnth: write %s: %s\n", path,
				strerror(errno));
			return 2;
		}
	} else {
		usage();
	}

	/* From here to get_nth(): the operation and nothing else. */
	if (set_nth(n)) {
		perror("failnth: write fail-nth");
		return 2;
	}
	if (!strcmp(op, "mkdir")) {
		ret = mkdir(path, 0755);
		err = errno;
	} else if (!strcmp(op, "rmdir")) {
		ret = rmdir(path);
		err = errno;
	} else if (!strcmp(op, "close")) {
		ret = close(fd);
		err = errno;
	} else {
		ssize_t len = write(fd, str, strlen(str));

		ret = 0;
		if (len < 0) {
			ret = -1;
			err = errno;
		} else if (len != (ssize_t)strlen(str)) {
			ret = -1;
			err = EIO;	/* a short write: call it EIO */
		}
		if (close(fd) && !ret) {
			ret = -1;
			err = errno;
		}
	}
	left = get_nth();
	set_nth(0);

	if (left < 0) {
		fprintf(stderr, "failnth: read fail-nth failed\n");
		return 2;
	}
	printf("%d %s %d %lu\n", ret, ret ? strerrorname_np(err) : "OK",
	       n && !left, n ? n - left : 0);
	return 0;
}
