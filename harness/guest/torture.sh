#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest torture test of the function_duration tracer (issue 7, point 2).
# While a workload runs on every CPU (fork/exec, tmpfs I/O, getppid loops,
# a timer loop; the host injects NMIs), each iteration, over two instances,
# the top level, one instance made for the iteration and one for a module:
#  - switches each of them between nop, function, function_graph and
#    function_duration, creates and removes instances (with a tracer on);
#  - edits set_ftrace_filter, set_ftrace_notrace, set_ftrace_pid,
#    set_ftrace_notrace_pid, threshold_ns, stats_enable and
#    stats_max_functions, and resets the statistics, while tracing;
#  - reads trace, trace_pipe, trace_pipe_raw, stats and hist in the
#    background all along, every read bounded (pause-on-trace is off: a
#    reader of an instance that traces its own reads would never end);
#  - loads and unloads trace-events-sample while an instance traces it.
# Then it checks that no instance, tracer or enabled function is left, and
# that function_duration/stats and the ring buffer agree exactly on the
# calls traced in two small buffers (overwrite and not) drained through
# trace_pipe. It prints TORTURE: figures and one ftracetest-style
# "[N] torture: <what> [PASS|FAIL]" line per check, and exits 0.
#
# Iterations: $TORTURE_ITERS, else the default below (about 4 minutes on
# the debug kernel, KASAN and lockdep, under TCG; each further iteration
# adds about 1.5 minutes). A longer local run: make torture ITERS=10
# The edits are pseudo-random from $TORTURE_SEED: a run repeats with the
# same seed. (robustness.sh exports what make torture was given.)
# /extra/fdbench (harness/bench/fdbench.c), if there, adds getppid loops.
T=/sys/kernel/tracing
W=/tmp/torture
FDB=/extra/fdbench
ITERS=${TORTURE_ITERS:-2}
seed=${TORTURE_SEED:-20091208}
seed0=$seed
MOD=trace_events_sample
MAX_NS=18446744073709551615
TRACERS="nop function function_graph function_duration"

rm -rf $W
mkdir -p $W
cd $T || exit 1
start=$(date +%s)

# Figures
instances_created=0 instances_removed=0 rmdir_busy=0 rmdir_fail=0
tracer_switches=0 switch_fail=0 filter_edits=0 threshold_edits=0
stats_resets=0 enable_edits=0 maxfn_edits=0 pid_edits=0
module_cycles=0 module_fail=0 module_rows=0 trace_reads=0
events_read=0 lost_reported=0 write_fail=0 nreader=0
SUITE=torture
. /harness/result.sh

rnd() { # n: r = a pseudo-random number below n (reproducible by seed)
	seed=$(((seed * 1103515245 + 12345) & 2147483647))
	r=$(((seed >> 16) % $1))
}

