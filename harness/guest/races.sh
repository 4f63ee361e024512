#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Races of the teardown paths with a return callback in flight, on the
# debug kernel (torture phase). Under single-threaded TCG such a window
# never opens by chance, so CONFIG_FUNCTION_DURATION_DEBUG_HOLD holds
# the next getppid() return of one task (the victim) for HOLD_MS after
# its callback has looked up its gops and trace array, while this script
# removes the instance, restarts the tracer or resets the statistics.
#
# - rmdir of an instance must not return before the held callback is
#   done (else it frees the gops and the ring buffer under it: KASAN);
# - after a statistics reset or a tracer restart, the calls made once
#   the write has returned are counted exactly once: the held call of
#   before must not land in the new counts.
# Cases 5 to 7 below say what else they hold or fail on purpose.
T=/sys/kernel/tracing
H=/sys/kernel/debug/function_duration
FDB=/extra/fdbench
HOLD_MS=${HOLD_MS:-2000}
CALLS=1000
SUITE=races
. /harness/result.sh

if [ ! -d $H ] || [ ! -x $FDB ]; then
	result "the hold knob ($H) and $FDB are there" 1
	exit 0
fi
cd $T || exit 1
F=$(grep -xF -e __x64_sys_getppid -e __do_sys_getppid available_filter_functions | head -1)
echo "races: function $F, hold $HOLD_MS ms"

# Start the victim, held in its getppid() return; wait for the hold.
hold_victim() {
	echo "$HOLD_MS" > $H/hold_ms
	sh -c "echo \$\$ > $H/hold_pid; exec $FDB getppid 1" > /dev/null &
	victim=$!
	n=0
	# (up to 30 s: a loaded host makes the victim's fork and exec slow)
	while [ "$(cat $H/holding)" != 1 ] && [ $n -lt 1500 ]; do
		sleep 0.02
		n=$((n + 1))
	done
	held=$(cat $H/holding)
}

calls_of() { # stats file: the CALLS of $F
	awk -v f="$F" '$NF == f { print $1 }' "$1"
}

# With the victim held, run the command in instance (or top level) $1,
# then make $CALLS getppid() calls: those, and only those, must be
# counted in its statistics.
count_after() { # dir what command...
	d=$1 what=$2
	shift 2
	hold_victim
	"$@"
	$FDB getppid $CALLS > /dev/null
	wait $victim
	n=$(calls_of $d/function_duration/stats)
	echo "races: $what: held $held, $F calls after it: $n of $CALLS"
	[ "$held" = 1 ] && [ "$n" = $CALLS ]
	result "calls after a $what are counted exactly once" $?
}
reset_stats() { echo 0 > $1/function_duration/stats; }
restart() {
	echo nop > $1/current_tracer
	echo function_duration > $1/current_tracer
}

# 1-3. A statistics reset while running and a tracer restart in an
# instance (its gops is allocated), a restart at the top level (static).
mkdir instances/race
echo "$F" > instances/race/set_ftrace_filter
echo function_duration > instances/race/current_tracer
count_after instances/race "statistics reset" reset_stats instances/race
count_after instances/race "restart in an instance" restart instances/race
echo nop > instances/race/current_tracer
rmdir instances/race
echo "$F" > set_ftrace_filter
echo function_duration > current_tracer
count_after . "restart at the top level" restart .
echo nop > current_tracer
echo > set_ftrace_filter

# 4. rmdir of an instance whose function_duration callback is held (last:
# without the fix it is a use after free).
mkdir instances/race
echo "$F" > instances/race/set_ftrace_filter
echo function_duration > instances/race/current_tracer
hold_victim
rmdir instances/race
after=$(cat $H/holding)
wait $victim
echo "races: rmdir: held $held, still holding after rmdir: $after"
[ "$held" = 1 ] && [ "$after" = 0 ]
result "rmdir of an instance waits for its return callbacks in flight" $?

