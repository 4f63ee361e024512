#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make harness-selftest`: prove that make check catches what it must.
# A failing .tc and a kernel WARN during a passing .tc must each make
# `make check TESTS=...` exit non-zero. And the torture phase's NMIs must
# not kill a guest they reach before the kernel has an IDT: a boot with
# an NMI every 20 ms must run its script.
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

printf '#!/bin/sh\necho nmi-storm-survived\n' > "$OUT/nmi-storm.sh"
if RUN=harness-selftest-nmi NMI_INTERVAL=0.02 TIMEOUT=300 \
	"$TOP/harness/boot.sh" check "$OUT/nmi-storm.sh" >/dev/null 2>&1 &&
	grep -q nmi-storm-survived "$LOGS/harness-selftest-nmi.out"; then
	echo "harness-selftest: NMIs every 20 ms from QEMU's start: the guest ran its script ($(cat "$LOGS/harness-selftest-nmi.nmi") NMIs)"
else
	echo "harness-selftest: NMIs every 20 ms from QEMU's start: the guest did not run its script (see $LOGS/harness-selftest-nmi.console)"
	ok=1
fi
exit $ok