nth() { # n words...: w = the n-th word (from 0, modulo their number)
	_n=$1
	shift
	_n=$((_n % $#))
	shift $_n
	w=$1
}

# A write that must succeed: a failure is counted (and fails a check).
wr() { # file value [>>]
	if [ "$3" = ">>" ]; then
		echo "$2" >> "$1" 2>/dev/null && return 0
	else
		echo "$2" > "$1" 2>/dev/null && return 0
	fi
	write_fail=$((write_fail + 1))
	[ $write_fail -le 20 ] && echo "torture: writing '$2' to ${1#$T/} failed"
	return 1
}

# ---------------------------------------------------------------------
# Functions to trace: only names present, since a filter that matches
# nothing would leave an empty filter, which traces every function.
cat available_filter_functions > $W/aff
pick() { # candidates: those that can be traced
	for f; do
		set -- "$@" -e "$f"
		shift
	done
	grep -xF "$@" $W/aff | tr '\n' ' '
}
F_IO=$(pick ksys_read vfs_read ksys_write vfs_write)
F_PID=$(pick __x64_sys_getppid __do_sys_getppid __task_pid_nr_ns)
F_EXEC=$(pick do_sys_openat2 do_filp_open kernel_clone do_execveat_common)
F_IRQ=$(pick hrtimer_interrupt __hrtimer_run_queues tick_sched_timer \
	hrtimer_wakeup update_process_times)
F_NMI=$(pick nmi_handle unknown_nmi_error default_do_nmi)
if [ -z "$F_IO" ]; then
	result "ksys_read and vfs_read traceable" 1
	exit 0
fi
[ -n "$F_PID" ] || F_PID=$F_IO
[ -n "$F_EXEC" ] || F_EXEC=$F_IO
echo "torture: functions: io: $F_IO pid: $F_PID exec: $F_EXEC irq: $F_IRQ nmi: $F_NMI"

filter_set() { # n: w = the n-th filter of the pool
	case $(($1 % 6)) in
	0) w=$F_IO;;
	1) w=$F_PID;;
	2) w=$F_EXEC;;
	3) w="$F_IRQ $F_NMI"; [ -n "${w% }" ] || w=$F_IO;;
	4) w='vfs_*';;
	5) w="$F_IO $F_PID $F_IRQ $F_NMI";;
	esac
}

nmis() { # the NMIs taken so far, all CPUs
	awk '$1 == "NMI:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts
}
nmi0=$(nmis)

# ---------------------------------------------------------------------
# The workload: four loops per CPU, each pinned to its CPU, niced so that
# the control loop keeps its pace. They stop at the next turn once
# $W/stop exists, and write how many turns they made.
ncpu=$(grep -c '^processor' /proc/cpuinfo)
w_fork() { /bin/true; }
w_io() {
	dd if=/dev/zero of=$W/io.$1 bs=4k count=16 2>/dev/null
	cat $W/io.$1 > /dev/null
	rm -f $W/io.$1
}
w_ppid() { $FDB getppid 2000 > /dev/null; }
w_timer() { usleep 1000; sleep 0.01; }
workers=""
start_worker() { # name cpu function
	( n=0
	while [ ! -e $W/stop ]; do
		$3 $2
		n=$((n + 1))
	done
	echo $n > $W/turns.$1 ) > /dev/null 2>&1 &
	renice -n 10 -p $! > /dev/null 2>&1
	taskset -p $(printf %x $((1 << $2))) $! > /dev/null 2>&1
	workers="$workers $!"
}
WORKLOADS="fork io timer"
[ -x $FDB ] && WORKLOADS="$WORKLOADS ppid"
[ -x $FDB ] || echo "torture: no $FDB: no getppid loops"
cpu=0
while [ $cpu -lt $ncpu ]; do
	for k in $WORKLOADS; do
		start_worker $k.$cpu $cpu w_$k
	done
	cpu=$((cpu + 1))
done
set -- $workers
worker_pid_list="$*"

# ---------------------------------------------------------------------
# Readers, in the background: bounded reads (a count and a timeout), one
# after the other while $W/go exists. A trace_pipe reader's output is
# kept to count its events and lost events.
readers=""
bg_read() { # kind dir [cpu]
	nreader=$((nreader + 1))
	( while [ -e $W/go ]; do
		case $1 in
		pipe) timeout 3 dd if=$2/trace_pipe bs=4096 count=8 2>/dev/null;;
		raw) timeout 3 dd if=$2/per_cpu/cpu$3/trace_pipe_raw of=/dev/null bs=4096 count=4 2>/dev/null;;
		trace) timeout 5 head -c 32768 $2/trace > /dev/null 2>&1;;
		stats) cat $2/function_duration/stats $2/function_duration/hist > /dev/null 2>&1;;
		esac
		echo >> $W/reads.$nreader
	done ) >> $W/pipe.$nreader &
	renice -n 5 -p $! > /dev/null 2>&1
	readers="$readers $!"
}
wait_readers() {
	rm -f $W/go
	for p in $readers; do
		wait $p
	done
	readers=""
	for f in $W/reads.*; do
		[ -f "$f" ] || continue
		trace_reads=$((trace_reads + $(wc -l < "$f")))
		rm -f "$f"
	done
	for f in $W/pipe.*; do
		[ -f "$f" ] || continue
		n=$(grep -vc -e '^#' -e 'LOST' "$f")
		l=$(sed -n 's/.*\[LOST \([0-9]*\) EVENTS\].*/\1/p' "$f" | awk '{ s += $1 } END { print s + 0 }')
		events_read=$((events_read + n))
		lost_reported=$((lost_reported + l))
		rm -f "$f"
	done
}

