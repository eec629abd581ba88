#!/usr/bin/env bash
# Issue 32's benchmark as a 5-run series (BENCHMARKS.md, "Connected networks at scale"): builds the kovn
# launcher's jars (./kovn --version; the node process runs from them as deploy/20-node.yaml runs it),
# then runs NetworkConnectScaleBench: 50 Layer3 networks x 20 nodes in one ClusterNetworkConnect, one
# zone, against a raw load of the same rows, per run. Run as root (OVN databases, the control plane).
#
#   bench/network-connect-scale-series.sh [RUNS]     (default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/kovn" --version >/dev/null
exec "$root/scripts/bench.sh" NetworkConnectScaleBench --runs "${1:-5}"
