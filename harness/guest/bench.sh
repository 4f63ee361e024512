#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest script of `make bench`: every workload in every mode, in one boot.
# Prints one line per figure:
#   bench <workload> <mode> <ns per traced call> <ns per iteration> <traced calls per iteration>
#   bench switch <mode> <ns per context switch> <ns per run> <context switches per run>
#   mem <what> <bytes>
#   stream <tracer> <guest ns> <events written> <read> <lost>
#   rb write <guest us> <entries written>
#   vuln <name>: <state>
# Under -icount shift=0 a guest nanosecond is one instruction.
#
# Knobs: /extra/bench.conf, if there, is sourced first (shell assignments,
# written by harness/bench.sh from its environment): BENCH_ONLY (the parts
# to run, of "syscall nested system switch users memory streaming
# ringbuffer"),
# REPS, USERS_REPS, USERS_K, SWITCH_N.
#
# On the unpatched base (no function_duration directory) the same script
# runs every mode but function_duration's; the host names its lines
# bench-vanilla. The BPF peers need /extra/fdbpf and /extra/fdbpf.bpf.o,
# the switch workload /extra/fdswitch.
#
# The breakdown (function_duration/breakdown: each call's duration split
# into running, runnable, blocked and irq time, from probes on the
# scheduler and interrupt tracepoints): modes fd_breakdown (fd_events with
# breakdown 1) and fd_stats_breakdown (fd_stats with breakdown 1) in the
# syscall and nested workloads, per traced call; and the switch workload,
# per context switch (see bench_switch below). Left out, with a note,
# where the kernel has no breakdown file.
T=/sys/kernel/tracing
FD=$T/function_duration
# The funcduration event's consumers (fd_filter, fd_filter_drop,
# fd_hist, fd_perf): a filter that every call passes, one that none
# passes, and a hist trigger keyed by function.
EV=$T/events/ftrace/funcduration
EV_FILTER='duration > 0 && depth < 1000'
EV_FILTER_DROP='depth < 0'
EV_HIST='hist:keys=func.sym:vals=duration'
X=/extra
RUN=/sys/kernel/debug/fdur_bench/run
[ -f $X/bench.conf ] && . $X/bench.conf
BENCH_ONLY=${BENCH_ONLY-syscall nested system switch users memory streaming ringbuffer}
REPS=${REPS:-3}
SYS_N=20000
# The users workload: the syscall one under k concurrent function-graph
# users. Most runs agree to 0.3%, but now and then one takes 1 to 4%
# more (other work on that CPU, it seems), so the median of five.
USERS_N=$SYS_N
USERS_K=${USERS_K:-1 2 4 8 15}
USERS_REPS=${USERS_REPS:-5}
NEST_N=20000
SYSTEM_LOOPS=2
# The switch workload: round trips between two processes on one CPU, two
# context switches each.
SWITCH_N=${SWITCH_N:-10000}
MAX_NS=18446744073709551615

# The traceable functions that getppid(2) calls once each: which of the
# system call's wrappers is traceable depends on the configuration, and
# only those that BPF's fentry can attach to are taken,
# so that every mode times the same calls.
SYS_CANDIDATES="__x64_sys_getppid __do_sys_getppid __task_pid_nr_ns"
NEST_FUNCS="fdb_outer fdb_mid_a fdb_mid_b fdb_leaf"