# ---------------------------------------------------------------------
# Control file edits, while tracing. $1 is an instance or the top level.
set_filter() { # dir n
	filter_set $2
	wr $1/set_ftrace_filter "$w" && filter_edits=$((filter_edits + 1))
}
# The kinds of edit take turns (every kind in every iteration, on a
# different instance each time); the values are pseudo-random.
nedit=0
edit() { # dir
	d=$1
	nedit=$((nedit + 1))
	case $(((nedit + i) % 12)) in
	0|1) rnd 6; set_filter $d $r;;
	2)	# add a set, never removing the last function (that traces all)
		rnd 6; filter_set $r
		wr $d/set_ftrace_filter "$w" ">>" && filter_edits=$((filter_edits + 1))
		if [ "$(wc -l < $d/set_ftrace_filter)" -gt 2 ]; then
			nth $seed $F_IO
			wr $d/set_ftrace_filter "!$w" ">>" && filter_edits=$((filter_edits + 1))
		fi;;
	3)	rnd 4
		case $r in
		0) wr $d/set_ftrace_notrace "";;
		*) nth $r $F_IO $F_PID; wr $d/set_ftrace_notrace "$w";;
		esac && filter_edits=$((filter_edits + 1));;
	4)	rnd 5
		case $r in
		0) w="";;
		1) w=$$;;
		2) w="$$ $worker_pid_list";;
		*) nth $seed $worker_pid_list;;
		esac
		wr $d/set_ftrace_pid "$w" && pid_edits=$((pid_edits + 1));;
	5)	rnd 3
		case $r in
		0) w=$$;;
		*) w="";;
		esac
		wr $d/set_ftrace_notrace_pid "$w" && pid_edits=$((pid_edits + 1));;
	6|7) rnd 6; nth $r 0 1000 20000 500000 10000000 $MAX_NS
		wr $d/function_duration/threshold_ns $w &&
			threshold_edits=$((threshold_edits + 1));;
	8)	rnd 2
		wr $d/function_duration/stats_enable $r && enable_edits=$((enable_edits + 1));;
	9|10)	# both ways to reset: a write of 0 and an open with truncation
		rnd 2
		if [ $r -eq 0 ]; then
			wr $d/function_duration/stats 0 && stats_resets=$((stats_resets + 1))
		elif : > $d/function_duration/stats; then
			stats_resets=$((stats_resets + 1))
		else
			write_fail=$((write_fail + 1))
		fi;;
	11)	rnd 4; nth $r 1 8 64 1024
		wr $d/function_duration/stats_max_functions $w &&
			maxfn_edits=$((maxfn_edits + 1));;
	esac
}

switch() { # dir tracer
	tracer_switches=$((tracer_switches + 1))
	if ! echo $2 > $1/current_tracer 2>/dev/null ||
	   [ "$(cat $1/current_tracer)" != $2 ]; then
		switch_fail=$((switch_fail + 1))
		echo "torture: ${1#$T/}: cannot switch to $2 (now $(cat $1/current_tracer))"
	fi
}

