#!/usr/bin/env bash
# Everything kovn needs on a fresh machine of this kind: host packages, a JDK 25 (when the machine
# has no Temurin 25), the OVN/OVS runtime, and the pinned Kubernetes control plane (built from its Go
# modules: about 10 minutes on 2 cores the first time), and the pinned Helm that renders deploy/. Idempotent
# and fast once done.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ $(id -u) -ne 0 ]]; then
  echo "kovn: the sandbox and the tests create network namespaces and need root" >&2
  exit 1
fi
"$here/install-host-deps.sh"
"$here/install-ovn-runtime.sh"
. "$here/java-env.sh"
"$here/install-kube.sh"
"$here/install-helm.sh"
