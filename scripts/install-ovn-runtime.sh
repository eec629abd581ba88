#!/usr/bin/env bash
# Installs OVN 25.03 / Open vSwitch 3.5 from Debian trixie packages into a private folder,
# without touching the system's apt or dpkg state, and writes wrapper executables that run
# the unpacked binaries through the unpacked dynamic loader.
#
# Result: $KOVN_RUNTIME (default: <repo>/.runtime/ovn) with bin/ (wrappers) and root/ (unpacked).
# Idempotent: exits at once when the stamp file of a complete install is present.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
RT=${KOVN_RUNTIME:-$repo/.runtime/ovn}
STAMP=$RT/.installed-v1
if [[ -f $STAMP ]]; then
  exit 0
fi

die() { echo "install-ovn-runtime: $*" >&2; exit 1; }

uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
if [[ -z $uri ]]; then
  uri=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
[[ -n $uri ]] || die "cannot find the system's Debian mirror URI in /etc/apt/sources.list.d/debian.sources"

T=$RT/apt
rm -rf "$T" "$RT/root" "$RT/bin"
mkdir -p "$T/etc/apt/sources.list.d" "$T/var/lib/apt/lists/partial" "$T/var/cache/apt/archives/partial" \
  "$T/var/lib/dpkg" "$T/debs" "$RT/root" "$RT/bin"
touch "$T/var/lib/dpkg/status"
cat > "$T/etc/apt/sources.list.d/trixie.sources" <<SRC
Types: deb
URIs: $uri
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
APT=(-o "Dir=$T" -o "Dir::State::status=$T/var/lib/dpkg/status" -o Dir::Etc::sourcelist=/dev/null
     -o "Dir::Etc::sourceparts=$T/etc/apt/sources.list.d" -o Debug::NoLocking=1
     -o "Dir::Cache::archives=$T/var/cache/apt/archives")
echo "install-ovn-runtime: fetching trixie package lists from $uri" >&2
apt-get "${APT[@]}" -qq update >"$T/update.log" 2>&1 || { cat "$T/update.log" >&2; die "apt-get update for trixie failed"; }
PKGS=(ovn-common ovn-central ovn-host openvswitch-common openvswitch-switch
      libc6 libssl3t64 libunbound8 libcap-ng0 libnuma1 libevent-2.1-7t64 libxdp1 libbpf1 libelf1t64
      zlib1g libzstd1 libnghttp2-14 libprotobuf-c1)
(cd "$T/debs" && apt-get "${APT[@]}" -qq download "${PKGS[@]}") >"$T/download.log" 2>&1 \
  || { cat "$T/download.log" >&2; die "could not download: ${PKGS[*]}"; }
for d in "$T"/debs/*.deb; do dpkg -x "$d" "$RT/root"; done

L=$RT/root/usr/lib/x86_64-linux-gnu
wrap() { # name path-inside-root
  cat > "$RT/bin/$1" <<W
#!/bin/sh
exec "$L/ld-linux-x86-64.so.2" --library-path "$L" "$RT/root$2" "\$@"
W
  chmod +x "$RT/bin/$1"
}
for b in ovn-nbctl ovn-sbctl ovn-trace ovn-appctl; do wrap "$b" "/usr/bin/$b"; done
for b in ovn-northd ovn-controller; do wrap "$b" "/usr/bin/$b"; done
for b in ovsdb-server ovsdb-tool ovsdb-client ovs-vsctl ovs-appctl ovs-ofctl; do wrap "$b" "/usr/bin/$b"; done
[[ -x $RT/root/usr/sbin/ovsdb-server ]] && wrap ovsdb-server /usr/sbin/ovsdb-server
wrap ovs-vswitchd /usr/lib/openvswitch-switch/ovs-vswitchd
for b in "$RT"/bin/*; do
  target=$(sed -n 's/.*--library-path [^ ]* "\([^"]*\)".*/\1/p' "$b")
  [[ -x $target ]] || die "missing binary for $(basename "$b"): $target"
done
"$RT/bin/ovn-nbctl" --version | head -1 >&2
ln -sfn "$RT/root/usr/share/ovn" "$RT/share-ovn"
ln -sfn "$RT/root/usr/share/openvswitch" "$RT/share-openvswitch"
rm -rf "$T/var/lib/apt/lists" "$T/debs"
touch "$STAMP"
echo "install-ovn-runtime: installed in $RT" >&2
