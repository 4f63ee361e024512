#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the guest's base initramfs for a kernel variant:
#   harness/initramfs.sh <obj-name>
# busybox-static, trace-cmd and perf with their shared libraries,
# fdconsume, failnth, the ftracetest suite of the laid tree (upstream tests plus
# this series'), the project's own ftracetest tests (harness/tests/ ->
# /harness/tests/) and the modules.
# ARCH=arm64 or arm: the same programs from Debian's packages of that
# architecture (their .debs downloaded once into $OUT/debs/<arch>,
# unpacked with dpkg-deb, never installed), fdconsume cross-built.
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

# The unpacked packages of $DEBARCH that the guest's programs come from.
STAGE=$OUT/debs/root-$DEBARCH

# Unpack Debian package $1 of $DEBARCH into $STAGE (its .deb downloaded
# once into $OUT/debs/$DEBARCH; apt-get knows the architecture after
# harness/deps.sh arch).
deb_unpack() {	# package
	[ -e "$STAGE/.unpacked-$1" ] && return
	d=$OUT/debs/$DEBARCH
	mkdir -p "$d" "$STAGE"
	deb=$(ls "$d/$1"_*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		(cd "$d" && apt-get download -q "$1:$DEBARCH" >/dev/null 2>&1) ||
			die "cannot download $1:$DEBARCH (harness/deps.sh arch adds the architecture)"
		deb=$(ls "$d/$1"_*.deb | head -1)
	fi
	dpkg-deb -x "$deb" "$STAGE" || die "cannot unpack $deb"
	touch "$STAGE/.unpacked-$1"
}

# Copy $STAGE's file $1 (a program or a library) into the guest with the
# loader and the libraries it needs (DT_NEEDED), found among $STAGE's.
copy_foreign_elf() {	# path
	[ -e "$ROOT/$1" ] && return
	mkdir -p "$ROOT/$(dirname "$1")"
	cp -L "$STAGE/$1" "$ROOT/$1" || die "no $1 in $DEBARCH's packages"
	interp=$(readelf -l "$STAGE/$1" | sed -n 's/.*interpreter: \(\/[^]]*\)\]/\1/p')
	[ -n "$interp" ] && copy_foreign_elf "$interp"
	for lib in $(readelf -d "$STAGE/$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		found=""
		for dir in /lib/$TRIPLET /usr/lib/$TRIPLET /lib /usr/lib; do
			[ -e "$STAGE$dir/$lib" ] && { found=$dir/$lib; break; }
		done
		[ -n "$found" ] || die "$1 needs $lib, in none of $DEBARCH's packages unpacked"
		copy_foreign_elf "$found"
	done
}

# Program $2 of Debian package $1 of $DEBARCH, with the libraries of the
# packages it depends on (lib* and zlib1g: not perl or python).
copy_foreign_prog() {	# package path
	for p in "$1" $(apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$1:$DEBARCH" |
		sed -n "s/^\(lib[^ <>]*\|zlib1g\):$DEBARCH\$/\1/p" | sort -u); do
		deb_unpack "$p"
	done
	copy_foreign_elf "$2"
}

if [ "$ARCH" = x86_64 ]; then
	cp /bin/busybox "$ROOT/bin/busybox"
else
	deb_unpack busybox-static
	cp "$STAGE/bin/busybox" "$ROOT/bin/busybox"
fi
# The applets: the host's busybox-static is the same Debian version.
for app in $(/bin/busybox --list-full); do
	[ -e "$ROOT/$app" ] || ln -s /bin/busybox "$ROOT/$app"
done
# failnth, one operation under fault injection (fail-nth), for the
# tests that inject allocation failures on every kernel, the unpatched
# base's included (their reproducers must fail there).
"${CROSS}gcc" -O2 -static -Wall -o "$ROOT/usr/bin/failnth" \
	"$TOP/harness/guest/failnth.c" || die "cannot build failnth"
cp "$TOP/harness/guest/init" "$ROOT/init"
cp "$TOP/harness/guest/"*.sh "$ROOT/harness/"
chmod +x "$ROOT/init"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$ROOT/etc/group"

# A host program (found in $PATH, or at <path>) and the shared libraries
# it links.
copy_prog() {	# <name> [<path>]
	prog=${2:-$(command -v "$1")} || die "$1 not installed"
	cp "$prog" "$ROOT/usr/bin/$1"
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		mkdir -p "$ROOT/$(dirname "$lib")"
		cp -L "$lib" "$ROOT/$lib"
	done
}

# trace-cmd (libtraceevent, libtracefs, ...); perf (Debian's linux-perf)
# and fdconsume, a BPF and perf consumer of ftrace/funcduration, for the
# series' kernels only.
if [ "$ARCH" = x86_64 ]; then
	copy_prog trace-cmd
else
	copy_foreign_prog trace-cmd /usr/bin/trace-cmd
fi
case $name in
vanilla-*) ;;
*)	if [ "$ARCH" = x86_64 ]; then
		copy_prog perf
	else
		copy_foreign_prog linux-perf /usr/bin/perf
	fi
	"${CROSS}gcc" -O2 -static -Wall -o "$ROOT/usr/bin/fdconsume" \
		"$TOP/harness/guest/fdconsume.c" || die "cannot build fdconsume";;
