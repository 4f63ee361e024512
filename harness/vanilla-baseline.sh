#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make vanilla-baseline`: build the unpatched base with the check config,
# boot it with the same guest and run the whole upstream ftracetest suite.
# Writes harness/upstream-baseline-$BASE.txt: every upstream test that does not
# pass on the base, with its result. `make check` fails an upstream test
# only if it passes here and not with the series.
. "$(dirname "$0")/common.sh"

"$TOP/harness/build.sh" prod vanilla || exit 1
"$TOP/harness/initramfs.sh" vanilla-prod || exit 1
mkdir -p "$OUT/guestfiles-vanilla"
: > "$OUT/guestfiles-vanilla/series-tests"
cp "$UPSTREAM_SKIP" "$OUT/guestfiles-vanilla/upstream-skip"
echo upstream > "$OUT/guestfiles-vanilla/suite"
# A test that crashes the base ends its boot: the suite goes on in a new
# boot after it, and the test is recorded as CRASH with the kernel's
# first report line (make check then requires it to pass). A test that
# hangs the base without a report (no line on the console or from the
# suite for $STALL seconds; the slowest upstream test takes 150 s under
# TCG on a loaded host) is ended the same way and recorded as a hang.
# RESUME=1 goes on from the tests an interrupted run finished.
STALL=${STALL:-900}
if [ -z "$RESUME" ]; then
	: > "$OUT/guestfiles-vanilla/upstream-done"
	: > "$LOGS/vanilla-all.out"
	: > "$LOGS/vanilla-crashes.txt"
fi
# Ends the boot of $1 (its QEMU) when its two logs stop growing.
watch_stall() {
	last= idle=0
	while sleep 30; do
		now=$(cat "$LOGS/$1.console" "$LOGS/$1.out" 2>/dev/null | wc -c)
		if [ "$now" = "$last" ]; then
			idle=$((idle + 30))
		else
			idle=0 last=$now
		fi
		if [ "$idle" -ge "$STALL" ]; then
			echo "HARNESS-HOST: no output for ${STALL}s" >> "$LOGS/$1.console"
			pkill -f "$OUT/initrd-$1.img"
			return
		fi
	done
}
boots=$(ls "$LOGS"/vanilla-crash-*.console 2>/dev/null | wc -l)
[ -n "$RESUME" ] || boots=0
while :; do
	boots=$((boots + 1))
	watch_stall vanilla &
	watcher=$!
	GUESTFILES=$OUT/guestfiles-vanilla RUN=vanilla TIMEOUT=7200 \
		"$TOP/harness/boot.sh" vanilla-prod "$TOP/harness/guest/ftracetest.sh" >/dev/null
	kill "$watcher" 2>/dev/null
	tr -d '\r' < "$LOGS/vanilla.out" > "$LOGS/vanilla.out.lf"
	cat "$LOGS/vanilla.out.lf" >> "$LOGS/vanilla-all.out"
	grep -q '^HARNESS: END' "$LOGS/vanilla.out.lf" && break
	t=$(sed -n 's/^HARNESS: START //p' "$LOGS/vanilla.out.lf" | tail -1)
	[ -n "$t" ] || die "the base crashed before the upstream suite began (see $LOGS/vanilla.console)"
	grep -qx "$t" "$OUT/guestfiles-vanilla/upstream-done" &&
		die "$t crashed the base twice (see $LOGS/vanilla.console)"
	sed -n 's/^HARNESS: START //p' "$LOGS/vanilla.out.lf" >> "$OUT/guestfiles-vanilla/upstream-done"
	why=$(grep -m1 -E 'BUG:|Oops|WARNING:|general protection' "$LOGS/vanilla.console")
	[ -n "$why" ] || why="hangs: $(grep -m1 -o 'no output for.*' "$LOGS/vanilla.console" || echo 'no report')"
	desc=$(sed -n 's/^# description: *//p' "$PRISTINE/tools/testing/selftests/ftrace/$t")
	say "$t crashed the base: $why"
	printf '[0] %s\t[CRASH]\n' "$desc" >> "$LOGS/vanilla-all.out"
	printf '%s\t%s\n' "$desc" "$why" >> "$LOGS/vanilla-crashes.txt"
	cp "$LOGS/vanilla.console" "$LOGS/vanilla-crash-$boots.console"
done
say "the upstream suite on the base: $boots boot(s)"
[ -f "$UPSTREAM_BASELINE" ] || : > "$UPSTREAM_BASELINE"
python3 - "$LOGS/vanilla-all.out" "$UPSTREAM_BASELINE" "$LOGS/vanilla-crashes.txt" <<'PY'
import re, sys
src, dst, crashes = sys.argv[1], sys.argv[2], sys.argv[3]
pat = re.compile(r'^\[\d+\](.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|'
                 r'UNSUPPORTED|XFAIL|UNDEFINED|TIMEOUT|CRASH)\]\s*$')
results = []
for line in open(src, errors='replace'):
    m = pat.match(re.sub(r'\x1b\[[0-9;]*m', '', line.rstrip()))
    if m:
        results.append((m.group(2), m.group(1).strip()))
crashed = dict(l.rstrip('\n').split('\t', 1) for l in open(crashes) if '\t' in l)
bad = [r for r in results if r[0] not in ('PASS', 'XFAIL')]
with open(dst) as f:
    old = f.read()
# Keep the hand-written reasons ('# ...' after the name) when re-measuring.
reasons = {}
for line in old.splitlines():
    if line and not line.startswith('#') and '#' in line:
        body, why = line.split('#', 1)
        reasons[body.split(None, 1)[1].strip()] = why.strip()
head = [l for l in old.splitlines() if l.startswith('#')]
with open(dst, 'w') as f:
    f.write('\n'.join(head) + '\n')
    for res, name in bad:
        why = reasons.get(name, 'reason not yet investigated')
        if res == 'CRASH':
            why = 'crashes the base: ' + crashed.get(name, '?')
        f.write('%-12s %s  # %s\n' % (res, name, why))
print('vanilla: %d tests, %d pass, %d not passing' %
      (len(results), len(results) - len(bad), len(bad)))
PY
