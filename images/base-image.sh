#!/usr/bin/env bash
# The images' base, made offline from Debian's packages: a minimal bookworm with a headless
# JRE 17, the user ragsearch (uid 10001, group 0 so an assigned uid on OpenShift reads the same
# files), written as a docker-archive tarball Jib can build onto (tar://). No registry needed.
#
#   images/base-image.sh OUT.tar
#
# The rootfs is cached under ${RAGSEARCH_IMAGE_CACHE:-~/.cache/ragsearch} by the hash of the
# mmdebstrap arguments: a second build takes seconds, a change to them makes a new base.
set -euo pipefail
out=$1
mkdir -p "$(dirname "$out")"
cache=${RAGSEARCH_IMAGE_CACHE:-$HOME/.cache/ragsearch}

# Docs and locales are left out (man pages too, after install: update-alternatives links into
# them). The JRE's class-data archive is kept: it shortens JVM start.
mmdebstrap_args=(--variant=essential
  --include=openjdk-17-jre-headless,ca-certificates-java
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*'
  --customize-hook='echo "ragsearch:x:10001:0:ragsearch:/tmp:/usr/sbin/nologin" >> "$1"/etc/passwd'
  --customize-hook='rm -rf "$1"/usr/share/man/* "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*'
  bookworm)
# The cache key is what goes into the rootfs: the same arguments give the same base.
key=$(printf '%s\n' "${mmdebstrap_args[@]}" | sha256sum | cut -c1-16)
rootfs=$cache/base-rootfs-$key.tar

if ! command -v mmdebstrap >/dev/null; then
  echo "installing mmdebstrap (Debian package) ..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
fi

if [[ ! -s $rootfs ]]; then
  mkdir -p "$cache"
  echo "making the base rootfs (Debian bookworm + openjdk-17-jre-headless) ..." >&2
  partial=$cache/partial-$key.tar
  mmdebstrap --quiet --format=tar "${mmdebstrap_args[@]}" "$partial"
  mv "$partial" "$rootfs"
fi

# A docker-archive: the rootfs as its only layer, a config naming it, a manifest.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
diff_id=$(sha256sum "$rootfs" | cut -d' ' -f1)
ln -s "$rootfs" "$work/layer.tar"
cat > "$work/config.json" <<JSON
{"architecture":"amd64","os":"linux",
 "config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff_id"]},
 "history":[{"created_by":"images/base-image.sh (mmdebstrap bookworm, openjdk-17-jre-headless)"}]}
JSON
echo '[{"Config":"config.json","RepoTags":["localhost/ragsearch-base:'"$key"'"],"Layers":["layer.tar"]}]' > "$work/manifest.json"
tar --dereference -C "$work" -cf "$out.part" manifest.json config.json layer.tar
mv "$out.part" "$out"
echo "base image: $out (rootfs $(du -m "$rootfs" | cut -f1) MiB)" >&2
