# SPDX-License-Identifier: GPL-2.0
# The phases of make check and make check-arch, sourced after common.sh:
# each appends "PASS|FAIL|SKIP <phase>: <test> -- <detail>" lines to
# $RESULTS and its time to $TIMES; summary() prints the final line.

phase() {	# name command...
	name=$1
	shift
	t0=$(now)
	say "=== phase: $name"
	"$@"
	rc=$?
	echo "$name $(($(now) - t0))s" >> "$TIMES"
	return $rc
}

fail_phase() {
	echo "FAIL $1: $2" | tee -a "$RESULTS"
}

# A boot of the check kernel (or of $KERNEL) running a guest script; its
# logs become results of phase $1.
boot_phase() {	# phase script [extra files...]
	ph=$1
	shift
	RUN=check-$ph "$TOP/harness/boot.sh" "${KERNEL:-check}" "$@"
	rc=$?
	[ $rc -ne 0 ] && fail_phase "$ph" "guest exited with status $rc"
	report_phase "$ph"
}

# Tests that read the state of a boot with boot-time tracing
# (func-duration-boot*.tc, boot-*.tc) run in that boot: split the test
# list $1 into $2/boot-tests and the others, $2/series-tests.
BOOT_TESTS='/(func-duration-boot|boot-)[^/]*\.tc$'
split_boot_tests() {	# list dir
	grep -E "$BOOT_TESTS" "$1" > "$2/boot-tests"
	grep -Ev "$BOOT_TESTS" "$1" > "$2/series-tests"
}

# Phase $1: a boot with boot-time tracing on the command line and in
# bootconfig (harness/boot-tracing.*) that runs the tests listed in
# $GUESTFILES/boot-tests, or the files given (into /extra).
boot_tracing_phase() {	# phase [test files...]
	bt_phase=$1
	shift
	APPEND="$(cat "$TOP/harness/boot-tracing.cmdline")" \
		BOOTCONFIG=$TOP/harness/boot-tracing.bconf \
		phase "$bt_phase" boot_phase "$bt_phase" \
		"$TOP/harness/guest/boot-state.sh" "$@"
}

report_phase() {	# phase: turn $LOGS/check-<phase>.* into results
	ph=$1
	"$TOP/harness/report.py" --phase "$ph" --out "$LOGS/check-$ph.out" \
		--console "$LOGS/check-$ph.console" --results "$RESULTS" \
		--expected "$UPSTREAM_BASELINE" >/dev/null
	grep -E "^(FAIL|SKIP) $ph:" "$RESULTS"
	echo "harness: $ph: $(grep -c "^PASS $ph:" "$RESULTS") passed," \
		"$(grep -c "^FAIL $ph:" "$RESULTS") failed," \
		"$(grep -c "^SKIP $ph:" "$RESULTS") skipped" \
		"(logs: $LOGS/check-$ph.out, $LOGS/check-$ph.console)"
}

# The end of the log ftracetest -v prints after each failed test, so that
# CI's output, which keeps only the end of a run, says why. (The guest's
# serial lines end in CR LF.)
failed_logs() {
	for ph in $(sed -n 's/^FAIL \([^:]*\):.*/\1/p' "$RESULTS" | sort -u); do
		out=$LOGS/check-$ph.out
		[ -f "$out" ] || continue
		awk '{ sub(/\r$/, "") }
			/^\[[0-9]+\].*\[FAIL\]$/ { n = 0; on = 1; print "harness: log of " FILENAME ": " $0; next }
			/^\[[0-9]+\]/ || /^# of / { on = 0 }
			on { buf[++n % 30] = $0 }
			!on && n { flush() }
			END { if (n) flush() }
			function flush() { s = n > 30 ? n - 29 : 1; for (k = s; k <= n; k++) print "    " buf[k % 30]; n = 0 }' "$out"
	done
}

summary() {
	say "phase times:"
	sed 's/^/    /' "$TIMES"
	echo "    total $(($(now) - T_ALL))s"
	p=$(grep -c '^PASS' "$RESULTS")
	f=$(grep -c '^FAIL' "$RESULTS")
	s=$(grep -c '^SKIP' "$RESULTS")
	[ "$f" -ne 0 ] && { echo "harness: failures:"; grep '^FAIL' "$RESULTS"; failed_logs; }
	echo "$p passed, $f failed, $s skipped"
	[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
	exit $?
}

# This series' tests, as the guest names them: the selftests the overlay
# adds (test.d/..., under /ftrace, the upstream suite's directory), then
# the project's own tests (harness/tests/, which initramfs.sh puts in
# the guest's /harness/tests).
series_tests() {
	(cd "$ST" && git ls-files --cached --others --exclude-standard -- \
		tools/testing/selftests/ftrace/test.d | grep '\.tc$' |
		sed 's|^tools/testing/selftests/ftrace/||')
	(cd "$TOP" && git ls-files --cached --others --exclude-standard -- \
		harness/tests | grep '\.tc$' | sed 's|^|/|')
}
