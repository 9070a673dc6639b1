#!/usr/bin/env bash
# Streams, against the demo API on loopback (release build):
#   1. events rendered to a pipe per second: COUNT small events, written as fast as the server
#      can, server-sent events and NDJSON, as text and as --output json            target ≥ 50,000/s
#   2. latency from the server writing an event to Fathom printing it (200 events 10 ms apart,
#      read by a pipe that notes when each line arrives)                              target ≤ 5 ms
#   3. WebSocket: COUNT messages the server pushes, rendered to a pipe per second; and a round
#      trip — `send` a message, `expect message` its echo — 1,000 times in one script
#
#   Benchmarks/stream-rate.sh [COUNT] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-100000}
runs=${2:-5}

source Benchmarks/common.sh

rate() {
    local line=$1 elapsed
    elapsed=$(median "$line")
    awk -v n="$count" -v t="$elapsed" 'BEGIN { printf "%.0f events/s (%.0f ms for %d)", n / (t / 1e9), t / 1e6, n }'
}
for path in events stream; do
    url="$base/$path?count=$count&ms=0"
    echo "/$path, text:          $(rate "'$fathom' --color never -c 'stream limit $count' -c 'get $url' | cat >/dev/null")"
    echo "/$path, --output json: $(rate "'$fathom' --output json -c 'stream limit $count' -c 'get $url' | cat >/dev/null")"
done
echo "latency, server write → printed: $("$fathom" --output json -c "get $base/stream?count=200&ms=10&stamp=1" | python3 Benchmarks/stream_latency.py)"
ws=${base/http:/ws:}
wsrate() {
    local elapsed
    elapsed=$(median "$1")
    awk -v n="$count" -v t="$elapsed" 'BEGIN { printf "%.0f messages/s (%.0f ms for %d)", n / (t / 1e9), t / 1e6, n }'
}
echo "WebSocket, pushed messages: $(wsrate "'$fathom' --color never -c 'timeout 120s' -c 'ws $ws/ws?ticks=$count&ms=0' -c 'expect message \$.n == $count' -c close | cat >/dev/null")"
for i in $(seq 1000); do printf 'send {"i": %d}\nexpect message $.data.i == %d\n' "$i" "$i"; done >"$work/roundtrips.fathom"
elapsed=$(median "'$fathom' --color never -c 'ws $ws/ws' -c 'load $work/roundtrips.fathom' -c close | cat >/dev/null")
echo "WebSocket, send → echo expected, 1,000 round trips: $(ms "$elapsed") ($(awk -v t="$elapsed" 'BEGIN { printf "%.3f ms", t / 1e9 }') each)"
