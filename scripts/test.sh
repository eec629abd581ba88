#!/usr/bin/env bash
# Runs all of kovn's tests: unit, integration (real ovsdb-server/northd), and sandbox e2e
# (real OVS, network namespaces, packets). Sets up the machine first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
. "$root/scripts/java-env.sh"
cd "$root"
if [[ $# -gt 0 ]]; then
  exec mvn -B -ntp verify "$@"
fi
mvn -B -ntp verify
# Where the minutes went (the suite must stay under 40 minutes in CI).
"$root/scripts/slowest-tests.sh" 25
# The launcher as a user runs it (its own build, class path copy and class cache): the Maven tests
# run kovn's classes from the reactor and would not see a broken launcher.
echo "test.sh: the kovn launcher: ./kovn analyze on the demo's manifests" >&2
"$root/kovn" analyze -f "$root/examples/demo" -f "$root/examples/demo-policy.yaml" >/dev/null
echo "test.sh: the kovn launcher works" >&2
# The images: built from the launcher's jars and the CNI plugin just built, twice, compared, run.
"$root/scripts/test-images.sh"
