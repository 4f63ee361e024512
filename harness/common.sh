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

# The file diffs of patch $3 that are (keep) or are not (drop) of a file
# listed in file $2, with the patch's header in both cases. A patch of
# the series may change a new file of the repo that an earlier patch
# adds: the repo holds that file as the series leaves it.
patch_sections() {	# keep|drop list patch
	awk -v mode="$1" -v list="$2" '
		BEGIN { while ((getline f < list) > 0) new["a/" f] = 1 }
		/^diff --git / { inlist = ($3 in new); body = 1 }
		!body || (mode == "keep") == inlist' "$3"
}
