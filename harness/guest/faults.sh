#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failures while starting function_duration or creating an
# instance (issue 7, point 5): systematic fault injection with
# /proc/thread-self/fail-nth, through /extra/failnth (failnth.c).
#
# For each operation, N = 1, 2, 3, ...: the N-th allocation the
# operation reaches (failslab or fail_page_alloc, GFP_KERNEL included)
# fails. After each N the operation must have either succeeded
# completely or failed with an errno, leaving the state it touched
# exactly as before (read back); a success is undone. The loop ends
# when the operation completes without reaching the N-th point.
# Afterwards the same operation without injection must work, and
# function_duration must record an event for a known call.
#
# An operation with more points than FAULTS_DENSE is scanned densely up
# to FAULTS_DENSE, then with a stride that keeps it to about
# FAULTS_SAMPLES points, then densely again over its last FAULTS_TAIL
# points until the fault is no longer injected (mkdir of an instance
# allocates thousands of ring-buffer pages and event files, alike).
# FAULTS_DENSE=100000 scans every point (a long local run).
#
# Output: "[n] faults: <operation> [PASS|FAIL]" per operation, a line
#   FAULTS: <op> points P injected I failed-clean C succeeded-anyway S ...
# per operation and "FAULTS: total injected N". "succeeded-anyway"
# counts injected faults the kernel tolerates: kmemleak's own metadata
# (it falls back to its pool), KASAN's stack depot, a kvmalloc whose
# kmalloc attempt fails before vmalloc, vmalloc's bulk page allocation
# falling back to single pages, the idle tasks' shadow stacks, tracefs
# files an instance can live without (upstream tracing only warns), and
# fgraph's dispatch table, which falls back to testing each user's
# hashes.
T=/sys/kernel/tracing
DBG=/sys/kernel/debug
FN=/extra/failnth
# The size of the scan, from the environment (robustness.sh exports what
# make torture was given). The defaults keep make check's run to a few
# minutes (each start and stop of a tracer waits for RCU-tasks grace
# periods); FAULTS_DENSE=100000 scans every point.
MAXN=${FAULTS_MAXN:-2000}	# runs of one operation at most
DENSE=${FAULTS_DENSE:-10}
SAMPLES=${FAULTS_SAMPLES:-6}
TAIL=${FAULTS_TAIL:-4}
FILT=vfs_read		# function_duration's filter, called by every cat
FILT2=vfs_write		# the new filter of the filter-update operation
GFILT=do_nanosleep	# the filter of the second fgraph user

testno=0
total_inj=0
t0=$(date +%s)

err() { echo "FAULTS-ERR: $op N=$n: $*"; bad=$((bad + 1)); }

# ---------------------------------------------------------------------
# Fault injection: every allocation of the task with fail-nth set, the
# GFP_KERNEL ones included, pages of any order, no stack dumps.
for a in failslab fail_page_alloc; do
	if [ ! -d "$DBG/$a" ]; then
		echo "[1] faults: $a in debugfs (CONFIG_FAULT_INJECTION_DEBUG_FS) [FAIL]"
		exit 0
	fi
	echo N > "$DBG/$a/ignore-gfp-wait"
	echo 0 > "$DBG/$a/verbose"
done
echo 0 > $DBG/fail_page_alloc/min-order
echo N > $DBG/fail_page_alloc/ignore-gfp-highmem
if ! [ -x $FN ] || ! out=$($FN 0 rmdir /nonexistent) || [ -z "$out" ]; then
	echo "[1] faults: failnth helper works [FAIL]"
	exit 0
fi

# ---------------------------------------------------------------------
# State readers

# What an operation may touch, in one string: the instance (or top
# level) $1's tracer, filter, function_duration settings, the list of
# instances and the call sites enabled (trampoline addresses aside).
state() {
	if [ -d "$1" ]; then
		echo "dir"
		cat "$1/current_tracer" "$1/set_ftrace_filter" \
			"$1/function_duration/threshold_ns" \
			"$1/function_duration/stats_enable" \
			"$1/function_duration/stats_max_functions" \
			"$1/tracing_on" 2>&1
	else
		echo "nodir"
	fi
	ls $T/instances
	sed 's/tramp: 0x[0-9a-f]*/tramp:/; s/0x[0-9a-f]\{8,\}/ADDR/g' \
		$T/enabled_functions
}