for f in /sys/devices/system/cpu/vulnerabilities/*; do
	echo "vuln $(basename $f): $(cat $f)"
done
insmod $X/fdur_bench.ko || { echo "bench: cannot load fdur_bench.ko"; exit 1; }
cd $T || exit 1
SYS_FUNCS=""
# The BPF peer: fdbpf (kind fentry, kprobe or fsession) on the
# functions, waited for until it has attached; false if it exits first or
# takes 30 s.
fdbpf_start() { # kind functions
	rm -f /tmp/fdbpf.ready
	$X/fdbpf $1 $X/fdbpf.bpf.o /tmp/fdbpf.ready $2 > /tmp/fdbpf.out 2> /tmp/fdbpf.err &
	echo $! > /tmp/fdbpf.pid
	i=0
	while [ ! -f /tmp/fdbpf.ready ]; do
		i=$((i + 1))
		if ! kill -0 $! 2> /dev/null || [ $i -ge 300 ]; then
			fdbpf_stop > /dev/null
			return 1
		fi
		sleep 0.1
	done
}
fdbpf_stop() { # stop it; print what it counted per function
	[ -f /tmp/fdbpf.pid ] || return 0
	kill -TERM "$(cat /tmp/fdbpf.pid)" 2> /dev/null
	wait "$(cat /tmp/fdbpf.pid)" 2> /dev/null
	cat /tmp/fdbpf.out
	rm -f /tmp/fdbpf.pid /tmp/fdbpf.out
}
fentry_ok() { # function: can fdbpf attach fentry/fexit to it?
	[ -x $X/fdbpf ] || return 0
	fdbpf_start fentry $1 || return 1
	fdbpf_stop > /dev/null
}
for f in $SYS_CANDIDATES; do
	grep -qx "$f" available_filter_functions || continue
	if fentry_ok $f; then
		SYS_FUNCS="$SYS_FUNCS $f"
	else
		echo "bench: syscall: $f left out: $(cat /tmp/fdbpf.err)"
	fi
done
SYS_CALLS=$(echo $SYS_FUNCS | wc -w)
echo "bench: syscall: getppid() traces$SYS_FUNCS ($SYS_CALLS calls per iteration)"
echo 0 > tracing_on
echo 1 > tracing_on

# The whole-system workload: fork/exec and file I/O on tmpfs.
cat > /tmp/system-workload.sh <<EOF
i=0
while [ \$i -lt $SYSTEM_LOOPS ]; do
	/bin/true
	dd if=/dev/zero of=/tmp/fdb-file bs=4k count=16 2>/dev/null
	cat /tmp/fdb-file > /dev/null
	ls /proc > /dev/null
	rm /tmp/fdb-file
	i=\$((i + 1))
done
EOF

want() { # part: is it in BENCH_ONLY?
	case " $BENCH_ONLY " in *" $1 "*) return 0;; esac
	return 1
}

run_once() { # workload: the ns one run takes
	case $1 in
	syscall) $X/fdbench getppid $SYS_N;;
	users) $X/fdbench getppid $USERS_N;;
	nested) echo $NEST_N > $RUN && cat $RUN;;
	system) $X/fdbench exec /bin/sh /tmp/system-workload.sh;;
	switch) $X/fdswitch $SWITCH_N 0;;
	esac
}

measure() { # workload: the median of REPS runs, after one warm-up run
	run_once $1 > /dev/null
	i=0
	while [ $i -lt $REPS ]; do
		run_once $1
		i=$((i + 1))
	done | sort -n | sed -n "$(((REPS + 1) / 2))p"
}

set_filter() { # functions, or "" for all
	if [ -n "$1" ]; then
		echo "$1" > set_ftrace_filter
	else
		echo > set_ftrace_filter
	fi
}

probe_events() { # file group functions: a probe at entry and return of each
	n=0
	for f in $3; do
		if [ "$1" = kprobe_events ]; then
			echo "p:$2/e$n $f" >> $1 && echo "r:$2/x$n $f" >> $1 || return 1
		else
			echo "f:$2/e$n $f" >> $1 && echo "f:$2/x$n $f%return" >> $1 || return 1
		fi
		n=$((n + 1))
	done
	echo 1 > events/$2/enable
}

setup() { # mode functions
	case $1 in
	nop) ;;
	function|function_graph)
		set_filter "$2" && echo $1 > current_tracer;;
	graph_thresh)
		set_filter "$2" && echo 1000000000 > tracing_thresh &&
			echo function_graph > current_tracer;;
	graph_thresh_events)
		# 1 us, the smallest: every call of the nested workload is longer
		set_filter "$2" && echo 1 > tracing_thresh &&
			echo function_graph > current_tracer;;
	bpf_fentry|bpf_kprobe|bpf_fsession)
		[ -n "$2" ] || return 1
		fdbpf_start ${1#bpf_} "$2" || {
			echo "fdbpf did not start: $(cat /tmp/fdbpf.err)" >&2; return 1; };;
	profiler)
		set_filter "$2" && echo 1 > function_profile_enabled;;
	profiler_self)
		# self time, as function_duration's statistics keep it
		echo 0 > options/graph-time &&
			set_filter "$2" && echo 1 > function_profile_enabled;;
	kprobe)
		[ -n "$2" ] && probe_events kprobe_events fdbk "$2";;
	fprobe)
		[ -n "$2" ] && probe_events dynamic_events fdbf "$2";;
	fd_events|fd_hooks|fd_stats|fd_all|fd_filter|fd_filter_drop|fd_hist|fd_perf|fd_breakdown|fd_stats_breakdown)
		case $1 in
		fd_events) echo 0 > $FD/threshold_ns; echo 0 > $FD/stats_enable;;
		fd_breakdown) echo 0 > $FD/threshold_ns; echo 0 > $FD/stats_enable
			echo 1 > $FD/breakdown || return 1;;
		fd_stats_breakdown) echo $MAX_NS > $FD/threshold_ns
			echo 1 > $FD/stats_enable
			echo 1 > $FD/breakdown || return 1;;
		fd_filter) echo 0 > $FD/threshold_ns; echo 0 > $FD/stats_enable
			echo "$EV_FILTER" > $EV/filter;;
		fd_filter_drop) echo 0 > $FD/threshold_ns; echo 0 > $FD/stats_enable
			echo "$EV_FILTER_DROP" > $EV/filter;;
		fd_hist) echo 0 > $FD/threshold_ns; echo 0 > $FD/stats_enable
			echo "$EV_HIST" > $EV/trigger;;
		fd_perf) echo 0 > $FD/threshold_ns; echo 0 > $FD/stats_enable
			echo 1 > $FD/perf_enable
			perf stat -a -e ftrace:funcduration -o /tmp/perf.stat &
			echo $! > /tmp/perf.pid
			# Counting once perf holds the event open on every CPU
			i=0
			while [ "$(ls -l /proc/$!/fd 2> /dev/null | grep -c 'perf_event')" -lt 2 ]; do
				i=$((i + 1))
				[ $i -lt 100 ] || { echo "perf stat did not start" >&2; return 1; }
				sleep 0.1
			done;;
		fd_hooks) echo $MAX_NS > $FD/threshold_ns; echo 0 > $FD/stats_enable;;
		fd_stats) echo $MAX_NS > $FD/threshold_ns; echo 1 > $FD/stats_enable;;
		fd_all) echo 0 > $FD/threshold_ns; echo 1 > $FD/stats_enable;;
		esac
		set_filter "$2" && echo function_duration > current_tracer;;
	esac
}

teardown() {
	# what the BPF peer counted, to show that it timed the calls
	fdbpf_stop > /tmp/fdbpf.counts
	sed 's/^/bench: /' /tmp/fdbpf.counts
	if [ -f /tmp/perf.pid ]; then
		kill -INT "$(cat /tmp/perf.pid)"
		wait "$(cat /tmp/perf.pid)" 2> /dev/null
		rm -f /tmp/perf.pid /tmp/perf.stat
	fi
	if [ -d $FD ]; then
		echo 0 > $FD/perf_enable
		[ -f $FD/breakdown ] && echo 0 > $FD/breakdown
		echo 0 > $EV/filter
		echo "!$EV_HIST" > $EV/trigger 2> /dev/null
		echo 0 > $FD/threshold_ns
		echo 1 > $FD/stats_enable
	fi
	echo nop > current_tracer
	echo 0 > function_profile_enabled
	echo 1 > options/graph-time
	echo 0 > tracing_thresh
	for g in fdbk fdbf; do
		[ -d events/$g ] && echo 0 > events/$g/enable
	done
	echo > kprobe_events
	echo > dynamic_events
	echo > set_ftrace_filter
	echo > trace
}

# The events a mode wrote in the buffer (read or not), per traced call:
# 1 for fd_events and graph_thresh_events, as each call writes one.
events_per_call() { # workload mode calls-per-run
	n=$(awk '/^(entries|overrun):/ { s += $2 } END { print s + 0 }' per_cpu/cpu*/stats)
	awk -v n=$n -v c=$(($3 * (REPS + 1))) -v w=$1 -v m=$2 \
		'BEGIN { printf "bench: %s %s: %.3f events per call\n", w, m, n / c }'
}

