#!/usr/bin/env bash
# Proves the README's claim that a fresh clone builds and runs its pure tests with Maven alone:
# clones HEAD into a temporary directory and runs `mvn verify -Ppure` there as user nobody, with an
# empty Maven repository (everything comes from Maven Central), no OVN runtime (.runtime/ is not in
# git) and the Kubernetes binaries hidden (a tmpfs over /var/cache/kovn in a private mount
# namespace); then `./kovn analyze` on the demo's manifests, offline. Needs root only to set that stage up; Maven itself runs unprivileged.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/java-env.sh"
[[ $(id -u) == 0 ]] || { echo "check-fresh-clone: run as root (it drops to nobody for Maven)" >&2; exit 1; }
work=$(mktemp -d /tmp/kovn-fresh-clone.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "check-fresh-clone: cloning $(git -C "$root" rev-parse --short HEAD) into $work" >&2
git clone -q "$root" "$work/kovn"
mkdir -p "$work/home" "$work/m2"
chown -R 65534:65534 "$work"
mkdir -p /var/cache/kovn
echo "check-fresh-clone: mvn -B verify -Ppure as nobody, without .runtime/ or /var/cache/kovn" >&2
unshare -m bash -c '
  mount -t tmpfs none /var/cache/kovn
  exec setpriv --reuid=65534 --regid=65534 --clear-groups \
    env -i PATH=/usr/bin:/bin HOME="$1/home" JAVA_HOME="$2" \
    bash -c "set -o pipefail; cd \"$1/kovn\" && \"\$JAVA_HOME/bin/java\" -version 2>&1 | head -1 && mvn -B -ntp -Dmaven.repo.local=\"$1/m2\" verify -Ppure \
      && echo check-fresh-clone: ./kovn analyze, offline, as nobody >&2 \
      && MAVEN_OPTS=-Dmaven.repo.local=\"$1/m2\" ./kovn analyze -f examples/demo -f examples/demo-policy.yaml | tail -5"
' _ "$work" "$JAVA_HOME"
echo "check-fresh-clone: passed" >&2
