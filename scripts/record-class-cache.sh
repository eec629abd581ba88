#!/usr/bin/env bash
# Records a JDK AOT class cache (JEPs 483/514) for a class path of jars, the way kovn's caches are
# made (the launcher's, and the benchmarks' with KOVN_CLASS_CACHE=1; the images hold none: its
# recording is not reproducible, docs/deploy.md, "Images"): io.kovn.cli.ClassCacheTraining, a `kovn analyze` of the bundled demo manifests and
# the start of `kovn node` without its servers, C1 as the launcher runs.
#
#   scripts/record-class-cache.sh OUT CLASSPATH
#
# Writes OUT whole or not at all; exits non-zero, OUT untouched, when the JVM could not record one.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/java-env.sh"
out=$1
cp=$2
tmp=$out.$$
if "$JAVA_HOME/bin/java" -XX:TieredStopAtLevel=1 --enable-native-access=ALL-UNNAMED -XX:AOTCacheOutput="$tmp" -Xlog:disable -Xlog:all=error:stderr \
    -Dkovn.root="$root" -cp "$cp" io.kovn.cli.ClassCacheTraining "$root/examples" \
    >/dev/null && [[ -f $tmp ]]; then
  mv -f "$tmp" "$out"
else
  rm -f "$tmp" "$tmp.config"
  exit 1
fi
