#!/usr/bin/env bash
# What NATS's sync_interval costs (issue 22; deploy/k8s/README.md, "Durability"): 3 clustered
# nats-server processes on free 127.0.0.1 ports (the version the workspace builds), each its
# own JetStream store, with NATS's default (sync_interval 2 minutes), the deploy's setting
# (sync_interval: 1s, base/nats/nats.conf) and `sync_interval: always` (the component
# components/nats-sync-always), turn by turn;
# each time `fray dev --nats-url … --replicas 3` (stream and buckets R3, rate limits off) and
# `fray load` against it: commands/s and latency through R3, and the conditional JetStream
# publish anchor (an R1 file stream on one node). About 3 minutes a round with the defaults.
#   scripts/nats-sync.sh [ROUNDS [DURATION [ENCOUNTERS]]]      (defaults 2, 15s, 64)
# Prints one `fray load` report per round and setting; nothing is left behind.
set -euo pipefail
rounds=${1:-2}
duration=${2:-15s}
encounters=${3:-64}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
(cd "$root" && go build -o "$work/" github.com/nats-io/nats-server/v2 ./cli/cmd/fray)
# n distinct free ports (all held open until each is known, so none is given twice).
freeports() {
  python3 -c 'import socket,sys
ss=[socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1",0))
print(" ".join(str(s.getsockname()[1]) for s in ss))' "$1"
}

run() { # $1: the sync_interval line of the jetstream block
  local sync=$1 client=() cluster=() urls=() routes="" i ports
  read -ra ports <<<"$(freeports 7)"
  client=("${ports[@]:0:3}")
  cluster=("${ports[@]:3:3}")
  for i in 0 1 2; do
    urls+=("nats://127.0.0.1:${client[$i]}")
    routes+="${routes:+, }\"nats://127.0.0.1:${cluster[$i]}\""
  done
  for i in 0 1 2; do
    mkdir -p "$work/n$i"
    cat >"$work/n$i.conf" <<EOF
server_name: n$i
listen: "127.0.0.1:${client[$i]}"
max_payload: 8MB
jetstream {
  store_dir: "$work/n$i"
  max_file_store: 16GB
  $sync
}
cluster {
  name: sync-bench
  listen: "127.0.0.1:${cluster[$i]}"
  routes: [ $routes ]
}
EOF
    "$work/nats-server" -c "$work/n$i.conf" >"$work/n$i.log" 2>&1 &
    pids+=($!)
  done
  local listen="127.0.0.1:${ports[6]}" nats
  nats=$(IFS=,; echo "${urls[*]}")
  (cd "$work" && exec ./fray dev --nats-url "$nats" --replicas 3 --listen "$listen" --web "" \
      --rate-principal 0 --rate-tenant 0 --data "$work/dev" --log-level warn >"$work/dev.log" 2>&1) &
  local dev=$!
  pids+=($dev)
  export FRAY_DEV_KEY="$work/dev/dev-signing-key.jwk"
  # Ready when the stream and buckets are open: a list answers.
  for i in $(seq 240); do
    if "$work/fray" list --addr "$listen" --as load-gm >/dev/null 2>&1; then break; fi
    if [ "$i" = 240 ]; then echo "fray dev did not open the event log in 2 minutes:" >&2; tail -n 5 "$work/dev.log" "$work"/n?.log >&2; exit 1; fi
    sleep 0.5
  done
  echo "== $sync"
  "$work/fray" load --addr "$listen" --nats-url "${urls[0]}" --encounters "$encounters" \
      --duration "$duration" --quiet
  kill "$dev"; wait "$dev" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  rm -rf "$work"/n? "$work"/dev
}

for r in $(seq "$rounds"); do
  echo "### round $r of $rounds (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  run "# sync_interval unset: NATS's default, 2 minutes"
  run "sync_interval: 1s"
  run "sync_interval: always"
done
