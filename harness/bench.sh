#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`: the cost per traced call of function_duration against
# every other way to time a kernel function, measured in one boot of the
# production-like kernel under QEMU -icount shift=0,sleep=off, where a
# guest nanosecond is one instruction and repeats exactly. A second boot
# under plain TCG gives wall-clock figures, for reference only.
#
# Writes $OUT/bench/report.md and the raw lines to $OUT/bench/, and prints
# the report. Workloads, modes and the guest side: harness/guest/bench.sh.
#
# Environment, passed to the guest in bench.conf: BENCH_ONLY (the parts to
# run, default "syscall nested system users memory"), REPS, USERS_REPS,
# USERS_K. The users workload (k concurrent function-graph users) runs
# only in the icount boot: its figures are ratios of exact counts.
# BENCH_UPDATES=1 adds a boot that times filter updates with 16 users
# (harness/guest/bench-updates.sh).
. "$(dirname "$0")/common.sh"

B=$OUT/bench
"$TOP/harness/build.sh" prod || exit 1
"$TOP/harness/initramfs.sh" prod || exit 1

rm -rf "$B"
mkdir -p "$B/mod"
# The nested-calls workload: an out-of-tree module built against the
# production-like kernel (a copy, so that no build output lands in the repo).
cp "$TOP/harness/bench/fdur_bench.c" "$TOP/harness/bench/Kbuild" "$B/mod/"
make -s -C "$OUT/obj-prod" M="$B/mod" modules > "$LOGS/build-bench-mod.log" 2>&1 ||
	die "cannot build the benchmark module (see $LOGS/build-bench-mod.log)"
gcc -O2 -static -o "$B/fdbench" "$TOP/harness/bench/fdbench.c" ||
	die "cannot build fdbench"

bench_conf() { # kind: the guest's knobs
	only=${BENCH_ONLY:-syscall nested system users memory}
	[ $1 = tcg ] && only=$(echo " $only " | sed 's/ users / /')
	echo "BENCH_ONLY=\"$only\""
	for v in REPS USERS_REPS USERS_K; do
		eval "x=\${$v:-}"
		if [ -n "$x" ]; then echo "$v=\"$x\""; fi
	done
}

for kind in icount tcg; do
	t0=$(now)
	say "boot ($kind)"
	if [ $kind = icount ]; then icount=1; else icount=""; fi
	mkdir -p "$B/conf-$kind"
	bench_conf $kind > "$B/conf-$kind/bench.conf"
	ICOUNT=$icount RUN=bench-$kind TIMEOUT=1500 "$TOP/harness/boot.sh" prod \
		"$TOP/harness/guest/bench.sh" "$B/mod/fdur_bench.ko" "$B/fdbench" \
		"$B/conf-$kind/bench.conf" > "$B/$kind.out" 2>&1
	rc=$?
	grep -q '^HARNESS: END rc=0' "$B/$kind.out" && [ $rc -eq 0 ] ||
		die "bench boot ($kind) failed (rc $rc): see $B/$kind.out and $LOGS/bench-$kind.console"
	say "boot ($kind) took $(($(now) - t0))s"
done

# Optional (BENCH_UPDATES=1, about 2 more minutes): what one filter update
# costs with 16 function-graph users, in instructions.
if [ -n "$BENCH_UPDATES" ]; then
	say "boot (icount, filter updates)"
	ICOUNT=1 RUN=bench-updates TIMEOUT=1500 "$TOP/harness/boot.sh" prod \
		"$TOP/harness/guest/bench-updates.sh" "$B/fdbench" > "$B/updates.out" 2>&1 ||
		die "bench boot (updates) failed: see $B/updates.out"
fi

python3 "$TOP/harness/bench-report.py" "$B/icount.out" "$B/tcg.out" > "$B/report.md" ||
	die "cannot write the report"
cat "$B/report.md"
grep '^bench ' "$B/icount.out" | cut -d' ' -f1-4
[ -f "$B/updates.out" ] && grep '^update \|^mem functions' "$B/updates.out"
say "report: $B/report.md (raw: $B/icount.out, $B/tcg.out)"
