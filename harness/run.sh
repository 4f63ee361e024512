#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: build the production-like kernel, boot it and show the
# tracer at work (harness/guest/demo.sh), without interaction.
. "$(dirname "$0")/common.sh"

"$TOP/harness/build.sh" prod || exit 1
"$TOP/harness/initramfs.sh" prod || exit 1
APPEND="$(cat "$TOP/harness/demo.cmdline" 2>/dev/null)" RUN=run TIMEOUT=600 \
	"$TOP/harness/boot.sh" prod "$TOP/harness/guest/demo.sh"
rc=$?
say "guest output: $LOGS/run.out, kernel console: $LOGS/run.console"
exit $rc
