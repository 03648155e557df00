#!/usr/bin/env bash
# Runs Prometheus's promtool with the given arguments (e.g. `scripts/test/promtool.sh check metrics < metrics.txt`).
# Uses promtool from PATH when there is one; otherwise takes it out of Debian's prometheus
# package (downloaded with apt, unpacked, not installed: no service, no dependencies) into a
# cache directory, once.
set -euo pipefail
if command -v promtool >/dev/null 2>&1; then
  exec promtool "$@"
fi
CACHE="${RAGSEARCH_PROMTOOL_DIR:-${HOME:-/root}/.cache/ragsearch-promtool}"
BIN="$CACHE/usr/bin/promtool"
if [[ ! -x "$BIN" ]]; then
  mkdir -p "$CACHE"
  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT
  echo "promtool: fetching Debian's prometheus package for its promtool" >&2
  if ! (cd "$WORK" && timeout 300 apt-get download -qq prometheus >/dev/null 2>&1); then
    timeout 300 apt-get update -qq >/dev/null
    (cd "$WORK" && timeout 300 apt-get download -qq prometheus >/dev/null)
  fi
  dpkg-deb -x "$WORK"/prometheus_*.deb "$WORK/root"
  mkdir -p "$CACHE/usr/bin"
  cp "$WORK/root/usr/bin/promtool" "$BIN.partial" && mv "$BIN.partial" "$BIN"
fi
exec "$BIN" "$@"
