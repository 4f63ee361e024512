#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Extract the pristine base tree from Debian's $BASE_PKG (again when
# Debian's version changes) and print its exact version. The pristine
# tree is never modified.
. "$(dirname "$0")/common.sh"

"$TOP/harness/fetch-base.sh" || exit 1
deb=$(cat "$APT_ROOT/root/.version-$BASE_PKG")
[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing (harness/fetch-base.sh did not unpack it)"
if [ "$(cat "$PRISTINE/.extracted" 2>/dev/null)" != "$deb" ]; then
	say "extracting $BASE_TARBALL ($BASE_PKG $deb)"
	rm -rf "$OUT/base"
	mkdir -p "$OUT/base"
	tar -C "$OUT/base" -xf "$BASE_TARBALL" || die "cannot extract $BASE_TARBALL"
	echo "$deb" > "$PRISTINE/.extracted"
fi
say "base: Linux $(make -s -C "$PRISTINE" kernelversion) (Debian $BASE_PKG $deb)"