esac
# funcdur, the front end (tools/tracing/funcdur of the laid tree), built
# with its own Makefile against the host's libtracefs and libtraceevent,
# and tmux, the terminal its top is tested in (only where the laid tree
# has it: not the unpatched base). On arm64 and arm: cross-built against
# Debian's packages of those libraries for the architecture, unpacked
# into $STAGE, whose libraries go with it into the guest.
case $name in
vanilla-*) ;;
*)	if [ "$ARCH" != x86_64 ] && [ -d "$srctree/tools/tracing/funcdur" ]; then
		for p in libtracefs-dev libtraceevent-dev libtracefs1 libtraceevent1; do
			deb_unpack $p
		done
		lib=$STAGE/usr/lib/$TRIPLET
		rm -rf "$OUT/funcdur-$ARCH"
		mkdir -p "$OUT/funcdur-$ARCH"
		log=$LOGS/build-funcdur-$ARCH.log
		# as a user cross-builds it (see its man page): pkg-config
		# in the environment, where make 4.3's $(shell) sees it
		PKG_CONFIG_LIBDIR="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE" \
		make -s -C "$srctree/tools/tracing/funcdur" O="$OUT/funcdur-$ARCH" \
			CROSS_COMPILE="$CROSS" > "$log" 2>&1 ||
			{ cat "$log"; die "cannot build funcdur for $ARCH"; }
		grep -q 'warning:' "$log" && { cat "$log"; die "funcdur: compiler warnings"; }
		cp "$OUT/funcdur-$ARCH/funcdur" "$STAGE/usr/bin/funcdur"
		copy_foreign_elf /usr/bin/funcdur
		copy_foreign_prog tmux /usr/bin/tmux
		mkdir -p "$ROOT/usr/lib/locale"
		cp -r /usr/lib/locale/C.utf8 "$ROOT/usr/lib/locale/"
		cp -r /lib/terminfo "$ROOT/lib/"
	fi
	if [ "$ARCH" = x86_64 ] && [ -d "$srctree/tools/tracing/funcdur" ]; then
		mkdir -p "$OUT/funcdur"
		log=$LOGS/build-funcdur.log
		make -s -C "$srctree/tools/tracing/funcdur" O="$OUT/funcdur" \
			> "$log" 2>&1 || { cat "$log"; die "cannot build funcdur"; }
		grep -q 'warning:' "$log" && { cat "$log"; die "funcdur: compiler warnings"; }
		copy_prog funcdur "$OUT/funcdur/funcdur"
		# tmux, with the UTF-8 locale and the terminfo it insists on
		copy_prog tmux
		mkdir -p "$ROOT/usr/lib/locale"
		cp -r /usr/lib/locale/C.utf8 "$ROOT/usr/lib/locale/"
		cp -r /lib/terminfo "$ROOT/lib/"
	fi;;
esac
# libtraceevent's plugins are optional; carry them if present.
d=/usr/lib/$TRIPLET/traceevent
[ "$ARCH" = x86_64 ] || { deb_unpack libtraceevent1-plugin; d=$STAGE$d; }
if [ -d "$d" ]; then
	mkdir -p "$ROOT/usr/lib/$TRIPLET/traceevent"
	cp -r "$d/." "$ROOT/usr/lib/$TRIPLET/traceevent/"
fi

mkdir -p "$ROOT/ftrace"
cp -r "$srctree/tools/testing/selftests/ftrace/." "$ROOT/ftrace/"
cp -r "$TOP/harness/tests" "$ROOT/harness/tests"
[ -d "$OUT/mod-$name/lib/modules" ] && cp -r "$OUT/mod-$name/lib/modules" "$ROOT/lib/"

(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1) > "$IMG"
say "initramfs: $IMG ($(du -h "$IMG" | cut -f1))"