traces() { dmesg | grep -c 'Call Trace:'; }

# Console reports since the last call: count them and show the first.
ntrace=$(traces)
console_check() {
	local now
	now=$(traces)
	if [ "$now" != "$ntrace" ]; then
		optraces=$((optraces + now - ntrace))
		[ -z "$trace_ns" ] && dmesg | grep -B3 -A24 'Call Trace:' | tail -n 40 | sed 's/^/FAULTS-CONSOLE: /'
		trace_ns="$trace_ns $n"
		ntrace=$now
	fi
}

# Is function_duration of $1 recording? Clears its trace, calls $2
# (vfs_read: cat; vfs_write: a write to /dev/null), looks for the event.
records() {
	echo > "$1/trace"
	case $2 in
	vfs_write) echo x > /dev/null ;;
	*) cat /proc/version > /dev/null ;;
	esac
	grep -q " $2 <- " "$1/trace"
}

# ---------------------------------------------------------------------
# The scan. $op names the operation; do_op N runs it under failnth and
# sets ret/errname/inj/used; check_op judges the outcome against $before
# and undoes a success; both are defined per operation.

# Before each run; the start operations change stats_max_functions so
# that the statistics are allocated anew (a start keeps them otherwise).
pre_op() { :; }
stats_realloc() { echo $((1000 + n % 2)) > "$dir/function_duration/stats_max_functions"; }

next_n() {
	if [ "$n" -lt "$DENSE" ] || [ "$n" -ge $((points - TAIL)) ]; then
		n=$((n + 1))
	else
		n=$((n + stride))
		[ "$n" -gt $((points - TAIL)) ] && n=$((points - TAIL))
	fi
}

scan() {
	local start
	start=$(date +%s)
	bad=0 inj=0 clean=0 anyway=0 extra="" optraces=0 trace_ns=""
	n=1000000
	# Count the points: a run without injection, undone.
	before=$(state "$dir")
	do_op $n
	points=$used
	check_op
	[ "$inj_now" = 1 ] && err "more than $n points"
	stride=$(((points - DENSE - TAIL) / SAMPLES))
	[ "$stride" -lt 1 ] && stride=1
	n=1 iter=0
	while [ "$iter" -lt "$MAXN" ]; do
		iter=$((iter + 1))
		pre_op
		before=$(state "$dir")
		do_op $n
		verdicts=$((clean + anyway + bad))
		check_op
		console_check
		[ "$inj_now" = 1 ] || break
		# Every injected run must be judged one way or the other.
		[ $((clean + anyway + bad)) = "$verdicts" ] && err "no verdict"
		inj=$((inj + 1))
		[ "$bad" -ge 5 ] && break
		[ $((iter % 50)) = 0 ] && echo "FAULTS-PROGRESS: $op N=$n of $points, $(($(date +%s) - start))s"
		next_n
	done
	[ "$iter" -ge "$MAXN" ] && [ "$inj_now" = 1 ] && err "still injected after $MAXN runs"
	# The system is usable: the operation works without injection.
	n=0
	before=$(state "$dir")
	do_op 0
	[ "$ret" = 0 ] || err "fails without injection: $errname"
	usable_op
	total_inj=$((total_inj + inj))
	testno=$((testno + 1))
	echo "FAULTS: $op points $points injected $inj failed-clean $clean succeeded-anyway $anyway$extra console-traces $optraces time $(($(date +%s) - start))s"
	[ -n "$trace_ns" ] && echo "FAULTS: $op console Call Trace at N =$trace_ns"
	if [ "$bad" = 0 ]; then
		echo "[$testno] faults: $what [PASS]"
	else
		echo "[$testno] faults: $what [FAIL]"
	fi
}

