#!/usr/bin/env bash
# Issue 31's network benchmark as a 5-run series (BENCHMARKS.md, "User-defined networks at scale"): builds the kovn
# launcher's jars (./kovn --version; the node process runs from them as deploy/20-node.yaml runs it),
# then runs NetworkScaleBench: 50 Layer3 networks x 20 nodes from scratch in one zone against a raw
# load of the same rows, per run. Run as root (OVN databases, the control plane).
#
#   bench/network-scale-series.sh [RUNS]     (default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/kovn" --version >/dev/null
exec "$root/scripts/bench.sh" NetworkScaleBench --runs "${1:-5}"
