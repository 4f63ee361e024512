#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run ftracetest in the guest. With files under /extra (make check
# TESTS=...), run just those. Otherwise run this series' tests (listed in
# /harness/series-tests) and then the rest of the upstream test.d.
cd /ftrace || exit 1
if [ -n "$(ls /extra 2>/dev/null)" ]; then
	echo "HARNESS: SUITE selected"
	./ftracetest -v -l /tmp/ftlog-selected /extra/* | cat
	exit 0
fi
series=$(cat /harness/series-tests 2>/dev/null)
if [ -n "$series" ]; then
	echo "HARNESS: SUITE series"
	./ftracetest -v -l /tmp/ftlog-series $series | cat
fi
upstream=$(find test.d -name '*.tc' | sort | while read -r t; do
	echo "$series" | grep -qx "$t" || echo "$t"
done)
echo "HARNESS: SUITE upstream"
./ftracetest -l /tmp/ftlog-upstream $upstream | cat
exit 0