MODES="nop function function_graph graph_thresh profiler profiler_self kprobe fprobe bpf_fentry bpf_kprobe bpf_fsession fd_events fd_hooks fd_stats fd_all fd_filter fd_filter_drop fd_hist fd_perf fd_breakdown fd_stats_breakdown"
# The unpatched base: every mode but function_duration's.
if [ ! -d $FD ]; then
	MODES=$(for m in $MODES; do echo $m; done | grep -v '^fd_' | tr '\n' ' ')
	echo "bench: no function_duration here (the unpatched base): modes $MODES"
elif [ ! -f $FD/breakdown ]; then
	MODES=$(for m in $MODES; do echo $m; done | grep -v 'breakdown$' | tr '\n' ' ')
	echo "bench: no function_duration/breakdown here: modes $MODES"
fi

bench_workload() { # workload functions calls-per-iteration iterations
	w=$1 funcs=$2 per_iter=$3 iters=$4
	calls_per_run=$((per_iter * iters))
	base=""
	for mode in $MODES; do
		teardown
		if ! setup $mode "$funcs" 2> /tmp/setup.err; then
			echo "bench: $w $mode: setup failed: $(cat /tmp/setup.err)"
			continue
		fi
		ns=$(measure $w)
		case $mode in fd_events|fd_breakdown|graph_thresh_events)
			[ $calls_per_run -gt 0 ] &&
				events_per_call $w $mode $calls_per_run;;
		esac
		# that the breakdown was on: in the events, in the statistics
		case $mode in
		fd_breakdown)
			if grep -q ' = run .* + irq ' trace; then
				echo "bench: $w $mode: the events carry a breakdown"
			else
				echo "bench: $w $mode: NO breakdown in the events"
			fi;;
		fd_stats_breakdown)
			grep '^# calls with a breakdown:' $FD/stats |
				sed "s/^# /bench: $w $mode: /";;
		esac
		if [ "$mode" = fd_stats ] && [ "$w" = system ]; then
			# the traced calls of one run (the warm-up and REPS runs
			# were counted), for the per-call figures: those counted
			# and those dropped (over stats_max_functions, ...)
			grep '^# functions:\|^# dropped calls:' $FD/stats | sed 's/^/bench: system: /'
			per_iter=$(sed -n 's/^# functions: .*, calls: \([0-9]*\), .*/\1/p' $FD/stats)
			dropped=$(sed -n 's/^# dropped calls: \([0-9]*\) over the function limit, \([0-9]*\) in NMI, \([0-9]*\) without shadow stack room, \([0-9]*\) with a negative duration, \([0-9]*\) without memory$/\1 + \2 + \3 + \4 + \5/p' $FD/stats)
			per_iter=$(((per_iter + ${dropped:-0}) / (REPS + 1)))
			echo "bench: system: $per_iter traced calls per run (function_duration stats, counted and dropped)"
			echo "$per_iter" > /tmp/system-calls
		fi
		teardown
		[ "$mode" = nop ] && base=$ns
		echo "raw $w $mode $ns"
	done
}

