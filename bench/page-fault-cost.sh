#!/usr/bin/env bash
# What a page fault costs on this machine, and how that depends on how long ago the memory was freed.
#
#   bench/page-fault-cost.sh [GB] [PAUSE_SECONDS ...]      (default: 4 GB, pauses 0 0 30 60)
#
# Touches GB of fresh memory (a JVM's pre-touched heap, which then exits) once per pause, after
# sleeping that long, and prints the kernel time per 4 KiB page and how much free memory the guest
# reported to its host in between (/sys/module/page_reporting, where there is one). On this machine
# kind a page the host has taken back costs several times more to touch again than one the guest
# kept: the cause of the NB server's slow runs in BENCHMARKS.md ("Noise on this machine"). Run it alone, and
# under bench/hold-guest-memory.sh to see the difference holding makes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/java-env.sh"
gb=${1:-4}
shift || true
pauses=("$@")
[[ ${#pauses[@]} -gt 0 ]] || pauses=(0 0 30 60)
reported=/sys/module/page_reporting/parameters/reported_kib
reported_kib() { if [[ -r $reported ]]; then cat "$reported"; else echo 0; fi; }
pages=$((gb * 262144))
echo "| pause before | wall | kernel time | per 4 KiB page | reported to the host during the pause and the touch |"
echo "|---|---|---|---|---|"
for pause in "${pauses[@]}"; do
  before=$(reported_kib)
  sleep "$pause"
  # bash's own timer: wall and kernel time of the JVM, which pre-touches its heap with one thread and exits
  read -r wall sys < <(TIMEFORMAT='%R %S'; { time java -Xms${gb}g -Xmx${gb}g -XX:+UseParallelGC \
    -XX:ParallelGCThreads=1 -XX:+AlwaysPreTouch -version >/dev/null 2>&1; } 2>&1)
  awk -v p="$pause" -v w="$wall" -v s="$sys" -v n="$pages" -v r="$(( ($(reported_kib) - before) / 1024 ))" \
    'BEGIN { printf "| %s s | %.2f s | %.2f s | %.2f us | %s MB |\n", p, w, s, s * 1e6 / n, r }'
done
