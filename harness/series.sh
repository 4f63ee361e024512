#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make series`: export the series as git format-patch files with a cover
# letter into $OUT/series, prove it applies with `git am` onto the pristine
# base, and run checkpatch --strict on every patch.
#
# patches/series lists the patches in order. A line '+ path' after a patch
# names a new file of the repo (the overlay) that the patch's commit adds;
# every overlay file belongs to exactly one patch. A line '== name' starts
# a series of its own, posted on its own with patches/cover-<name>.txt as
# its cover letter (subject, blank line, text): each series is exported
# to $OUT/series/<n>-<name>/ and applies after the ones before it.
# Without such lines the patches are one series, with cover-letter.txt.
# Each patch file carries its commit message in mail form (Subject:,
# body) followed by its diff of upstream files, if any, and of new files
# that an earlier patch adds (the repo holds new files as the whole
# series leaves them).
#
# The series is exported as the work of whoever runs this: git config's
# user.name and user.email. A patch without a From: header (the series'
# own) gets that author; every patch gets that Signed-off-by last (the
# backports keep their authors and tags before it), and "@EXPORTER@" in
# a diff (the M: line of the tracer's MAINTAINERS entry) becomes that
# identity. make check, which exports only to check the series, uses a
# neutral identity when git has none (SERIES_CHECK=1).
. "$(dirname "$0")/common.sh"

SERIES=$ST/patches/series
GITDIR=$OUT/base.git
WT=$OUT/series-wt
AM=$OUT/series-am
EXPORT=$OUT/series
G="git --git-dir=$GITDIR"

"$TOP/harness/base.sh" || exit 1
export GIT_AUTHOR_DATE="2026-11-29 00:00:00 +0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
ident_name=$(git config user.name)
ident_email=$(git config user.email)
if [ -z "$ident_name" ] || [ -z "$ident_email" ]; then
	[ -n "$SERIES_CHECK" ] ||
		die "set git config user.name and user.email: the series is exported as yours"
	ident_name="make check" ident_email="make-check@localhost"
	say "git has no user.name/user.email: checking the series as $ident_name <$ident_email>"
fi
ident="$ident_name <$ident_email>"
export GIT_COMMITTER_NAME="$ident_name" GIT_COMMITTER_EMAIL="$ident_email"

if ! $G rev-parse -q --verify refs/tags/base >/dev/null; then
	say "recording the pristine base in $GITDIR (once)"
	rm -rf "$GITDIR"
	git init -q --bare "$GITDIR"
	git --git-dir="$GITDIR" --work-tree="$PRISTINE" add -A -f . ':!.extracted'
	git --git-dir="$GITDIR" --work-tree="$PRISTINE" -c user.name=base \
		-c user.email=base@localhost commit -q \
		-m "Linux $(make -s -C "$PRISTINE" kernelversion) (Debian $BASE_PKG)"
	$G tag base
fi

fresh_worktree() {	# dir
	if [ -d "$1/.git" ] || [ -f "$1/.git" ]; then
		git -C "$1" checkout -q --detach base && git -C "$1" reset -q --hard base &&
			git -C "$1" clean -q -fdx
	else
		rm -rf "$1"
		$G worktree prune
		$G worktree add -q --detach "$1" base
	fi
}

entries=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SERIES" 2>/dev/null)
if [ -z "$entries" ]; then
	say "the series is empty: nothing to export"
	exit 0
fi

fresh_worktree "$WT" || die "cannot create $WT"
overlay=$(cd "$ST" && git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS)
claimed=$OUT/series-claimed
: > "$claimed"

# The new files as the patch that adds them has them: the repo holds
# them as the series leaves them, so undo what later patches change in
# them, last patch first.
EARLY=$OUT/series-early
rm -rf "$EARLY"
mkdir -p "$EARLY"
echo "$overlay" > "$OUT/series-overlay"
for f in $overlay; do
	mkdir -p "$EARLY/$(dirname "$f")"
	cp "$ST/$f" "$EARLY/$f"
done
for p in $(series_patch_names "$SERIES" | tac); do
	[ -f "$ST/patches/$p" ] || die "patches/series names $p, which does not exist"
	patch_sections keep "$OUT/series-overlay" "$ST/patches/$p" > "$OUT/series-patch"
	grep -q '^--- ' "$OUT/series-patch" || continue
	patch -d "$EARLY" -p1 -R -s -f -F0 --no-backup-if-mismatch -r - \
		< "$OUT/series-patch" > /dev/null 2>&1 ||
		die "patches/$p does not apply, reversed, to the new files it changes"