# The switch workload: fdswitch's round trips over two pipes between two
# processes pinned to CPU 0, two context switches (and two wakeups) each,
# timed per context switch. Modes: none (no tracer anywhere); and
# function_duration running in an instance (sw) on functions the workload
# never calls (the nested workload's, in the module), hooks only (no
# event, stats off), with breakdown 0 (fd_hooks_nobd: the tracer is on,
# the breakdown's scheduler probes are not) and 1 (fd_hooks_bd: they run
# at every switch and wakeup). The top-level instance stays nop.
SWITCH_IDLE_FUNCS=$NEST_FUNCS
SWITCH_MODES="none fd_hooks_nobd fd_hooks_bd"
if [ ! -d $FD ]; then
	SWITCH_MODES="none"
elif [ ! -f $FD/breakdown ]; then
	SWITCH_MODES="none fd_hooks_nobd"
fi

switch_down() {
	d=$T/instances/sw
	[ -d $d ] || return 0
	echo 0 > $d/function_duration/breakdown 2> /dev/null
	echo nop > $d/current_tracer
	echo > $d/set_ftrace_filter
	rmdir $d || echo "bench: switch: cannot remove $d"
}

switch_up() { # mode
	[ $1 = none ] && return 0
	d=$T/instances/sw
	mkdir $d || return 1
	bd=0
	[ $1 = fd_hooks_bd ] && bd=1
	if [ -f $d/function_duration/breakdown ]; then
		echo $bd > $d/function_duration/breakdown || return 1
	fi
	(cd $d && FD=$d/function_duration && setup fd_hooks "$SWITCH_IDLE_FUNCS") || return 1
	[ "$(cat $d/current_tracer)" = function_duration ] || return 1
	if [ $bd = 1 ] && [ "$(cat $d/function_duration/breakdown)" != 1 ]; then
		echo "breakdown did not stay on" >&2
		return 1
	fi
}

