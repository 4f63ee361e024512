# SPDX-License-Identifier: GPL-2.0
# Sourced by the tests of funcdur (harness/tests/ftrace/funcdur-*.tc):
# the workload they count, parsers of funcdur's JSON and of
# function_duration/stats, and the state funcdur must leave as it found.

# The workload: dd reads /dev/zero one byte at a time, so that it makes
# exactly $1 vfs_read() calls.
fd_dd() { # count
	echo "dd if=/dev/zero of=/dev/null bs=1 count=$1 status=none"
}

# One line per function of funcdur's JSON (top --format json, one object
# per line; the last one is read): "name calls total self avg min max
# stddev p50 p90 p99".
fd_json_rows() { # file
	tail -n 1 "$1" | sed 's/{"function":/\n/g' | sed -n 's/^"\([^"]*\)",\(.*\)$/\1 \2/p' |
	awk '{
		name = $1; rest = $0; sub(/^[^ ]* /, "", rest)
		n = split(rest, kv, ",")
		for (i = 1; i <= n; i++) {
			split(kv[i], p, ":"); gsub(/"/, "", p[1]); gsub(/[]}]/, "", p[2])
			v[p[1]] = p[2]
		}
		print name, v["calls"], v["total"], v["self"], v["avg"], v["min"], v["max"],
		      v["stddev"], v["p50"], v["p90"], v["p99"]
	}' | sort
}

# The same from a function_duration/stats file.
fd_stats_rows() { # file
	awk '!/^#/ && NF >= 16 {
		name = $16; for (i = 17; i <= NF; i++) name = name " " $i
		print name, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
	}' "$1" | sort
}

# The field of a function's row of fd_*_rows output (2: calls, 3: total...).
fd_row_field() { # rows-file function field
	awk -v f="$2" -v n="$3" '$1 == f { print $n }' "$1"
}

# What funcdur may not leave changed: the instances, and the top-level
# files it could touch or that a run could change by mistake.
FD_TOP_FILES="current_tracer tracing_on set_ftrace_filter set_ftrace_notrace
	set_ftrace_pid set_ftrace_notrace_pid options/sleep-time
	options/funcduration-sleep-time options/function-fork
	options/overwrite
	buffer_size_kb function_duration/threshold_ns function_duration/breakdown
	events/ftrace/funcduration/trigger events/ftrace/funcduration/filter
	events/ftrace/funcduration_breakdown/trigger
	events/ftrace/funcduration_breakdown/filter
	set_graph_function set_graph_notrace max_graph_depth trace_clock"

fd_state() { # file: the state, to compare with a later one
	{
		echo "instances: $(ls instances | tr '\n' ' ')"
		for f in $FD_TOP_FILES; do
			[ -e "$f" ] && echo "$f: $(cat "$f" | tr '\n' ' ')"
		done
	} > "$1"
}

fd_state_unchanged() { # saved-state-file what
	fd_state "$1.now"
	if ! cmp -s "$1" "$1.now"; then
		echo "funcdur left the system changed ($2):"
		diff "$1" "$1.now"
		return 1
	fi
}
