# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scripts that print their checks as ftracetest
# does, for harness/report.py: set SUITE, then call result.
checkno=0

result() { # what pass(0/1)
	checkno=$((checkno + 1))
	if [ "$2" -eq 0 ]; then
		echo "[$checkno] $SUITE: $1 [PASS]"
	else
		echo "[$checkno] $SUITE: $1 [FAIL]"
	fi
}