bench_switch() {
	for mode in $SWITCH_MODES; do
		teardown
		switch_down
		if ! switch_up $mode 2> /tmp/setup.err; then
			echo "bench: switch $mode: setup failed: $(cat /tmp/setup.err)"
			switch_down
			continue
		fi
		r=$(measure switch)
		switch_down
		set -- $r
		echo "raw switch $mode ${1:-0} ${2:-0}"
	done
}

# The users workload: k tracing instances, each one more function-graph
# user (fgraph allows 16 in all), of which only the first traces the
# syscall workload's functions; the others trace functions that the
# getppid loop never calls (the module's, which run only in the nested
# workload): their cost on the measured path is fgraph's walk over its
# users and each user's filter test. The top-level instance stays nop.
USERS_IDLE_FUNCS=$NEST_FUNCS

users_down() { # remove every instance of the users workload
	for d in $T/instances/u*; do
		[ -d $d ] || continue
		echo nop > $d/current_tracer
		echo > $d/set_ftrace_filter
		rmdir $d || echo "bench: users: cannot remove $d"
	done
	echo 0 > $T/tracing_thresh
}

users_up() { # k mode (fd_hooks or graph_thresh)
	if [ $2 = graph_thresh ]; then
		echo 1000000000 > $T/tracing_thresh || return 1
	fi
	i=1
	while [ $i -le $1 ]; do
		d=$T/instances/u$i
		mkdir $d || return 1
		f=$USERS_IDLE_FUNCS
		[ $i -eq 1 ] && f=$SYS_FUNCS
		case $2 in
		fd_hooks) (cd $d && FD=$d/function_duration && setup fd_hooks "$f");;
		graph_thresh) (cd $d && setup function_graph "$f");;
		*) false;;
		esac || return 1
		i=$((i + 1))
	done
}

