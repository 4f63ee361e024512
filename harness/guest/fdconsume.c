// SPDX-License-Identifier: GPL-2.0
/*
 * A perf and BPF consumer of ftrace/funcduration for the guest's tests,
 * with raw syscalls only (no libbpf in the guest):
 *
 *   fdconsume bpf-count -- CMD ARGS...
 *	attach a BPF tracepoint program to ftrace/funcduration through a
 *	perf event, run CMD, then print one line per function the program
 *	saw: "ADDRESS CALLS FUNCTION", and "# misses N" (the program's runs
 *	that BPF's own recursion guard skipped).
 *
 *   fdconsume perm UID GROUP:EVENT
 *	as UID, open GROUP:EVENT on itself for counting and for raw
 *	samples; print "count OK|ERRNO" and "raw OK|ERRNO".
 *
 * Run as root: the event's id and format are read from tracefs first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#define EVENTS "/sys/kernel/tracing/events/"
#define MAX_FUNCS 8192

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static long read_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long val;

	if (!f || fscanf(f, "%ld", &val) != 1)
		die(path);
	fclose(f);
	return val;
}

/* The offset of FIELD in the event's format file, and its size */
static int field_offset(const char *event, const char *field, int *size)
{
	char path[256], line[512], want[64];
	int off = -1;
	FILE *f;

	snprintf(path, sizeof(path), EVENTS "%s/format", event);
	snprintf(want, sizeof(want), " %s;", field);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want);

		if (p && (p = strstr(p, "offset:"))) {
			off = atoi(p + 7);
			p = strstr(p, "size:");
			*size = p ? atoi(p + 5) : 8;
		}
	}
	fclose(f);
	if (off < 0) {
		fprintf(stderr, "fdconsume: no field %s in %s\n", field, path);
		exit(2);
	}
	return off;
}

/* The text symbol that holds ADDR, from /proc/kallsyms, into NAME */
static void symbol(uint64_t addr, char *name, size_t size)
{
	unsigned long long a, best = 0;
	char line[512], type, sym[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	snprintf(name, size, "?");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 ||
		    (type != 't' && type != 'T') || a > addr || a < best)
			continue;
		best = a;
		snprintf(name, size, "%s", sym);
	}
	fclose(f);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int perf_open(long id, int pid, int cpu, int raw)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = id,
		.disabled = 1,
	};

	if (raw) {
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_RAW;
	}
	return syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
}

/* eBPF instructions, as the kernel's filter.h spells them */
#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX_DW(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define LDX_W(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define ST_DW(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_DW, d, 0, o, i)
#define XADD_DW(d, s, o)	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define JA(o)			INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define LD_MAP_FD(d, fd)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
				INSN(0, 0, 0, 0, 0)

/*
 * counts[entry->func] += 1. A function's first call inserts it with 1;
 * if another CPU inserted it first, look it up again and add.
 */
static int load_counter(int map, int func_off, int func_size)
{
	struct bpf_insn prog[] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),
		/* func is an unsigned long: 4 bytes on 32-bit, zero-extended */
		func_size == 4 ? LDX_W(BPF_REG_1, BPF_REG_6, func_off) :
				 LDX_DW(BPF_REG_1, BPF_REG_6, func_off),
		STX_DW(BPF_REG_10, BPF_REG_1, -8),		/* key */
		ST_DW(BPF_REG_10, -16, 1),			/* first value */
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		LD_MAP_FD(BPF_REG_1, map),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 3),			/* to insert */
		MOV64_IMM(BPF_REG_1, 1),
		XADD_DW(BPF_REG_0, BPF_REG_1, 0),
		JA(17),						/* to out */
		/* insert: */
		LD_MAP_FD(BPF_REG_1, map),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		MOV64_REG(BPF_REG_3, BPF_REG_10),
		ADD64_IMM(BPF_REG_3, -16),
		MOV64_IMM(BPF_REG_4, BPF_NOEXIST),
		CALL(BPF_FUNC_map_update_elem),
		JEQ_IMM(BPF_REG_0, 0, 8),			/* to out */
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		LD_MAP_FD(BPF_REG_1, map),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),			/* to out */
		MOV64_IMM(BPF_REG_1, 1),
		XADD_DW(BPF_REG_0, BPF_REG_1, 0),
		/* out: */
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	static char log[65536];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	attr.insns = (uintptr_t)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		fprintf(stderr, "%s", log);
		die("BPF_PROG_LOAD");
	}
	return fd;
}

static int bpf_count(char **cmd)
{
	long id = read_number(EVENTS "ftrace/funcduration/id");
	int func_size = 8;
	int func_off = field_offset("ftrace/funcduration", "func", &func_size);
	struct bpf_prog_info info;
	union bpf_attr attr;
	uint64_t key, next, val;
	char name[256];
	int map, prog, ev, status;
	pid_t child;
	void *prev;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(val);
	attr.max_entries = MAX_FUNCS;
	map = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map < 0)
		die("BPF_MAP_CREATE");
	prog = load_counter(map, func_off, func_size);

	/* The program runs for the event on every CPU: one perf event holds it */
	ev = perf_open(id, -1, 0, 0);
	if (ev < 0)
		die("perf_event_open");
	if (ioctl(ev, PERF_EVENT_IOC_SET_BPF, prog) || ioctl(ev, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_SET_BPF");

	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		execvp(cmd[0], cmd);
		die(cmd[0]);
	}
	if (waitpid(child, &status, 0) < 0)
		die("waitpid");
	close(ev);	/* detaches the program */

	prev = NULL;
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map;
		attr.key = (uintptr_t)prev;
		attr.next_key = (uintptr_t)&next;
		if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &attr))
			break;
		key = next;
		prev = &key;
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map;
		attr.key = (uintptr_t)&key;
		attr.value = (uintptr_t)&val;
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
			die("BPF_MAP_LOOKUP_ELEM");
		symbol(key, name, sizeof(name));
		printf("%llx %llu %s\n", (unsigned long long)key,
		       (unsigned long long)val, name);
	}

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		die("BPF_OBJ_GET_INFO_BY_FD");
	printf("# misses %llu\n", (unsigned long long)info.recursion_misses);

	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Open EVENT on itself as UID, in a child; return 0 or its errno */
static int try_open(long id, uid_t uid, int raw)
{
	pid_t child = fork();
	int status, fd;

	if (child < 0)
		die("fork");
	if (!child) {
		if (setgid(uid) || setuid(uid))
			die("setuid");
		fd = perf_open(id, 0, -1, raw);
		_exit(fd < 0 ? errno : 0);
	}
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status))
		die("waitpid");
	return WEXITSTATUS(status);
}

static int perm(const char *uid, const char *event)
{
	char path[256], *colon;
	int raw;
	long id;

	snprintf(path, sizeof(path), EVENTS "%s/id", event);
	colon = strchr(path + strlen(EVENTS), ':');
	if (!colon) {
		fprintf(stderr, "fdconsume: GROUP:EVENT expected\n");
		return 2;
	}
	*colon = '/';
	id = read_number(path);
	for (raw = 0; raw <= 1; raw++) {
		int err = try_open(id, atoi(uid), raw);

		printf("%s %s\n", raw ? "raw" : "count", err ? strerrorname_np(err) : "OK");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "bpf-count") && !strcmp(argv[2], "--"))
		return bpf_count(argv + 3);
	if (argc == 4 && !strcmp(argv[1], "perm"))
		return perm(argv[2], argv[3]);
	fprintf(stderr, "usage: fdconsume bpf-count -- CMD [ARGS...]\n"
			"       fdconsume perm UID GROUP:EVENT\n");
	return 2;
}