new_instance() { # name
	if mkdir $T/instances/$1; then
		instances_created=$((instances_created + 1))
		wr $T/instances/$1/buffer_size_kb 64
		rnd 6; set_filter $T/instances/$1 $r
	else
		echo "torture: cannot create instance $1"
		rmdir_fail=$((rmdir_fail + 1))
	fi
}
del_instance() { # name: remove it with its tracer on
	if rmdir $T/instances/$1; then
		instances_removed=$((instances_removed + 1))
	else
		echo "torture: cannot remove instance $1"
		rmdir_fail=$((rmdir_fail + 1))
	fi
}

# ---------------------------------------------------------------------
# The module: traced by a function_duration instance of its own; the
# :mod: filter is written before the load (cached by ftrace) on even
# cycles and after it on odd ones. Unloaded while traced; its functions
# must keep their rows in stats.
module_cycle() { # n
	m=$T/instances/t_mod
	wr $m/function_duration/threshold_ns 0
	wr $m/function_duration/stats_enable 1
	[ $(($1 % 2)) -eq 0 ] && wr $m/set_ftrace_filter ":mod:$MOD"
	switch $m function_duration
	if ! modprobe trace-events-sample; then
		module_fail=$((module_fail + 1))
		echo "torture: cannot load trace-events-sample"
		return
	fi
	[ $(($1 % 2)) -eq 1 ] && wr $m/set_ftrace_filter ":mod:$MOD"
	[ $(($1 % 3)) -eq 0 ] && wr $m/events/sample-trace/enable 1
	bg_read pipe $m
}
module_uncycle() {
	m=$T/instances/t_mod
	if ! lsmod | grep -q "^$MOD "; then
		return
	fi
	if rmmod $MOD; then
		module_cycles=$((module_cycles + 1))
	else
		module_fail=$((module_fail + 1))
		echo "torture: cannot unload $MOD"
	fi
	# simple_thread returns when the module stops it: at least that row.
	if grep -q "\[$MOD\]" $m/function_duration/stats; then
		module_rows=$((module_rows + 1))
	else
		echo "torture: no row of $MOD in t_mod's stats after unload:"
		cat $m/function_duration/stats
	fi
	head -c 16384 $m/trace > /dev/null
	trace_reads=$((trace_reads + 1))
	[ -d $m/events/sample-trace ] && echo 0 > $m/events/sample-trace/enable 2>/dev/null
	switch $m nop
}

# ---------------------------------------------------------------------
# The iterations
new_instance t_a
new_instance t_b
new_instance t_mod
wr $T/instances/t_mod/buffer_size_kb 16
INST="$T $T/instances/t_a $T/instances/t_b"
echo "torture: $ITERS iterations, $ncpu CPUs, workload: $WORKLOADS, seed $seed0"

i=0
while [ $i -lt $ITERS ]; do
	t0=$(date +%s)
	# Tracers change only with no trace_pipe reader open (else EBUSY).
	k=0
	for d in $INST; do
		rnd 6; set_filter $d $r
		nth $((i + k)) $TRACERS
		switch $d $w
		k=$((k + 1))
	done
	new_instance t_e$i
	e=$T/instances/t_e$i
	nth $((i / 4)) function_duration function_graph function_duration function
	switch $e $w
	t1=$(date +%s)
	touch $W/go
	module_cycle $i

	for d in $INST $e; do
		bg_read pipe $d
	done
	bg_read stats $T
	bg_read stats $e
	bg_read trace $T/instances/t_a
	bg_read trace $T
	c=0
	while [ $c -lt $ncpu ]; do
		bg_read raw $T/instances/t_b $c
		c=$((c + 1))
	done
	# An instance with a file open cannot go (EBUSY).
	if command exec 5< $e/trace_pipe; then
		if rmdir $e 2>/dev/null; then
			instances_removed=$((instances_removed + 1))
			rmdir_fail=$((rmdir_fail + 1))
			echo "torture: t_e$i removed while its trace_pipe was open"
		else
			rmdir_busy=$((rmdir_busy + 1))
		fi
		exec 5<&-
	fi

	t2=$(date +%s)
	round=0
	while [ $round -lt 3 ]; do
		for d in $INST $e; do
			[ -d $d ] && edit $d
		done
		round=$((round + 1))
	done
	t3=$(date +%s)
	wait_readers
	t4=$(date +%s)
	module_uncycle
	[ -d $e ] && del_instance t_e$i
	# Now and then a long-lived instance goes too, tracer on.
	if [ $((i % 3)) -eq 2 ]; then
		del_instance t_b
		new_instance t_b
	fi
	i=$((i + 1))
	t5=$(date +%s)
	echo "torture: iteration $i/$ITERS: $((t5 - t0)) s (switches $((t1 - t0))," \
		"module load $((t2 - t1)), edits $((t3 - t2)), readers $((t4 - t3))," \
		"unload and removal $((t5 - t4)))"
