#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make harness-selftest`: prove that make check catches what it must.
# A failing .tc and a kernel WARN during a passing .tc must each make
# `make check TESTS=...` exit non-zero.
. "$(dirname "$0")/common.sh"

ok=0
for t in fail warn; do
	if TESTS="$TOP/harness/selftests/$t.tc" "$TOP/harness/check.sh" > "$LOGS/harness-selftest-$t.log" 2>&1; then
		echo "harness-selftest: $t.tc: make check exited 0 -- NOT caught"
		ok=1
	else
		echo "harness-selftest: $t.tc: make check failed as it must ($(tail -1 "$LOGS/harness-selftest-$t.log"))"
	fi
done
exit $ok
