#!/usr/bin/env bash
# Installs the Debian packages kovn's tests and sandbox use on the host (root required):
# ping (ICMP probes),
# ethtool (checksum offload off in pod namespaces), podman + runc + reference CNI plugins and
# busybox-static (the real container runtime test); mmdebstrap, umoci, apt-utils (apt-ftparchive), jq
# and skopeo (scripts/build-images.sh and its test). Idempotent: skips what is present.
set -euo pipefail
need=()
command -v ethtool >/dev/null || need+=(ethtool)
command -v socat >/dev/null || need+=(socat)
command -v ping >/dev/null || need+=(iputils-ping)
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
[[ -x /usr/lib/cni/tuning ]] || need+=(containernetworking-plugins)
[[ -x /bin/busybox ]] || need+=(busybox-static)
command -v gcc >/dev/null || need+=(gcc)
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v umoci >/dev/null || need+=(umoci)
command -v skopeo >/dev/null || need+=(skopeo)
command -v apt-ftparchive >/dev/null || need+=(apt-utils)
command -v jq >/dev/null || need+=(jq)
if ((${#need[@]})); then
  echo "install-host-deps: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq update >/dev/null
  apt-get -qq install -y --no-install-recommends "${need[@]}" >/dev/null \
    || { echo "install-host-deps: apt-get install ${need[*]} failed" >&2; exit 1; }
fi
