#!/usr/bin/env bash
# Builds the testplane binary (etcd + kube-apiserver + kube-controller-manager + up/down) once
# and keeps it in a cache keyed by a hash of its inputs. Prints the binary's path on stdout.
#
#   scripts/testplane-build.sh           build if missing, print the path
#   scripts/testplane-build.sh --path    print the path the current inputs map to (no build)
#
# Cache root: $RAGSEARCH_TESTPLANE_CACHE or ~/.cache/ragsearch/testplane. Go's own module and
# build caches (go env GOMODCACHE GOCACHE) are reused between builds; a cold build on 2 cores
# takes tens of minutes, a warm one seconds. Each build's wall time, CPU time and peak memory
# (/usr/bin/time -v) go to <cache>/<hash>/build.log.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(dirname "$(dirname "$self")")
src="$root/testplane"
KUBE_VERSION=$(awk '$1=="k8s.io/kubernetes"{print $2; exit}' "$src/go.mod")   # the stamped version
cache_root=${RAGSEARCH_TESTPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/testplane}

command -v go >/dev/null || { echo "testplane-build: go is not installed" >&2; exit 1; }
key=$( { cd "$src" && cat go.mod go.sum $(ls *.go | sort); go version; cat "$self"; } | sha256sum | cut -c1-16)
out="$cache_root/$key"
bin="$out/testplane"
if [ "${1:-}" = "--path" ]; then echo "$bin"; exit 0; fi
if [ -x "$bin" ]; then touch "$out"; echo "$bin"; exit 0; fi

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9                                  # one build at a time; a waiter reuses the result
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

major=${KUBE_VERSION#v}; major=${major%%.*}
minor=${KUBE_VERSION#v*.}; minor=${minor%%.*}
ldflags="-s -w"
for kv in "gitVersion=$KUBE_VERSION" "gitMajor=$major" "gitMinor=$minor" "gitTreeState=clean" "gitCommit=" \
          "buildDate=1970-01-01T00:00:00Z"; do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
log="$out/build.log"
echo "testplane-build: building $bin (log: $log)" >&2
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)        # GNU time: CPU time and peak memory
start=$(date +%s)
# a sign of life every 5 minutes: a cold build prints nothing for tens of minutes
# (its sleep holds no pipe open, and goes with it)
( trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  while :; do
    sleep 300 </dev/null >/dev/null 2>&1 & nap=$!
    wait "$nap"
    echo "testplane-build: still building ($(( ($(date +%s) - start) / 60 )) min)" >&2
  done ) </dev/null >/dev/null &
ticker=$!
set +e
( cd "$src" && GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
    "${timer[@]}" nice -n 19 go build -mod=readonly -trimpath -ldflags "$ldflags" -o "$bin.tmp" . ) >"$log" 2>&1
rc=$?
set -e
kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
end=$(date +%s)
{ echo "wall_seconds=$((end - start))"; echo "go_version=$(go version)"
  echo "gomodcache=$(du -sh "$(go env GOMODCACHE)" 2>/dev/null | cut -f1)"
  echo "gocache=$(du -sh "$(go env GOCACHE)" 2>/dev/null | cut -f1)"; } >>"$log"
if [ $rc -ne 0 ]; then
  tail -40 "$log" >&2
  echo "testplane-build: go build failed (exit $rc), see $log" >&2
  rm -f "$bin.tmp"; exit $rc
fi
mv "$bin.tmp" "$bin"
# binaries of earlier inputs, unused for a day, go (Go's own caches stay: they keep builds warm)
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$out" -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
echo "binary_bytes=$(stat -c %s "$bin")" >>"$log"
grep -E 'Elapsed|Maximum resident|User time|System time' "$log" | sed 's/^[[:space:]]*/testplane-build: /' >&2
echo "$bin"
