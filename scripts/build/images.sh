#!/usr/bin/env bash
# Builds both images without a Docker engine or a registry: the base from Debian's packages
# (images/base-image.sh, cached), then Jib puts each program on it. Writes docker-archive tarballs
#   search-server/target/image.tar   ragsearch/search-server:<maven version>
#   operator/target/image.tar        ragsearch/operator:<maven version>
# that `podman load -i` / `docker load -i` take; push them with your registry's tooling.
set -euo pipefail
cd "$(dirname "$0")/../.."
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
source=$(git remote get-url origin 2>/dev/null || echo unknown)
models="${RAGSEARCH_BUILTIN_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/models}"
RAGSEARCH_BUILTIN_MODELS="$models" scripts/model/fetch-e5.sh >/dev/null
mvn -B -ntp -q -Pimages -DskipTests -Dbuiltin.models.dir="$models" package -Dimage.revision="$revision" -Dimage.source="$source" "$@"
for m in search-server operator; do
  echo "$m: $m/target/image.tar ($(du -m $m/target/image.tar | cut -f1) MiB, $(cat $m/target/image.digest))"
done
