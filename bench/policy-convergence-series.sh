#!/usr/bin/env bash
# Issue 5's policy benchmark several times in a row, as kovn is deployed (C1 at a tenth of its
# compile thresholds, ParallelGC: deploy/), and its headline figures per run and their medians.
# One run's convergence ratio swings with the NB server's and the bystander's share of that run
# (BENCHMARKS.md), so a claim about it rests on a series, not on one run.
#
#   bench/policy-convergence-series.sh [RUNS] [PolicyConvergenceBench options]
#   (default: 5 runs of --scale full --relabels 300; each run's whole report is kept under
#   bench/target/series-<time>/; KOVN_SERIES_JAVA_OPTIONS adds JVM options to the measured JVM,
#   e.g. -Dkovn.ovsdb.largeMessageNice=0 for an A/B run; KOVN_SERIES_GUEST_MEMORY=hold runs the
#   series under bench/hold-guest-memory.sh, a host tweak (root) that keeps the VM's host from taking
#   back the pages the NB server is about to be given: BENCHMARKS.md says which figures used it)
#
# Run nothing else meanwhile: the benchmark is meant to have the machine's cores to itself.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${KOVN_SERIES_GUEST_MEMORY:-as-is} == hold && -z ${KOVN_GUEST_MEMORY:-} ]]; then
  exec "$root/bench/hold-guest-memory.sh" "$0" "$@"
fi
runs=${1:-5}
shift || true
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--scale full --relabels 300)
out=$root/bench/target/series-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
export JDK_JAVA_OPTIONS="-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1 -XX:+UseParallelGC ${KOVN_SERIES_JAVA_OPTIONS:-}"

# The first number in the result cell of the report row whose label matches $2.
cell() { # file label-regex field-index
  awk -F'|' -v re="$2" -v i="$3" '$2 ~ re { gsub(/,/, "", $3); split($3, f, /[^0-9.]+/); n = 0
      for (k = 1; k in f; k++) if (f[k] != "") { n++; if (n == i) { print f[k]; exit } } }' "$1"
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
    else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [[ ${KOVN_GUEST_MEMORY:-} == held ]]; then echo "guest memory: held (bench/hold-guest-memory.sh)"
else echo "guest memory: as is (the host may take back free pages)"; fi
echo
echo "| run | start (UTC) | load before | convergence / raw with the bystander | ratio | translate | NB server in the kernel: convergence / raw | relabel p99: queued → NB written / end to end | restart writes |"
echo "|---|---|---|---|---|---|---|---|---|"
for i in $(seq "$runs"); do
  f=$out/run-$i.txt
  started=$(date -u +%H:%M)
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$root/scripts/bench.sh" PolicyConvergenceBench "${args[@]}" >"$f" 2>"$out/run-$i.err" \
    || { echo "run $i failed: see $f and $out/run-$i.err" >&2; exit 1; }
  conv=$(cell "$f" "^ convergence, NB enforcing" 1)
  raw=$(cell "$f" "^ raw bulk load with the same bystander" 1)
  ratio=$(cell "$f" "^ ratio NB enforcing / raw with the same bystander" 1)
  translate=$(cell "$f" "^ first reconcile: snapshot" 2)
  kernel="$(cell "$f" "^ NB server CPU in the kernel" 1) / $(cell "$f" "^ NB server CPU in the kernel" 2)"
  p99=$(awk -F'|' '$2 ~ /queued → NB written p50 \/ p99/ && $2 !~ /warm-up|pod add|pod delete/ { print $3 }' "$f" \
    | tail -1 | awk '{ print $3 }')
  # end to end: from the API write until another NB client sees the change (the stand-in API server included)
  e2e=$(awk -F'|' '$2 ~ /^ pod relabel/ && $2 ~ /one at a time\): end to end p50 \/ p99/ && $2 !~ /warm-up/ { print $3 }' "$f" \
    | tail -1 | awk '{ print $3 }')
  writes=$(awk -F'|' '$2 ~ /^ restart with nothing changed/ { print $3 }' "$f" | awk -F', ' '{ print $3 }' | awk '{ print $1 }')
  echo "$ratio" >>"$out/ratios"; echo "$p99" >>"$out/p99s"; echo "$e2e" >>"$out/e2es"; echo "$translate" >>"$out/translates"
  echo "$conv" >>"$out/convergences"; echo "$raw" >>"$out/raws"
  echo "| $i | $started | $load | $conv / $raw ms | ${ratio}x | $translate ms | $kernel ms | $p99 / $e2e ms | $writes |"
done
below=$(awk '$1 <= 1.5 { n++ } END { print n + 0 }' "$out/ratios")
conv=$(median <"$out/convergences")
raw=$(median <"$out/raws")
echo
echo "medians over $runs runs: ratio $(median <"$out/ratios")x ($below at or under 1.5x); convergence $conv ms against a raw" \
  "load of $raw ms = $(awk -v c="$conv" -v r="$raw" 'BEGIN { printf "%.2f", c / r }')x; first translation" \
  "$(median <"$out/translates") ms, relabel p99 $(median <"$out/p99s") ms (max $(sort -n "$out/p99s" | tail -1) ms)," \
  "end to end $(median <"$out/e2es") ms (max $(sort -n "$out/e2es" | tail -1) ms); reports in $out"
