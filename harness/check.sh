#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make check [TESTS="files or dirs"]`: build the check kernel, boot it and
# run every test, then export the series and checkpatch it. Ends with one
# line 'N passed, N failed, N skipped' and exits non-zero on any failure.
. "$(dirname "$0")/common.sh"

RESULTS=$OUT/check-results.txt
TIMES=$OUT/check-times.txt
: > "$RESULTS"
: > "$TIMES"
T_ALL=$(now)

. "$TOP/harness/phases.sh"

# The debug kernel (KASAN, KFENCE, kmemleak, fault injection) and the
# guest helpers of the torture phase.
build_debug() {
	phase build-debug "$TOP/harness/build.sh" debug ||
		{ fail_phase build-debug "kernel build failed"; return 1; }
	phase initramfs-debug "$TOP/harness/initramfs.sh" debug ||
		{ fail_phase initramfs-debug "failed"; return 1; }
	mkdir -p "$OUT/guest-bin"
	gcc -O2 -static -Wall -o "$OUT/guest-bin/failnth" \
		"$TOP/harness/guest/failnth.c" &&
	gcc -O2 -static -Wall -o "$OUT/guest-bin/fdbench" \
		"$TOP/harness/bench/fdbench.c" ||
		{ fail_phase build-debug "cannot build the guest helpers"; return 1; }
}

# The torture phase: fault injection, the torture loop and a kmemleak
# scan on the debug kernel, with NMIs injected from the host. Its size:
# the guest scripts' defaults, or TORTURE_ITERS, TORTURE_SEED and
# FAULTS_DENSE/SAMPLES/TAIL from the environment (make torture).
torture_phase() {
	mkdir -p "$OUT/guestfiles-torture"
	for v in TORTURE_ITERS TORTURE_SEED FAULTS_DENSE FAULTS_SAMPLES FAULTS_TAIL; do
		eval "val=\$$v"
		[ -n "$val" ] && echo "$v=$val"
	done > "$OUT/guestfiles-torture/torture.env"
	KERNEL=debug GUESTFILES=$OUT/guestfiles-torture \
		TIMEOUT=${TORTURE_TIMEOUT:-1800} NMI_INTERVAL=2 \
		phase torture boot_phase torture \
		"$TOP/harness/guest/robustness.sh" \
		"$OUT/guest-bin/failnth" "$OUT/guest-bin/fdbench"
	grep -h '^\(TORTURE\|FAULTS\|KMEMLEAK\|HARNESS: TIME\)' \
		"$LOGS/check-torture.out"
	echo "NMIs injected: $(cat "$LOGS/check-torture.nmi" 2>/dev/null || echo 0)"
}

# funcdur's exports, left by the tests of boot phase $1, read by their
# consumers on the host (harness/exports.py: promtool, node_exporter and
# Prometheus); $2...: the files that phase's tests must have left.
exports_phase() {	# phase [required files]
	ex=$1
	shift
	req=""
	for r in "$@"; do
		req="$req --require $r"
	done
	# shellcheck disable=SC2086
	phase exports python3 "$TOP/harness/exports.py" --log "$LOGS/check-$ex.out" \
		--dir "$OUT/exports-$ex" --tools "$OUT/consumers" --results "$RESULTS" $req
}

phase deps "$TOP/harness/deps.sh" || { fail_phase deps "apt-get failed"; summary; }
# `make torture` (TESTS=torture) needs only the debug kernel.
if [ "$(echo $TESTS)" = torture ]; then
	build_debug && torture_phase
	summary
fi
# VANILLA=1 with TESTS=...: run the tests on the unpatched base's check
# kernel instead (a fix's reproducer must fail there).
if [ -n "$VANILLA" ]; then
	[ -n "$TESTS" ] || { fail_phase selected "VANILLA=1 needs TESTS=..."; summary; }
	export KERNEL=vanilla-check
	phase build "$TOP/harness/build.sh" check vanilla || { fail_phase build "kernel build failed"; summary; }
	phase initramfs "$TOP/harness/initramfs.sh" vanilla-check || { fail_phase initramfs "failed"; summary; }
