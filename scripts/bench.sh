#!/usr/bin/env bash
# Runs one benchmark program from module bench: scripts/bench.sh ClassName [args...]
# (e.g. scripts/bench.sh SandboxBench --pods 100). Builds what it needs first. KOVN_CLASS_CACHE=1
# starts the benchmark's JVM as kovn is deployed, from jars and a JDK class cache recorded the way
# the kovn launcher records its own (BENCHMARKS.md, "JVM start").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/java-env.sh"
"$root/scripts/setup.sh"
cd "$root"
mvn -B -q -ntp -Dmaven.test.skip=true -pl bench -am package dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime >&2
cls=$1; shift
cp="$root/bench/target/classes:$(cat "$root/bench/target/classpath.txt")"
cache=()
if [[ -n ${KOVN_CLASS_CACHE:-} ]]; then
  # As deployed: jars only (a JDK class cache cannot cover class folders) and a cache recorded the
  # way the kovn launcher records its own, by analyzing the demo manifests (not by this benchmark).
  cp="$(ls "$root"/bench/target/kovn-bench-*.jar):$(cat "$root/bench/target/classpath.txt")"
  aot=$root/bench/target/kovn-bench.aot
  if [[ ! -f $aot || $aot -ot $(ls "$root"/bench/target/kovn-bench-*.jar) ]]; then
    echo "bench: recording the class cache as the launcher does..." >&2
    "$root/scripts/record-class-cache.sh" "$aot" "$cp" 2>"$aot.log" || { cat "$aot.log" >&2; exit 1; }
  fi
  cache=(-XX:AOTCache="$aot" -Xlog:disable -Xlog:all=warning:stderr)
fi
exec java -Xmx2g --enable-native-access=ALL-UNNAMED "${cache[@]}" -Dkovn.root="$root" -Dkovn.runtime="$root/.runtime/ovn" \
  -cp "$cp" "io.kovn.bench.$cls" "$@"
