#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build a kernel: harness/build.sh check|prod|debug [vanilla]
#
# check:   base.config + check.config (lock/context debugging, selftests)
# prod:    base.config + prod.config (production-like: run, shell, upstream suite)
# bench:   base.config + prod.config + bench.config (Debian's hot-path
#          options and BTF: make bench)
# debug:   base.config + check.config + debug.config (KASAN, KFENCE,
#          kmemleak, fault injection: the torture phase)
# vanilla: build the unpatched base with the same config, for comparing
#          the upstream selftest results.
# ARCH=arm64 or ARCH=arm (make check-arch): cross-built, with the
# arch's fragment (harness/config/<arch>.config) last; its name gets the
# suffix -<arch>.
# Output: $OUT/obj-<name>/<boot image> and modules in $OUT/mod-<name>.
# Incremental: only what changed is rebuilt.
. "$(dirname "$0")/common.sh"

variant=${1:-check}
case $variant in
bench)	frags="$TOP/harness/config/base.config $TOP/harness/config/prod.config"
	frags="$frags $TOP/harness/config/bench.config";;
check|prod) frags="$TOP/harness/config/base.config $TOP/harness/config/$variant.config";;
debug)	frags="$TOP/harness/config/base.config $TOP/harness/config/check.config"
	frags="$frags $TOP/harness/config/debug.config";;
*)	die "unknown kernel variant '$variant'";;
esac

[ "$ARCH" = x86_64 ] ||
	frags="$frags $TOP/harness/config/arch-kasan.config $TOP/harness/config/$ARCH.config"

"$TOP/harness/base.sh" || exit 1
name=$variant$ASUFFIX
if [ "$2" = vanilla ]; then
	srctree=$PRISTINE
	name=vanilla-$variant
else
	srctree=$SRC
	"$TOP/harness/lay.sh" || exit 1
fi
OBJ=$OUT/obj-$name
mkdir -p "$OBJ"
kmake() {
	make -s -C "$srctree" O="$OBJ" ${CROSS:+ARCH=$KARCH CROSS_COMPILE=$CROSS} "$@"
}

# Regenerate .config only when a fragment or a Kconfig file changed.
stamp=$OBJ/.config-stamp
sum=$(cat $frags | md5sum | cut -d' ' -f1)
kc=$(cd "$srctree" && find . -name 'Kconfig*' -newer "$OBJ/.config" 2>/dev/null | head -1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ] || [ -n "$kc" ]; then
	say "configuring $name kernel (tinyconfig + $(echo $frags | sed "s|$TOP/||g"))"
	kmake tinyconfig >/dev/null || exit 1
	(cd "$OBJ" && "$srctree/scripts/kconfig/merge_config.sh" -m -O "$OBJ" \
		"$OBJ/.config" $frags >/dev/null) || exit 1
	kmake olddefconfig >/dev/null || exit 1
	# Every symbol asked for must have the value asked for (by the
	# last fragment that sets it, as in merge_config.sh).
	for f in $frags; do
		sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)/\1 \2/p' "$f"
	done | awk '{ val[$1] = $2 } END { for (s in val) print s, val[s] }' |
	while read -r sym val; do
		got=$(sed -n "s/^$sym=//p" "$OBJ/.config")
		[ -z "$got" ] && got=n
		[ "$val" = "$got" ] && continue
		# The unpatched base, or the series WITHOUT some patches,
		# lacks symbols of the series (its KUnit tests' included): a
		# symbol no Kconfig declares is not asked of it.
		if { [ "$2" = vanilla ] || [ -n "$WITHOUT" ]; } &&
			! grep -rqs --include='Kconfig*' \
			"^\(menu\)\?config ${sym#CONFIG_}\$" "$srctree"; then
			continue
		fi
		echo "harness: config: $sym wanted $val, got $got"
	done > "$OBJ/.config-mismatch"
	if [ -s "$OBJ/.config-mismatch" ]; then
		cat "$OBJ/.config-mismatch" >&2
		rm -f "$OBJ/.config"
		die "config fragment not satisfied (see above)"
	fi
	echo "$sum" > "$stamp"
fi

say "building $name kernel ($JOBS jobs)"
t0=$(now)
kmake -j"$JOBS" "$(basename "$KIMAGE")" modules 2>&1 |
	grep -v '^  ' | tee "$LOGS/build-$name.log"
[ -f "$OBJ/$KIMAGE" ] || die "build failed (see $LOGS/build-$name.log)"
grep -q 'Error\|error:' "$LOGS/build-$name.log" && die "build failed (see $LOGS/build-$name.log)"
# The series' new files build without a warning (in what this build
# compiled: an incremental build sees only the files it rebuilt).
if [ "$2" != vanilla ]; then
	for f in $(cd "$ST" && git ls-files -- $OVERLAY_DIRS); do
		grep -F "$srctree/$f:" "$LOGS/build-$name.log" | grep 'warning:'
	done > "$OBJ/.series-warnings"
	[ -s "$OBJ/.series-warnings" ] &&
		die "the series' files build with warnings: $(cat "$OBJ/.series-warnings")"
fi
# Modules go to a staging root that the initramfs copies.
rm -rf "$OUT/mod-$name"
kmake INSTALL_MOD_PATH="$OUT/mod-$name" modules_install >/dev/null ||
	die "modules_install failed"
say "built $name kernel in $(($(now) - t0))s: $OBJ/$KIMAGE"
