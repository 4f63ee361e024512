# SPDX-License-Identifier: GPL-2.0
# Sourced by the project's function_duration tests (harness/tests/ftrace/,
# /harness/tests/ftrace/ in the guest), after ftracetest's own helpers
# (test.d/functions): what several of them parse the trace with.

# A function_duration line of the trace, with the default options:
#   COMM-PID [CPU] FLAGS SEC.USEC: MARK DURATION us |  FUNC [MOD] <- CALLER
# \1 PID, \2 the delay mark, \3 and \4 the microseconds and the three
# digits of nanoseconds of the duration, \5 the function, \6 its module.
FD_LINE='^.*-\([0-9][0-9]*\) *\[[0-9][0-9]*\][^:]* [0-9][0-9]*\.[0-9]\{6\}: \(.\) *\([0-9][0-9]*\)\.\([0-9][0-9][0-9]\) us |  \([^ ]*\)\( \[[^]]*\]\)\{0,1\} <- [^ ].*$'

# The option that leaves the time a task is switched out out of
# function_duration's durations: the tracer's own, per instance.
FD_SLEEP_TIME=options/funcduration-sleep-time
