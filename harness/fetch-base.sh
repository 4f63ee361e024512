#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's newest linux-source-7.3 (and linux-config-7.3,
# for make bench) from trixie-backports with apt's own options pointed at
# a source list and package lists under $APT_ROOT. The machine's apt
# configuration is never changed: no other package moves to trixie.
# The packages are unpacked with dpkg-deb into $APT_ROOT/root, never
# installed. A newer 7.3.y replaces the older one on the next run.
. "$(dirname "$0")/common.sh"

PKGS="linux-source-7.3 linux-config-7.3"
mkdir -p "$APT_ROOT/lists/partial" "$APT_ROOT/cache/archives/partial" \
	"$APT_ROOT/debs" "$APT_ROOT/root"
cat > "$APT_ROOT/sources.list" <<EOS
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main
EOS
apt_private() {
	apt-get -q -o Dir::Etc::sourcelist="$APT_ROOT/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$APT_ROOT/lists" \
		-o Dir::Cache="$APT_ROOT/cache" \
		-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root "$@"
}
apt_cache() {
	apt-cache -o Dir::Etc::sourcelist="$APT_ROOT/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$APT_ROOT/lists" \
		-o Dir::Cache="$APT_ROOT/cache" "$@"
}

# The package lists once a day at most: a CI run on a clean clone always
# fetches them.
if [ -z "$(find "$APT_ROOT/lists" -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
	apt_private update >"$APT_ROOT/update.log" 2>&1 ||
		{ cat "$APT_ROOT/update.log" >&2; die "apt-get update of trixie-backports failed"; }
fi
for p in $PKGS; do
	ver=$(apt_cache policy "$p" | sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
		die "$p is not in trixie-backports (see $APT_ROOT/sources.list)"
	deb=$(echo "$APT_ROOT/debs/${p}_$(echo "$ver" | sed 's/:/%3a/')"_*.deb)
	if [ ! -f "$deb" ]; then
		say "downloading $p $ver from trixie-backports"
		(cd "$APT_ROOT/debs" && apt_private download "$p=$ver" >/dev/null) ||
			die "cannot download $p $ver"
		deb=$(echo "$APT_ROOT/debs/${p}_$(echo "$ver" | sed 's/:/%3a/')"_*.deb)
	fi
	if [ "$(cat "$APT_ROOT/root/.version-$p" 2>/dev/null)" != "$ver" ]; then
		dpkg-deb -x "$deb" "$APT_ROOT/root" || die "cannot unpack $deb"
		echo "$ver" > "$APT_ROOT/root/.version-$p"
	fi
done
