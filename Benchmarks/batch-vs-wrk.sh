#!/usr/bin/env bash
# Batches beside the load tool and curl, against the demo API on loopback (release build):
#   1. `fathom -c 'get URL --repeat COUNT --concurrency 64'` beside `wrk -c 64` on the same server,
#      interleaved, ROUNDS rounds: requests per second, median             target ≥ 0.5× wrk
#   2. peak memory of the batch at COUNT/10 and at COUNT requests           target: flat
#   3. `get URL --repeat 1000 --concurrency 1` beside one curl process
#      fetching the same URL 1,000 times                                     target ≤ 1.3× curl
#
#   Benchmarks/batch-vs-wrk.sh [COUNT] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-200000}
rounds=${2:-3}

command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install -y wrk" >&2; exit 1; }
source Benchmarks/common.sh
url="$base/users/1"

# The batch's own rate, from its summary (`--output json`), and the process's peak memory.
fathom_rate() {
    /usr/bin/env time -f '%M' -o "$work/rss" "$fathom" --output json -c "get $url --repeat $1 --concurrency 64" \
        | grep '"type":"batch"' | sed -E 's/.*"rate":([0-9.]+).*/\1/'
}
wrk_rate() {
    wrk -c 64 -t 2 -d "$1" "$url" | awk '/Requests\/sec/ { print $2 }'
}
median_of() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

fathom_rates=()
wrk_rates=()
# wrk runs for about as long as the batch did in the round before (5 s the first time).
seconds=5
for _ in $(seq "$rounds"); do
    wrk_rates+=("$(wrk_rate "${seconds}s")")
    start=$(now)
    fathom_rates+=("$(fathom_rate "$count")")
    seconds=$(((($(now) - start) / 1000000000) + 1))
done
fathom_median=$(median_of "${fathom_rates[@]}")
wrk_median=$(median_of "${wrk_rates[@]}")
big_rss=$(cat "$work/rss")
echo "GET, 64 at once:   wrk $(printf '%.0f' "$wrk_median")/s   fathom --repeat $count $(printf '%.0f' "$fathom_median")/s   $(awk -v a="$fathom_median" -v b="$wrk_median" 'BEGIN { printf "%.2f×", a / b }') wrk (target ≥ 0.5×)"
echo "                   rounds: wrk ${wrk_rates[*]}   fathom ${fathom_rates[*]}"

fathom_rate $((count / 10)) >/dev/null
small_rss=$(cat "$work/rss")
echo "peak memory:       $((count / 10)) requests $((small_rss / 1024)) MB   $count requests $((big_rss / 1024)) MB   (target: flat)"

runs=5
curl_config "$url" 1000 >"$work/curl.cfg"
curl_many=$(median "curl -s -K '$work/curl.cfg'")
fathom_many=$(median "'$fathom' -c 'get $url --repeat 1000'")
echo "1,000 GETs, one at a time:   curl $(ms "$curl_many")   fathom --repeat $(ms "$fathom_many")   $(ratio "$fathom_many" "$curl_many") curl (target ≤ 1.3×)"
