#!/usr/bin/env bash
# CPU per move of the whole system, per process (issue 29 part 5): one
# node on PostgreSQL, then two nodes on PostgreSQL + NATS with each room's
# second player on the other node (`bench --peer`: every move of that
# player, and every message to it, crosses NATS); then, with nginx
# installed, the shipped proxy (deploy/nginx.conf, only the addresses
# rewritten) in front of one node, and in front of two nodes, where it
# puts each room's sockets on the node its code hashes to, which then
# runs the room. For each run: the moves, and the CPU (user + system,
# from /proc/PID/stat) that each server node, the nats-server and nginx
# spent over the run, divided by the moves. The load generator's own CPU
# is not counted. Repeats the runs ROUNDS times (default 2), alternating,
# with `uptime`'s load beside each figure. Needs a release build,
# PostgreSQL on 127.0.0.1:5432 (trust, database test) and a nats-server
# on 127.0.0.1:4222 running on this machine (its pid is read with pgrep):
#   cargo build --release -p server -p bench
#   bash deploy/bench-cpu.sh [ROUNDS] [extra bench flags]
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/server}
LOAD=${LOAD:-target/release/bench}
PG=postgres://postgres@127.0.0.1:5432/test
ROUNDS=${1:-2}
shift || true
GAMES=${GAMES:-30}
ROOMS=${ROOMS:-100}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
NATS_PID=${NATS_PID:-$(pgrep -o nats-server)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FLAGS="--room-burst 0 --game-burst 0 --lookup-burst 0 --message-rate 0 --max-sockets-per-addr 0 --max-connections-per-addr 0 --guest-hosts"

NGINX=${NGINX:-$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null)}

# nginx on 127.0.0.1:8290 running deploy/nginx.conf in front of ports $1
# and $2, in its own folder; its pids (master and worker) in NGINX_PIDS.
start_nginx() {
  local dir="$TMP/nginx-$1-$2"
  mkdir -p "$dir"
  sed -e "s/listen 80;/listen 127.0.0.1:8290;/; s/node1:8080/127.0.0.1:$1/g; s/node2:8080/127.0.0.1:$2/g" \
    deploy/nginx.conf > "$dir/site.conf"
  cat > "$dir/nginx.conf" <<CONF
$([ "$(id -u)" = 0 ] && echo 'user root;')
worker_processes 1;
worker_rlimit_nofile 8192;
pid $dir/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir; proxy_temp_path $dir; fastcgi_temp_path $dir; uwsgi_temp_path $dir; scgi_temp_path $dir;
  include $dir/site.conf;
}
CONF
  "$NGINX" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf"
  for _ in $(seq 50); do [ -s "$dir/nginx.pid" ] && break; sleep 0.1; done
  local master; master=$(cat "$dir/nginx.pid")
  NGINX_PIDS="$master $(pgrep -P "$master" | tr '\n' ' ')"
}
stop_nginx() { kill $NGINX_PIDS 2>/dev/null; sleep 0.3; }

