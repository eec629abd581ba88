#!/usr/bin/env bash
# Builds kovn's two container images as OCI archives, without a container daemon or a registry:
#
#   target/images/kovn-<version>.oci.tar   JRE 25, kovn's jars, the CNI plugin, the node's tools
#   target/images/ovn-<version>.oci.tar    OVN 25.03 and Open vSwitch 3.5
#
# Each image is one layer: a root file system that mmdebstrap unpacks from the Debian trixie
# packages deploy/image/<image>.packages name (with their dependencies), at the versions
# deploy/image/debian.lock pins, taken from a local cache (/var/cache/kovn/image-debs) so that a
# build needs no network once the cache holds them; umoci makes the OCI image of it. The same lock,
# jars and CNI binary give the same manifest digests (scripts/test-images.sh builds twice and checks).
#
#   scripts/build-images.sh [--out DIR]     build both (root: mmdebstrap --mode=root)
#   scripts/build-images.sh --update-lock   resolve the package lists again on the mirror, rewrite the lock
#
# Prints one line per image: the archive, its manifest digest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
self=$root/scripts/build-images.sh
suite=trixie
lock=$root/deploy/image/debian.lock
cache=${KOVN_IMAGE_CACHE:-/var/cache/kovn/image-debs}
jvm_home=/usr/lib/jvm/java-25-openjdk-amd64
die() { echo "build-images: $*" >&2; exit 1; }

packages() { grep -v '^#' "$root/deploy/image/$1.packages" | grep -v '^$'; }

