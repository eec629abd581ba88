#!/usr/bin/env bash
# Builds the pinned Helm 3 (tools/helm/go.mod) into the runtime cache: the helm that lints and
# renders deploy/helm/kovn (scripts/render-deploy.sh, HelmChartTest).
#
# Result: $KOVN_HELM (default /var/cache/kovn/helm-<release>) with bin/helm. The cache lives outside
# the work tree so fresh clones (CI) reuse it. Idempotent: exits at once when the stamp of a
# complete install of this go.mod is present.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
mod=$repo/tools/helm
release=$(awk '$1 == "helm.sh/helm/v3" && $2 ~ /^v/ {print $2; exit}' "$mod/go.mod")
[[ -n $release ]] || { echo "install-helm: no helm.sh/helm/v3 release in $mod/go.mod" >&2; exit 1; }
HELM=${KOVN_HELM:-/var/cache/kovn/helm-$release}
# the build's inputs: the pinned modules (not this script: editing a message must not rebuild)
sum=$(cat "$mod/go.mod" "$mod/go.sum" | sha256sum | cut -c1-12)
STAMP=$HELM/.installed-$sum
[[ -f $STAMP ]] && exit 0

die() { echo "install-helm: $*" >&2; exit 1; }
command -v go >/dev/null || [[ -x /usr/local/go/bin/go ]] || die "Go is needed to build Helm $release (the go directive of $mod/go.mod or newer, on PATH or in /usr/local/go)"
command -v go >/dev/null || export PATH=/usr/local/go/bin:$PATH
mkdir -p "$HELM/bin"

start=$(date +%s)
cd "$mod"
echo "install-helm: downloading Helm $release modules" >&2
go mod download >&2 || die "go mod download failed for $mod/go.mod (is the Go module proxy reachable?)"
echo "install-helm: building helm $release (a few minutes on 2 cores the first time)" >&2
# `helm version` prints what these set; a plain go build would say v3.x-dev-ish defaults
ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$release -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
# -v names each package as it is compiled: print a count every 30 s so a long build shows progress
CGO_ENABLED=0 go build -v -trimpath -ldflags "$ldflags" -o "$HELM/bin/helm.new" helm.sh/helm/v3/cmd/helm \
  2> >(awk 'BEGIN { t = systime() } /^[a-z]/ && !/: / { n++ } /: |^#/ { print > "/dev/stderr" }
       systime() - t >= 30 { printf "install-helm:   %d packages compiled\n", n > "/dev/stderr"; t = systime() }' ) \
  || die "go build helm.sh/helm/v3/cmd/helm@$release failed (output above)"
mv "$HELM/bin/helm.new" "$HELM/bin/helm"
"$HELM/bin/helm" version --short >&2 || die "helm does not run: $HELM/bin/helm"
rm -f "$HELM"/.installed-*
touch "$STAMP"
echo "install-helm: Helm $release in $HELM/bin ($(du -sh "$HELM/bin" | cut -f1), $(( $(date +%s) - start )) s)" >&2
