#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest script for the boot-time phase: save what the boot-time tracing
# left (top level and every instance) in /tmp/boot-state before
# ftracetest resets it, then run the tests under /extra (make check
# TESTS=...) or else those named in /harness/boot-tests.
T=/sys/kernel/tracing
S=/tmp/boot-state
mkdir -p $S
save() {	# dir prefix
	for f in current_tracer trace set_ftrace_filter; do
		cat "$1/$f" > "$S/$2$f" 2>/dev/null
	done
	for f in threshold_ns stats hist stats_enable stats_max_functions perf_enable breakdown; do
		cat "$1/function_duration/$f" > "$S/$2$f" 2>/dev/null
	done
	for f in filter trigger hist; do
		cat "$1/events/ftrace/funcduration/$f" > "$S/${2}event-$f" 2>/dev/null
	done
}
echo 0 > $T/tracing_on
save $T ""
for d in $T/instances/*; do
	[ -d "$d" ] || continue
	echo 0 > "$d/tracing_on"
	save "$d" "instance-$(basename "$d")-"
done
echo "boot-state: top level tracer $(cat $S/current_tracer)," \
	"$(grep -vc '^#' $S/trace) events, threshold $(cat $S/threshold_ns 2>/dev/null) ns"
cd /ftrace || exit 1
echo "HARNESS: SUITE boot"
if [ -n "$(ls /extra 2>/dev/null)" ]; then
	tests=$(ls -d /extra/*)
else
	tests=$(cat /harness/boot-tests)
fi
./ftracetest -v -l /tmp/ftlog-boot $tests | cat
exit 0
