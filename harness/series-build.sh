#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make series EACH=1`: after `make series`, build the check kernel of
# every prefix of the series in turn, incrementally: the base, then the
# base with patch 1, with patches 1 and 2, and so on. Fails on the first
# patch after which the kernel does not build or builds with a warning
# that the base did not have. Not part of `make check` (one build per
# patch); its time is printed at the end.
#
# The prefixes are the commits of $OUT/series-wt, which `make series`
# made; each is checked out in $OUT/series-each and built in
# $OUT/obj-series-each, with the config of the check kernel (tinyconfig
# and the fragments of harness/config), made again after every patch so
# that the options a patch adds take their values from the fragments.
. "$(dirname "$0")/common.sh"

WT=$OUT/series-wt
TREE=$OUT/series-each
OBJ=$OUT/obj-series-each
FRAGS="$TOP/harness/config/base.config $TOP/harness/config/check.config"
G="git --git-dir=$OUT/base.git"

[ -d "$WT" ] || die "no $WT: run make series first"
commits=$(git -C "$WT" rev-list --reverse base..HEAD)
[ -n "$commits" ] || die "$WT holds no patch"

# A worktree of its own, so that make series can run meanwhile.
if [ ! -e "$TREE/.git" ]; then
	rm -rf "$TREE"
	$G worktree prune
	$G worktree add -q --detach "$TREE" base || die "cannot create $TREE"
fi
mkdir -p "$OBJ"

configure() {
	[ -f "$OBJ/tiny.config" ] || {
		make -s -C "$TREE" O="$OBJ" tinyconfig >/dev/null &&
			cp "$OBJ/.config" "$OBJ/tiny.config"
	} || return 1
	cp "$OBJ/tiny.config" "$OBJ/.config.new"
	(cd "$OBJ" && "$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" \
		"$OBJ/.config.new" $FRAGS >/dev/null 2>&1) || return 1
	rm -f "$OBJ/.config.new"
	make -s -C "$TREE" O="$OBJ" olddefconfig >/dev/null
}

# build <name>: the kernel of the tree as it is; its warnings in $OBJ/<name>.warnings
build() {
	configure || { echo "configuring failed"; return 1; }
	make -s -C "$TREE" O="$OBJ" -j"$JOBS" bzImage modules > "$OBJ/$1.log" 2>&1
	rc=$?
	grep -E 'warning:|error:' "$OBJ/$1.log" |
		sed -e "s|$TREE/||" -e 's/:[0-9]*:[0-9]*:/:/' | sort -u > "$OBJ/$1.warnings"
	return $rc
}

t_all=$(now)
git -C "$TREE" checkout -q --detach base || die "cannot check out the base"
t0=$(now)
build base || die "the base does not build (see $OBJ/base.log)"
say "series-each: base built in $(($(now) - t0))s, $(wc -l < "$OBJ/base.warnings") warnings"

n=0
for c in $commits; do
	n=$((n + 1))
	subject=$(git -C "$WT" log -1 --format=%s "$c")
	git -C "$TREE" checkout -q --detach "$c" || die "cannot check out patch $n"
	t0=$(now)
	name=$(printf '%04d' $n)
	if ! build "$name"; then
		grep -E 'error' "$OBJ/$name.log" | head -20
		die "patch $n ($subject) does not build (see $OBJ/$name.log)"
	fi
	new=$(comm -13 "$OBJ/base.warnings" "$OBJ/$name.warnings")
	if [ -n "$new" ]; then
		echo "$new"
		die "patch $n ($subject) builds with new warnings (see $OBJ/$name.log)"
	fi
	say "series-each: patch $n builds, $(($(now) - t0))s: $subject"
done
say "series-each: all $n patches build, each on top of the ones before, in $(($(now) - t_all))s"