done

commit_pending() {
	[ -n "$cur" ] || return 0
	git -C "$WT" add -A
	# New files, even where the base's .gitignore would hide them.
	[ -s "$OUT/series-new" ] && (cd "$WT" && xargs git add -f -- < "$OUT/series-new")
	: > "$OUT/series-new"
	GIT_AUTHOR_DATE=${author_date:-$GIT_COMMITTER_DATE} \
		git -C "$WT" -c user.name="$author_name" -c user.email="$author_email" \
		commit -q -F "$OUT/series-msg" || die "commit of $cur failed"
}

cur=""
: > "$OUT/series-new"
# The series: name and the commit before its first patch, one per line.
: > "$OUT/series-parts"
echo "$entries" > "$OUT/series-entries"
while read -r first rest; do
	case $first in
	==)
		commit_pending
		cur=""
		[ -n "$rest" ] && [ -f "$ST/patches/cover-$rest.txt" ] ||
			die "patches/series: '== $rest' needs patches/cover-$rest.txt"
		echo "$rest $(git -C "$WT" rev-parse HEAD)" >> "$OUT/series-parts"
		;;
	+)
		[ -n "$cur" ] || die "patches/series: '+ $rest' before any patch"
		[ -f "$ST/$rest" ] || die "patches/series: $rest does not exist"
		mkdir -p "$WT/$(dirname "$rest")"
		cp "$EARLY/$rest" "$WT/$rest"
		echo "$rest" >> "$claimed"
		echo "$rest" >> "$OUT/series-new"
		;;
	*)
		commit_pending
		cur=$first
		p=$ST/patches/$cur
		[ -f "$p" ] || die "patches/series names $cur, which does not exist"
		sed "s|@EXPORTER@|$ident|g" "$p" |
			git mailinfo "$OUT/series-msg.body" "$OUT/series-patch" > "$OUT/series-info"
		author_name=$(sed -n 's/^Author: //p' "$OUT/series-info")
		author_email=$(sed -n 's/^Email: //p' "$OUT/series-info")
		subject=$(sed -n 's/^Subject: //p' "$OUT/series-info")
		author_date=$(sed -n 's/^Date: //p' "$OUT/series-info")
		[ -n "$subject" ] || die "patches/$cur has no Subject: header"
		if [ -z "$author_email" ]; then
			author_name=$ident_name author_email=$ident_email
		fi
		grep -qi "^Signed-off-by: $ident\$" "$OUT/series-msg.body" &&
			die "patches/$cur carries the exporter's Signed-off-by: it is added on export"
		{
			echo "$subject"
			echo
			cat "$OUT/series-msg.body"
			echo
			echo "Signed-off-by: $ident"
		} > "$OUT/series-msg"
		if [ -s "$OUT/series-patch" ]; then
			git -C "$WT" apply --index "$OUT/series-patch" ||
				die "patches/$cur does not apply with git apply"
		fi
		;;
	esac
done < "$OUT/series-entries"
commit_pending

unclaimed=$(echo "$overlay" | sort | comm -23 - "$(sort "$claimed" > "$claimed.s"; echo "$claimed.s")")
[ -n "$unclaimed" ] && die "files of the repo no patch in patches/series adds:
$unclaimed"
dup=$(sort "$claimed" | uniq -d)
[ -n "$dup" ] && die "files added by more than one patch: $dup"
for f in $overlay; do
	cmp -s "$ST/$f" "$WT/$f" || die "the series does not leave $f as the repo has it"
done

rm -rf "$EXPORT"
mkdir -p "$EXPORT"
[ -s "$OUT/series-parts" ] || echo "- $(git -C "$WT" rev-parse base)" > "$OUT/series-parts"
[ "$(sed -n '1s/.* //p' "$OUT/series-parts")" = "$(git -C "$WT" rev-parse base)" ] ||
	die "patches/series: patches before the first '== name' line"
