#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make deb [CONFIG=file]`: the series on Linux 7.3 as installable Debian
# packages (the kernel's own bindeb-pkg: linux-image, linux-headers,
# linux-libc-dev), for a real machine, and funcdur beside them.
#
# The config: CONFIG, else the running kernel's (/boot/config-$(uname -r),
# or /proc/config.gz), else Debian's own 7.3 config (linux-config-7.3,
# amd64), with function_duration turned on (FUNCTION_DURATION_TRACER and
# what it needs). Anything else in the config is left as it is, so the
# packages are the machine's kernel with the series. Module signing and
# Debian's trusted keys are turned off: the packages are not Debian's.
#
# Output: $OUT/deb/*.deb, and $OUT/deb/funcdur (built on this machine,
# for this machine's libtracefs and libtraceevent).
. "$(dirname "$0")/common.sh"

"$TOP/harness/base.sh" || exit 1
"$TOP/harness/lay.sh" || exit 1

config=$CONFIG
if [ -z "$config" ]; then
	for c in "/boot/config-$(uname -r)" /proc/config.gz; do
		[ -r "$c" ] && { config=$c; break; }
	done
fi
if [ -z "$config" ]; then
	config=$APT_ROOT/root/usr/src/linux-config-$BASE/config.amd64_none_amd64.xz
	say "no config of the running kernel: Debian's own $BASE config"
fi
[ -r "$config" ] || die "cannot read the config $config"

OBJ=$OUT/obj-deb
DEB=$OUT/deb
mkdir -p "$OBJ" "$DEB"
case $config in
*.gz)	gzip -dc "$config" > "$OBJ/.config";;
*.xz)	xz -dc "$config" > "$OBJ/.config";;
*)	cp "$config" "$OBJ/.config";;
esac
say "config: $config"

kmake() {
	make -s -C "$SRC" O="$OBJ" "$@"
}
cfg() {
	"$SRC/scripts/config" --file "$OBJ/.config" "$@"
}
cfg -e FTRACE -e FUNCTION_TRACER -e FUNCTION_GRAPH_TRACER -e DYNAMIC_FTRACE \
	-e FUNCTION_DURATION_TRACER -d FUNCTION_DURATION_DEBUG_HOLD \
	-d MODULE_SIG_ALL -d MODULE_SIG_FORCE --set-str SYSTEM_TRUSTED_KEYS "" \
	--set-str SYSTEM_REVOCATION_KEYS "" --set-str LOCALVERSION "-funcdur"
kmake olddefconfig >/dev/null || die "olddefconfig failed"
for sym in FUNCTION_GRAPH_TRACER FUNCTION_DURATION_TRACER; do
	grep -q "^CONFIG_$sym=y" "$OBJ/.config" ||
		die "CONFIG_$sym is not y in this config (does the architecture have it?)"
done

say "building the packages ($JOBS jobs; a full distribution config takes hours on 2 CPUs)"
t0=$(now)
rm -f "$OUT"/*.deb "$OUT"/*.buildinfo "$OUT"/*.changes
kmake -j"$JOBS" bindeb-pkg KDEB_COMPRESS=xz > "$LOGS/build-deb.log" 2>&1 ||
	{ tail -30 "$LOGS/build-deb.log"; die "bindeb-pkg failed (see $LOGS/build-deb.log)"; }
rm -f "$DEB"/*.deb
mv "$OUT"/*.deb "$DEB/" || die "bindeb-pkg made no package"
rm -f "$OUT"/*.buildinfo "$OUT"/*.changes
say "packages built in $(($(now) - t0))s:"
ls -l "$DEB"/*.deb

# funcdur, for this machine
make -s -C "$SRC/tools/tracing/funcdur" O="$DEB" > "$LOGS/build-deb-funcdur.log" 2>&1 ||
	{ cat "$LOGS/build-deb-funcdur.log"; die "cannot build funcdur"; }
say "funcdur: $DEB/funcdur"
# The packaged kernel, booted in QEMU with make run's initramfs (when
# there is one: make run or make check built it), its first trace.
pkg=$(ls "$DEB"/linux-image-*.deb | head -1)
if [ "$ARCH" = x86_64 ] && [ -f "$OUT/initramfs-prod.cpio.gz" ]; then
	rm -rf "$OUT/deb-root"
	dpkg-deb -x "$pkg" "$OUT/deb-root" || die "cannot unpack $pkg"
	mkdir -p "$OUT/obj-deb-pkg/$(dirname "$KIMAGE")"
	cp "$OUT"/deb-root/boot/vmlinuz-* "$OUT/obj-deb-pkg/$KIMAGE"
	cp "$OUT/initramfs-prod.cpio.gz" "$OUT/initramfs-deb-pkg.cpio.gz"
	say "booting the kernel of $(basename "$pkg") in QEMU"
	TIMEOUT=300 "$TOP/harness/boot.sh" deb-pkg "$TOP/harness/guest/deb-smoke.sh" ||
		die "the packaged kernel did not run its first trace (see $LOGS/deb-pkg.console)"
else
	say "no smoke boot (x86_64 only, after make run or make check)"
fi

cat <<EOS
harness: to install on this machine (README.md, "On a real machine"):
    sudo dpkg -i $DEB/linux-image-*-funcdur_*.deb
    sudo reboot          # into $(kmake -s kernelrelease)
    sudo $DEB/funcdur top --once -f 'vfs_*' -- sleep 1
EOS
