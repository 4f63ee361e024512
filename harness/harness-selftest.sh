#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make harness-selftest`: prove that make check catches what it must.
# A failing .tc and a kernel WARN during a passing .tc must each make
# `make check TESTS=...` exit non-zero. And the torture phase's NMIs must
# not kill a guest they reach before the kernel has an IDT: a boot with
# an NMI every 20 ms must run its script. The lockup detectors' margin
# for host stalls (harness/boot.sh) must let make check pass across a
# 40 s stop of QEMU, and must not hide a real soft lockup; a silent
# guest must get its program counters sampled.
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

# make check TESTS=stall.tc with QEMU stopped for 40 s when the test says
# so on the console; its exit status.
stall_run() {	# log
	con=$LOGS/check-selected.console
	rm -f "$con"
	TESTS="$TOP/harness/selftests/stall.tc" "$TOP/harness/check.sh" > "$1" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null && ! grep -q 'HARNESS: STALL NOW' "$con" 2>/dev/null; do
		sleep 1
	done
	q=$(pgrep -f "^qemu-system.*$OUT/initrd-check-selected")
	if [ -n "$q" ]; then
		kill -STOP $q
		sleep 40
		kill -CONT $q
		echo "harness-selftest: QEMU (pid $q) stopped for 40 s" >> "$1"
	else
		echo "harness-selftest: stall.tc: no QEMU to stop" >> "$1"
	fi
	wait $pid
	rc=$?
	cp "$con" "${1%.log}.console" 2>/dev/null
	return $rc
}
if stall_run "$LOGS/harness-selftest-stall.log" &&
	! grep -q 'soft lockup' "$con"; then
	echo "harness-selftest: QEMU stopped 40 s: make check passed, no lockup reported"
else
	echo "harness-selftest: QEMU stopped 40 s: make check failed (see $LOGS/harness-selftest-stall.log)"
	ok=1
fi
# The same stop with the kernel's default detectors, for the record: a
# stop of QEMU has not been seen to trip them (an idle CPU touches the
# watchdog when it wakes; busy user-space loops on every CPU did not
# either), so this is information, not a check. The margin is there for
# the report of a stall inside __text_poke() (IRQs off) on a loaded host.
if LOCKUP_MARGIN="" stall_run "$LOGS/harness-selftest-stall-nomargin.log"; then
	echo "harness-selftest: QEMU stopped 40 s, the kernel's default detectors: passed too (information)"
else
	echo "harness-selftest: QEMU stopped 40 s, the kernel's default detectors: failed ($(grep -o -m1 -E 'soft lockup[^]]*|rcu: INFO.*' "$con" | head -1)) (information)"
fi
log=$LOGS/harness-selftest-softlockup.log
if TESTS="$TOP/harness/selftests/softlockup.tc" "$TOP/harness/check.sh" > "$log" 2>&1; then
	echo "harness-selftest: softlockup.tc: make check exited 0 -- a real lockup NOT caught"
	ok=1
elif grep -q 'soft lockup' "$LOGS/check-selected.console"; then
	echo "harness-selftest: softlockup.tc: make check failed as it must ($(grep -o 'soft lockup[^]]*' "$LOGS/check-selected.console" | head -1))"
else
	echo "harness-selftest: softlockup.tc: make check failed, but no soft lockup was reported (see $log)"
	ok=1
fi

printf '#!/bin/sh\necho nmi-storm-survived\n' > "$OUT/nmi-storm.sh"
if RUN=harness-selftest-nmi NMI_INTERVAL=0.02 TIMEOUT=300 \
	"$TOP/harness/boot.sh" check "$OUT/nmi-storm.sh" >/dev/null 2>&1 &&
	grep -q nmi-storm-survived "$LOGS/harness-selftest-nmi.out"; then
	echo "harness-selftest: NMIs every 20 ms from QEMU's start: the guest ran its script ($(cat "$LOGS/harness-selftest-nmi.nmi") NMIs)"
else
	echo "harness-selftest: NMIs every 20 ms from QEMU's start: the guest did not run its script (see $LOGS/harness-selftest-nmi.console)"
	ok=1
fi

# A guest silent for longer than HANG_SILENCE gets its vCPUs' program
# counters sampled and named (harness/hang-sampler.py): here an idle
# guest whose script sleeps without a word.
printf '#!/bin/sh\nsleep 45\necho silence-over\n' > "$OUT/silent.sh"
if RUN=harness-selftest-hang HANG_SILENCE=15 TIMEOUT=300 \
	"$TOP/harness/boot.sh" check "$OUT/silent.sh" >/dev/null 2>&1 &&
	grep -q '^  CPU 0: [a-z_]' "$LOGS/harness-selftest-hang.hang"; then
	echo "harness-selftest: a guest silent for 15 s: sampled ($(grep -m1 'CPU 0' "$LOGS/harness-selftest-hang.hang" | cut -c1-80))"
else
	echo "harness-selftest: a guest silent for 15 s: no named program counters in $LOGS/harness-selftest-hang.hang"
	ok=1
fi
exit $ok