fresh() { # a fresh schema
  local s="bench_$RANDOM$RANDOM"
  psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE SCHEMA $s" >/dev/null
  echo "$PG?options=-c%20search_path%3D$s"
}
wait_up() { for _ in $(seq 100); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null && return; sleep 0.1; done; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
syscalls() { awk '/^sysc[rw]:/ {n += $2} END {print n}' "/proc/$1/io"; }
hz=$(getconf CLK_TCK)
# run NAME PIDS... -- BENCH ARGS: CPU µs per move for each pid.
run() {
  local name=$1; shift
  local pids=()
  while [ "$1" != "--" ]; do pids+=("$1"); shift; done
  shift
  local before=() p
  for p in "${pids[@]}"; do before+=("$(ticks "$p")"); done
  local io0; io0=$(syscalls "$NATS_PID")
  local load; load=$(cut -d' ' -f1-3 /proc/loadavg)
  local out; out=$("$LOAD" many-rooms --no-echo --rooms "$ROOMS" --games "$GAMES" "$@" 2>&1)
  local moves; moves=$(echo "$out" | sed -n 's/^moves: \([0-9]*\) in \([0-9.]*\) s = \([0-9]*\) moves\/s.*/\1 \3/p')
  local n=${moves% *} rate=${moves#* }
  local line="$name | load $load | $rate moves/s ($n moves)" total=0 i=0 used
  for p in "${pids[@]}"; do
    used=$(( $(ticks "$p") - before[i] ))
    total=$(( total + used ))
    line="$line | pid $p: $(awk -v u="$used" -v n="$n" -v hz="$hz" 'BEGIN{printf "%.1f", u*1e6/hz/n}') µs"
    i=$((i + 1))
  done
  line="$line | total $(awk -v u="$total" -v n="$n" -v hz="$hz" 'BEGIN{printf "%.1f", u*1e6/hz/n}') µs/move"
  if [[ " ${pids[*]} " == *" $NATS_PID "* ]]; then
    line="$line | nats-server read+write syscalls: $(awk -v a="$io0" -v b="$(syscalls "$NATS_PID")" -v n="$n" 'BEGIN{printf "%.2f", (b-a)/n}')/move"
  fi
  echo "$line"
  echo "$out" | grep -E "failed|send → ack|^ack" | head -3 | sed 's/^/    /'
}

for round in $(seq "$ROUNDS"); do
  URL=$(fresh)
  $BIN --addr 127.0.0.1:8291 --data-dir "$TMP/one$round" --database-url "$URL" $FLAGS 2>/dev/null & P1=$!
  wait_up 8291
  run "one node (PostgreSQL)      node $P1" "$P1" -- --url http://127.0.0.1:8291 "$@"
  kill $P1; wait $P1 2>/dev/null

  URL=$(fresh)
  $BIN --addr 127.0.0.1:8293 --data-dir "$TMP/a$round" --database-url "$URL" --nats-url "$NATS_URL" --node-id bench-a-$round $FLAGS 2>>"${LOGDIR:-/dev/null}" & PA=$!
  $BIN --addr 127.0.0.1:8294 --data-dir "$TMP/b$round" --database-url "$URL" --nats-url "$NATS_URL" --node-id bench-b-$round $FLAGS 2>>"${LOGDIR:-/dev/null}" & PB=$!
  wait_up 8293; wait_up 8294
  run "two nodes, --peer (A owner, B relay, nats)" "$PA" "$PB" "$NATS_PID" -- --url http://127.0.0.1:8293 --peer http://127.0.0.1:8294 "$@"
  kill $PA $PB; wait $PA $PB 2>/dev/null

  [ -n "$NGINX" ] && [ "$NGINX" != none ] || { echo "(no nginx, or NGINX=none: the runs behind the proxy are left out)"; continue; }
  URL=$(fresh)
  $BIN --addr 127.0.0.1:8291 --data-dir "$TMP/n1-$round" --database-url "$URL" $FLAGS --trusted-proxy 127.0.0.1 2>/dev/null & P1=$!
  wait_up 8291
  start_nginx 8291 8291
  # shellcheck disable=SC2086
  run "one node behind nginx      node $P1, nginx" "$P1" $NGINX_PIDS -- --url http://127.0.0.1:8290 "$@"
  stop_nginx; kill $P1; wait $P1 2>/dev/null

  URL=$(fresh)
  $BIN --addr 127.0.0.1:8293 --data-dir "$TMP/na$round" --database-url "$URL" --nats-url "$NATS_URL" --node-id bench-na-$round $FLAGS --trusted-proxy 127.0.0.1 2>>"${LOGDIR:-/dev/null}" & PA=$!
  $BIN --addr 127.0.0.1:8294 --data-dir "$TMP/nb$round" --database-url "$URL" --nats-url "$NATS_URL" --node-id bench-nb-$round $FLAGS --trusted-proxy 127.0.0.1 2>>"${LOGDIR:-/dev/null}" & PB=$!
  wait_up 8293; wait_up 8294
  start_nginx 8293 8294
  # shellcheck disable=SC2086
  run "two nodes behind nginx (A, B, nats, nginx)" "$PA" "$PB" "$NATS_PID" $NGINX_PIDS -- --url http://127.0.0.1:8290 "$@"
  stop_nginx; kill $PA $PB; wait $PA $PB 2>/dev/null
done
