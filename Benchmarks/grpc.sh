#!/usr/bin/env bash
# gRPC batches against the demo's gRPC service on loopback (release build), beside the HTTP batch
# on the same server and a peer client, interleaved, ROUNDS rounds (medians):
#   1. `call GetUser id:=1 --repeat COUNT -c 64`: unary calls per second
#   2. `get /users/1 --repeat COUNT --concurrency 64`: the HTTP batch, same data, same machine
#   3. Python grpcio's asyncio client, 64 calls at once (Benchmarks/grpc_load.py)
#   4. peak memory of the gRPC batch at COUNT/10 and at COUNT calls          target: flat
#
#   Benchmarks/grpc.sh [COUNT] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-50000}
rounds=${2:-3}

venv=.build/bench-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c "import grpc" 2>/dev/null; then
    echo "Installing grpcio into $venv…" >&2
    [[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check grpcio
fi
source Benchmarks/common.sh
target=$(sed -n 2p "$work/url" | cut -d' ' -f2)

rate_of() { grep '"type":"batch"' | sed -E 's/.*"rate":([0-9.]+).*/\1/'; }
grpc_rate() {
    /usr/bin/env time -f '%M' -o "$work/rss" "$fathom" --output json -c "grpc $target --plaintext" \
        -c "call GetUser id:=1 --repeat $1 -c 64" | rate_of
}
http_rate() { "$fathom" --output json -c "get $base/users/1 --repeat $1 --concurrency 64" | rate_of; }
peer_rate() { "$venv/bin/python" Benchmarks/grpc_load.py "$target" "$1" 64; }
median_of() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

grpc_rates=()
http_rates=()
peer_rates=()
for _ in $(seq "$rounds"); do
    grpc_rates+=("$(grpc_rate "$count")")
    http_rates+=("$(http_rate "$count")")
    peer_rates+=("$(peer_rate "$count")")
done
grpc_median=$(median_of "${grpc_rates[@]}")
http_median=$(median_of "${http_rates[@]}")
peer_median=$(median_of "${peer_rates[@]}")
big_rss=$(cat "$work/rss")
printf 'unary calls, 64 at once:  fathom call --repeat %s %.0f/s   HTTP get --repeat %.0f/s (%s)   grpcio asyncio %.0f/s (%s)\n' \
    "$count" "$grpc_median" "$http_median" "$(awk -v a="$grpc_median" -v b="$http_median" 'BEGIN { printf "%.2f×", a / b }')" \
    "$peer_median" "$(awk -v a="$grpc_median" -v b="$peer_median" 'BEGIN { printf "%.2f×", a / b }')"
echo "                          rounds: fathom ${grpc_rates[*]}   HTTP ${http_rates[*]}   grpcio ${peer_rates[*]}"

grpc_rate $((count / 10)) >/dev/null
small_rss=$(cat "$work/rss")
echo "peak memory:              $((count / 10)) calls $((small_rss / 1024)) MB   $count calls $((big_rss / 1024)) MB   (target: flat)"
