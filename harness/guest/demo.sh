#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make run` demo of the function_duration tracer.
T=/sys/kernel/tracing
cd $T || exit 1

echo "=== 1. The boot, traced from the command line:"
echo "===    $(cat /proc/cmdline | tr ' ' '\n' | grep -E '^(ftrace|function_duration)' | tr '\n' ' ')"
echo 0 > tracing_on
echo "current_tracer: $(cat current_tracer), threshold_ns: $(cat function_duration/threshold_ns)"
echo "calls of at least 2 ms recorded during boot: $(grep -vc '^#' trace)"
echo "the 15 slowest (sorted on the duration column):"
grep '^#' trace | tail -3
by_duration() {	# sort trace lines on the duration column, slowest first
	grep -v '^#' | awk -F' us [|]' '{ n = split($1, a, " "); print a[n] "\t" $0 }' |
		sort -rn | cut -f2-
}
grep -v '^#' trace | by_duration | head -15
echo
echo "the 10 slowest initcalls (the calls made by do_one_initcall):"
grep ' <- do_one_initcall' trace | by_duration | head -10
echo
echo "=== 1b. The statistics of every traced call of the boot, whatever its duration"
echo "===     (function_duration/stats; stats_max_functions: $(cat function_duration/stats_max_functions))"
STATS=/tmp/boot-stats
grep . function_duration/stats > $STATS
echo "the top 12 functions by total time:"
sed -n 3p $STATS
grep -v '^#' $STATS | head -12
grep -E '^# (functions|memory|dropped|window)' $STATS
echo
echo "the top 12 functions by self time (time not spent in traced children):"
sed -n 3p $STATS
grep -v '^#' $STATS | sort -k3,3nr | head -12
echo
echo "the histogram of do_one_initcall (function_duration/hist):"
grep . function_duration/hist | sed -n 1p
awk '/^function: do_one_initcall /{p = 1} p && /^$/{exit} p' function_duration/hist
echo
echo "the same statistics through funcdur (tools/tracing/funcdur), which reads"
echo "them without changing anything: funcdur top --attach / --once --top 5 -s self"
funcdur top --attach / --once --top 5 -s self
echo nop > current_tracer
echo

echo "=== 2. Two instances side by side over the same workload (fork/exec, tmpfs I/O):"
echo "===    'slow' runs function_duration on vfs_* with threshold 50 us;"
echo "===    'graph' runs function_graph on ksys_read and vfs_read."
mkdir instances/slow instances/graph
echo 'vfs_*' > instances/slow/set_ftrace_filter
echo 50000 > instances/slow/function_duration/threshold_ns
echo function_duration > instances/slow/current_tracer
echo 'ksys_read vfs_read' > instances/graph/set_ftrace_filter
echo function_graph > instances/graph/current_tracer
echo "enabled_functions while both trace (the count in parentheses is per ftrace_ops;"
echo "all function-graph users share one, so two graph instances show 1):"
grep -E '^(vfs_read|vfs_write|ksys_read) ' enabled_functions
for i in 1 2 3; do
	dd if=/dev/zero of=/tmp/f bs=64k count=16 2>/dev/null
	cat /tmp/f > /dev/null
	rm /tmp/f
done
echo 0 > instances/slow/tracing_on
echo 0 > instances/graph/tracing_on
echo
echo "--- instances/slow/trace (first 15 lines):"
head -20 instances/slow/trace
echo
echo "--- instances/graph/trace (first 12 lines):"
grep -v '^#' instances/graph/trace | head -12
echo nop > instances/slow/current_tracer
echo nop > instances/graph/current_tracer
rmdir instances/slow instances/graph
echo

echo "=== 3. funcdur: each run in an instance of its own, removed at the end"
WORK="for i in 1 2 3; do dd if=/dev/zero of=/tmp/f bs=64k count=16 2>/dev/null; cat /tmp/f > /dev/null; done; rm /tmp/f"
echo "--- funcdur top --once --top 6 -f 'vfs_*' -f 'ksys_*' -- sh -c \"\$WORK\""
funcdur top --once --top 6 -f 'vfs_*' -f 'ksys_*' -- sh -c "$WORK"
echo
echo "--- funcdur hist -f vfs_read -- dd if=/dev/zero of=/dev/null bs=4k count=2000 status=none"
funcdur hist -f vfs_read -- dd if=/dev/zero of=/dev/null bs=4k count=2000 status=none
echo
echo "--- funcdur trace -T 500us -f 'vfs_*' -- sh -c \"\$WORK\""
funcdur trace -T 500us -f 'vfs_*' -- sh -c "$WORK" | head -12
echo
echo "--- funcdur trace -a 50ms -t /tmp/fd-trace.txt -f do_nanosleep -f hrtimer_nanosleep \\"
echo "        -- sh -c 'sleep 0.01; sleep 0.1; sleep 5'"
funcdur trace -a 50ms -t /tmp/fd-trace.txt -f do_nanosleep -f hrtimer_nanosleep \
	-- sh -c 'sleep 0.01; sleep 0.1; sleep 5' 2>&1
echo
echo "--- funcdur record -o /tmp/ls.dat -f 'vfs_*' -- ls / > /dev/null; trace-cmd report"
funcdur record -o /tmp/ls.dat -f 'vfs_*' -- ls / > /dev/null
trace-cmd report -i /tmp/ls.dat 2>/dev/null | grep funcduration | head -5
grep -v '^#' /tmp/ls.dat.stats | head -5
echo
echo "--- funcdur top --once --format json -f vfs_read -- dd if=/dev/zero of=/dev/null bs=1 count=10 status=none"
funcdur top --once --format json -f vfs_read -- dd if=/dev/zero of=/dev/null bs=1 count=10 status=none
echo
echo "instances left: $(ls instances | wc -l)"
exit 0
