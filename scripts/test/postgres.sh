#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the tests: installs the Debian package when absent, creates a
# cluster in a temporary directory owned by a non-root user, starts it on a free loopback port.
# Sourced by scripts/test/all.sh; exports RAGSEARCH_TEST_DB_URL, RAGSEARCH_TEST_DB_USER,
# RAGSEARCH_TEST_PG_CTL, RAGSEARCH_TEST_PG_DATA (the outage tests stop and start it) and
# registers a trap that stops it.

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [[ -z "$(pg_bin)" || ! -x "$(pg_bin)/initdb" ]]; then
  echo "test-postgres: installing PostgreSQL (Debian package postgresql)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN="$(pg_bin)"
[[ -x "$PG_BIN/initdb" ]] || { echo "test-postgres: no initdb after install" >&2; exit 1; }

# PostgreSQL refuses to run as root: use the package's postgres user (or create one).
PG_USER=postgres
id "$PG_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$PG_USER"
as_pg() { if [[ "$(id -u)" == 0 ]]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi; }

PG_TMP="$(mktemp -d /tmp/ragsearch-pg.XXXXXX)"
chmod 755 "$PG_TMP"
[[ "$(id -u)" == 0 ]] && chown "$PG_USER" "$PG_TMP"
PG_DATA="$PG_TMP/data"
PG_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"

as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_TMP/initdb.log" 2>&1 \
  || { cat "$PG_TMP/initdb.log" >&2; exit 1; }
# Settings in the cluster's own configuration, so the outage tests restart it with a plain `pg_ctl start`.
cat >> "$PG_DATA/postgresql.conf" <<CONF
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_TMP'
fsync = off
max_connections = 200
CONF
as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_TMP/server.log" -w start >/dev/null \
  || { cat "$PG_TMP/server.log" >&2; exit 1; }
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" ragsearch

stop_test_postgres() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$PG_TMP"; }
trap stop_test_postgres EXIT

export RAGSEARCH_TEST_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/ragsearch"
export RAGSEARCH_TEST_DB_USER="$PG_USER"
export RAGSEARCH_TEST_PG_DATA="$PG_DATA"
export RAGSEARCH_TEST_PG_LOG="$PG_TMP/server.log"
# A wrapper that runs pg_ctl as the cluster's owner, for tests that stop and restart it.
cat > "$PG_TMP/pg_ctl" <<WRAP
#!/usr/bin/env bash
if [[ "\$(id -u)" == 0 ]]; then exec runuser -u $PG_USER -- "$PG_BIN/pg_ctl" "\$@"; else exec "$PG_BIN/pg_ctl" "\$@"; fi
WRAP
chmod 755 "$PG_TMP/pg_ctl"
export RAGSEARCH_TEST_PG_CTL="$PG_TMP/pg_ctl"
echo "test-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT ($PG_DATA)"