# Run failnth; "-" when the helper itself failed.
run_fn() {
	out=$($FN "$@") || out="-1 HELPER 0 0"
	set -- $out
	ret=$1 errname=$2 inj_now=$3 used=$4
}

# Stop the tracers of instances and remove them.
remove_instances() {	# dir...
	local d
	for d; do
		echo nop > "$d/current_tracer"
	done
	rmdir "$@" || err "rmdir failed"
}

# Common judgement: a success ($1 = state expected after it, checked by
# the caller) or a clean failure (state as before).
judge_fail() {
	local after
	after=$(state "$dir")
	if [ "$after" != "$before" ]; then
		err "failed with $errname but the state changed"
		echo "--- before"; echo "$before"; echo "--- after"; echo "$after"
		return 1
	fi
	case $errname in
	ENOMEM|ENOSPC|EAGAIN) ;;
	*) err "unexpected errno $errname" ;;
	esac
	clean=$((clean + 1))
}

# Count an outcome for an injected N: $inj_now says it was injected.
succeeded() { [ "$inj_now" = 1 ] && anyway=$((anyway + 1)); }

# A tracer start in $dir: $1 the tracer, $2 a function of its filter.
check_start() {
	if [ "$ret" = 0 ]; then
		succeeded
		[ "$(cat "$dir/current_tracer")" = "$1" ] || err "write succeeded, tracer is $(cat "$dir/current_tracer")"
		grep -q "^$2 " $T/enabled_functions || err "write succeeded, $2 not enabled"
		echo nop > "$dir/current_tracer" || err "stop failed"
		[ "$(state "$dir")" = "$before" ] || err "state differs after start+stop"
	else
		judge_fail
		[ "$(cat "$dir/current_tracer")" = nop ] || err "tracer not nop after failure"
	fi
}

# ---------------------------------------------------------------------
# The order: the starts of the first fgraph user (2 and 4) come last.
# Before patch 0003, register_ftrace_graph() left the sched_switch probe
# registered when ftrace_startup_subops() failed after
# start_graph_tracing(), and every later start of a first fgraph user
# failed with EEXIST (after a WARN in tracepoint_add_func()); with the
# starts last, the other operations still got their verdict.

