#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regenerate patches/*.patch from a git worktree that holds the series as
# commits on top of the base (tag 'base' of $OUT/base.git), for example
# one made by `make series` in $OUT/series-wt and then edited with
# `git rebase -i`. The new files of the repo (kept at their kernel paths)
# are left out of the patches: patches/series names them with '+' lines.
#
#   harness/export-patches.sh <worktree>
#
# Writes one patch per commit, numbered in order, after removing the old
# ones; patches/series must then list the new names.
. "$(dirname "$0")/common.sh"

WT=${1:?usage: export-patches.sh <worktree>}
overlay=$(cd "$TOP" && git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS)
exclude=$(for f in $overlay; do printf " :!%s" "$f"; done)

tmp=$(mktemp -d)
# shellcheck disable=SC2086
git -C "$WT" format-patch -q --zero-commit --no-numbered --no-signature --filename-max-length=100 \
	-o "$tmp" base..HEAD -- . $exclude || die "format-patch failed"
[ "$(git -C "$WT" rev-list --count base..HEAD)" = "$(ls "$tmp" | wc -l)" ] ||
	die "a commit of $WT changes no upstream file: give it one, or fold it"
# What make series adds on export is not stored: the exporter's From:
# (the series' own patches), Signed-off-by and MAINTAINERS identity.
ident="$(git config user.name) <$(git config user.email)>"
[ "$ident" != " <>" ] || die "git config user.name and user.email are not set"
for f in "$tmp"/*.patch; do
	IDENT=$ident python3 - "$f" <<'PY' || die "cannot strip the identity from $f"
import os, sys
path, ident = sys.argv[1], os.environ['IDENT']
text = open(path).read()
head, sep, diff = text.partition('\n---\n')
mail, _, body = head.partition('\n\n')
# Unfold the mail headers (format-patch folds a long From:).
headers = []
for line in mail.split('\n'):
    if line.startswith((' ', '\t')) and headers:
        headers[-1] += '\n' + line
    else:
        headers.append(line)
headers = [h for h in headers if ' '.join(h.split()) != 'From: ' + ident]
body = [l for l in body.split('\n') if l != 'Signed-off-by: ' + ident]
head = '\n'.join(headers) + '\n\n' + '\n'.join(body).rstrip('\n')
diff = diff.replace('M:\t' + ident, 'M:\t@EXPORTER@')
open(path, 'w').write(head + sep + diff)
PY
done
rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
mv "$tmp"/*.patch "$TOP/patches/"
rmdir "$tmp"
ls "$TOP/patches/" | grep '\.patch$'
