# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts; sourced, not run.

TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$TOP/out}
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
PRISTINE=$OUT/base/linux-source-6.12
SRC=$OUT/src
LOGS=$OUT/logs
JOBS=${JOBS:-$(($(nproc) + 1))}

# Directories of the repo that hold new files at their kernel-tree paths.
OVERLAY_DIRS="kernel include tools Documentation arch lib samples"

mkdir -p "$OUT" "$LOGS"

die() { echo "harness: error: $*" >&2; exit 1; }
say() { echo "harness: $*"; }

# Seconds since the epoch, for the phase timings.
now() { date +%s; }