# ---------------------------------------------------------------------
# 3. A function added to the set_ftrace_filter of a running
#    function_duration, with a second function-graph user (function_graph
#    in fx3g), so that fgraph rebuilds its dispatch table: its allocation
#    failing must fall back to testing the hashes, never stop the
#    tracing. The write appends: opened with O_TRUNC, set_ftrace_filter
#    is emptied at open and applied at close even when the write failed,
#    so a failed 'echo f > set_ftrace_filter' leaves every function
#    traced. That is upstream ftrace's behaviour for every tracer (an
#    invalid function name does the same), not this series'.
op=filter-update what="set_ftrace_filter of a running function_duration under allocation failure"
dir=$T/instances/fx3
g=$T/instances/fx3g
mkdir "$dir" "$g" || err "setup mkdir"
echo $GFILT > "$g/set_ftrace_filter"
echo function_graph > "$g/current_tracer" || err "setup function_graph"
echo $FILT > "$dir/set_ftrace_filter"
echo function_duration > "$dir/current_tracer" || err "setup function_duration"
lost=0
do_op() { run_fn "$1" append "$dir/set_ftrace_filter" "$FILT2
"; }
check_op() {
	local f
	f=$(cat "$dir/set_ftrace_filter" | sort | tr '\n' ' ')
	if [ "$ret" = 0 ] && [ "$f" = "$FILT " ]; then
		# ftrace_regex_release() ignores a failed update: the write
		# and close succeeded, the filter did not change.
		succeeded
		lost=$((lost + 1))
		extra=" lost-at-close $lost"
		[ "$(state "$dir")" = "$before" ] || err "filter kept but state changed"
	elif [ "$ret" = 0 ]; then
		succeeded
		[ "$f" = "$FILT $FILT2 " ] || err "write succeeded, filter is '$f'"
		grep -q "^$FILT2 " $T/enabled_functions || err "$FILT2 not enabled"
		records "$dir" $FILT2 || err "no event for $FILT2 after the update"
		echo $FILT > "$dir/set_ftrace_filter"
		[ "$(state "$dir")" = "$before" ] || err "state differs after update+restore"
	else
		judge_fail
	fi
	records "$dir" $FILT || err "not recording $FILT"
}
usable_op() {
	records "$dir" $FILT2 || err "no event for $FILT2"
	remove_instances "$dir" "$g"
}
scan

# ---------------------------------------------------------------------
# 5. A second fgraph user, function_graph in fx5g, starting while
#    function_duration runs in fx5.
op=second-user what="function_graph start beside a running function_duration under allocation failure"
f5=$T/instances/fx5
dir=$T/instances/fx5g
mkdir "$f5" "$dir" || err "setup mkdir"
echo $FILT > "$f5/set_ftrace_filter"
echo function_duration > "$f5/current_tracer" || err "setup function_duration"
echo $GFILT > "$dir/set_ftrace_filter"
do_op() { run_fn "$1" write "$dir/current_tracer" function_graph; }
pre_op() { :; }
check_op() {
	check_start function_graph $GFILT
	records "$f5" $FILT || err "function_duration in fx5 not recording"
}
usable_op() {
	records "$f5" $FILT || err "no event for $FILT"
	remove_instances "$dir" "$f5"
}
scan

# ---------------------------------------------------------------------
# 1. mkdir instances/fx1, rmdir on success.
op=mkdir-instance what="mkdir of an instance under allocation failure"
dir=$T/instances/fx1
degraded=0
do_op() { run_fn "$1" mkdir "$dir"; }
pre_op() { :; }
check_op() {
	if [ "$ret" = 0 ]; then
		if [ "$(cat "$dir/current_tracer" 2>&1)" != nop ] ||
		   [ ! -e "$dir/trace" ]; then
			err "created an instance without current_tracer or trace"
		fi
		# Missing tracefs files are tolerated by upstream (a warning).
		if [ ! -e "$dir/function_duration/threshold_ns" ] ||
		   [ ! -e "$dir/function_duration/stats" ] ||
		   [ ! -e "$dir/set_ftrace_filter" ]; then
			degraded=$((degraded + 1))
			extra=" degraded $degraded"
		fi
		succeeded
		rmdir "$dir" || err "rmdir of the new instance failed"
		[ -d "$dir" ] && err "instance still there after rmdir"
		[ "$(state "$dir")" = "$before" ] || err "state differs after mkdir+rmdir"
	else
		judge_fail
	fi
}
usable_op() {
	echo $FILT > "$dir/set_ftrace_filter"
	echo function_duration > "$dir/current_tracer" || err "cannot start function_duration"
	records "$dir" $FILT || err "no event for $FILT"
	remove_instances "$dir"
}
scan

# ---------------------------------------------------------------------
# 1a. The same mkdir, with fail-nth counting only the allocations of the
#     tracers' option files (add_tracer_options(), the files themselves
#     left out: tracefs_create_file()), so that each is failed in turn
#     whatever the sampling above hit. A tracer whose options cannot be
#     made after another's were fails the mkdir; the other's must not
#     leak (the kmemleak check at the end of the phase). The stack
#     filter needs CONFIG_FAULT_INJECTION_STACKTRACE_FILTER.
op=mkdir-options what="mkdir of an instance, its tracers' option files failing in turn"
# "start end" of a kernel function: its address and the next symbol's.
sym_range() {
	awk -v s="$1" '$3 == s { a = $1; getline; print "0x" a, "0x" $1; exit }' /proc/kallsyms
}
set_stack_filter() {	# require-start require-end reject-start reject-end
	local a
	for a in failslab fail_page_alloc; do
		echo "$1" > "$DBG/$a/require-start"
		echo "$2" > "$DBG/$a/require-end"
		echo "$3" > "$DBG/$a/reject-start"
		echo "$4" > "$DBG/$a/reject-end"
	done
}
n=0
if [ ! -e "$DBG/failslab/require-start" ]; then
	err "no stack filter in debugfs (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"
	echo "[$((testno += 1))] faults: $what [FAIL]"
else
	req=$(sym_range add_tracer_options)
	rej=$(sym_range tracefs_create_file)
	# Both found, neither address hidden (0): "0xA 0xB/0xC 0xD".
	case "$req/$rej" in
	0x[1-9a-f]*" "0x*/0x[1-9a-f]*" "0x*)
		set_stack_filter $req $rej
		scan
		set_stack_filter 0 0xffffffffffffffff 0 0 ;;
	*)	err "no addresses in /proc/kallsyms: '$req' '$rej'"
		echo "[$((testno += 1))] faults: $what [FAIL]" ;;
	esac
