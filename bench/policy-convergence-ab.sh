#!/usr/bin/env bash
# Two commits' policy benchmark interleaved, one run of each per round (A, B, A, B, ...), so that the
# host's hour-to-hour drift falls on both alike: the way to compare two versions of the controller.
#
#   bench/policy-convergence-ab.sh REV_A REV_B [ROUNDS]   (default 5 rounds: ~45 min)
#
# Each commit runs from its own git worktree under bench/target/ab-<time>/ (removed at the end), with
# this checkout's OVN runtime; each run's whole report is kept there as round-<i>-<rev>.txt.
# Run nothing else meanwhile (bench/policy-convergence-series.sh says why).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 2 ]] || { sed -n 2,9p "$0" >&2; exit 2; }
a=$1 b=$2 rounds=${3:-5}
out=$root/bench/target/ab-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
cleanup() { for r in "$a" "$b"; do git -C "$root" worktree remove --force "$out/$r" 2>/dev/null || true; done; }
trap cleanup EXIT
for r in "$a" "$b"; do
  git -C "$root" worktree add --detach --quiet "$out/$r" "$r"
  ln -sfn "$root/.runtime" "$out/$r/.runtime"
done
for i in $(seq "$rounds"); do
  for r in "$a" "$b"; do
    echo "round $i, $r ($(date -u +%H:%M)):"
    "$out/$r/bench/policy-convergence-series.sh" 1 | grep -E '^\| 1 \|'
    latest=$(ls -d "$out/$r/bench/target/"series-* | tail -1)
    cp "$latest/run-1.txt" "$out/round-$i-$r.txt" # the whole report
  done
done
echo "reports: $out/round-*.txt"
