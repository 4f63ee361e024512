#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the guest's base initramfs for a kernel variant:
#   harness/initramfs.sh <obj-name>
# busybox-static, trace-cmd and perf with their shared libraries,
# fdconsume, the ftracetest suite of the laid tree (upstream tests plus
# this series'), the project's own ftracetest tests (harness/tests/ ->
# /harness/tests/) and the modules.
# ARCH=arm64 or arm: Debian's busybox-static of that architecture (its
# .deb, downloaded once into $OUT/debs), fdconsume cross-built; no
# trace-cmd or perf (host binaries: the tests that need them skip).
. "$(dirname "$0")/common.sh"

name=$1
ROOT=$OUT/initramfs-$name
IMG=$OUT/initramfs-$name.cpio.gz
srctree=$SRC
case $name in vanilla-*) srctree=$PRISTINE;; esac

rm -rf "$ROOT"
mkdir -p "$ROOT"/bin "$ROOT"/sbin "$ROOT"/usr/bin "$ROOT"/usr/sbin \
	"$ROOT"/proc "$ROOT"/sys "$ROOT"/dev "$ROOT"/tmp "$ROOT"/etc \
	"$ROOT"/root "$ROOT"/harness "$ROOT"/lib "$ROOT"/lib64
if [ "$ARCH" = x86_64 ]; then
	cp /bin/busybox "$ROOT/bin/busybox"
else
	deb=$(ls "$OUT"/debs/busybox-static_*_"$DEBARCH".deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		mkdir -p "$OUT/debs"
		(cd "$OUT/debs" && apt-get download -q "busybox-static:$DEBARCH" 2>&1) ||
			die "cannot download busybox-static:$DEBARCH (make check-arch installs its archive)"
		deb=$(ls "$OUT"/debs/busybox-static_*_"$DEBARCH".deb | head -1)
	fi
	rm -rf "$OUT/debs/busybox-$DEBARCH"
	dpkg-deb -x "$deb" "$OUT/debs/busybox-$DEBARCH" || die "cannot unpack $deb"
	cp "$OUT/debs/busybox-$DEBARCH/bin/busybox" "$ROOT/bin/busybox"
fi
# The applets: the host's busybox-static is the same Debian version.
for app in $(/bin/busybox --list-full); do
	[ -e "$ROOT/$app" ] || ln -s /bin/busybox "$ROOT/$app"
done
cp "$TOP/harness/guest/init" "$ROOT/init"
cp "$TOP/harness/guest/"*.sh "$ROOT/harness/"
chmod +x "$ROOT/init"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$ROOT/etc/group"

# A host program and the shared libraries it links.
copy_prog() {	# <name>
	prog=$(command -v "$1") || die "$1 not installed"
	cp "$prog" "$ROOT/usr/bin/$1"
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		mkdir -p "$ROOT/$(dirname "$lib")"
		cp -L "$lib" "$ROOT/$lib"
	done
}

# trace-cmd (libtraceevent, libtracefs, ...); perf (Debian's linux-perf)
# and fdconsume, a BPF and perf consumer of ftrace/funcduration, for the
# series' kernels only.
[ "$ARCH" = x86_64 ] && copy_prog trace-cmd
case $name in
vanilla-*) ;;
*)	[ "$ARCH" = x86_64 ] && copy_prog perf
	"${CROSS}gcc" -O2 -static -Wall -o "$ROOT/usr/bin/fdconsume" \
		"$TOP/harness/guest/fdconsume.c" || die "cannot build fdconsume";;
esac
# libtraceevent's plugins are optional; carry them if present.
for d in $([ "$ARCH" = x86_64 ] && echo /usr/lib/x86_64-linux-gnu/traceevent); do
	[ -d "$d" ] && mkdir -p "$ROOT/$d" && cp -r "$d/." "$ROOT/$d/"
done

mkdir -p "$ROOT/ftrace"
cp -r "$srctree/tools/testing/selftests/ftrace/." "$ROOT/ftrace/"
cp -r "$TOP/harness/tests" "$ROOT/harness/tests"
[ -d "$OUT/mod-$name/lib/modules" ] && cp -r "$OUT/mod-$name/lib/modules" "$ROOT/lib/"

(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1) > "$IMG"
say "initramfs: $IMG ($(du -h "$IMG" | cut -f1))"