tip=$(git -C "$WT" rev-parse HEAD)
n=0
i=0
fresh_worktree "$AM" || die "cannot create $AM"
while read -r name from; do
	i=$((i + 1))
	to=$(sed -n "$((i + 1))s/.* //p" "$OUT/series-parts")
	to=${to:-$tip}
	if [ "$name" = - ]; then
		dir=$EXPORT cover_src=$ST/patches/cover-letter.txt
	else
		dir=$EXPORT/$i-$name cover_src=$ST/patches/cover-$name.txt
	fi
	[ "$(git -C "$WT" rev-list --count "$from..$to")" -gt 0 ] ||
		die "series '$name' has no patch"
	mkdir -p "$dir"
	# --base: the base and, for a later series, the patches it needs
	# (prerequisite-patch-id), as the kernel's submitting guide asks.
	git -C "$WT" format-patch -q --cover-letter --base=base -o "$dir" "$from..$to" ||
		die "format-patch of series '$name' failed"
	cover=$(ls "$dir"/0000-*.patch)
	if [ -f "$cover_src" ]; then
		python3 - "$cover" "$cover_src" <<'PY'
import sys
cover, src = sys.argv[1], sys.argv[2]
subject, _, blurb = open(src).read().partition('\n\n')
text = open(cover).read()
text = text.replace('*** SUBJECT HERE ***', subject.strip())
text = text.replace('*** BLURB HERE ***', blurb.strip())
open(cover, 'w').write(text)
PY
	fi
	patches=$(ls "$dir"/*.patch | grep -v /0000-)
	n=$((n + $(echo "$patches" | wc -l)))
	# Proof: each series applies with git am after the ones before it.
	git -C "$AM" -c user.name=am -c user.email=am@localhost am -q $patches ||
		die "git am of series '$name' failed"
	git -C "$AM" diff --quiet HEAD "$to" ||
		die "git am of series '$name' differs from the series"
	[ "$name" = - ] || say "series $i, $name: $(echo "$patches" | wc -l) patches + cover letter in $dir"
done < "$OUT/series-parts"
say "exported $n patches + cover letters to $EXPORT; git am onto base: OK"

# checkpatch, from the base tree, on every patch. The base is a tarball
# without mainline's history, so checkpatch cannot look up the upstream
# commits that Fixes: tags and backports name (UNKNOWN_COMMIT_ID); each
# patch says where its ids were confirmed.
# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for a new
# file; it does not for a file under a directory that an F: entry of the
# base's MAINTAINERS already covers (a fix's selftest, say), and only
# there is it left out.
covered() {	# patch: every new file under a directory F: entry
	grep -q '^deleted file mode\|^rename from' "$1" && return 1
	sed -n 's|^+++ b/||p' "$1" | while read -r f; do
		grep -q "^diff --git a/$f b/$f" "$1" || continue
		sed -n '/^diff --git a\/'"$(echo "$f" | sed 's|/|\\/|g')"' /,/^+++ /p' "$1" |
			grep -q '^new file mode' || continue
		sed -n 's|^F:[[:space:]]*\(.*/\)$|\1|p' "$AM/MAINTAINERS" |
			while read -r d; do
				case $f in "$d"*) echo covered; break;; esac
			done | grep -q covered || { echo "$f"; break; }
	done | grep -q . && return 1
	return 0
}
for p in $(find "$EXPORT" -name '*.patch' ! -name '0000-*' | sort); do
	ign=UNKNOWN_COMMIT_ID
	covered "$p" && ign=$ign,FILE_PATH_CHANGES
	(cd "$AM" && ./scripts/checkpatch.pl --strict --show-types --ignore $ign "$p")
done > "$EXPORT/checkpatch.txt" 2>&1
# One report per patch, or something else removed the export meanwhile.
[ "$(grep -c '^total: ' "$EXPORT/checkpatch.txt" 2>/dev/null)" = "$n" ] ||
	die "checkpatch did not report on each of the $n patches ($EXPORT/checkpatch.txt)"
errs=$(grep -c '^ERROR:' "$EXPORT/checkpatch.txt")
warns=$(grep -c '^WARNING:' "$EXPORT/checkpatch.txt")
checks=$(grep -c '^CHECK:' "$EXPORT/checkpatch.txt")
say "checkpatch --strict: $errs errors, $warns warnings, $checks checks ($EXPORT/checkpatch.txt)"
if [ "$errs" -ne 0 ] || [ "$warns" -ne 0 ] || [ "$checks" -ne 0 ]; then
	grep -A6 -E '^(ERROR|WARNING|CHECK):' "$EXPORT/checkpatch.txt"
	[ "$errs" -ne 0 ] || [ "$warns" -ne 0 ] && exit 1
fi
exit 0
