// SPDX-License-Identifier: GPL-2.0
/*
 * fdbpf: load the BPF peers of `make bench` (fdbpf.bpf.o) on functions.
 *
 *   fdbpf fentry|kprobe OBJ READY_FILE FUNC...
 *
 * Opens OBJ once per FUNC (one funclatency per function, each with its own
 * maps), attaches fentry+fexit or kprobe+kretprobe to it, creates
 * READY_FILE, and waits for SIGINT or SIGTERM. Then it prints
 * "fdbpf <func> <calls>", the calls each histogram counted, and exits.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define MAX_FUNCS	16
#define MAX_SLOTS	64

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* FDBPF_DEBUG set: libbpf's debug messages too */
static int print_all(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !getenv("FDBPF_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static struct bpf_object *load(const char *path, int fentry, const char *func)
{
	const char *enter = fentry ? "fd_fentry" : "fd_kprobe";
	const char *leave = fentry ? "fd_fexit" : "fd_kretprobe";
	struct bpf_program *prog, *p_enter, *p_leave;
	struct bpf_object *obj;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "fdbpf: cannot open %s\n", path);
		return NULL;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, false);
	p_enter = bpf_object__find_program_by_name(obj, enter);
	p_leave = bpf_object__find_program_by_name(obj, leave);
	bpf_program__set_autoload(p_enter, true);
	bpf_program__set_autoload(p_leave, true);
	if (fentry && (bpf_program__set_attach_target(p_enter, 0, func) ||
		       bpf_program__set_attach_target(p_leave, 0, func))) {
		fprintf(stderr, "fdbpf: no BTF for %s\n", func);
		goto fail;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "fdbpf: cannot load %s for %s\n", path, func);
		goto fail;
	}
	if (fentry) {
		if (!bpf_program__attach(p_enter) || !bpf_program__attach(p_leave))
			goto fail_attach;
	} else {
		if (!bpf_program__attach_kprobe(p_enter, false, func) ||
		    !bpf_program__attach_kprobe(p_leave, true, func))
			goto fail_attach;
	}
	return obj;
fail_attach:
	fprintf(stderr, "fdbpf: cannot attach to %s: %s\n", func, strerror(errno));
fail:
	bpf_object__close(obj);
	return NULL;
}

static unsigned long long counted(struct bpf_object *obj)
{
	struct bpf_map *bss = bpf_object__find_map_by_name(obj, ".bss");
	unsigned int hist[MAX_SLOTS];
	unsigned long long n = 0;
	int key = 0, i;

	if (!bss || bpf_map_lookup_elem(bpf_map__fd(bss), &key, hist))
		return 0;
	for (i = 0; i < MAX_SLOTS; i++)
		n += hist[i];
	return n;
}

int main(int argc, char **argv)
{
	struct bpf_object *objs[MAX_FUNCS];
	int i, n = argc - 4, fentry;
	FILE *ready;

	if (argc < 5 || n > MAX_FUNCS ||
	    (strcmp(argv[1], "fentry") && strcmp(argv[1], "kprobe"))) {
		fprintf(stderr, "usage: fdbpf fentry|kprobe OBJ READY_FILE FUNC...\n");
		return 2;
	}
	fentry = !strcmp(argv[1], "fentry");
	libbpf_set_print(print_all);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (i = 0; i < n; i++) {
		objs[i] = load(argv[2], fentry, argv[4 + i]);
		if (!objs[i])
			return 1;
	}
	ready = fopen(argv[3], "w");
	if (!ready)
		return 1;
	fclose(ready);
	while (!stop)
		pause();
	for (i = 0; i < n; i++) {
		printf("fdbpf %s %llu\n", argv[4 + i], counted(objs[i]));
		bpf_object__close(objs[i]);
	}
	return 0;
}
