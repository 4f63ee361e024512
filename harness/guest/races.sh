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
	while [ "$(cat $H/holding)" != 1 ] && [ $n -lt 200 ]; do
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

exit 0
