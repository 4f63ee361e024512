#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`: the cost per traced call of function_duration against
# every other way to time a kernel function, measured under QEMU -icount
# shift=0,sleep=off, where a guest nanosecond is one instruction and
# repeats exactly: one boot of the series' bench kernel (Debian's hot-path
# options, harness/config/bench.config) and one of the unpatched base
# built with the same config (its lines are named bench-vanilla). A third
# boot, of the series under plain TCG, gives wall-clock figures, for
# reference only. Then the main tables (syscall and nested) once more
# in one icount boot of each kernel with mitigations=off, and in one on
# a CPU model that the kernel mitigates as it does real hardware (QEMU's
# default CPU says it is not affected by the return-based issues).
#
# Writes $OUT/bench/report.md and the raw lines to $OUT/bench/, and prints
# the report. Workloads, modes and the guest side: harness/guest/bench.sh.
#
# Environment, passed to the guest in bench.conf: BENCH_ONLY (the parts to
# run, default "syscall nested system switch users memory streaming
# ringbuffer"),
# REPS, USERS_REPS, USERS_K, SWITCH_N (round trips of the switch
# workload). NO_VANILLA=1 skips the unpatched base, NO_TCG=1 the
# wall-clock boot (for measuring one change against the last run),
# NO_NOMIT=1 the mitigations=off boots. MITIGATED_CPU: the QEMU CPU
# model of the mitigated boots (default EPYC-Rome, an AMD Zen 2: the
# kernel puts its untrained return thunk on every return); empty skips
# them.
# The users workload (k concurrent function-graph users) runs only in the
# icount boots: its figures are ratios of exact counts.
# BENCH_UPDATES=1 adds a boot that times filter updates with 16 users
# (harness/guest/bench-updates.sh).
. "$(dirname "$0")/common.sh"

B=$OUT/bench
KERNELS="bench"
[ -n "$NO_VANILLA" ] || KERNELS="bench vanilla-bench"
for k in $KERNELS; do
	t0=$(now)
	v=""
	[ $k = vanilla-bench ] && v=vanilla
	"$TOP/harness/build.sh" bench $v || exit 1
	"$TOP/harness/initramfs.sh" $k || exit 1
	say "$k kernel and initramfs: $(($(now) - t0))s"
done

rm -rf "$B"
for k in $KERNELS; do
	# The nested-calls workload: an out-of-tree module built against
	# each kernel (a copy, so that no build output lands in the repo).
	mkdir -p "$B/mod-$k"
	cp "$TOP/harness/bench/fdur_bench.c" "$TOP/harness/bench/Kbuild" "$B/mod-$k/"
	make -s -C "$OUT/obj-$k" M="$B/mod-$k" modules > "$LOGS/build-bench-mod-$k.log" 2>&1 ||
		die "cannot build the benchmark module (see $LOGS/build-bench-mod-$k.log)"
done
gcc -O2 -static -o "$B/fdbench" "$TOP/harness/bench/fdbench.c" ||
	die "cannot build fdbench"
# The context-switch workload: two processes ping-ponging over pipes.
gcc -O2 -Wall -static -o "$B/fdswitch" "$TOP/harness/bench/fdswitch.c" ||
	die "cannot build fdswitch"
# The BPF peers: a funclatency-shaped object and its loader, on the
# libbpf of the base's tools/ (fsession and tracing-multi links are 7.x's).
LIBBPF=$OUT/libbpf
mkdir -p "$LIBBPF"
make -s -C "$PRISTINE/tools/lib/bpf" OUTPUT="$LIBBPF/" DESTDIR="$LIBBPF/root" \
	prefix=/usr BUILD_STATIC_ONLY=1 install_headers "$LIBBPF/libbpf.a" \
	> "$LOGS/build-libbpf.log" 2>&1 ||
	die "cannot build the base's libbpf (see $LOGS/build-libbpf.log)"
clang -O2 -g -target bpf -I"$LIBBPF/root/usr/include" \
	-I/usr/include/x86_64-linux-gnu \
	-c "$TOP/harness/bench/fdbpf.bpf.c" -o "$B/fdbpf.bpf.o" ||
	die "cannot build fdbpf.bpf.o"
gcc -O2 -Wall -static -I"$LIBBPF/root/usr/include" -o "$B/fdbpf" \
	"$TOP/harness/bench/fdbpf.c" "$LIBBPF/libbpf.a" -lelf -lz -lzstd ||
	die "cannot build fdbpf"