bench_users() {
	users_down
	echo "raw users nop $(measure users)"
	for mode in fd_hooks graph_thresh; do
		case " $MODES " in *" $mode "*) ;; *) continue;; esac
		for k in $USERS_K; do
			if ! users_up $k $mode 2> /tmp/setup.err; then
				echo "bench: users$k $mode: setup failed: $(cat /tmp/setup.err)"
				users_down
				continue
			fi
			ns=$(measure users)
			users_down
			echo "raw users$k $mode $ns"
		done
	done
}

echo "bench: cpus $(grep -c ^processor /proc/cpuinfo), $(uname -r)"
if want syscall; then
	bench_workload syscall "$SYS_FUNCS" $SYS_CALLS $SYS_N > /tmp/raw-syscall
	cat /tmp/raw-syscall
fi
if want nested; then
	MODES="$MODES graph_thresh_events" \
		bench_workload nested "$NEST_FUNCS" 6 $NEST_N > /tmp/raw-nested
	cat /tmp/raw-nested
fi
if want system; then
	# Everything traced: no filter; probes cannot cover every function.
	MODES=$(for m in nop function function_graph graph_thresh profiler fd_stats fd_events fd_hooks fd_all; do
		case " $MODES " in *" $m "*) echo $m;; esac; done | tr '\n' ' ') \
		bench_workload system "" 0 1 > /tmp/raw-system
	cat /tmp/raw-system
fi
if want switch; then
	if [ -x $X/fdswitch ]; then
		bench_switch > /tmp/raw-switch
		cat /tmp/raw-switch
		awk -v n=$SWITCH_N '$1 == "raw" && n > 0 {
			printf "bench: switch %s: %.3f context switches per round trip (getrusage, both processes)\n", $3, $5 / n }' /tmp/raw-switch
	else
		echo "bench: switch: no /extra/fdswitch"
	fi
fi
if want users; then
	teardown
	echo "bench: users: k in $USERS_K, median of $USERS_REPS runs after a warm-up"
	# As it goes (the host can time each figure), and to the raw file.
	(REPS=$USERS_REPS; bench_users) | tee /tmp/raw-users
fi

per_call() { # raw-file calls-per-run
	[ -f $1 ] || return 0
	awk -v calls=$2 '$1 == "raw" && $3 == "nop" { base = $4 }
		$1 == "raw" { d = $4 - base; printf "bench %s %s %.1f %d %d\n", $2, $3, calls ? d / calls : 0, $4, calls }' $1
}
per_call /tmp/raw-syscall $((SYS_N * SYS_CALLS))
per_call /tmp/raw-nested $((NEST_N * 6))
per_call /tmp/raw-system "$(cat /tmp/system-calls 2>/dev/null || echo 0)"
per_call /tmp/raw-users $((USERS_N * SYS_CALLS))
# per context switch: 2 per round trip, nothing subtracted
[ -f /tmp/raw-switch ] &&
	awk -v n=$((2 * SWITCH_N)) '$1 == "raw" {
		printf "bench %s %s %.1f %d %d\n", $2, $3, $4 / n, $4, n }' /tmp/raw-switch

