#!/usr/bin/env bash
# Prints the slowest test classes of the last Maven run (from surefire's reports), with the total per
# module: where the suite's minutes go, for keeping it under its 40-minute budget. Usage:
# scripts/slowest-tests.sh [N] (default 25).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-25}
shopt -s nullglob
reports=("$root"/*/target/surefire-reports/TEST-*.xml)
[[ ${#reports[@]} -gt 0 ]] || { echo "slowest-tests: no surefire reports under $root/*/target" >&2; exit 0; }
for f in "${reports[@]}"; do
  module=${f#"$root"/}; module=${module%%/*}
  line=$(grep -m1 -o '<testsuite [^>]*>' "$f") || continue
  name=$(sed -E 's/.* name="([^"]*)".*/\1/' <<<"$line")
  time=$(sed -E 's/.* time="([^"]*)".*/\1/' <<<"$line")
  tests=$(sed -E 's/.* tests="([^"]*)".*/\1/' <<<"$line")
  printf '%s %s %s %s\n' "${time//,/}" "$module" "$tests" "${name##*.}"
done > "${TMPDIR:-/tmp}/kovn-test-times.$$"
echo "slowest-tests: per module (s)" >&2
awk '{t[$2]+=$1} END {for (m in t) printf "  %-10s %7.1f\n", m, t[m]}' "${TMPDIR:-/tmp}/kovn-test-times.$$" | sort -k2 -nr >&2
echo "slowest-tests: the $n slowest classes (s, module, tests, class)" >&2
sort -nr "${TMPDIR:-/tmp}/kovn-test-times.$$" | head -n "$n" | awk '{printf "  %7.1f %-9s %4s %s\n", $1, $2, $3, $4}' >&2
rm -f "${TMPDIR:-/tmp}/kovn-test-times.$$"
