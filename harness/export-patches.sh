#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Regenerate patches/*.patch from a git worktree that holds the series as
# commits on top of the base (tag 'base' of $OUT/base.git), for example
# one made by `make series` in $OUT/series-wt and then edited with
# `git rebase -i`. The new files of the repo (kept at their kernel paths)
# are left out of the patches that add them (patches/series names them
# with '+' lines, after the patch that adds them) and written back as the
# last commit leaves them; later changes to them stay in the patches.
#
#   harness/export-patches.sh <worktree>
#
# Writes one patch per commit, numbered in order, after removing the old
# ones, and lists them in patches/series (harness/series-list.py).
. "$(dirname "$0")/common.sh"

WT=${1:?usage: export-patches.sh <worktree>}
overlay=$(cd "$ST" && git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS)

tmp=$(mktemp -d)
n=0
for c in $(git -C "$WT" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	# The new files this commit adds; later changes to them stay in
	# the patches that make them.
	exclude=$(git -C "$WT" diff-tree --no-commit-id -r --diff-filter=A --name-only "$c" |
		while read -r f; do
			echo "$overlay" | grep -qx "$f" && printf " :!%s" "$f"
		done)
	# shellcheck disable=SC2086
	git -C "$WT" format-patch -q --zero-commit --no-numbered --no-signature \
		--filename-max-length=100 --start-number $n -o "$tmp" -1 "$c" -- . $exclude ||
		die "format-patch failed"
done
[ "$n" = "$(ls "$tmp" | wc -l)" ] ||
	die "a commit of $WT only adds new files: give it an upstream change, or fold it"
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
rm -f "$ST"/patches/[0-9][0-9][0-9][0-9]-*.patch
mv "$tmp"/*.patch "$ST/patches/"
rmdir "$tmp"
# The new files that later patches change, as the series leaves them
# (the others are edited in the repo, not in the worktree).
git -C "$WT" log --format= --diff-filter=M --name-only base..HEAD | sort -u |
	while read -r f; do
		echo "$overlay" | grep -qx "$f" || continue
		git -C "$WT" show "HEAD:$f" > "$ST/$f" || die "$WT has no $f"
	done
# The other new files are the repo's: say which the worktree has changed.
echo "$overlay" | while read -r f; do
	[ -n "$f" ] || continue
	git -C "$WT" show "HEAD:$f" 2>/dev/null | cmp -s - "$ST/$f" ||
		say "export: $f differs in $WT (copy it if the worktree's is newer)"
done
OVERLAY_DIRS="$OVERLAY_DIRS" python3 "$TOP/harness/series-list.py" "$WT" "$ST/patches" ||
	die "cannot list the new patches in patches/series"
