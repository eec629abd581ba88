#!/usr/bin/env bash
# Runs one benchmark program from module bench: scripts/bench.sh ClassName [args...]
# (e.g. scripts/bench.sh SandboxBench --pods 100). Builds what it needs first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/java-env.sh"
"$root/scripts/setup.sh"
cd "$root"
mvn -B -q -ntp -Dmaven.test.skip=true -pl bench -am package dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime >&2
cls=$1; shift
exec java -Xmx2g -Dkovn.root="$root" -Dkovn.runtime="$root/.runtime/ovn" \
  -cp "$root/bench/target/classes:$(cat "$root/bench/target/classpath.txt")" "io.kovn.bench.$cls" "$@"