done

# ---------------------------------------------------------------------
# Stop the workload, and everything else started in the background.
touch $W/stop
for p in $workers; do
	wait $p
done
wait_readers
workload_ok=0
for k in $WORKLOADS; do
	cpu=0
	while [ $cpu -lt $ncpu ]; do
		n=$(cat $W/turns.$k.$cpu 2>/dev/null)
		echo "TORTURE: workload $k cpu$cpu turns ${n:-0}"
		[ "${n:-0}" -gt 0 ] || workload_ok=1
		cpu=$((cpu + 1))
	done
done

for d in $T/instances/*; do
	[ -d $d ] || continue
	echo nop > $d/current_tracer
	del_instance ${d##*/}
done
echo nop > $T/current_tracer
for f in set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid; do
	echo > $T/$f
done
echo 0 > $T/function_duration/threshold_ns
echo 1 > $T/function_duration/stats_enable
echo 1024 > $T/function_duration/stats_max_functions
lsmod | grep -q "^$MOD " && rmmod $MOD

# ---------------------------------------------------------------------
# Lost/dropped accounting. With threshold_ns 0, every call the return
# callback sees with a duration >= 0 is counted in stats (in a row, or
# as over the function limit, in NMI or without memory) and then
# written, or counted by the ring buffer as lost: a write either commits
# (entries + overrun + read in per_cpu/cpuN/stats) or fails for lack of
# room ("dropped events" without overwrite, "commit overrun" with it).
# Calls without shadow stack room are written but not counted
# (no_stack); negative durations are not written. The other ways a write
# can fail without a count (tracing_on off, ring buffer recursion, a
# disabled CPU buffer) cannot happen here: one task in task context,
# tracing on throughout. So:
#   entries + overrun + read + commit overrun + dropped
#     == calls + over the function limit + in NMI + without memory
#        + no_stack                                          (exactly)
# The traced task is gone before the figures are taken, so both sides
# are final. The reader drains trace_pipe until entries is 0, so every
# event consumed (read) is in its output, and since the writer stopped
# before the last page swap, every overrun was reported:
#   event lines read == read,  sum of [LOST n EVENTS] == overrun.
# (Without overwrite, trace_pipe reports no lost events: its count comes
# from overrun; the drops show in per_cpu/cpuN/stats only.)
# Two instances: overwrite with stats_max_functions 1 (calls beyond the
# one row count as over the limit), and no overwrite with the default.
ACCT="acct_ow acct_nw"
N1=300 N2=3000
if [ -x $FDB ]; then
	ACCT_FUNCS=$(pick __x64_sys_getppid __do_sys_getppid __task_pid_nr_ns)
	# Two functions at least, so that one is over the limit of acct_ow.
	set -- $ACCT_FUNCS
	[ $# -ge 2 ] || ACCT_FUNCS="$ACCT_FUNCS $F_IO"
else
	ACCT_FUNCS="$F_IO" N2=1000
	seq 1 $N1 > $W/lines.$N1
	seq 1 $N2 > $W/lines.$N2
fi
# The traced task, by pid in both instances; on one CPU, where a call
# cannot seem to return before it started.
cat > $W/acct-task.sh <<EOF
for a in $ACCT; do
	echo \$\$ > $T/instances/\$a/set_ftrace_pid
done
[ -x $FDB ] && exec $FDB getppid \$1 > /dev/null
while read -r l; do :; done < $W/lines.\$1
EOF
acct_run() { # calls
	taskset $(printf %x $((1 << (ncpu - 1)))) sh $W/acct-task.sh $1
}
/bin/true &
dead=$!
wait $dead
for a in $ACCT; do
	d=$T/instances/$a
	mkdir $d && instances_created=$((instances_created + 1))
	wr $d/buffer_size_kb 8
	case $a in
	acct_ow) wr $d/function_duration/stats_max_functions 1;;
	acct_nw) wr $d/options/overwrite 0;;
	esac
	wr $d/function_duration/threshold_ns 0
	wr $d/set_ftrace_filter "$ACCT_FUNCS"
	wr $d/set_ftrace_pid $dead	# nobody until the traced task sets its pid
	switch $d function_duration
