#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make check-arch [ARCHES="arm64 arm"]`: the check kernel of the series
# cross-built for arm64 and 32-bit ARM (armv7), each booted in QEMU's
# virt machine (TCG) with Debian's busybox-static of its architecture:
#  - ftracetest-<arch>: the boot-time tracer selftests and KUnit (on the
#    console), then this series' ftracetest tests (test.d and
#    harness/tests, those that need a boot of their own left out);
#  - boot-<arch>: boot-time tracing from the command line and bootconfig
#    (harness/boot-tracing.*), and the tests that read it.
# Every boot's console must be free of WARN, BUG, lockdep and RCU
# reports. Ends with 'N passed, N failed, N skipped' over both.
# Not in make check (CI's command): see harness/README.md, "Other architectures".
. "$(dirname "$0")/common.sh"

RESULTS=$OUT/check-arch-results.txt
TIMES=$OUT/check-arch-times.txt
: > "$RESULTS"
: > "$TIMES"
T_ALL=$(now)

. "$TOP/harness/phases.sh"

phase deps "$TOP/harness/deps.sh" arch || { fail_phase deps "apt-get failed"; summary; }

G=$OUT/guestfiles-arch
mkdir -p "$G"
# Every test of the series, funcdur's included (cross-built by
# harness/initramfs.sh). TESTS="path ..." (repo paths) runs only those.
for t in $TESTS; do
	[ -e "$TOP/$t" ] || die "no such test: $t"
done
if [ -n "$TESTS" ]; then
	for t in $TESTS; do echo "$t"; done | sed -e 's|^harness/|/harness/|' \
		-e 's|^.*tools/testing/selftests/ftrace/||'
else
	series_tests
fi > "$G/all-tests"
split_boot_tests "$G/all-tests" "$G"
echo series > "$G/suite"

for ARCH in ${ARCHES:-arm64 arm}; do
	export ARCH
	arch_settings
	phase "build-$ARCH" "$TOP/harness/build.sh" check ||
		{ fail_phase "build-$ARCH" "kernel build failed"; continue; }
	phase "initramfs-$ARCH" "$TOP/harness/initramfs.sh" "check$ASUFFIX" ||
		{ fail_phase "initramfs-$ARCH" "failed"; continue; }
	KERNEL=check$ASUFFIX GUESTFILES=$G TIMEOUT=3600 \
		phase "ftracetest-$ARCH" boot_phase "ftracetest-$ARCH" \
		"$TOP/harness/guest/ftracetest.sh"
	# funcdur's exports made on this architecture, read by their
	# consumers on the host (harness/exports.py, as in make check)
	req=""
	[ -z "$TESTS" ] && req="--require funcdur-top.prom --require funcdur-top.folded
		--require funcdur-trace.folded --require funcdur-trace.json
		--require funcdur-record.json"
	# shellcheck disable=SC2086
	phase "exports-$ARCH" python3 "$TOP/harness/exports.py" --phase "exports-$ARCH" \
		--log "$LOGS/check-ftracetest-$ARCH.out" --dir "$OUT/exports-ftracetest-$ARCH" \
		--tools "$OUT/consumers" --results "$RESULTS" $req
	# TESTS= without a boot-time test: no boot-tracing boot
	[ -s "$G/boot-tests" ] || [ -z "$TESTS" ] || continue
	KERNEL=check$ASUFFIX GUESTFILES=$G TIMEOUT=1200 \
		boot_tracing_phase "boot-$ARCH"
done
summary
