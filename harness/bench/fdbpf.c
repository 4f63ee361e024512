// SPDX-License-Identifier: GPL-2.0
/*
 * fdbpf: load the BPF peers of `make bench` (fdbpf.bpf.o) on functions.
 *
 *   fdbpf fentry|kprobe|fsession OBJ READY_FILE FUNC...
 *
 * fentry, kprobe: opens OBJ once per FUNC (one funclatency per function,
 * each with its own maps), attaches fentry+fexit or kprobe+kretprobe to
 * it. fsession: opens OBJ once and attaches its fsession program to every
 * FUNC with one tracing-multi link. Then it creates READY_FILE and waits
 * for SIGINT or SIGTERM, prints "fdbpf <func> <calls>", the calls each
 * histogram counted ("fdbpf <func>,<func>... <calls>" for fsession's
 * single histogram), and exits. Built on the libbpf of the 7.3 tree:
 * Debian 12's knows neither fsession nor tracing-multi links.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
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

/* OBJ opened with only the programs named first and second (or NULL) to load */
static struct bpf_object *open_for(const char *path, const char *first,
				   const char *second)
{
	struct bpf_program *prog;
	struct bpf_object *obj;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "fdbpf: cannot open %s\n", path);
		return NULL;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, !strcmp(bpf_program__name(prog), first) ||
					  (second && !strcmp(bpf_program__name(prog), second)));
	return obj;
}

static struct bpf_object *load(const char *path, int fentry, const char *func)
{
	const char *enter = fentry ? "fd_fentry" : "fd_kprobe";
	const char *leave = fentry ? "fd_fexit" : "fd_kretprobe";
	struct bpf_program *p_enter, *p_leave;
	struct bpf_object *obj;

	obj = open_for(path, enter, leave);
	if (!obj)
		return NULL;
	p_enter = bpf_object__find_program_by_name(obj, enter);
	p_leave = bpf_object__find_program_by_name(obj, leave);
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

/*
 * The kernel module that defines func, from /proc/kallsyms, into mod
 * ("" for the kernel's own); false if func is not there.
 */
static int func_module(const char *func, char *mod, size_t size)
{
	char line[512], name[256], m[128];
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		m[0] = 0;
		if (sscanf(line, "%*s %*s %255s [%127[^]]]", name, m) < 1 ||
		    strcmp(name, func))
			continue;
		snprintf(mod, size, "%s", m);
		found = 1;
	}
	fclose(f);
	return found;
}

/*
 * fsession: one object, one program on one tracing-multi link over every
 * function, which must all be the kernel's or all the bench module's.
 */
static struct bpf_object *load_session(const char *path, char **funcs, int n)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	struct btf *vmlinux = NULL, *btf = NULL;
	char mod[128] = "", m[128];
	const char *name;
	struct bpf_program *prog;
	struct bpf_object *obj;
	__u32 ids[MAX_FUNCS];
	int i, id;

	for (i = 0; i < n; i++) {
		if (!func_module(funcs[i], m, sizeof(m))) {
			fprintf(stderr, "fdbpf: %s is not in /proc/kallsyms\n", funcs[i]);
			return NULL;
		}
		if (i && strcmp(m, mod)) {
			fprintf(stderr, "fdbpf: fsession: %s is not in %s\n",
				funcs[i], mod[0] ? mod : "the kernel");
			return NULL;
		}
		strcpy(mod, m);
	}
	if (mod[0] && strcmp(mod, "fdur_bench")) {
		fprintf(stderr, "fdbpf: fsession: no program for module %s\n", mod);
		return NULL;
	}
	vmlinux = btf__load_vmlinux_btf();
	btf = mod[0] && vmlinux ? btf__load_module_btf(mod, vmlinux) : vmlinux;
	if (!btf) {
		fprintf(stderr, "fdbpf: no BTF for %s\n", mod[0] ? mod : "vmlinux");
		btf__free(vmlinux);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		id = btf__find_by_name_kind(btf, funcs[i], BTF_KIND_FUNC);
		if (id <= 0) {
			fprintf(stderr, "fdbpf: no BTF for %s\n", funcs[i]);
			break;
		}
		ids[i] = id;
	}
	if (btf != vmlinux)
		btf__free(btf);
	btf__free(vmlinux);
	if (i < n)
		return NULL;

	name = mod[0] ? "fd_fsession_fdur_bench" : "fd_fsession";
	obj = open_for(path, name, NULL);
	if (!obj)
		return NULL;
	prog = bpf_object__find_program_by_name(obj, name);
	if (bpf_object__load(obj)) {
		fprintf(stderr, "fdbpf: cannot load %s\n", path);
		goto fail;
	}
	opts.ids = ids;
	opts.cnt = n;
	if (!bpf_program__attach_tracing_multi(prog, NULL, &opts)) {
		fprintf(stderr, "fdbpf: cannot attach fsession: %s\n", strerror(errno));
		goto fail;
	}
	return obj;
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
	int i, n = argc - 4, fentry, session, nobj;
	FILE *ready;

	if (argc < 5 || n > MAX_FUNCS || (strcmp(argv[1], "fentry") &&
	    strcmp(argv[1], "kprobe") && strcmp(argv[1], "fsession"))) {
		fprintf(stderr, "usage: fdbpf fentry|kprobe|fsession OBJ READY_FILE FUNC...\n");
		return 2;
	}
	fentry = !strcmp(argv[1], "fentry");
	session = !strcmp(argv[1], "fsession");
	libbpf_set_print(print_all);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	nobj = session ? 1 : n;
	for (i = 0; i < nobj; i++) {
		objs[i] = session ? load_session(argv[2], argv + 4, n) :
				    load(argv[2], fentry, argv[4 + i]);
		if (!objs[i])
			return 1;
	}
	ready = fopen(argv[3], "w");
	if (!ready)
		return 1;
	fclose(ready);
	while (!stop)
		pause();
	for (i = 0; i < nobj; i++) {
		printf("fdbpf ");
		if (session)
			for (int j = 0; j < n; j++)
				printf("%s%s", j ? "," : "", argv[4 + j]);
		else
			printf("%s", argv[4 + i]);
		printf(" %llu\n", counted(objs[i]));
		bpf_object__close(objs[i]);
	}
	return 0;
}
