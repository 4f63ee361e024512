#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lay the series onto the working tree $SRC: the repo's new files (the
# overlay) are copied in, and patches/series is applied in order onto the
# pristine copies of the files it touches. The result is assembled in a
# staging directory and only files whose content changed are copied into
# $SRC, so that kbuild rebuilds just what the edit affects.
. "$(dirname "$0")/common.sh"

SERIES=$ST/patches/series
STAGE=$OUT/stage
MANIFEST=$SRC/.series-files

# A new copy of the pristine tree when there is none or the base changed.
if ! cmp -s "$PRISTINE/.extracted" "$SRC/.copied"; then
	say "creating working tree $SRC"
	rm -rf "$SRC"
	cp -a "$PRISTINE" "$SRC"
	cp "$PRISTINE/.extracted" "$SRC/.copied"
fi

# Patch file names, in order.
# WITHOUT="0005 0009" leaves out the patches of those numbers (a fix's
# reproducer must fail without it, on a base that boots only with the
# fixes before it); their new files stay in the tree.
patch_list() {
	[ -f "$SERIES" ] || return 0
	series_patch_names "$SERIES" | while read -r p; do
		case " $WITHOUT " in *" ${p%%-*} "*) continue;; esac
		echo "$p"
	done
}
[ -n "$WITHOUT" ] && say "laying the series without patches $WITHOUT"

overlay_files() {
	cd "$ST" && git ls-files --cached --others --exclude-standard -- \
		$OVERLAY_DIRS | while read -r f; do [ -f "$f" ] && echo "$f"; done
}

rm -rf "$STAGE"
mkdir -p "$STAGE"
overlay_files > "$STAGE.overlay"
: > "$STAGE.touched"
for p in $(patch_list); do
	[ -f "$ST/patches/$p" ] || die "patches/series names $p, which does not exist"
	sed -n -e 's|^+++ b/\([^[:space:]]*\).*|\1|p' \
	       -e 's|^--- a/\([^[:space:]]*\).*|\1|p' "$ST/patches/$p" >> "$STAGE.touched"
done
[ -f "$MANIFEST" ] && cat "$MANIFEST" >> "$STAGE.touched"
sort -u "$STAGE.touched" "$STAGE.overlay" > "$STAGE.all"

# Pristine copies of every file the series touches or touched last time.
while read -r f; do
	if [ -f "$PRISTINE/$f" ]; then
		mkdir -p "$STAGE/$(dirname "$f")"
		cp -p "$PRISTINE/$f" "$STAGE/$f"
	fi
done < "$STAGE.all"

(cd "$ST" && while read -r f; do
	mkdir -p "$STAGE/$(dirname "$f")"
	cp "$f" "$STAGE/$f"
done) < "$STAGE.overlay"

for p in $(patch_list); do
	grep -q '^--- ' "$ST/patches/$p" || continue	# message-only patch
	# The overlay holds the new files as the series leaves them.
	patch_sections drop "$STAGE.overlay" "$ST/patches/$p" > "$OUT/patch.in"
	# A patch that changes only new files: the repo has them already
	grep -q '^--- ' "$OUT/patch.in" || continue
	if ! patch -d "$STAGE" -p1 -s -f -F0 --no-backup-if-mismatch \
		-r "$OUT/rejected.rej" < "$OUT/patch.in" > "$OUT/patch.out" 2>&1; then
		rel=${ST#"$TOP"}
		echo "harness: patch does not apply: ${rel#/}${rel:+/}patches/$p onto" \
			"$(cat "$PRISTINE/.extracted") of $BASE_PKG: the series needs a refresh for it" >&2
		cat "$OUT/patch.out" >&2
		[ -f "$OUT/rejected.rej" ] && cat "$OUT/rejected.rej" >&2
		exit 1
	fi
done
rm -f "$OUT/rejected.rej" "$OUT/patch.out" "$OUT/patch.in"

# Copy changed files into the working tree; delete files the series no
# longer adds (they are absent from the pristine tree and the stage).
changed=0
while read -r f; do
	if [ -f "$STAGE/$f" ]; then
		if ! cmp -s "$STAGE/$f" "$SRC/$f"; then
			mkdir -p "$SRC/$(dirname "$f")"
			cp "$STAGE/$f" "$SRC/$f"
			changed=$((changed + 1))
		fi
	elif [ -f "$SRC/$f" ]; then
		rm -f "$SRC/$f"
		changed=$((changed + 1))
	fi
done < "$STAGE.all"
(cd "$STAGE" && find . -type f | sed 's|^\./||' | sort) > "$MANIFEST"
say "series laid onto $SRC: $(patch_list | wc -l) patches, $(wc -l < "$STAGE.overlay") new files, $changed files updated"
