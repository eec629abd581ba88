#!/usr/bin/env bash
# A JDK 25 for machines without Temurin 25 under /usr/lib/jvm: Debian trixie's openjdk-25-jdk-headless
# with the C library it was built against, unpacked privately into $KOVN_JDK_ROOT (default
# /var/cache/kovn/openjdk-25). Its executables are replaced by wrappers that run them through the
# unpacked dynamic loader, so java.home/bin/java works for Maven, surefire and kovn's child JVMs.
# Prints the JDK's home. Idempotent.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
R=${KOVN_JDK_ROOT:-/var/cache/kovn/openjdk-25}
home=$R/root/usr/lib/jvm/java-25-openjdk-amd64
if [[ ! -f $R/.installed-v1 ]]; then
  echo "install-jdk: no Temurin 25 under /usr/lib/jvm; unpacking Debian's openjdk-25-jdk-headless into $R" >&2
  rm -rf "$R"
  "$repo/scripts/fetch-debian-package.sh" trixie "$R/root" openjdk-25-jdk-headless openjdk-25-jre-headless \
    libc6 zlib1g libgcc-s1 libstdc++6 >&2 || { echo "install-jdk: could not fetch openjdk-25 from Debian trixie" >&2; exit 1; }
  L=$R/root/usr/lib/x86_64-linux-gnu
  # Debian links the JDK's conf/ to /etc/java-25-openjdk: point such links into the private root
  # (cacerts stays the host's /etc/ssl/certs/java/cacerts when the root has none)
  find "$R/root/usr/lib/jvm" -type l | while read -r link; do
    target=$(readlink "$link")
    if [[ $target == /* && -e $R/root$target ]]; then ln -sfn "$R/root$target" "$link"; fi
  done
  # lib/jspawnhelper is the helper every JVM runs to start a child process
  for b in "$home"/bin/* "$home/lib/jspawnhelper"; do
    [[ -L $b || $b == *.real ]] && continue
    mv "$b" "$b.real"
    printf '#!/bin/sh\nexec "%s" --library-path "%s:%s" "%s" "$@"\n' "$L/ld-linux-x86-64.so.2" "$L" "$home/lib" "$b.real" > "$b"
    chmod +x "$b"
  done
  "$home/bin/java" -version >&2 || { echo "install-jdk: the unpacked JDK does not run" >&2; exit 1; }
  touch "$R/.installed-v1"
fi
echo "$home"
