#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest part of `make bench`: what one filter update costs with 16
# function-graph users (the most fgraph allows), in two cases:
#   all    every user traces every function (empty filters);
#   named  every user names every function in its notrace hash (and traces
#          one function): the largest dispatch table fgraph can build.
# Prints `update <case> <what> <ns>`, where ns is one write(2) to a
# set_ftrace_* file, the shell's own cost subtracted (a guest ns is one
# instruction under -icount shift=0), and `mem functions <N>`.
T=/sys/kernel/tracing
X=/extra
MAX_NS=18446744073709551615
USERS=16
cd $T || exit 1

echo "mem functions $(wc -l < available_filter_functions)"

# The cost of a write of $2 to file $1, from the median of 3.
write_cost() {
	for r in 1 2 3; do
		t=$($X/fdbench exec sh -c "echo '$2' > $1")
		z=$($X/fdbench exec sh -c ":")
		echo $((t - z))
	done | sort -n | sed -n 2p
}

# Users 1..15 are instances, user 0 the top level: function_duration
# with no events and no statistics (the cheapest callback).
user_dir() {
	if [ "$1" -eq 0 ]; then echo $T; else echo $T/instances/upd$1; fi
}

start_users() { # filter notrace
	i=0
	while [ $i -lt $USERS ]; do
		d=$(user_dir $i)
		[ $i -gt 0 ] && mkdir $d
		echo $MAX_NS > $d/function_duration/threshold_ns
		echo 0 > $d/function_duration/stats_enable
		echo "$1" > $d/set_ftrace_filter
		echo "$2" > $d/set_ftrace_notrace
		echo function_duration > $d/current_tracer || return 1
		i=$((i + 1))
	done
}

stop_users() {
	i=$((USERS - 1))
	while [ $i -ge 0 ]; do
		d=$(user_dir $i)
		echo nop > $d/current_tracer
		echo > $d/set_ftrace_filter
		echo > $d/set_ftrace_notrace
		echo 0 > $d/function_duration/threshold_ns
		echo 1 > $d/function_duration/stats_enable
		[ $i -gt 0 ] && rmdir $d
		i=$((i - 1))
	done
}

U1=$(user_dir 1)
if start_users "" ""; then
	echo "update all filter-one $(write_cost $U1/set_ftrace_filter vfs_fsync)"
	echo "update all filter-all $(write_cost $U1/set_ftrace_filter '')"
else
	echo "bench: updates: cannot start $USERS users"
fi
stop_users

if start_users vfs_fsync '*'; then
	echo "update named filter-one $(write_cost $U1/set_ftrace_filter ksys_sync)"
	echo "update named notrace-all $(write_cost $U1/set_ftrace_notrace '*')"
else
	echo "bench: updates: cannot start $USERS users"
fi
stop_users
