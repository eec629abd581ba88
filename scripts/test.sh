#!/usr/bin/env bash
# Runs all of kovn's tests: unit, integration (real ovsdb-server/northd), and sandbox e2e
# (real OVS, network namespaces, packets). Sets up the machine first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
. "$root/scripts/java-env.sh"
cd "$root"
exec mvn -B -ntp verify "$@"
