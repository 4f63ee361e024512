#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one check boot's logs into test results.

Reads the guest's output (ftracetest results, second serial port) and the
kernel console (boot-time tracer selftests, KUnit TAP, and any kernel
report: WARN, BUG, Oops, lockdep, KASAN, RCU stall, hung task). Prints one
line per result and appends them to a results file; the caller prints the
final 'N passed, N failed' line over all phases.
"""
import argparse
import re
import sys

RESULT = re.compile(r'^\[(\d+)\](.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|'
                    r'UNSUPPORTED|XFAIL|UNDEFINED|TIMEOUT)\]\s*$')
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
# Boot-time selftests print "Testing <what>: " and, maybe lines later
# (other messages interleave), the verdict.
SELFTEST = re.compile(r'Testing ([^:]+): ?(.*)$')
VERDICT = re.compile(r'(PASSED|OK|FAILED!?|SKIPPED)\s*$')
# The ring buffer's startup test: a start line, then its verdict (a
# failure is also a WARN, reported below).
RB_TEST_START = 'Running ring buffer tests...'
RB_TEST_PASS = 'Ring buffer PASSED!'
KUNIT_CASE = re.compile(r'^    (not ok|ok) \d+ (\S+)(.*)$')
KUNIT_SUITE = re.compile(r'^    # Subtest: (\S+)')
# Kernel reports that fail the run wherever they appear.
REPORTS = re.compile(
    r'(BUG: |WARNING: |Oops|Kernel panic|general protection fault|'
    r'KASAN|UBSAN|possible recursive locking|'
    r'inconsistent lock state|circular locking dependency|'
    r'suspicious RCU usage|rcu: INFO|detected stall|self-detected stall|'
    r'blocked for more than|soft lockup|hard LOCKUP|'
    r'DEBUG_LOCKS_WARN_ON|list_add corruption|list_del corruption|'
    r'ODEBUG: |Call Trace:)')

# Lines that match REPORTS but are known upstream notes, not kernel bugs:
# each becomes a skip naming the reason, never a pass. Keep this short.
KNOWN = [
    # The ORC unwinder's once-per-boot note when a stack trace is taken
    # of a context interrupted in the last instructions of
    # return_to_handler (arch/x86/kernel/ftrace_64.S), whose unwind
    # hints do not describe the frame there. No WARN() splat, no stack
    # dump; seen on the debug kernel only (2 of 5 torture boots), where
    # KASAN and kmemleak take a stack trace at every allocation.
    (re.compile(r'WARNING: stack going in the wrong direction\? at '
                r'return_to_handler\+'),
     'upstream x86 ORC unwinder note at return_to_handler'),
]


def clean(line):
    line = re.sub(r'\x1b\[[0-9;]*m', '', line.rstrip('\r\n'))
    return STAMP.sub('', line)


def read(path):
    try:
        with open(path, errors='replace') as f:
            return [clean(x) for x in f]
    except FileNotFoundError:
        return []


def load_expected(path):
    """Upstream tests not passing on the unpatched base: 'RESULT name'."""
    exp = {}
    for line in read(path):
        line = line.split('#', 1)[0].strip()
        if line:
            res, name = line.split(None, 1)
            exp[name.strip()] = res
    return exp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True, help="guest output log")
    ap.add_argument('--console', required=True, help="kernel console log")
    ap.add_argument('--expected', help="upstream baseline list")
    ap.add_argument('--results', required=True, help="file to append to")
    ap.add_argument('--phase', required=True)
    args = ap.parse_args()

    results = []          # (status, name, detail)

    suite = None
    expected = load_expected(args.expected) if args.expected else {}
    retried = False       # the results of a second run of a failed test
    for line in read(args.out):
        m = re.match(r'^HARNESS: SUITE (\S+)', line)
        if m:
            suite = m.group(1)
            continue
        if line.startswith('HARNESS: RETRY '):
            retried = True
            continue
        if line.startswith('HARNESS: TIME '):
            retried = False
            continue
        m = RESULT.match(line)
        if not m:
            continue
        name, res = m.group(2).strip(), m.group(3)
        # Guest scripts other than ftracetest print results in its format
        # without a suite line.
        label = name if suite is None else 'ftracetest/%s: %s' % (suite, name)
        if suite == 'upstream':
            base = expected.get(name, 'PASS')
            if res == 'TIMEOUT':
                # Cut off by the guest's per-test bound: no verdict either
                # way, shown as a skip with what the base did.
                status = 'skip'
                detail = 'TIMEOUT, no verdict (%s on the unpatched base)' % base
            elif retried and res == 'PASS' and base == 'PASS':
                # Never a pass: it failed once (ftracetest.sh re-runs a
                # failed upstream test once, for the timing-bound ones).
                status = 'skip'
                detail = 'FAIL, then PASS when run again (see FIRST RUN)'
            elif res in ('PASS', 'XFAIL', 'UNSUPPORTED') or res == base:
                status = 'pass' if res in ('PASS', 'XFAIL') else 'skip'
                detail = res if base == 'PASS' else '%s (as on base)' % res
            else:
                status = 'fail'
                detail = '%s, but %s on the unpatched base' % (res, base)
        elif res in ('PASS', 'XFAIL'):
            status, detail = 'pass', res
        elif res == 'UNSUPPORTED':
            status, detail = 'skip', res
        else:
            status, detail = 'fail', res
        results.append((status, label, detail))

    console = read(args.console)
    kunit_suite = None
    pending = None
    for line in console:
        m = SELFTEST.search(line)
        if m:
            pending, line = m.group(1), m.group(2)
        m = VERDICT.search(line)
        if pending and m:
            verdict = m.group(1)
            st = {'PASSED': 'pass', 'OK': 'pass',
                  'SKIPPED': 'skip'}.get(verdict, 'fail')
            results.append((st, 'boot selftest: ' + pending, verdict))
            pending = None
        m = KUNIT_SUITE.match(line)
        if m:
            kunit_suite = m.group(1)
        m = KUNIT_CASE.match(line)
        if m and kunit_suite:
            st = 'pass' if m.group(1) == 'ok' else 'fail'
            if '# SKIP' in m.group(3):
                st = 'skip'
            results.append((st, 'kunit %s.%s' % (kunit_suite, m.group(2)),
                            m.group(1)))

    if pending:
        results.append(('fail', 'boot selftest: ' + pending, 'no verdict'))
    if any(RB_TEST_START in line for line in console):
        passed = any(RB_TEST_PASS in line for line in console)
        results.append(('pass' if passed else 'fail',
                        'boot selftest: ring buffer startup test',
                        'PASSED' if passed else 'no verdict'))

    known = {}          # reason -> lines
    reports = []        # indexes of the other report lines
    for i, line in enumerate(console):
        reason = next((r for p, r in KNOWN if p.search(line)), None)
        if reason:
            known[reason] = known.get(reason, 0) + 1
        elif REPORTS.search(line):
            reports.append(i)
    for reason, count in known.items():
        results.append(('skip', 'kernel log: ' + reason,
                        '%d line(s), known, not counted as a report' % count))

    if reports:
        first = reports[0]
        excerpt = console[max(0, first - 5):first + 40]
        results.append(('fail', 'kernel log clean', 'kernel report on the '
                        'console:\n      ' + '\n      '.join(excerpt)))
    elif console:
        results.append(('pass', 'kernel log clean',
                        'no WARN/BUG/lockdep/KASAN/stall reports'))

    with open(args.results, 'a') as f:
        for status, name, detail in results:
            line = '%-4s %s: %s -- %s' % (status.upper(), args.phase, name,
                                          detail)
            print(line)
            f.write(line + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
