#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Extract the pristine base tree once from Debian's linux-source-6.12 and
# print its exact version. The pristine tree is never modified.
. "$(dirname "$0")/common.sh"

[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing (run harness/deps.sh)"
if [ ! -f "$PRISTINE/.extracted" ]; then
	say "extracting $BASE_TARBALL"
	rm -rf "$OUT/base"
	mkdir -p "$OUT/base"
	tar -C "$OUT/base" -xf "$BASE_TARBALL"
	touch "$PRISTINE/.extracted"
fi
deb=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)
say "base: Linux $(make -s -C "$PRISTINE" kernelversion) (Debian linux-source-6.12 $deb)"
