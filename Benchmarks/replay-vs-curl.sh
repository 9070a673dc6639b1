#!/usr/bin/env bash
# `fathom replay` beside curl on loopback, against the demo API (release build):
#   1. a file of COUNT requests (`get /users/1`) beside one curl process with the same COUNT URLs
#                                                                            target ≤ 1.3× curl
#   2. the same file with an `expect` after every request (what a CI check looks like)
#   3. peak memory (max RSS) replaying COUNT responses of 100 KB each        target ≤ 100 MB
#
#   Benchmarks/replay-vs-curl.sh [COUNT] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-1000}
runs=${2:-7}

source Benchmarks/common.sh

# Peak resident memory of a command, in MiB (getrusage of the child).
peak() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(["bash", "-c", sys.argv[1]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.1f} MiB")
PY
}

curl_config "$base/users/1" "$count" >"$work/curl.cfg"
{
    echo "base $base"
    for _ in $(seq "$count"); do echo "get /users/1"; done
} >"$work/plain.fathom"
{
    echo "base $base"
    for _ in $(seq "$count"); do printf 'get /users/1\nexpect status 200\n'; done
} >"$work/checked.fathom"

curl_many=$(median "curl -s -K '$work/curl.cfg'")
plain=$(median "'$fathom' replay --quiet '$work/plain.fathom'")
checked=$(median "'$fathom' replay --quiet '$work/checked.fathom'")
echo "$count requests, one process:  curl $(ms "$curl_many")   fathom replay $(ms "$plain")   $(ratio "$plain" "$curl_many") curl (target ≤ 1.3×)"
echo "                               per request: curl $(ms $((curl_many / count)))   replay $(ms $((plain / count)))"
echo "with an expect per request:    fathom replay $(ms "$checked")   $(ratio "$checked" "$curl_many") curl"

{
    echo "base $base"
    for _ in $(seq "$count"); do echo "get /large?mb=0.0977"; done
} >"$work/large.fathom"
echo "$count responses of 100 KB:    peak memory $(peak "'$fathom' replay --quiet '$work/large.fathom'") (target ≤ 100 MB; the session keeps the last 100 responses up to 64 MiB)"