fi

# ---------------------------------------------------------------------
# 1b. rmdir of an instance whose function_duration ran (stats kept).
op=rmdir-instance what="rmdir of an instance under allocation failure"
dir=$T/instances/fx1b
mk1b() {
	mkdir "$dir" && echo $FILT > "$dir/set_ftrace_filter" &&
	echo function_duration > "$dir/current_tracer" &&
	cat /proc/version > /dev/null && echo nop > "$dir/current_tracer"
}
mk1b || err "setup"
do_op() { run_fn "$1" rmdir "$dir"; }
check_op() {
	if [ "$ret" = 0 ]; then
		succeeded
		[ -d "$dir" ] && err "rmdir succeeded, instance still there"
		mk1b || err "re-creating the instance failed"
	else
		judge_fail
	fi
}
usable_op() { mkdir "$dir" && rmdir "$dir" || err "mkdir/rmdir failed"; }
scan

# ---------------------------------------------------------------------
# 2. Start function_duration in an instance: stats on, a filter, a
#    threshold. The first function-graph user: shadow stacks for every
#    task, the sched_switch probe, the graph ops' first registration.
op=start-instance what="function_duration start in an instance under allocation failure"
dir=$T/instances/fx2
mkdir "$dir" || err "setup mkdir"
echo $FILT > "$dir/set_ftrace_filter"
echo 1 > "$dir/function_duration/stats_enable"
echo 1000 > "$dir/function_duration/threshold_ns"
do_op() { run_fn "$1" write "$dir/current_tracer" function_duration; }
pre_op() { stats_realloc; }
check_op() { check_start function_duration $FILT; }
usable_op() {
	echo 0 > "$dir/function_duration/threshold_ns"
	records "$dir" $FILT || err "no event for $FILT"
	grep -q " $FILT\$" "$dir/function_duration/stats" || err "no stats row for $FILT"
	remove_instances "$dir"
}
scan

# ---------------------------------------------------------------------
# 4. Start function_duration at the top level (no other fgraph user).
op=start-top what="function_duration start at the top level under allocation failure"
dir=$T
echo $FILT > "$dir/set_ftrace_filter"
echo 1 > "$dir/function_duration/stats_enable"
do_op() { run_fn "$1" write "$dir/current_tracer" function_duration; }
pre_op() { stats_realloc; }
check_op() { check_start function_duration $FILT; }
usable_op() {
	records "$dir" $FILT || err "no event for $FILT"
	echo nop > "$dir/current_tracer"
	echo > "$dir/set_ftrace_filter"
	echo > "$dir/trace"
}
scan

# ---------------------------------------------------------------------
# Nothing left behind.
testno=$((testno + 1))
left=$(ls $T/instances; cat $T/enabled_functions)
if [ -z "$left" ] && [ "$(cat $T/current_tracer)" = nop ]; then
	echo "[$testno] faults: no instance and no enabled function left [PASS]"
else
	echo "$left" | head -n 20 | sed 's/^/FAULTS-ERR: left: /'
	echo "[$testno] faults: no instance and no enabled function left [FAIL]"
fi
echo "FAULTS: total injected $total_inj time $(($(date +%s) - t0))s"
exit 0
