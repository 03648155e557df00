#!/usr/bin/env bash
# Builds the test collector (tools/otelcol: the OpenTelemetry Collector's OTLP receiver and the
# file exporter, pinned in tools/otelcol/go.mod and go.sum) and keeps it in a cache keyed by a
# hash of its inputs. Prints the binary's path on stdout. TelemetryOtlpIT sends the server's
# traces to it (docs/telemetry.md, "The receiver in the tests").
#
#   scripts/otelcol-build.sh           build if missing, print the path
#   scripts/otelcol-build.sh --path    print the path the current inputs map to (no build)
#
# Cache root: $RAGSEARCH_OTELCOL_CACHE or ~/.cache/ragsearch/otelcol. Cold, on the 2-core test
# machine under load: 68 s of CPU (81 s with system time), 0.5 GB peak; warm: seconds.
# Each build's wall time, CPU time and peak memory go to <cache>/<hash>/build.log.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
src="$(dirname "$(dirname "$self")")/tools/otelcol"
cache_root=${RAGSEARCH_OTELCOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/otelcol}

command -v go >/dev/null || { echo "otelcol-build: go is not installed" >&2; exit 1; }
key=$( { cd "$src" && cat go.mod go.sum main.go; go version; cat "$self"; } | sha256sum | cut -c1-16)
out="$cache_root/$key"
bin="$out/otelcol"
if [ "${1:-}" = "--path" ]; then echo "$bin"; exit 0; fi
if [ -x "$bin" ]; then touch "$out"; echo "$bin"; exit 0; fi

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9                                  # one build at a time; a waiter reuses the result
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
log="$out/build.log"
echo "otelcol-build: building $bin (log: $log)" >&2
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v)        # GNU time: CPU time and peak memory
set +e
# -mod=readonly: the module graph and every hash come from go.mod and go.sum, never updated here
( cd "$src" && GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
    "${timer[@]}" nice -n 19 go build -mod=readonly -trimpath -ldflags "-s -w" -o "$bin.tmp" . ) >"$log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
  tail -40 "$log" >&2
  echo "otelcol-build: go build failed (exit $rc), see $log" >&2
  rm -f "$bin.tmp"; exit $rc
fi
mv "$bin.tmp" "$bin"
# binaries of earlier inputs, unused for a day, go (Go's own caches stay: they keep builds warm)
find "$cache_root" -mindepth 1 -maxdepth 1 -type d ! -path "$out" -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
grep -E 'Elapsed|Maximum resident|User time|System time' "$log" | sed 's/^[[:space:]]*/otelcol-build: /' >&2
echo "$bin"
