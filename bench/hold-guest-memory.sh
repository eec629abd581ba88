#!/usr/bin/env bash
# Runs a command with this VM's free memory held in the guest instead of handed back to the host.
#
#   bench/hold-guest-memory.sh COMMAND [ARGS...]
#
# This machine kind is a VM whose kernel reports free pages to its host (virtio-balloon free page
# reporting: /sys/module/page_reporting). A page the host has taken back costs ~6-9 us of kernel time
# to fault in again, a page the guest kept ~1.5 us (BENCHMARKS.md, "Noise on this machine"). Which kind a
# process gets depends on how long ago the pages it is given were freed, so a fresh ovsdb-server's
# load is sometimes 300-500 ms slower for no reason of its own or of its client's. For the length of
# COMMAND this holds freed pages in the guest (pages are reported only after 5 minutes free, and
# never for being too many), first touches 8 GB (at most half the available memory) so that the pages
# the benchmark's processes will be given are backed by the host, and restores the previous settings
# when COMMAND ends, fails, or is interrupted or terminated (not when killed with KILL).
#
# COMMAND sees KOVN_GUEST_MEMORY=held, or =as-is where nothing could be held. On a machine without
# these settings, or without the right to change them (not root), it says so and runs COMMAND
# unchanged. Nothing here changes what kovn or ovsdb-server do; it takes the host's
# page recycling out of what a benchmark measures.
set -euo pipefail
[[ $# -gt 0 ]] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
params=/sys/module/page_reporting/parameters
if [[ ! -w $params/min_free_ms || ! -w $params/max_waiting_mib ]]; then
  echo "hold-guest-memory: no writable $params/{min_free_ms,max_waiting_mib}: running as is" >&2
  KOVN_GUEST_MEMORY=as-is exec "$@"
fi
saved_min_free_ms=$(cat "$params/min_free_ms")
saved_max_waiting_mib=$(cat "$params/max_waiting_mib")
restore() {
  echo "$saved_min_free_ms" >"$params/min_free_ms"
  echo "$saved_max_waiting_mib" >"$params/max_waiting_mib"
  echo "hold-guest-memory: restored min_free_ms=$saved_min_free_ms max_waiting_mib=$saved_max_waiting_mib" >&2
}
trap restore EXIT
trap 'exit 130' INT TERM
echo 300000 >"$params/min_free_ms"    # the largest this kernel accepts (600000 is refused)
echo 1048576 >"$params/max_waiting_mib"
reported_before=$(cat "$params/reported_kib")
# Touch memory in a JVM's pre-touched heap and let it go: those pages are now backed and, held, stay so.
. "$(cd "$(dirname "$0")/.." && pwd)/scripts/java-env.sh"
touch_mb=$(awk '/^MemAvailable:/ { mb = int($2 / 2048); print (mb < 8192 ? mb : 8192) }' /proc/meminfo)
java -Xms${touch_mb}m -Xmx${touch_mb}m -XX:+UseParallelGC -XX:+AlwaysPreTouch -version >/dev/null 2>&1 \
  || echo "hold-guest-memory: could not touch $touch_mb MB first; going on" >&2
echo "hold-guest-memory: min_free_ms=300000 max_waiting_mib=1048576 (were $saved_min_free_ms and" \
  "$saved_max_waiting_mib), $touch_mb MB touched" >&2
status=0
KOVN_GUEST_MEMORY=held "$@" || status=$?
echo "hold-guest-memory: $(( ($(cat "$params/reported_kib") - reported_before) / 1024 )) MB reported to the host meanwhile" >&2
exit "$status"