# customize IMAGE ROOTFS: run by mmdebstrap (--extract-hook) on the unpacked root file system.
# The extract variant unpacks packages without running their maintainer scripts (those write
# keystores, conf.db and caches that differ from run to run), so this does the little of their
# work the images need.
customize() {
  local image=$1 r=$2
  umask 022
  # names the build's temporary repository; the images have no apt
  rm -f "$r/etc/apt/sources.list"
  cp "$r/usr/share/base-passwd/passwd.master" "$r/etc/passwd"
  cp "$r/usr/share/base-passwd/group.master" "$r/etc/group"
  # the package list for image scanners: unpacked, not configured
  local d
  for d in "$r"/var/cache/apt/archives/*.deb; do
    dpkg-deb -f "$d"
    printf 'Status: install ok unpacked\n\n'
  done > "$r/var/lib/dpkg/status"
  rm -rf "$r/usr/share/man" "$r/usr/share/info" "$r/usr/share/locale"
  find "$r/usr/share/doc" -type f ! -name copyright -delete
  find "$r/usr/share/doc" -depth -type d -empty -delete
  case $image in
    kovn)
      ln -s "..${jvm_home#/usr}/bin/java" "$r/usr/bin/java"
      install -d "$r/opt/kovn/lib" "$r/opt/kovn/bin"
      install -m 0644 "$root"/cli/target/lib/*.jar "$r/opt/kovn/lib/"
      install -m 0755 "$root/cni/target/kovn-cni" "$r/opt/kovn/bin/kovn-cni"
      ;;
    ovn)
      # (the run directories are the runtime's tmpfs or the chart's volumes)
      install -d "$r/var/lib/ovn" "$r/var/log/ovn" "$r/etc/ovn"
      ;;
  esac
}
if [[ ${1:-} == customize ]]; then
  customize "$2" "$3"
  exit 0
fi

out=$root/target/images
update_lock=
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --update-lock) update_lock=1; shift ;;
    *) die "usage: $0 [--out DIR] [--update-lock]" ;;
  esac
done
[[ $(id -u) -eq 0 ]] || die "needs root (mmdebstrap --mode=root unpacks packages as root)"
for t in mmdebstrap umoci apt-ftparchive dpkg-deb jq; do
  command -v "$t" >/dev/null || die "$t is missing: run scripts/install-host-deps.sh"
done
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[[ -n $mirror ]] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[[ -n $mirror ]] || mirror=http://deb.debian.org/debian
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache"

# download INCLUDES: the packages and their dependencies from the mirror into the cache (mmdebstrap
# resolves as it does for a build, then keeps the downloaded archives)
download() {
  mkdir -p "$work/dl"
  echo "build-images: downloading Debian $suite packages from $mirror" >&2
  mmdebstrap --quiet --mode=root --variant=extract --include="$1" \
    --extract-hook="sync-out /var/cache/apt/archives $work/dl" \
    "$suite" /dev/null "deb $mirror $suite main" >&2 || return 1
  cp -n "$work"/dl/*.deb "$cache/"
}

all=$( (packages kovn; packages ovn) | sort -u | paste -sd, -)
if [[ -n $update_lock ]]; then
  download "$all" || die "could not resolve $all on $mirror"
  {
    echo "# Debian $suite packages of the kovn and OVN images (scripts/build-images.sh --update-lock)."
    echo "# SOURCE_DATE_EPOCH=$(date +%s)"
    (cd "$work/dl" && LC_ALL=C sha256sum -- *.deb)
  } > "$lock"
  echo "build-images: wrote $lock" >&2
fi
[[ -f $lock ]] || die "no $lock: run $0 --update-lock"
epoch=$(sed -n 's/^# SOURCE_DATE_EPOCH=//p' "$lock")
[[ -n $epoch ]] || die "$lock has no SOURCE_DATE_EPOCH line"
grep -v '^#' "$lock" > "$work/lock.sha256"

# what the lock names and the cache lacks: those exact versions from the mirror
missing=()
while read -r _ f; do
  [[ -f $cache/$f ]] || missing+=("$f")
done < "$work/lock.sha256"
if ((${#missing[@]})); then
  pins=$(printf '%s\n' "${missing[@]}" | sed -E 's/_([^_]*)_[^_]*\.deb$/=\1/; s/%3a/:/g' | paste -sd, -)
  download "$pins" || die "the mirror no longer has the locked versions (a Debian point release?): run $0 --update-lock"
fi
(cd "$cache" && sha256sum --quiet -c "$work/lock.sha256") >&2 || die "cached packages differ from $lock"

# a local repository of exactly the locked archives: the build resolves against nothing else
mkdir -p "$work/repo/pool" "$work/repo/dists/$suite/main/binary-amd64"
while read -r _ f; do
  ln "$cache/$f" "$work/repo/pool/$f" 2>/dev/null || cp "$cache/$f" "$work/repo/pool/$f"
done < "$work/lock.sha256"
(cd "$work/repo" && apt-ftparchive -q packages pool > "dists/$suite/main/binary-amd64/Packages" \
  && apt-ftparchive -q -o "APT::FTPArchive::Release::Suite=$suite" -o APT::FTPArchive::Release::Components=main \
     -o APT::FTPArchive::Release::Architectures=amd64 release "dists/$suite" > "$work/Release" \
  && mv "$work/Release" "dists/$suite/Release") || die "apt-ftparchive failed"

kovn_version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -1)
ovn_version=$(sed -n -E 's/^[0-9a-f]+  ovn-central_([0-9]+%3a)?([^-_]+).*/\2/p' "$lock")
[[ -n $kovn_version && -n $ovn_version ]] || die "cannot tell the kovn or OVN version"
# the kovn image's inputs: the launcher fills cli/target/lib with every runtime jar (and builds
# only when the sources changed); the CNI plugin is the cni module's gcc step
"$root/kovn" --help >/dev/null || die "the kovn build failed"
if [[ ! -x $root/cni/target/kovn-cni || $root/cni/src/main/c/kovn-cni.c -nt $root/cni/target/kovn-cni ]]; then
  . "$root/scripts/java-env.sh"
  (cd "$root" && mvn -B -q -ntp -o -pl cni package -Dmaven.test.skip=true) >&2 || die "building cni/target/kovn-cni failed"
fi

created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
mkdir -p "$out"
# image NAME TAG UMOCI-CONFIG-ARGS...
image() {
  local name=$1 tag=$2
  shift 2
  local tar=$work/$name.rootfs.tar layout=$work/$name.layout archive=$out/$name-$tag.oci.tar
  echo "build-images: $name: root file system" >&2
  SOURCE_DATE_EPOCH=$epoch mmdebstrap --quiet --mode=root --variant=extract --format=tar \
    --include="$(packages "$name" | paste -sd, -)" \
    --extract-hook="\"$self\" customize $name \"\$1\"" \
    "$suite" "$tar" "deb [trusted=yes] copy://$work/repo $suite main" >&2 \
    || die "$name: mmdebstrap failed (a package missing from $lock? run $0 --update-lock)"
  echo "build-images: $name: OCI image" >&2
  umoci init --layout "$layout"
  umoci new --image "$layout:$tag"
  umoci raw add-layer --image "$layout:$tag" --history.created "$created" \
    --history.created_by "mmdebstrap --variant=extract $suite (scripts/build-images.sh)" "$tar"
  umoci config --image "$layout:$tag" --no-history --created "$created" --os linux --architecture amd64 \
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.label "org.opencontainers.image.title=$name" --config.label "org.opencontainers.image.version=$tag" \
    "$@"
  # named as the chart names it (kovn/kovn, kovn/ovn): podman and skopeo take the name from the archive
  umoci tag --image "$layout:$tag" "kovn/$name:$tag"
  umoci rm --image "$layout:$tag"
  umoci gc --layout "$layout"
  rm -f "$tar"
  # the archive itself reproducible too: sorted, fixed times and owners
  tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$layout" -cf "$archive.tmp" oci-layout index.json blobs
  mv -f "$archive.tmp" "$archive"
  echo "$archive $(jq -r '.manifests[0].digest' "$layout/index.json")"
}
# The JVM flags of deploy/image's former Containerfile and the manifests: C1 only at a tenth of its
# thresholds, ParallelGC, native access for the OVSDB connections' large-message thread
# (docs/ovsdb.md), JVM warnings on stderr. No AOT cache: its recording is not reproducible
# (docs/deploy.md, "Images").
kovn_entrypoint=(java -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1 -XX:+UseParallelGC
  --enable-native-access=ALL-UNNAMED -Xlog:disable -Xlog:all=warning:stderr -cp '/opt/kovn/lib/*' io.kovn.cli.Main)
ep=()
for a in "${kovn_entrypoint[@]}"; do ep+=(--config.entrypoint "$a"); done
image kovn "$kovn_version" --config.env "JAVA_HOME=$jvm_home" "${ep[@]}"
image ovn "$ovn_version"
