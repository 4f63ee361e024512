#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run ftracetest in the guest.
#  - files under /extra (make check TESTS=...): just those;
#  - otherwise /harness/suite says which: "series" runs this series' tests
#    (listed in /harness/series-tests: its selftests under test.d and
#    the project's own tests under /harness/tests), "upstream" the rest
#    of test.d, "all" (the default) both.
cd /ftrace || exit 1

# The files tests leave in /tmp/harness-exports (funcdur's exports), for
# the programs that read them on the host (harness/exports.py): gzip,
# then base64, between two lines.
print_exports() {
	for f in /tmp/harness-exports/*; do
		[ -f "$f" ] || continue
		echo "HARNESS: EXPORT ${f##*/}"
		gzip -c "$f" | base64
		echo "HARNESS: EXPORT END"
	done
}

if [ -n "$(ls /extra 2>/dev/null)" ]; then
	echo "HARNESS: SUITE selected"
	./ftracetest -v -l /tmp/ftlog-selected /extra/* | cat
	print_exports
	exit 0
fi
suite=$(cat /harness/suite 2>/dev/null)
series=$(cat /harness/series-tests 2>/dev/null)
if [ -n "$series" ] && [ "$suite" != upstream ]; then
	echo "HARNESS: SUITE series"
	./ftracetest -v -l /tmp/ftlog-series $series | cat
	print_exports
fi
[ "$suite" = series ] && exit 0
upstream=$(find test.d -name '*.tc' | sort | while read -r t; do
	echo "$series" | grep -qx "$t" || echo "$t"
done)
# One ftracetest run per upstream test, each bounded: a few upstream
# tests (those cycling every tracer through module loads) wait on
# RCU-tasks grace periods that take tens of seconds under TCG. A test cut
# off is reported as TIMEOUT, with the time every test took.
limit=$(cat /harness/test-timeout 2>/dev/null || echo 150)

# One bounded ftracetest run of test $t: its output in /tmp/ft.out, its
# time in $took.
run_one() {
	start=$(date +%s)
	setsid ./ftracetest -l /tmp/ftlog-upstream "$t" > /tmp/ft.out 2>&1 &
	pid=$!
	( sleep "$limit"; kill -KILL -- "-$pid" 2>/dev/null ) &
	dog=$!
	wait $pid
	kill $dog 2>/dev/null
	wait $dog 2>/dev/null
	took=$(($(date +%s) - start))
}

echo "HARNESS: SUITE upstream"
for t in $upstream; do
	# Run already, in an earlier boot that crashed (vanilla-baseline.sh)
	grep -qx "$t" /harness/upstream-done 2>/dev/null && continue
	if grep -q "^$t " /harness/upstream-skip 2>/dev/null; then
		echo "[0] $(sed -n 's/^# description: *//p' "$t")	[UNTESTED]"
		continue
	fi
	echo "HARNESS: START $t"
	run_one
	# A few upstream tests measure time (the latency tracers expect a
	# 500 ms section to show as 500-599 ms), which a loaded host can
	# stretch under TCG: a failed test runs once more. The first
	# result stays in the log, and report.py never counts a test that
	# passed only the second time as a pass.
	if grep -q '\[FAIL\]' /tmp/ft.out && [ "$took" -lt "$limit" ]; then
		grep -E '^\[[0-9]+\]' /tmp/ft.out | sed 's/^/HARNESS: FIRST RUN: /'
		echo "HARNESS: RETRY $t"
		run_one
	fi
	grep -E '^\[[0-9]+\]' /tmp/ft.out
	if [ "$took" -ge "$limit" ]; then
		desc=$(sed -n 's/^# description: *//p' "$t")
		echo "[0] $desc	[TIMEOUT]"
		# Leave no tracer, instance or module of the killed test behind:
		# a function tracer left on in an instance slows every later test.
		for d in /sys/kernel/tracing/instances/*; do
			[ -d "$d" ] || continue
			echo nop > "$d/current_tracer"
			rmdir "$d"
		done
		echo nop > /sys/kernel/tracing/current_tracer
		for m in $(lsmod 2>/dev/null | awk 'NR > 1 { print $1 }'); do
			rmmod "$m" 2>/dev/null
		done
	fi
	echo "HARNESS: TIME $took $t"
done
exit 0
