#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs from Debian's archive, skipping what is
# already there. Safe to run on every invocation.
set -e

PKGS="qemu-system-x86 busybox-static trace-cmd linux-perf \
      build-essential flex bison bc libelf-dev libssl-dev cpio kmod \
      xz-utils gzip rsync python3 perl git \
      libtracefs-dev libtraceevent-dev pkg-config tmux chromium"
# (chromium: speedscope loads funcdur's exports in it, harness/exports.py;
# that also needs node 20 and npm, which the machine has.)
# make bench: pahole for BTF, clang for the BPF peers, and what the
# libbpf of the 7.3 tree links with (it is built from the base: Debian
# 12's libbpf 1.1 knows no fsession; Debian's config of 7.3, which the
# bench kernel follows, comes with the base too: harness/fetch-base.sh).
[ "$1" = bench ] && PKGS="$PKGS dwarves clang zlib1g-dev libzstd-dev"
# make deb: what the kernel's bindeb-pkg lists as its build dependencies.
[ "$1" = deb ] && PKGS="$PKGS debhelper libdw-dev"
# make check-arch: the cross compilers (with their static C libraries),
# QEMU for arm64 and arm, and Debian's arm64 and armhf archives, from
# which initramfs.sh takes busybox-static (apt-get download, not installed).
[ "$1" = arch ] && PKGS="$PKGS gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf \
      libc6-dev-arm64-cross libc6-dev-armhf-cross qemu-system-arm"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
foreign=""
if [ "$1" = arch ]; then
	for a in arm64 armhf; do
		dpkg --print-foreign-architectures | grep -qx $a || foreign="$foreign $a"
	done
fi
for a in $foreign; do
	$SUDO dpkg --add-architecture $a
done

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && [ -z "$foreign" ] && exit 0

[ -n "$missing" ] && echo "harness: installing:$missing"
$SUDO apt-get update -qq
[ -z "$missing" ] && exit 0
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
	--no-install-recommends $missing >/dev/null
