#!/usr/bin/env bash
# Issue 38's cold-start benchmark as a 5-run series (BENCHMARKS.md, "Cold start on the reference's
# workload"): builds the kovn launcher's jars and class cache (./kovn --version), then runs
# ColdStartBench, which starts `kovn node` as deploy/20-node.yaml does, 5 times on one real control
# plane, and prints each figure's median and range. Run as root (OVN databases, the control plane).
#
#   bench/cold-start-series.sh [RUNS]     (default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/kovn" --version >/dev/null
exec "$root/scripts/bench.sh" ColdStartBench --runs "${1:-5}"
