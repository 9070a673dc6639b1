#!/usr/bin/env bash
# Batches beside the load tools and curl, against the demo API on loopback (release build):
#   1. `fathom -c 'get URL --repeat COUNT --concurrency 64'` beside `wrk -c 64` and `hey -c 64` on
#      the same server, interleaved, ROUNDS rounds: requests per second, median
#                                                                            target ≥ 0.5× wrk
#   2. tail latency on a constant-delay endpoint (`/slow?ms=5`), 10,000 requests 64 at once,
#      beside hey's: p50, p90, p99                                           target: p99 ≤ hey's
#   3. peak memory of the batch at COUNT/10 and at COUNT requests           target: flat
#   4. `get URL --repeat 1000 --concurrency 1` beside one curl process
#      fetching the same URL 1,000 times                                     target ≤ 1.3× curl
#
#   Benchmarks/batch-vs-wrk.sh [COUNT] [ROUNDS]
#
# FATHOM_PREVIOUS_BIN=/path/to/an/older/fathom puts that build's batch in the same rounds.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-200000}
rounds=${2:-3}

for tool in wrk hey; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed: scripts/install-deps.sh bench" >&2; exit 1; }
done
source Benchmarks/common.sh
url="$base/users/1"

# The batch's own rate, from its summary (`--output json`), and the process's peak memory.
fathom_rate() {
    local binary=${2:-$fathom}
    /usr/bin/env time -f '%M' -o "$work/rss" "$binary" --output json -c "get $url --repeat $1 --concurrency 64" \
        | grep '"type":"batch"' | sed -E 's/.*"rate":([0-9.]+).*/\1/'
}
wrk_rate() {
    wrk -c 64 -t 2 -d "$1" "$url" | awk '/Requests\/sec/ { print $2 }'
}
hey_rate() {
    hey -n "$1" -c 64 "$url" | awk '/Requests\/sec/ { print $2 }'
}
median_of() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

fathom_rates=()
wrk_rates=()
hey_rates=()
previous_rates=()
previous=${FATHOM_PREVIOUS_BIN:-}
# wrk runs for about as long as the batch did in the round before (5 s the first time).
seconds=5
for _ in $(seq "$rounds"); do
    wrk_rates+=("$(wrk_rate "${seconds}s")")
    hey_rates+=("$(hey_rate "$count")")
    start=$(now)
    fathom_rates+=("$(fathom_rate "$count")")
    seconds=$(((($(now) - start) / 1000000000) + 1))
    [[ -n "$previous" ]] && previous_rates+=("$(fathom_rate "$count" "$previous")")
done
fathom_median=$(median_of "${fathom_rates[@]}")
wrk_median=$(median_of "${wrk_rates[@]}")
hey_median=$(median_of "${hey_rates[@]}")
big_rss=$(cat "$work/rss")
echo "GET, 64 at once:   wrk $(printf '%.0f' "$wrk_median")/s   hey $(printf '%.0f' "$hey_median")/s   fathom --repeat $count $(printf '%.0f' "$fathom_median")/s   $(awk -v a="$fathom_median" -v b="$wrk_median" 'BEGIN { printf "%.2f×", a / b }') wrk (target ≥ 0.5×), $(awk -v a="$fathom_median" -v b="$hey_median" 'BEGIN { printf "%.2f×", a / b }') hey"
echo "                   rounds: wrk ${wrk_rates[*]}   hey ${hey_rates[*]}   fathom ${fathom_rates[*]}"
if [[ -n "$previous" ]]; then
    previous_median=$(median_of "${previous_rates[@]}")
    echo "                   previous build: $(printf '%.0f' "$previous_median")/s ($(awk -v a="$previous_median" -v b="$wrk_median" 'BEGIN { printf "%.2f×", a / b }') wrk; rounds ${previous_rates[*]})"
fi

# Tail latency over a server that always takes 5 ms: what the client adds on top.
slow="$base/slow?ms=5"
fathom_tail() {
    "$fathom" --output json -c "get $slow --repeat 10000 --concurrency 64" | grep '"type":"batch"' \
        | sed -E 's/.*"latency":\{[^}]*"p50":([0-9.]+),"p90":([0-9.]+),"p99":([0-9.]+).*/\1 \2 \3/'
}
hey_tail() {
    hey -n 10000 -c 64 "$slow" | awk '/ 50% in/ { a = $3 * 1000 } / 90% in/ { b = $3 * 1000 } / 99% in/ { c = $3 * 1000 } END { print a, b, c }'
}
hey_tail >/dev/null
read -r h50 h90 h99 <<<"$(hey_tail)"
read -r f50 f90 f99 <<<"$(fathom_tail)"
echo "5 ms server, 64 at once:   hey p50 ${h50} p90 ${h90} p99 ${h99} ms   fathom p50 ${f50} p90 ${f90} p99 ${f99} ms   p99 $(awk -v a="$f99" -v b="$h99" 'BEGIN { printf "%.2f×", a / b }') hey's (target ≤ 1×)"

fathom_rate $((count / 10)) >/dev/null
small_rss=$(cat "$work/rss")
echo "peak memory:       $((count / 10)) requests $((small_rss / 1024)) MB   $count requests $((big_rss / 1024)) MB   (target: flat)"

runs=5
curl_config "$url" 1000 >"$work/curl.cfg"
curl_many=$(median "curl -s -K '$work/curl.cfg'")
fathom_many=$(median "'$fathom' -c 'get $url --repeat 1000'")
echo "1,000 GETs, one at a time:   curl $(ms "$curl_many")   fathom --repeat $(ms "$fathom_many")   $(ratio "$fathom_many" "$curl_many") curl (target ≤ 1.3×)"
