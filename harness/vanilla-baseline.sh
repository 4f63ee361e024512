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
GUESTFILES=$OUT/guestfiles-vanilla RUN=vanilla TIMEOUT=2400 \
	"$TOP/harness/boot.sh" vanilla-prod "$TOP/harness/guest/ftracetest.sh"
[ -f "$UPSTREAM_BASELINE" ] || cp "$TOP/harness/upstream-baseline-6.12.txt" "$UPSTREAM_BASELINE"
python3 - "$LOGS/vanilla.out" "$UPSTREAM_BASELINE" <<'PY'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
pat = re.compile(r'^\[\d+\](.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|'
                 r'UNSUPPORTED|XFAIL|UNDEFINED|TIMEOUT)\]\s*$')
results = []
for line in open(src, errors='replace'):
    m = pat.match(re.sub(r'\x1b\[[0-9;]*m', '', line.rstrip()))
    if m:
        results.append((m.group(2), m.group(1).strip()))
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
        f.write('%-12s %s  # %s\n' % (res, name, why))
print('vanilla: %d tests, %d pass, %d not passing' %
      (len(results), len(results) - len(bad), len(bad)))
PY
