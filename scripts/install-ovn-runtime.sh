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

rm -rf "$RT/root" "$RT/bin" "$RT/apt"
mkdir -p "$RT/root" "$RT/bin"
PKGS=(ovn-common ovn-central ovn-host openvswitch-common openvswitch-switch
      libc6 libssl3t64 libunbound8 libcap-ng0 libnuma1 libevent-2.1-7t64 libxdp1 libbpf1 libelf1t64
      zlib1g libzstd1 libnghttp2-14 libprotobuf-c1)
"$repo/scripts/fetch-debian-package.sh" trixie "$RT/root" "${PKGS[@]}" || die "could not fetch: ${PKGS[*]}"

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
touch "$STAMP"
echo "install-ovn-runtime: installed in $RT" >&2
