#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's tools/bootconfig (built once from the base tree), e.g.
#   harness/bootconfig-tool.sh -a file.bconf initrd.img
. "$(dirname "$0")/common.sh"

tool=$OUT/tools/bootconfig
if [ ! -x "$tool" ]; then
	mkdir -p "$OUT/tools"
	make -s -C "$PRISTINE/tools/bootconfig" OUTPUT="$OUT/tools/" >/dev/null ||
		die "cannot build tools/bootconfig"
fi
exec "$tool" "$@"
