#!/usr/bin/env bash
# 1,000 sequential GETs over keep-alive to a loopback server: NetworkClient (fathom-bench) beside one
# curl process given the same 1,000 URLs. Prints per-request times and the ratio (target ≤ 1.3×).
#
#   Benchmarks/client-vs-curl.sh [COUNT] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-1000}
runs=${2:-5}
path=/users/1

read -r -a release <scripts/release-build-flags
swift build "${release[@]}" --product fathom-bench >/dev/null
source Benchmarks/common.sh
url="$base$path"
curl_config "$url" "$count" >"$work/curl.cfg"

measure() { # prints elapsed nanoseconds of the command
    local start end
    start=$(now)
    "$@" >/dev/null
    end=$(now)
    echo $((end - start))
}

# One warm-up each, then the best of $runs (least disturbed by other load).
measure curl -s -K "$work/curl.cfg" >/dev/null
measure "$bin/fathom-bench" "$url" "$count" >/dev/null
best_curl=""; best_fathom=""; best_raw=""
for _ in $(seq "$runs"); do
    c=$(measure curl -s -K "$work/curl.cfg")
    f=$(measure "$bin/fathom-bench" "$url" "$count")
    r=$(measure "$bin/fathom-bench" "$url" "$count" --raw)
    [[ -z "$best_curl" || $c -lt $best_curl ]] && best_curl=$c
    [[ -z "$best_fathom" || $f -lt $best_fathom ]] && best_fathom=$f
    [[ -z "$best_raw" || $r -lt $best_raw ]] && best_raw=$r
done

echo "GET $url × $count, sequential, keep-alive; best of $runs runs, whole process"
awk -v c="$best_curl" -v f="$best_fathom" -v r="$best_raw" -v n="$count" 'BEGIN {
    printf "  curl (one process)        %8.1f ms total  %6.3f ms/request\n", c / 1e6, c / 1e6 / n
    printf "  NetworkClient             %8.1f ms total  %6.3f ms/request\n", f / 1e6, f / 1e6 / n
    printf "  AsyncHTTPClient alone     %8.1f ms total  %6.3f ms/request  (the floor under NetworkClient)\n", r / 1e6, r / 1e6 / n
    printf "  NetworkClient / curl      %8.2f×  (target ≤ 1.3×)\n", f / c
    printf "  NetworkClient / AHC alone %8.2f×\n", f / r
}'
