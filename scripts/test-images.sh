#!/usr/bin/env bash
# The images test (a step of scripts/test.sh): builds both images twice with scripts/build-images.sh
# and checks that the manifest digests (and the archives) are the same, that each archive is a valid
# OCI image (skopeo), and that the images work: the kovn image's entrypoint answers --version, its
# CNI plugin answers VERSION and the node's tools run; in the OVN image ovsdb-tool creates the
# Northbound database from /usr/share/ovn, ovsdb-server serves it, ovn-nbctl writes to it and
# ovn-northd, ovn-controller, ovn-sbctl, ovn-appctl run. Containers run under a private podman
# store in a temporary folder (as the sandbox's podman test does), removed at the end.
# Fails (never skips) when a tool is missing. Root, and the .deb cache warm: about 2 minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "test-images: FAIL: $*" >&2; exit 1; }
for t in mmdebstrap umoci skopeo podman jq; do
  command -v "$t" >/dev/null || fail "$t is missing: run scripts/install-host-deps.sh"
done
T=$(mktemp -d)
stop_second() { if [[ -n ${second:-} ]]; then kill -- "-$second" 2>/dev/null || true; wait "$second" 2>/dev/null || true; fi; }
trap 'stop_second; rm -rf "$T"' EXIT
start=$SECONDS

build() {
  "$root/scripts/build-images.sh" --out "$T/$1" > "$T/$1.digests" 2> "$T/$1.log" \
    || { cat "$T/$1.log" >&2; fail "build $1 failed"; }
}
# The first build fills the .deb cache; the second runs while the first's images are checked.
build a
sed "s:$T/a/::" "$T/a.digests" > "$T/a.names"
cat "$T/a.names" >&2
[[ $(wc -l < "$T/a.names") -eq 2 ]] || fail "expected two images, got: $(cat "$T/a.names")"
read -r kovn_tar kovn_digest < <(grep '/kovn-' "$T/a.digests")
read -r ovn_tar ovn_digest < <(grep '/ovn-' "$T/a.digests")
# its own session (setsid), so that a failed check can stop it and all its children
setsid "$root/scripts/build-images.sh" --out "$T/b" > "$T/b.digests" 2> "$T/b.log" &
second=$!

# valid OCI archives, as skopeo reads them
for x in "$kovn_tar $kovn_digest" "$ovn_tar $ovn_digest"; do
  set -- $x
  skopeo inspect "oci-archive:$1" > "$T/inspect.json" || fail "skopeo cannot read $1"
  [[ $(jq -r '.Digest + " " + .Os + "/" + .Architecture + " " + (.Layers | length | tostring)' "$T/inspect.json") \
     == "$2 linux/amd64 1" ]] || fail "$1: unexpected $(jq -c '{Digest, Os, Architecture, Layers}' "$T/inspect.json")"
done
skopeo inspect --config "oci-archive:$kovn_tar" | jq -e '.config.Entrypoint | index("io.kovn.cli.Main")' >/dev/null \
  || fail "the kovn image's entrypoint does not run io.kovn.cli.Main"

mkdir -p "$T/podman"
echo '[engine]' > "$T/containers.conf"
pm() {
  CONTAINERS_CONF=$T/containers.conf podman --root "$T/podman/root" --runroot "$T/podman/run" --tmpdir "$T/podman/tmp" \
    --storage-driver vfs --events-backend none --cgroup-manager cgroupfs --runtime runc "$@"
}
run() { pm run --rm --network none --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 "$@"; }
cleanup() { stop_second; pm rm --all --force --time 0 >/dev/null 2>&1 || true; pm rmi --all --force >/dev/null 2>&1 || true; rm -rf "$T"; }
trap cleanup EXIT
pm load -q -i "$kovn_tar" >/dev/null || fail "podman cannot load $kovn_tar"
pm load -q -i "$ovn_tar" >/dev/null || fail "podman cannot load $ovn_tar"
kovn_image=$(skopeo inspect "oci-archive:$kovn_tar" | jq -r .Name)
ovn_image=$(skopeo inspect "oci-archive:$ovn_tar" | jq -r .Name)
[[ -n $kovn_image && $kovn_image != null ]] || kovn_image=$(tar -xOf "$kovn_tar" index.json | jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]')
[[ -n $ovn_image && $ovn_image != null ]] || ovn_image=$(tar -xOf "$ovn_tar" index.json | jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]')

out=$(run "$kovn_image" --version 2>&1) || fail "kovn --version in the image: $out"
[[ $out == kovn\ * ]] || fail "kovn --version printed: $out"
echo "test-images: kovn image: $out" >&2
out=$(run --entrypoint sh "$kovn_image" -c '
  java -version 2>&1 | head -1
  echo "{}" | CNI_COMMAND=VERSION /opt/kovn/bin/kovn-cni
  ovs-ofctl --version | head -1; ip -V; nsenter --version; ethtool --version' 2>&1) || fail "the kovn image's tools: $out"
for want in 'openjdk version "25' '"supportedVersions"' 'ovs-ofctl (Open vSwitch) 3.5' 'iproute2' 'nsenter from util-linux' 'ethtool version'; do
  grep -qF "$want" <<<"$out" || fail "kovn image: no '$want' in: $out"
done

out=$(run --entrypoint sh "$ovn_image" -c '
  set -e
  mkdir -p /var/run/ovn
  ovsdb-tool create /var/lib/ovn/ovnnb_db.db /usr/share/ovn/ovn-nb.ovsschema
  ovsdb-tool create /var/lib/ovn/ovnsb_db.db /usr/share/ovn/ovn-sb.ovsschema
  ovsdb-server /var/lib/ovn/ovnnb_db.db --remote=punix:/var/run/ovn/ovnnb_db.sock --pidfile=/var/run/ovn/nb.pid \
    --unixctl=/var/run/ovn/nb.ctl --detach
  ovn-nbctl --db=unix:/var/run/ovn/ovnnb_db.sock ls-add sw0
  ovn-nbctl --db=unix:/var/run/ovn/ovnnb_db.sock ls-list
  ovn-northd --version | head -1; ovn-controller --version | head -1; ovsdb-server --version | head -1
  ovn-sbctl --version | head -1; ovn-appctl --version | head -1' 2>&1) || fail "the OVN image: $out"
for want in '(sw0)' 'ovn-northd 25.03' 'ovn-controller 25.03' 'ovsdb-server (Open vSwitch) 3.5' 'ovn-sbctl 25.03' 'ovn-appctl 25.03'; do
  grep -qF "$want" <<<"$out" || fail "OVN image: no '$want' in: $out"
done
echo "test-images: OVN image: ovsdb-server serves the Northbound schema; $(grep 'ovn-northd' <<<"$out")" >&2
wait "$second" || { cat "$T/b.log" >&2; fail "build b failed"; }
second=
sed "s:$T/b/::" "$T/b.digests" > "$T/b.names"
diff "$T/a.names" "$T/b.names" >&2 || fail "two builds of the same inputs gave different digests"
cmp "$kovn_tar" "$T/b/$(basename "$kovn_tar")" || fail "the kovn archives differ"
cmp "$ovn_tar" "$T/b/$(basename "$ovn_tar")" || fail "the OVN archives differ"
echo "test-images: ok in $((SECONDS - start)) s: both images reproducible, valid and working" >&2
