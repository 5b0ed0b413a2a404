#!/usr/bin/env bash
# The figures of BENCHMARKS.md "Several nodes": one node on SQLite, one on
# PostgreSQL, and two nodes on PostgreSQL + NATS (players spread over both,
# then all on the owner). Needs a release build, PostgreSQL on
# 127.0.0.1:5432 (trust, database test) and NATS on 127.0.0.1:4222:
#   cargo build --release -p server -p bench
#   bash deploy/bench-nodes.sh
set -u
cd "$(dirname "$0")/.."
BIN=target/release/server
LOAD=target/release/bench
PG=postgres://postgres@127.0.0.1:5432/test
fresh() { # a fresh schema
  local s="bench_$RANDOM$RANDOM"
  psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE SCHEMA $s" >/dev/null
  echo "$PG?options=-c%20search_path%3D$s"
}
wait_up() { for _ in $(seq 100); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null && return; sleep 0.1; done; }
run() { echo "== $1"; shift; "$LOAD" many-rooms --no-echo "$@" 2>&1 | grep -v "^a room failed" ; }

rm -rf "${TMPDIR:-/tmp}/bench-nodes" && mkdir -p "${TMPDIR:-/tmp}/bench-nodes"
$BIN --addr 127.0.0.1:8191 --data-dir "${TMPDIR:-/tmp}/bench-nodes"/sqlite --room-burst 0 --game-burst 0 --max-sockets-per-addr 0 --max-connections-per-addr 0 --guest-hosts 2>/dev/null & P1=$!
wait_up 8191; echo "load before: $(cut -d' ' -f1 /proc/loadavg)"
run "one node, SQLite" --url http://127.0.0.1:8191 --rooms 100 --games 3
kill $P1; wait $P1 2>/dev/null

URL=$(fresh)
$BIN --addr 127.0.0.1:8192 --data-dir "${TMPDIR:-/tmp}/bench-nodes"/x --database-url "$URL" --room-burst 0 --game-burst 0 --max-sockets-per-addr 0 --max-connections-per-addr 0 --guest-hosts 2>/dev/null & P1=$!
wait_up 8192; echo "load before: $(cut -d' ' -f1 /proc/loadavg)"
run "one node, PostgreSQL" --url http://127.0.0.1:8192 --rooms 100 --games 3
kill $P1; wait $P1 2>/dev/null

URL=$(fresh)
$BIN --addr 127.0.0.1:8193 --data-dir "${TMPDIR:-/tmp}/bench-nodes"/a --database-url "$URL" --nats-url nats://127.0.0.1:4222 --node-id bench-a --room-burst 0 --game-burst 0 --max-sockets-per-addr 0 --max-connections-per-addr 0 --guest-hosts 2>/dev/null & PA=$!
$BIN --addr 127.0.0.1:8194 --data-dir "${TMPDIR:-/tmp}/bench-nodes"/b --database-url "$URL" --nats-url nats://127.0.0.1:4222 --node-id bench-b --room-burst 0 --game-burst 0 --max-sockets-per-addr 0 --max-connections-per-addr 0 --guest-hosts 2>/dev/null & PB=$!
wait_up 8193; wait_up 8194; echo "load before: $(cut -d' ' -f1 /proc/loadavg)"
run "two nodes, players on both (every move crosses NATS)" --url http://127.0.0.1:8193 --peer http://127.0.0.1:8194 --rooms 100 --games 3
run "two nodes, both players on the owner (no NATS hop)" --url http://127.0.0.1:8193 --rooms 100 --games 3
kill $PA $PB; wait $PA $PB 2>/dev/null