done
# Fill the buffers with nobody reading: overruns and drops for sure.
acct_run $N1
rpids=""
for a in $ACCT; do
	dd if=$T/instances/$a/trace_pipe of=$W/acct.$a bs=65536 2>/dev/null &
	rpids="$rpids $!"
done
acct_run $N2
# Drained when the buffers are empty, the outputs stop growing and the
# readers sleep (in the read of trace_pipe): then a signal loses nothing.
last="" tries=0
while [ $tries -lt 120 ]; do
	sleep 1
	left=$(cat $T/instances/acct_*/per_cpu/cpu*/stats |
		awk -F': ' '$1 == "entries" { s += $2 } END { print s + 0 }')
	now="$left $(cat $W/acct.* | wc -c)"
	for p in $rpids; do
		now="$now $(awk '{ print $3 }' /proc/$p/stat)"
	done
	case "$now" in
	0\ *) [ "$now" = "$last" ] && ! echo "$now" | grep -q '[RD]' && break;;
	esac
	last=$now
	tries=$((tries + 1))
done
[ $tries -lt 120 ] || echo "torture: the trace_pipe readers did not drain the buffers: $now"
kill $rpids
for p in $rpids; do
	wait $p 2>/dev/null
done

acct_check() { # instance: prints its figures, returns 0 if consistent
	d=$T/instances/$1
	cat $d/function_duration/stats > $W/stats.$1
	set -- $1 $(cat $d/per_cpu/cpu*/stats | awk -F': ' '
		$1 == "entries" { e += $2 } $1 == "overrun" { o += $2 }
		$1 == "commit overrun" { c += $2 } $1 == "dropped events" { x += $2 }
		$1 == "read events" { r += $2 }
		END { print e + 0, o + 0, c + 0, x + 0, r + 0 }')
	a=$1 entries=$2 overrun=$3 commit=$4 dropped=$5 read=$6
	set -- $(sed -n -e 's/^# functions: .* calls: \([0-9]*\),.*/\1/p' \
		-e 's/^# dropped calls: \([0-9]*\) over the function limit, \([0-9]*\) in NMI, \([0-9]*\) without shadow stack room, \([0-9]*\) with a negative duration, \([0-9]*\) without memory/\1 \2 \3 \4 \5/p' \
		$W/stats.$a)
	calls=$1 over=$2 innmi=$3 nostack=$4 negative=$5 nomem=$6
	lines=$(grep -vc -e '^#' -e 'LOST' $W/acct.$a)
	lost=$(sed -n 's/.*\[LOST \([0-9]*\) EVENTS\].*/\1/p' $W/acct.$a | awk '{ s += $1 } END { print s + 0 }')
	events_read=$((events_read + lines))
	lost_reported=$((lost_reported + lost))
	echo "TORTURE: acct $a ring buffer: entries $entries overrun $overrun commit_overrun $commit dropped $dropped read $read; trace_pipe: events $lines lost $lost; stats: calls $calls over_limit $over nmi $innmi no_stack $nostack negative $negative no_mem $nomem"
	ok=0
	written=$((entries + overrun + read + commit + dropped))
	if [ $written -ne $((calls + over + innmi + nomem + nostack)) ]; then
		echo "torture: $a: $written events written or lost != $((calls + over + innmi + nomem + nostack)) calls counted"
		ok=1
	fi
	if [ "$lines" -ne "$read" ] || [ "$lost" -ne "$overrun" ] || [ "$entries" -ne 0 ]; then
		echo "torture: $a: trace_pipe read $lines events and $lost lost, the ring buffer says $read read, $overrun overrun, $entries left"
		ok=1
	fi
	# The first run overflowed the buffer: it must show.
	case $a in
	acct_ow) [ "$overrun" -gt 0 ] && [ "$over" -gt 0 ];;
	acct_nw) [ "$dropped" -gt 0 ] && [ "$overrun" -eq 0 ];;
	esac || { echo "torture: $a: the overflow does not show"; ok=1; }
	return $ok
}
acct_check acct_ow
acct_ow_ok=$?
acct_check acct_nw
acct_nw_ok=$?
exact_ok=0
if [ -x $FDB ]; then
	for f in __x64_sys_getppid __do_sys_getppid; do
		n=$(awk -v f=$f '!/^#/ && $16 == f { print $1 }' $W/stats.acct_nw)
		[ -z "$n" ] && continue
		echo "TORTURE: acct $f calls $n of $((N1 + N2)) getppid()"
		[ "$n" -eq $((N1 + N2)) ] || exact_ok=1
	done
