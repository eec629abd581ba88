#!/usr/bin/env bash
# Everything kovn needs on a fresh machine of this kind: host packages, the OVN/OVS runtime.
# Idempotent and fast once done.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ $(id -u) -ne 0 ]]; then
  echo "kovn: the sandbox and the tests create network namespaces and need root" >&2
  exit 1
fi
"$here/install-host-deps.sh"
"$here/install-ovn-runtime.sh"
