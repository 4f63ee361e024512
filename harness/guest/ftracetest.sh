#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run ftracetest in the guest.
#  - files under /extra (make check TESTS=...): just those;
#  - otherwise /harness/suite says which: "series" runs this series' tests
#    (listed in /harness/series-tests), "upstream" the rest of test.d,
#    "all" (the default) both.
cd /ftrace || exit 1
if [ -n "$(ls /extra 2>/dev/null)" ]; then
	echo "HARNESS: SUITE selected"
	./ftracetest -v -l /tmp/ftlog-selected /extra/* | cat
	exit 0
fi
suite=$(cat /harness/suite 2>/dev/null)
series=$(cat /harness/series-tests 2>/dev/null)
if [ -n "$series" ] && [ "$suite" != upstream ]; then
	echo "HARNESS: SUITE series"
	./ftracetest -v -l /tmp/ftlog-series $series | cat
fi
[ "$suite" = series ] && exit 0
upstream=$(find test.d -name '*.tc' | sort | while read -r t; do
	echo "$series" | grep -qx "$t" || echo "$t"
done)
echo "HARNESS: SUITE upstream"
./ftracetest -l /tmp/ftlog-upstream $upstream | cat
exit 0
