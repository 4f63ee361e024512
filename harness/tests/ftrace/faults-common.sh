# SPDX-License-Identifier: GPL-2.0
# Sourced by the project's fault-injection tests (*-faults.tc): one
# operation with its N-th allocation failed, through failnth
# (harness/guest/failnth.c, /usr/bin/failnth in every guest) and
# /proc/thread-self/fail-nth. Their "requires:" line names
# /proc/thread-self/fail-nth and /sys/kernel/debug/failslab: a kernel
# built without fault injection skips them.

# Every allocation of the task is a point: GFP_KERNEL ones too, pages of
# any order; no stack dump per injected fault.
faults_setup() {
	for a in failslab fail_page_alloc; do
		echo N > /sys/kernel/debug/$a/ignore-gfp-wait
		echo 0 > /sys/kernel/debug/$a/verbose
	done
	echo 0 > /sys/kernel/debug/fail_page_alloc/min-order
	echo N > /sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
}

# fault_run N OP PATH [STRING]: failnth's operation (mkdir, rmdir, write,
# append, close) with its N-th point failed. Sets RET (0 or -1), ERR
# (OK or the errno's name), INJ (1 if the N-th point was reached) and
# USED (the points the operation went through).
fault_run() {
	set -- $(failnth "$@")
	[ $# -eq 4 ] || { echo "failnth gave no result"; exit_fail; }
	RET=$1 ERR=$2 INJ=$3 USED=$4
}

# The kernel's reports so far (WARN, BUG): a fix's test fails on any.
kernel_reports() {
	dmesg | grep -c -E 'WARNING:|BUG:|Call Trace:' || true
}

# fault_points OP PATH [STRING]: how many points the operation goes
# through when nothing fails (it is done: the caller undoes it).
fault_points() {
	fault_run 1000000 "$@"
	[ "$INJ" = 0 ] || { echo "more than 1000000 points"; exit_fail; }
	POINTS=$USED
}

# fault_sample POINTS HEAD SAMPLES TAIL: the values of N to scan, every
# one of the first HEAD and the last TAIL points, SAMPLES spread evenly
# between them (a start of a tracer allocates a shadow stack per task,
# hundreds of points alike).
fault_sample() {
	awk -v p="$1" -v h="$2" -v s="$3" -v t="$4" 'BEGIN {
		for (n = 1; n <= p; n++) {
			if (n <= h || n > p - t)
				print n
			else if (s > 0 && (n - h) % int((p - h - t) / s + 1) == 0)
				print n
		}
	}'
}
