#!/usr/bin/env bash
# Builds the pinned upstream Kubernetes control plane (tools/kube/go.mod) into the runtime cache:
# kube-apiserver, kube-controller-manager, kube-scheduler and kubectl of one release, and unpacks
# etcd from Debian trixie's etcd-server package next to them.
#
# Result: $KOVN_KUBE (default /var/cache/kovn/kube-<release>) with bin/. The cache lives outside
# the work tree so fresh clones (CI) reuse it. Idempotent: exits at once when the stamp of a
# complete install of this go.mod is present.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
mod=$repo/tools/kube
release=$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v/ {print $2; exit} $1 == "require" && $2 == "k8s.io/kubernetes" {print $3; exit}' "$mod/go.mod")
[[ -n $release ]] || { echo "install-kube: no k8s.io/kubernetes release in $mod/go.mod" >&2; exit 1; }
KUBE=${KOVN_KUBE:-/var/cache/kovn/kube-$release}
# the build's inputs: the pinned modules (not this script: editing a message must not rebuild)
sum=$(cat "$mod/go.mod" "$mod/go.sum" | sha256sum | cut -c1-12)
STAMP=$KUBE/.installed-$sum
[[ -f $STAMP ]] && exit 0

die() { echo "install-kube: $*" >&2; exit 1; }
command -v go >/dev/null || [[ -x /usr/local/go/bin/go ]] || die "Go is needed to build Kubernetes $release (go 1.24 or newer on PATH or in /usr/local/go)"
command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH
mkdir -p "$KUBE/bin"

minor=${release#v1.}; minor=${minor%%.*}
ldflags="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $p.gitVersion=$release -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
done
start=$(date +%s)
cd "$mod"
echo "install-kube: downloading Kubernetes $release modules" >&2
go mod download >&2 || die "go mod download failed for $mod/go.mod (is the Go module proxy reachable?)"
for cmd in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
  echo "install-kube: building $cmd $release ($(( $(date +%s) - start )) s so far; the first build takes several minutes on 2 cores)" >&2
  # -v names each package as it is compiled: print a count every 30 s so a long build shows progress
  CGO_ENABLED=0 go build -v -trimpath -ldflags "$ldflags" -o "$KUBE/bin/$cmd.new" "k8s.io/kubernetes/cmd/$cmd" \
    2> >(awk -v cmd="$cmd" 'BEGIN { t = systime() } /^[a-z]/ && !/: / { n++ } /: |^#/ { print > "/dev/stderr" }
         systime() - t >= 30 { printf "install-kube:   %s: %d packages compiled\n", cmd, n > "/dev/stderr"; t = systime() }' ) \
    || die "go build k8s.io/kubernetes/cmd/$cmd@$release failed (output above)"
  mv "$KUBE/bin/$cmd.new" "$KUBE/bin/$cmd"
done

# etcd: Debian trixie's etcd-server, a static Go binary, unpacked privately.
"$repo/scripts/fetch-debian-package.sh" trixie "$KUBE/etcd-root" etcd-server >&2 \
  || die "could not fetch Debian trixie's etcd-server"
ln -sfn "$KUBE/etcd-root/usr/bin/etcd" "$KUBE/bin/etcd"
"$KUBE/bin/etcd" --version | head -1 >&2 || die "etcd does not run: $KUBE/bin/etcd"
"$KUBE/bin/kube-apiserver" --version >&2
rm -f "$KUBE"/.installed-*
touch "$STAMP"
echo "install-kube: Kubernetes $release in $KUBE/bin ($(du -sh "$KUBE/bin" | cut -f1), $(( $(date +%s) - start )) s)" >&2