fi
for a in $ACCT; do
	echo nop > $T/instances/$a/current_tracer
	del_instance $a
done

# ---------------------------------------------------------------------
# Final state and figures
sleep 2	# the watchers of timeout(1) check their child once a second
left=$(ls $T/instances)
enabled=$(wc -l < $T/enabled_functions)
nops=0
[ "$(cat $T/current_tracer)" = nop ] || nops=1
echo "TORTURE: iterations $ITERS instances_created $instances_created" \
	"instances_removed $instances_removed rmdir_busy $rmdir_busy" \
	"tracer_switches $tracer_switches filter_edits $filter_edits" \
	"pid_edits $pid_edits threshold_edits $threshold_edits" \
	"stats_enable_edits $enable_edits stats_max_edits $maxfn_edits" \
	"stats_resets $stats_resets module_cycles $module_cycles" \
	"trace_reads $trace_reads events_read $events_read" \
	"lost_reported $lost_reported nmis_seen $(($(nmis) - nmi0))" \
	"seconds $(($(date +%s) - start))"

result "workload ran on every CPU" $workload_ok
result "tracer switches ($tracer_switches) all took effect" $((switch_fail > 0))
result "control file writes all accepted" $((write_fail > 0))
result "instances created and removed" $((rmdir_fail > 0))
result "module loaded and unloaded while traced, rows kept" \
	$((module_fail > 0 || module_rows != module_cycles || module_cycles == 0))
result "trace_pipe readers saw events" $((events_read == 0))
[ -n "$left" ] && echo "torture: instances left: $left"
result "all instances removed" $((${#left} > 0))
result "all tracers nop" $nops
[ "$enabled" -gt 0 ] && head -20 $T/enabled_functions
result "enabled_functions empty" $((enabled > 0))
result "lost accounting consistent (overwrite)" $acct_ow_ok
result "lost accounting consistent (no overwrite)" $acct_nw_ok
[ -x $FDB ] && result "getppid calls counted exactly" $exact_ok
exit 0
