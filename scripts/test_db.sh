#!/usr/bin/env bash
# `make test-db`: the grade store's and its API's tests against a real, throwaway PostgreSQL.
# Installs Debian's postgresql when no server binaries are found, creates a cluster in a temp
# directory (as the `postgres` user when run as root: PostgreSQL refuses to run as root),
# starts it on a free port of 127.0.0.1 with its socket in that directory, runs the tests with
# STEPGRADE_TEST_DATABASE_URL pointing at it, and stops and removes it however the tests end.
set -euo pipefail
cd "$(dirname "$0")/.."
TEST_PYTHON=${TEST_PYTHON:-.venv/bin/python}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

pg_bin() {
    if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
        return
    fi
    # Debian keeps the server binaries off PATH, one directory per major version.
    find /usr/lib/postgresql -path '*/bin/pg_ctl' 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname
}

BIN=$(pg_bin)
if [ -z "$BIN" ]; then
    echo "make test-db: installing postgresql"
    $SUDO apt-get update
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
    BIN=$(pg_bin)
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/stepgrade-pg.XXXXXX")
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
stop() {
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
}
trap stop EXIT

PORT=$("$TEST_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-sync >"$DIR/initdb.log"
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -o \
    "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
    || { cat "$DIR/server.log"; exit 1; }
echo "make test-db: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"

STEPGRADE_TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$PORT/postgres" \
    "$TEST_PYTHON" -m pytest -q -rs tests/server/store tests/server/api/routes/test_grades.py \
    tests/server/test_memory_api.py tests/server/test_lifespan.py "$@"
