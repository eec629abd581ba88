#!/usr/bin/env bash
# How long kovn commands take from JVM start to exit, started as the `kovn` launcher starts them,
# without and with the launcher's JDK class cache (cli/target/kovn.aot). Prints each command's
# times in ms, sorted. Run `./kovn --version` first (it builds and records the cache); with
# WITH_SANDBOX=1 it also times `get pods -A` and `trace` against a running sandbox (`./kovn demo`).
#
#   bench/jvm-start.sh [RUNS]        (default 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/java-env.sh"
cd "$root"
[[ -f cli/target/kovn.aot ]] || { echo "no cli/target/kovn.aot: run ./kovn --version first" >&2; exit 1; }
runs=${1:-5}

time_command() { # label jit-option args...
  local label=$1 jit=$2
  shift 2
  for mode in without with; do
    local cache=()
    [[ $mode == with ]] && cache=(-XX:AOTCache=cli/target/kovn.aot)
    local ms=()
    for _ in $(seq "$runs"); do
      local start end
      start=$(date +%s%N)
      "$JAVA_HOME/bin/java" -XX:+UseSerialGC -Xlog:disable -Xlog:all=warning:stderr "${cache[@]}" $jit \
        -Dkovn.root="$root" -Dkovn.runtime="$root/.runtime/ovn" -cp "cli/target/lib/*" io.kovn.cli.Main "$@" >/dev/null 2>&1 || true
      end=$(date +%s%N)
      ms+=($(( (end - start) / 1000000 )))
    done
    echo "| $label | $mode the cache | $(printf '%s\n' "${ms[@]}" | sort -n | tr '\n' ' ')|"
  done
}

echo "| command | JVM | ms, $runs runs sorted |"
echo "|---|---|---|"
time_command "kovn --help" -XX:TieredStopAtLevel=1 --help
time_command "kovn analyze -f examples/demo -f examples/demo-policy.yaml" "" \
  analyze -f examples/demo -f examples/demo-policy.yaml
time_command "kovn analyze … --from frontend/web-1 --to backend/db-1 --port tcp/8080" "" \
  analyze -f examples/demo -f examples/demo-policy.yaml --from frontend/web-1 --to backend/db-1 --port tcp/8080
if [[ -n ${WITH_SANDBOX:-} ]]; then
  time_command "kovn get pods -A" -XX:TieredStopAtLevel=1 get pods -A
  time_command "kovn trace frontend/web-1 backend/db-1 tcp/8080" -XX:TieredStopAtLevel=1 trace frontend/web-1 backend/db-1 tcp/8080
fi
