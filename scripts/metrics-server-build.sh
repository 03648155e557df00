#!/usr/bin/env bash
# Builds the real metrics-server (sigs.k8s.io/metrics-server, pinned in tools/metrics-server/go.mod
# with the Kubernetes libraries it pins itself, checked against its go.sum) and keeps it in a cache
# keyed by a hash of those inputs. Prints the binary's path on stdout.
#
#   scripts/metrics-server-build.sh           build if missing, print the path
#   scripts/metrics-server-build.sh --path    print the path the current inputs map to (no build)
#
# Cache root: $RAGSEARCH_METRICS_SERVER_CACHE or ~/.cache/ragsearch/metrics-server. Go's module and
# build caches are shared with the testplane build. Each build's wall time, CPU time and peak memory
# go to <cache>/<hash>/build.log.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(dirname "$(dirname "$self")")
src="$root/tools/metrics-server"
VERSION=$(awk '$1=="sigs.k8s.io/metrics-server"{print $2; exit}' "$src/go.mod")
cache_root=${RAGSEARCH_METRICS_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/metrics-server}

command -v go >/dev/null || { echo "metrics-server-build: go is not installed" >&2; exit 1; }
[ -n "$VERSION" ] || { echo "metrics-server-build: no sigs.k8s.io/metrics-server version in $src/go.mod" >&2; exit 1; }
key=$( { cd "$src" && cat go.mod go.sum; go version; cat "$self"; } | sha256sum | cut -c1-16)
out="$cache_root/$key"
bin="$out/metrics-server"
if [ "${1:-}" = "--path" ]; then echo "$bin"; exit 0; fi
if [ -x "$bin" ]; then touch "$out"; echo "$bin"; exit 0; fi

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9                                  # one build at a time; a waiter reuses the result
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

# the stamp its release build sets (client-go's version package), so --version and /version name the pinned release
ldflags="-s -w"
for kv in "gitVersion=$VERSION" "gitTreeState=clean" "gitCommit=" "buildDate=1970-01-01T00:00:00Z"; do
  ldflags="$ldflags -X k8s.io/client-go/pkg/version.$kv"
done
log="$out/build.log"
echo "metrics-server-build: building metrics-server $VERSION into $out (log: $log)" >&2
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)        # GNU time: CPU time and peak memory
start=$(date +%s)
set +e
# -mod=readonly: the module graph and every hash come from go.mod and go.sum, never updated here
( cd "$src" && GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
    "${timer[@]}" nice -n 19 go build -mod=readonly -trimpath -ldflags "$ldflags" -o "$bin.tmp" sigs.k8s.io/metrics-server/cmd/metrics-server ) >"$log" 2>&1
rc=$?
set -e
echo "wall_seconds=$(( $(date +%s) - start ))" >>"$log"; echo "go_version=$(go version)" >>"$log"
if [ $rc -ne 0 ]; then
  tail -40 "$log" >&2
  echo "metrics-server-build: go build failed (exit $rc), see $log" >&2
  rm -f "$bin.tmp"; exit $rc
fi
mv "$bin.tmp" "$bin"
# binaries of earlier inputs, unused for a day, go
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$out" -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
echo "binary_bytes=$(stat -c %s "$bin")" >>"$log"
grep -E 'Elapsed|Maximum resident|User time|System time' "$log" | sed 's/^[[:space:]]*/metrics-server-build: /' >&2
echo "$bin"
