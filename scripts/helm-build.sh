#!/usr/bin/env bash
# Builds a real Helm 4 binary from its Go module (helm.sh/helm/v4, pinned in tools/helm/go.mod
# and checked against tools/helm/go.sum), and beside it a kubectl of the control plane's version
# from the same module graph (k8s.io/kubectl; tools/helm/kubectl), and keeps both in a cache
# keyed by a hash of those inputs. Prints Helm's path on stdout; kubectl is in the same directory.
#
#   scripts/helm-build.sh           build if missing, print the path
#   scripts/helm-build.sh --path    print the path the current inputs map to (no build)
#
# Cache root: $RAGSEARCH_HELM_CACHE or ~/.cache/ragsearch/helm. Go's module and build caches are
# shared with the testplane build (most of Helm's dependencies are the same k8s.io modules).
# Each build's wall time, CPU time and peak memory go to <cache>/<hash>/build.log.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(dirname "$(dirname "$self")")
src="$root/tools/helm"
HELM_VERSION=$(awk '$1=="helm.sh/helm/v4"{print $2; exit}' "$src/go.mod")
KUBECTL_MODULE=$(awk '$1=="k8s.io/kubectl"{print $2; exit}' "$src/go.mod")   # v0.X.Y is Kubernetes v1.X.Y
KUBE_VERSION=v1.${KUBECTL_MODULE#v0.}
cache_root=${RAGSEARCH_HELM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/helm}

command -v go >/dev/null || { echo "helm-build: go is not installed" >&2; exit 1; }
[ -n "$HELM_VERSION" ] || { echo "helm-build: no helm.sh/helm/v4 version in $src/go.mod" >&2; exit 1; }
key=$( { cd "$src" && cat go.mod go.sum kubectl/*.go; go version; cat "$self"; } | sha256sum | cut -c1-16)
out="$cache_root/$key"
bin="$out/helm"
if [ "${1:-}" = "--path" ]; then echo "$bin"; exit 0; fi
if [ -x "$bin" ] && [ -x "$out/kubectl" ]; then touch "$out"; echo "$bin"; exit 0; fi

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9                                  # one build at a time; a waiter reuses the result
if [ -x "$bin" ] && [ -x "$out/kubectl" ]; then echo "$bin"; exit 0; fi

# the same stamp Helm's release build sets: `helm version` names the pinned release
ldflags="-s -w -X helm.sh/helm/v4/internal/version.version=$HELM_VERSION"
ldflags="$ldflags -X helm.sh/helm/v4/internal/version.metadata= -X helm.sh/helm/v4/internal/version.gitTreeState=clean"
# and kubectl's, so `kubectl version` names the Kubernetes release it was cut from
kminor=${KUBECTL_MODULE#v0.}; kminor=${kminor%%.*}
for kv in "gitVersion=$KUBE_VERSION" "gitMajor=1" "gitMinor=$kminor" "gitTreeState=clean" "buildDate=1970-01-01T00:00:00Z"; do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
log="$out/build.log"
echo "helm-build: building Helm $HELM_VERSION and kubectl $KUBE_VERSION into $out (log: $log)" >&2
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)        # GNU time: CPU time and peak memory
start=$(date +%s)
set +e
# -mod=readonly: the module graph and every hash come from tools/helm/go.mod and go.sum, never updated here
( cd "$src" && GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
    "${timer[@]}" nice -n 19 go build -mod=readonly -trimpath -ldflags "$ldflags" -o "$out/tmp/" helm.sh/helm/v4/cmd/helm ./kubectl ) >"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
echo "wall_seconds=$((end - start))" >>"$log"; echo "go_version=$(go version)" >>"$log"
if [ $rc -ne 0 ]; then
  tail -40 "$log" >&2
  echo "helm-build: go build failed (exit $rc), see $log" >&2
  rm -rf "$out/tmp"; exit $rc
fi
mv "$out/tmp/kubectl" "$out/kubectl"
mv "$out/tmp/helm" "$bin"
rmdir "$out/tmp"
# binaries of earlier inputs, unused for a day, go
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$out" -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
echo "helm_bytes=$(stat -c %s "$bin") kubectl_bytes=$(stat -c %s "$out/kubectl")" >>"$log"
grep -E 'Elapsed|Maximum resident|User time|System time' "$log" | sed 's/^[[:space:]]*/helm-build: /' >&2
echo "$bin"
