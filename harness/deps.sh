#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs from Debian's archive, skipping what is
# already there. Safe to run on every invocation.
set -e

PKGS="linux-source-6.12 qemu-system-x86 busybox-static trace-cmd linux-perf \
      build-essential flex bison bc libelf-dev libssl-dev cpio kmod \
      xz-utils gzip rsync python3 perl git"
# make bench: Debian's config of 6.12 (what its kernel follows), pahole
# for BTF, and clang and libbpf for the BPF peers.
[ "$1" = bench ] && PKGS="$PKGS linux-config-6.12 dwarves clang libbpf-dev \
      zlib1g-dev libzstd-dev"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "harness: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
	--no-install-recommends $missing >/dev/null
