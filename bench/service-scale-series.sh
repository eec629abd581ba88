#!/usr/bin/env bash
# Issue 30's service benchmark as a 5-run series (BENCHMARKS.md, "Services at scale"): builds the kovn
# launcher's jars (./kovn --version; the node process runs from them as deploy/20-node.yaml runs it),
# then runs ServiceScaleBench: 1,000 services x 10 endpoints from scratch against a raw load of the
# same rows, and 100 single endpoint changes, per run. Run as root (OVN databases, the control plane).
#
#   bench/service-scale-series.sh [RUNS]     (default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/kovn" --version >/dev/null
exec "$root/scripts/bench.sh" ServiceScaleBench --runs "${1:-5}"
