#!/usr/bin/env bash
# fetch-debian-package.sh SUITE DEST PACKAGE...: downloads Debian packages of SUITE from the
# system's own mirror and unpacks them into DEST, without touching the system's apt or dpkg state.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 SUITE DEST PACKAGE..." >&2; exit 2; }
suite=$1 dest=$2; shift 2
die() { echo "fetch-debian-package: $*" >&2; exit 1; }
uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[[ -n $uri ]] || uri=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[[ -n $uri ]] || die "cannot find the system's Debian mirror URI in /etc/apt/sources.list.d/debian.sources"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/etc/apt/sources.list.d" "$T/var/lib/apt/lists/partial" "$T/var/cache/apt/archives/partial" \
  "$T/var/lib/dpkg" "$T/debs" "$dest"
touch "$T/var/lib/dpkg/status"
cat > "$T/etc/apt/sources.list.d/$suite.sources" <<SRC
Types: deb
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
APT=(-o "Dir=$T" -o "Dir::State::status=$T/var/lib/dpkg/status" -o Dir::Etc::sourcelist=/dev/null
     -o "Dir::Etc::sourceparts=$T/etc/apt/sources.list.d" -o Debug::NoLocking=1
     -o "Dir::Cache::archives=$T/var/cache/apt/archives")
echo "fetch-debian-package: fetching $suite package lists from $uri" >&2
apt-get "${APT[@]}" -qq update >"$T/update.log" 2>&1 || { cat "$T/update.log" >&2; die "apt-get update for $suite failed"; }
(cd "$T/debs" && apt-get "${APT[@]}" -qq download "$@") >"$T/download.log" 2>&1 \
  || { cat "$T/download.log" >&2; die "could not download from $suite: $*"; }
for d in "$T"/debs/*.deb; do dpkg -x "$d" "$dest"; done
echo "fetch-debian-package: unpacked $* into $dest" >&2
