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
rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
mv "$tmp"/*.patch "$TOP/patches/"
rmdir "$tmp"
ls "$TOP/patches/" | grep '\.patch$'