bench_conf() { # kind: the guest's knobs
	only=${BENCH_ONLY:-syscall nested system switch users memory streaming ringbuffer}
	[ $1 = tcg ] && only=$(echo " $only " | sed 's/ users / /; s/ streaming / /')
	case $1 in *-nomit|*-cpu)
		only=$(for p in $only; do
			case $p in syscall|nested) echo $p;; esac; done | tr '\n' ' ');;
	esac
	echo "BENCH_ONLY=\"$only\""
	for v in REPS USERS_REPS USERS_K SWITCH_N; do
		eval "x=\${$v:-}"
		if [ -n "$x" ]; then echo "$v=\"$x\""; fi
	done
}

BOOTS="icount"
[ -n "$NO_VANILLA" ] || BOOTS="$BOOTS vanilla"
[ -n "$NO_TCG" ] || BOOTS="$BOOTS tcg"
if [ -z "$NO_NOMIT" ]; then
	BOOTS="$BOOTS icount-nomit"
	[ -n "$NO_VANILLA" ] || BOOTS="$BOOTS vanilla-nomit"
fi
MITIGATED_CPU=${MITIGATED_CPU-EPYC-Rome}
if [ -n "$MITIGATED_CPU" ]; then
	BOOTS="$BOOTS icount-cpu"
	[ -n "$NO_VANILLA" ] || BOOTS="$BOOTS vanilla-cpu"
fi
for kind in $BOOTS; do
	t0=$(now)
	say "boot ($kind)"
	k=bench icount=1 append="" cpu=""
	case $kind in vanilla*) k=vanilla-bench;; esac
	[ $kind = tcg ] && icount=""
	case $kind in *-nomit) append=mitigations=off;; esac
	case $kind in *-cpu) cpu=$MITIGATED_CPU;; esac
	mkdir -p "$B/conf-$kind"
	bench_conf $kind > "$B/conf-$kind/bench.conf"
	QEMU_CPU=$cpu APPEND=$append ICOUNT=$icount RUN=bench-$kind TIMEOUT=2400 "$TOP/harness/boot.sh" $k \
		"$TOP/harness/guest/bench.sh" "$B/mod-$k/fdur_bench.ko" "$B/fdbench" \
		"$B/fdbpf" "$B/fdbpf.bpf.o" "$B/fdswitch" "$B/conf-$kind/bench.conf" \
		> "$B/$kind.out" 2>&1
	rc=$?
	grep -q '^HARNESS: END rc=0' "$B/$kind.out" && [ $rc -eq 0 ] ||
		die "bench boot ($kind) failed (rc $rc): see $B/$kind.out and $LOGS/bench-$kind.console"
	say "boot ($kind) took $(($(now) - t0))s"
done

# Optional (BENCH_UPDATES=1, about 2 more minutes): what one filter update
# costs with 16 function-graph users, in instructions.
if [ -n "$BENCH_UPDATES" ]; then
	say "boot (icount, filter updates)"
	ICOUNT=1 RUN=bench-updates TIMEOUT=1500 "$TOP/harness/boot.sh" bench \
		"$TOP/harness/guest/bench-updates.sh" "$B/fdbench" > "$B/updates.out" 2>&1 ||
		die "bench boot (updates) failed: see $B/updates.out"
fi

python3 "$TOP/harness/bench-report.py" "$B/icount.out" "$B/tcg.out" \
	"$B/vanilla.out" "$B/icount-nomit.out" "$B/vanilla-nomit.out" \
	"$B/icount-cpu.out" "$B/vanilla-cpu.out" "$MITIGATED_CPU" \
	> "$B/report.md" || die "cannot write the report"
cat "$B/report.md"
grep '^bench ' "$B/icount.out" | cut -d' ' -f1-4
[ -f "$B/vanilla.out" ] &&
	grep '^bench ' "$B/vanilla.out" | cut -d' ' -f1-4 | sed 's/^bench /bench-vanilla /'
grep '^stream ' "$B/icount.out" "$B/vanilla.out" 2>/dev/null
grep '^rb ' "$B/icount.out" "$B/vanilla.out" 2>/dev/null
[ -f "$B/updates.out" ] && grep '^update \|^mem functions' "$B/updates.out"
say "report: $B/report.md (raw: $B/icount.out, $B/tcg.out)"