# Streaming: every function traced, every call one event, the buffer read
# by trace-cmd record as the system workload runs; what it sustains in
# events per guest second and what it loses. With the default buffer, then
# with each per-CPU size of STREAM_KB (trace-cmd record -b) up to the
# first that loses nothing.
STREAM_KB="4096 16384 65536"
stream() { # tracer [buffer kb per CPU]
	teardown
	rm -f /tmp/stream.dat
	[ $1 = function_duration ] && echo 0 > $FD/stats_enable
	# stdout: the workload's ns, and "CPU n: m events lost" per CPU
	trace-cmd record -p $1 ${2:+-b $2} -o /tmp/stream.dat \
		$X/fdbench exec /bin/sh /tmp/system-workload.sh > /tmp/stream.out 2> /tmp/stream.err
	ns=$(grep -x '[0-9]*' /tmp/stream.out | tail -1)
	lost=$(awk '/events lost/ { s += $3 } END { print s + 0 }' /tmp/stream.out)
	# what was read: one raw line per event
	read=$(trace-cmd report -R /tmp/stream.dat 2> /dev/null |
		grep -c ' funcduration: \| funcduration_breakdown: \| funcgraph_entry: \| funcgraph_exit: ')
	echo "stream $1${2:+@$2} ${ns:-0} $((read + lost)) $read $lost"
	teardown
	[ $1 = function_duration ] && echo 1 > $FD/stats_enable
	rm -f /tmp/stream.dat
}
if want streaming; then
	for t in function_graph function_duration; do
		[ $t = function_duration ] && [ ! -d $FD ] && continue
		stream $t
		for kb in $STREAM_KB; do
			[ "$lost" = 0 ] && break
			stream $t $kb
		done
	done
	grep -i 'error\|warn' /tmp/stream.err | head -3 | sed 's/^/bench: streaming: /'
	rm -f /tmp/stream.out /tmp/stream.err
fi

# The ring buffer's own benchmark: one writer reserving and committing
# 10-byte events into a buffer of its own for 10 guest seconds, the reader
# off, so that page ends and overwrites are in the figure. It reports
# through trace_printk() into the top buffer.
if want ringbuffer; then
	teardown
	echo > trace
	m=$(find /lib/modules -name 'ring_buffer_benchmark.ko*' | head -1)
	if [ -z "$m" ]; then
		echo "bench: ringbuffer: no ring_buffer_benchmark module"
	elif ! insmod $m disable_reader=1; then
		echo "bench: ringbuffer: cannot load $m"
	else
		i=0
		while ! grep -q 'Hit:' trace && [ $i -lt 300 ]; do
			sleep 1
			i=$((i + 1))
		done
		rmmod ring_buffer_benchmark
		us=$(sed -n 's/.*Time: *\([0-9]*\) (usecs).*/\1/p' trace | head -1)
		hit=$(sed -n 's/.*Hit: *\([0-9]*\).*/\1/p' trace | head -1)
		if [ -n "$us" ] && [ -n "$hit" ]; then
			echo "rb write $us $hit"
		else
			echo "bench: ringbuffer: no result in 300 s"
		fi
		grep 'ERROR' trace | head -3 | sed 's/^/bench: ringbuffer: /'
	fi
	echo > trace
fi

want memory || exit 0

# Memory
ring_bytes() { # mode functions workload calls: ring-buffer bytes per call
	teardown
	echo 4096 > buffer_size_kb
	setup $1 "$2"
	run_once $3 > /dev/null
	# Switching the tracer would reset the buffer: stop writing first.
	echo 0 > tracing_on
	b=$(awk '/^bytes:/ { s += $2 } END { print s + 0 }' per_cpu/cpu*/stats)
	o=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' per_cpu/cpu*/stats)
	echo "mem ring_bytes_per_call_$1 $((b / $4)) (overrun $o)"
	teardown
	echo 1 > tracing_on
}
SYS_N=2000
for mode in fd_events function_graph function; do
	[ ! -d $FD ] && [ $mode = fd_events ] && continue
	ring_bytes $mode "$SYS_FUNCS" syscall $((SYS_N * SYS_CALLS))
done

[ -d $FD ] || exit 0
teardown
setup fd_stats "$SYS_FUNCS"
echo "mem $(grep '^# memory:' $FD/stats | sed 's/^# memory: //')"
teardown
for n in 64 1024 8192; do
	echo $n > $FD/stats_max_functions
	setup fd_stats "$SYS_FUNCS"
	echo "mem stats_bytes_$n $(sed -n 's/^# memory: \([0-9]*\) bytes.*/\1/p' $FD/stats)"
	teardown
done
echo 1024 > $FD/stats_max_functions
exit 0
