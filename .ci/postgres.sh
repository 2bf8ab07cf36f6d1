#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server on 127.0.0.1 for the database tests and the benchmark.
#
#   eval "$(.ci/postgres.sh)"      # starts it and exports GREGARIO_TEST_DATABASE_URL
#   .ci/postgres.sh stop           # stops it and removes its data
#
# It installs the server where it is missing, runs initdb and pg_ctl as the `postgres` user (they
# refuse root), listens on 127.0.0.1 only (port $GREGARIO_PG_PORT, default 55432), trusts local
# connections (a throwaway server holds nothing) and prints the export line on standard output.
set -euo pipefail
PORT="${GREGARIO_PG_PORT:-55432}"
DATA="${GREGARIO_PG_DATA:-/tmp/gregario-pg-$PORT}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"

if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
  echo "installing PostgreSQL" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
fi

as_postgres() {
  if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/bash -c "$*"); else bash -c "$*"; fi
}

if [ "${1:-start}" = stop ]; then
  as_postgres "'$BIN/pg_ctl' -D '$DATA' -m fast stop" >&2 || true
  rm -rf "$DATA"
  exit 0
fi

if ! as_postgres "'$BIN/pg_ctl' -D '$DATA' status" >/dev/null 2>&1; then
  rm -rf "$DATA"
  mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown postgres "$DATA"
  as_postgres "'$BIN/initdb' -D '$DATA' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
  as_postgres "'$BIN/pg_ctl' -D '$DATA' -l '$DATA/server.log' -w \
    -o \"-c listen_addresses=127.0.0.1 -p $PORT -k '$DATA' -c max_connections=200\" start" >/dev/null
  as_postgres "'$BIN/createdb' -h 127.0.0.1 -p $PORT -U postgres gregario_test"
fi
echo "export GREGARIO_TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:$PORT/gregario_test"
