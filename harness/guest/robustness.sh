#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The torture phase of `make check` (and `make torture`), on the check
# kernel (KASAN, KFENCE, kmemleak, lockdep, fault injection): allocation
# failures injected into every allocation of starting the tracer and
# creating an instance (faults.sh), then the torture loop (torture.sh),
# then a kmemleak scan over everything allocated meanwhile. The host
# injects NMIs all along and fails the run on any kernel report.
KMEMLEAK=/sys/kernel/debug/kmemleak

# The size of the run: the scripts' defaults (make check), or what
# make torture was given (ITERS, FAULTS_DENSE, ...), in torture.env.
if [ -f /harness/torture.env ]; then
	set -a
	. /harness/torture.env
	set +a
fi

# Only what is allocated from here on may be reported.
echo clear > $KMEMLEAK || echo "[0] kmemleak: cleared before the tests [FAIL]"

start=$(date +%s)
sh /harness/races.sh
echo "HARNESS: TIME $(($(date +%s) - start)) races"

start=$(date +%s)
if [ -x /extra/failnth ]; then
	sh /harness/faults.sh /extra/failnth
else
	echo "[0] faults: /extra/failnth is missing [FAIL]"
fi
echo "HARNESS: TIME $(($(date +%s) - start)) faults"

start=$(date +%s)
sh /harness/torture.sh
echo "HARNESS: TIME $(($(date +%s) - start)) torture"

# An object is reported once it is older than kmemleak's minimum age
# (5 s) and no scan found a reference to it; two scans make sure a
# pointer held in a register during the first one is not taken for a
# leak.
sleep 6
echo scan > $KMEMLEAK
echo scan > $KMEMLEAK
leaks=$(grep -c '^unreferenced object' $KMEMLEAK)
echo "KMEMLEAK: $leaks unreferenced objects"
if [ "$leaks" -eq 0 ]; then
	echo "[0] kmemleak: nothing leaked by the fault and torture tests [PASS]"
else
	cat $KMEMLEAK
	echo "[0] kmemleak: nothing leaked by the fault and torture tests [FAIL]"
fi
exit 0