# 5. perf's last close while calls are handed to perf on the other CPU:
# perf's task is held in the return of the first synchronize_srcu() of
# perf_trace_event_unreg() (tracepoint_synchronize_unregister()), after
# perf unregistered the event and while it waits for the readers of
# tracepoint_srcu, before it frees its lists. No call may read them from
# then on (the kernel counts such reads in perf_reads_held). With the
# stub register function of trace_export.c, the writer tested only the
# lists' pointer, which perf clears after it has freed them.
W=instances/race_perf_w P=instances/race_perf_h
mkdir $W $P
echo read_zero > $W/set_ftrace_filter
echo 1 > $W/function_duration/perf_enable
echo function_duration > $W/current_tracer
echo synchronize_srcu > $P/set_ftrace_filter
echo $((HOLD_MS * 500000)) > $P/function_duration/threshold_ns
echo function_duration > $P/current_tracer
dd if=/dev/zero of=/dev/null bs=1 2> /dev/null &
reader=$!
echo 0 > $H/perf_reads_held
perf stat -e ftrace:funcduration -a -- sleep 1 > /dev/null 2>&1 &
perf=$!
sleep 0.5
echo "$HOLD_MS" > $H/hold_ms
echo $perf > $H/hold_pid
wait $perf
kill $reader
echo 0 > $H/hold_pid
reads=$(cat $H/perf_reads_held)
held_in=$(grep -o 'synchronize_srcu <- [a-z_]*' $P/trace | head -n 1)
echo "races: perf close: held in '$held_in', perf lists read meanwhile: $reads"
for d in $W $P; do
	echo nop > $d/current_tracer
	rmdir $d
done
[ "$held_in" = "synchronize_srcu <- perf_trace_destroy" ] ||
	[ "$held_in" = "synchronize_srcu <- perf_trace_event_unreg" ]
result "perf's last close was held after it unregistered the event" $?
[ "$reads" = 0 ]
result "no call reads perf's lists after perf unregistered the event" $?

# 6. CPU 1 taken offline and back while an instance times the functions
# of the offline path with a filter and a hist trigger, and the trigger
# is removed and added again meanwhile: the calls made after the CPU
# reported itself dead to RCU skip them (freed after a grace period that
# does not wait for that CPU) and are counted. Any lockdep or KASAN
# report on the console fails the phase.
CPU1=/sys/devices/system/cpu/cpu1/online
if [ -w $CPU1 ]; then
	O=instances/race_offline
	E=$O/events/ftrace/funcduration
	mkdir $O
	echo 'smp_call_function_single cpuhp_report_idle_dead' > $O/set_ftrace_filter
	echo 'duration >= 0' > $E/filter
	echo 'hist:keys=func' > $E/trigger
	echo function_duration > $O/current_tracer
	(
		for i in $(seq 1 30); do
			echo '!hist:keys=func' > $E/trigger
			echo 'hist:keys=func' > $E/trigger
		done
	) &
	toggler=$!
	for i in 1 2 3; do
		echo 0 > $CPU1
		echo 1 > $CPU1
	done
	wait $toggler
	skipped=$(sed -n 's/^# filter and triggers: o[nf]*, \([0-9]*\) calls skipped.*/\1/p' $O/trace)
	echo "races: CPU 1 offline 3 times, triggers changing: $skipped calls skipped"
	echo nop > $O/current_tracer
	echo '!hist:keys=func' > $E/trigger
	echo 0 > $E/filter
	rmdir $O
	[ "${skipped:-0}" -ge 3 ]
	result "calls on a CPU that reported itself dead skip the filter and triggers" $?
fi

# 7. A CPU whose statistics rows could not be allocated when it came
# online gets them later. The instance's statistics are made with CPU 1
# offline; the debug knob fails the allocation of its rows when it comes
# back. Its calls are then dropped as "without memory", and must ask
# again: the footer's "on 2 CPUs" comes, and CPU 1's calls are counted.
# Before, only a function past the rows allocated asked for more.
if [ -w $CPU1 ] && [ -w $H/fail_chunk_cpu ]; then
	G=instances/race_grow
	echo 0 > $CPU1
	mkdir $G
	echo read_zero > $G/set_ftrace_filter
	echo function_duration > $G/current_tracer
	echo 2 > $H/fail_chunk_cpu
	echo 1 > $CPU1
	left=$(cat $H/fail_chunk_cpu)
	taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=100 2> /dev/null
	n=0
	while ! grep -q '^# memory: .* on 2 CPUs$' $G/function_duration/stats && [ $n -lt 250 ]; do
		taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=1 2> /dev/null
		sleep 0.02
		n=$((n + 1))
	done
	# (before the reset, which makes new rows on every online CPU)
	cpus=$(sed -n 's/^# memory: .* on \([0-9]*\) CPUs$/\1/p' $G/function_duration/stats)
	echo 0 > $G/function_duration/stats
	taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=$CALLS 2> /dev/null
	counted=$(awk '$NF == "read_zero" { print $1 }' $G/function_duration/stats)
	echo "races: CPU 1 online without rows (knob left $left): rows on $cpus CPUs, then ${counted:-0} of $CALLS calls counted"
	echo nop > $G/current_tracer
	rmdir $G
	[ "$left" = 0 ] && [ "$cpus" = 2 ] && [ "${counted:-0}" -ge $CALLS ]
	result "a CPU whose rows failed to allocate gets them on its next calls" $?
fi

exit 0
