// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF peers of `make bench`, in the shape of libbpf-tools'
 * funclatency: on entry, the start time per task in a hash map; on
 * return, the duration into a log2 histogram. fentry/fexit is
 * funclatency's default; kprobe/kretprobe is bcc's funclatency and
 * bpftrace's form. The loader, fdbpf.c, opens this
 * object once per traced function, as one funclatency per function.
 *
 * fsession (7.0) is the newest shape: one program runs at entry and at
 * exit of a call, with a per-call cookie on the trampoline's stack for
 * the start time (no map), and a tracing-multi link (7.2) attaches it to
 * every measured function at once. The loader opens the object once for
 * all of them.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

extern bool bpf_session_is_return(void *ctx) __ksym;
extern __u64 *bpf_session_cookie(void *ctx) __ksym;

#define MAX_SLOTS	64

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} starts SEC(".maps");

__u32 hist[MAX_SLOTS] = {};

static __always_inline int entry(void)
{
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	__u64 nsec = bpf_ktime_get_ns();

	bpf_map_update_elem(&starts, &pid, &nsec, BPF_ANY);
	return 0;
}

/* log2 without a loop, as funclatency's bits.bpf.h (bit twiddling hacks) */
static __always_inline __u64 log2_32(__u32 v)
{
	__u32 shift, r;

	r = (v > 0xFFFF) << 4;
	v >>= r;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u64 log2l(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_32(hi) + 32 : log2_32(v);
}

static __always_inline int count(__u64 delta)
{
	__u64 slot = log2l(delta);

	if (slot >= MAX_SLOTS)
		slot = MAX_SLOTS - 1;
	__sync_fetch_and_add(&hist[slot], 1);
	return 0;
}

static __always_inline int exit_(void)
{
	__u64 nsec = bpf_ktime_get_ns();
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	__u64 *start;

	start = bpf_map_lookup_elem(&starts, &pid);
	if (!start)
		return 0;
	return count(nsec - *start);
}

static __always_inline int session(void *ctx)
{
	__u64 *start = bpf_session_cookie(ctx);

	if (!bpf_session_is_return(ctx)) {
		*start = bpf_ktime_get_ns();
		return 0;
	}
	return count(bpf_ktime_get_ns() - *start);
}

SEC("fentry")
int fd_fentry(void *ctx)
{
	return entry();
}

SEC("fexit")
int fd_fexit(void *ctx)
{
	return exit_();
}

SEC("kprobe")
int fd_kprobe(void *ctx)
{
	return entry();
}

SEC("kretprobe")
int fd_kretprobe(void *ctx)
{
	return exit_();
}

/*
 * libbpf takes a multi program's BTF object (vmlinux or a module's) from
 * its section name only: one program for the kernel's functions, one for
 * those of the nested workload's module. The loader attaches by BTF id.
 */
SEC("fsession.multi")
int fd_fsession(void *ctx)
{
	return session(ctx);
}

SEC("fsession.multi/fdur_bench:fdb_leaf")
int fd_fsession_fdur_bench(void *ctx)
{
	return session(ctx);
}

char LICENSE[] SEC("license") = "GPL";
