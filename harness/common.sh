# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts; sourced, not run.

TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$TOP/out}

# The base kernel: Debian's linux-source-7.3 from trixie-backports, fetched
# by harness/fetch-base.sh into $OUT/apt without touching the machine's
# apt configuration. The series is patches/ and the new files at their
# kernel-tree paths. Everything is built under out/7.3/, so that a move
# to another base starts beside it, not over it. The series on Linux 6.12
# is no longer maintained: docs/port-7.3.md names
# its last commit.
case ${BASE:-7.3} in
7.3) ;;
*)	echo "harness: error: BASE=$BASE: the harness builds Linux 7.3 only;" \
		"for 6.12 see docs/port-7.3.md" >&2
	exit 1;;
esac
BASE=7.3
BASE_PKG=linux-source-$BASE
case $OUT in */$BASE) ;; *) OUT=$OUT/$BASE;; esac
APT_ROOT=$OUT/apt
BASE_TARBALL=$APT_ROOT/root/usr/src/$BASE_PKG.tar.xz
ST=$TOP
PRISTINE=$OUT/base/$BASE_PKG
# The upstream ftracetest suite on the unpatched base: the tests not run
# (they crash it) and the results other than PASS (make vanilla-baseline).
UPSTREAM_SKIP=$TOP/harness/upstream-skip-$BASE.txt
UPSTREAM_BASELINE=$TOP/harness/upstream-baseline-$BASE.txt
SRC=$OUT/src
LOGS=$OUT/logs
JOBS=${JOBS:-$(($(nproc) + 1))}

# Directories of the repo that hold new files at their kernel-tree paths.
OVERLAY_DIRS="kernel include tools Documentation arch lib samples"

# The patch file names that patches/series ($1) lists, in order: not its
# '#' comments, '+ path' lines or '== name' lines.
series_patch_names() {
	sed -e 's/#.*//' -e '/^[[:space:]]*+/d' -e '/^[[:space:]]*==/d' \
		-e '/^[[:space:]]*$/d' "$1"
}

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

# The guest architecture: ARCH=x86_64 (the default: make check), arm64
# or arm (armv7; make check-arch). Sets KARCH and CROSS (the kernel's
# ARCH= and CROSS_COMPILE=), KIMAGE (the boot image, under the object
# directory), ASUFFIX (appended to the names of the objects, modules and
# initramfs of a kernel variant), DEBARCH (Debian's name) and TRIPLET
# (its multiarch library directory).
arch_settings() {
	ARCH=${ARCH:-x86_64}
	case $ARCH in
	x86_64)	KARCH=x86 CROSS="" KIMAGE=arch/x86/boot/bzImage ASUFFIX="" DEBARCH=amd64
		TRIPLET=x86_64-linux-gnu;;
	arm64)	KARCH=arm64 CROSS=aarch64-linux-gnu- KIMAGE=arch/arm64/boot/Image
		ASUFFIX=-arm64 DEBARCH=arm64 TRIPLET=aarch64-linux-gnu;;
	arm)	KARCH=arm CROSS=arm-linux-gnueabihf- KIMAGE=arch/arm/boot/zImage
		ASUFFIX=-arm DEBARCH=armhf TRIPLET=arm-linux-gnueabihf;;
	*)	die "unknown ARCH '$ARCH' (x86_64, arm64 or arm)";;
	esac
}
arch_settings
