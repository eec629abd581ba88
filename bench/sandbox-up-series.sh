#!/usr/bin/env bash
# bench/sandbox-up-series.sh [RUNS] [NODES]: `kovn sandbox up` from nothing to ready, RUNS times
# (default 5, 3 nodes), each followed by `down`; prints each time and the median. The control plane
# binaries must be built (./kovn builds them on first use).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5} nodes=${2:-3}
"$root/kovn" sandbox down >/dev/null 2>&1 || true
times=()
for ((i = 1; i <= runs; i++)); do
  line=$("$root/kovn" sandbox up --nodes "$nodes" 2>&1 | grep 'sandbox ready in') || { echo "run $i: sandbox did not come up" >&2; exit 1; }
  t=$(sed -n 's/.*ready in \([0-9.]*\) s.*/\1/p' <<<"$line")
  echo "run $i: $t s (load $(cut -d' ' -f1 /proc/loadavg))"
  times+=("$t")
  "$root/kovn" sandbox down >/dev/null 2>&1
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median of %d: %s s\n", NR, a[int((NR+1)/2)]}'