else
	phase build "$TOP/harness/build.sh" check || { fail_phase build "kernel build failed"; summary; }
	phase initramfs "$TOP/harness/initramfs.sh" check || { fail_phase initramfs "failed"; summary; }
fi

series_tests > "$OUT/series-tests"
mkdir -p "$OUT/guestfiles"

if [ -n "$TESTS" ]; then
	others=""
	boots=""
	: > "$OUT/guestfiles/boot-tests"
	torture=""
	for t in $TESTS; do
		[ "$t" = torture ] && { torture=1; continue; }
		[ -e "$t" ] || { fail_phase selected "no such test: $t"; summary; }
		case $t in
		*/func-duration-boot*.tc|*/boot-*.tc) boots="$boots $t";;
		*)	others="$others $t";;
		esac
	done
	if [ -n "$others" ]; then
		TIMEOUT=1200 phase selected boot_phase selected \
			"$TOP/harness/guest/ftracetest.sh" $others
		exports_phase selected
	fi
	[ -n "$boots" ] && GUESTFILES=$OUT/guestfiles TIMEOUT=900 \
		boot_tracing_phase boot $boots
	[ -n "$torture" ] && build_debug && torture_phase
	summary
fi

# The boot-time tracing tests run in a boot of their own (below), the
# others in the main boot.
split_boot_tests "$OUT/series-tests" "$OUT/guestfiles"

# The upstream suite is the regression guard: it runs on the
# production-like kernel (under lockdep and single-threaded TCG it would
# take hours), in a guest of its own, in parallel with the check boots.
phase build-prod "$TOP/harness/build.sh" prod || { fail_phase build-prod "kernel build failed"; summary; }
phase initramfs-prod "$TOP/harness/initramfs.sh" prod || { fail_phase initramfs-prod "failed"; summary; }
# Built before the upstream suite starts: a build beside it would slow
# its time-bounded tests.
build_debug || summary
mkdir -p "$OUT/guestfiles-upstream"
cp "$OUT/guestfiles/series-tests" "$OUT/guestfiles-upstream/"
cp "$UPSTREAM_SKIP" "$OUT/guestfiles-upstream/upstream-skip"
echo upstream > "$OUT/guestfiles-upstream/suite"
echo series > "$OUT/guestfiles/suite"
(
	t0=$(now)
	RUN=check-upstream GUESTFILES=$OUT/guestfiles-upstream TIMEOUT=2400 \
		"$TOP/harness/boot.sh" prod "$TOP/harness/guest/ftracetest.sh" \
		> "$OUT/upstream-boot.log" 2>&1
	echo $? > "$OUT/upstream-boot.rc"
	echo "upstream (in parallel) $(($(now) - t0))s" >> "$TIMES"
) &
upstream_pid=$!

# The check kernel: boot-time selftests and KUnit run before init, then
# this series' ftracetest tests.
GUESTFILES=$OUT/guestfiles TIMEOUT=2400 phase ftracetest \
	boot_phase ftracetest "$TOP/harness/guest/ftracetest.sh"
exports_phase ftracetest funcdur-top.prom funcdur-top.folded funcdur-trace.folded \
	funcdur-trace.json funcdur-record.json
# A boot with boot-time tracing on the command line and in bootconfig.
[ -s "$OUT/guestfiles/boot-tests" ] &&
	GUESTFILES=$OUT/guestfiles TIMEOUT=900 boot_tracing_phase boot
torture_phase

say "=== waiting for the upstream suite (log: $LOGS/check-upstream.out)"
wait $upstream_pid
rc=$(cat "$OUT/upstream-boot.rc")
[ "$rc" -ne 0 ] && { fail_phase upstream "guest exited with status $rc"; cat "$OUT/upstream-boot.log" | tail -20; }
report_phase upstream
export SERIES_CHECK=1
if phase series "$TOP/harness/series.sh"; then
	echo "PASS series: exported, applied with git am, checkpatch --strict clean" >> "$RESULTS"
else
	fail_phase series "export, git am or checkpatch failed (see above)"
fi
summary
