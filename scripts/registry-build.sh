#!/usr/bin/env bash
# Builds the CNCF distribution registry (github.com/distribution/distribution/v3, its `registry`
# command; pinned by a `tool` line in tools/registry/go.mod and checked against tools/registry/go.sum)
# and keeps it in a cache keyed by a hash of those inputs. Prints the binary's path on stdout.
# The tests push the packaged chart to it as an OCI artifact, on a loopback port (HelmUpgradeIT).
#
#   scripts/registry-build.sh           build if missing, print the path
#   scripts/registry-build.sh --path    print the path the current inputs map to (no build)
#
# Cache root: $RAGSEARCH_REGISTRY_CACHE or ~/.cache/ragsearch/registry. Go's module and build caches
# are shared with the Helm and testplane builds. Wall time, CPU time and peak memory go to
# <cache>/<hash>/build.log.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(dirname "$(dirname "$self")")
src="$root/tools/registry"
MODULE=github.com/distribution/distribution/v3
VERSION=$(awk -v m="$MODULE" '$1==m{print $2; exit}' "$src/go.mod")
cache_root=${RAGSEARCH_REGISTRY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/registry}

command -v go >/dev/null || { echo "registry-build: go is not installed" >&2; exit 1; }
[ -n "$VERSION" ] || { echo "registry-build: no $MODULE version in $src/go.mod" >&2; exit 1; }
key=$( { cd "$src" && cat go.mod go.sum; go version; cat "$self"; } | sha256sum | cut -c1-16)
out="$cache_root/$key"
bin="$out/registry"
if [ "${1:-}" = "--path" ]; then echo "$bin"; exit 0; fi
if [ -x "$bin" ]; then touch "$out"; echo "$bin"; exit 0; fi

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9                                  # one build at a time; a waiter reuses the result
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

# the stamp the project's release build sets, so `registry --version` names the pinned release
ldflags="-s -w -X $MODULE/version.version=$VERSION"
log="$out/build.log"
echo "registry-build: building the distribution registry $VERSION into $out (log: $log)" >&2
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)        # GNU time: CPU time and peak memory
start=$(date +%s)
set +e
# -mod=readonly: the module graph and every hash come from tools/registry/go.mod and go.sum
( cd "$src" && GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
    "${timer[@]}" nice -n 19 go build -mod=readonly -trimpath -ldflags "$ldflags" -o "$out/tmp/registry" "$MODULE/cmd/registry" ) >"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
echo "wall_seconds=$((end - start))" >>"$log"; echo "go_version=$(go version)" >>"$log"
if [ $rc -ne 0 ]; then
  tail -40 "$log" >&2
  echo "registry-build: go build failed (exit $rc), see $log" >&2
  rm -rf "$out/tmp"; exit $rc
fi
mv "$out/tmp/registry" "$bin"
rmdir "$out/tmp"
# binaries of earlier inputs, unused for a day, go
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$out" -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
echo "registry_bytes=$(stat -c %s "$bin")" >>"$log"
grep -E 'Elapsed|Maximum resident|User time|System time' "$log" | sed 's/^[[:space:]]*/registry-build: /' >&2
echo "$bin"
