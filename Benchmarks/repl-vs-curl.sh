#!/usr/bin/env bash
# The prompt's speed beside curl on loopback, against the demo API (release build):
#   1. start to first prompt: `fathom < /dev/null` (start, read end of input, exit)   target ≤ 30 ms
#   2. `fathom -c 'get URL'` beside `curl -s URL`, whole process                        target ≤ 1.5× curl
#   3. a stdin script of COUNT `get URL` lines beside one curl process with COUNT URLs  target ≤ 1.3× curl
#
#   Benchmarks/repl-vs-curl.sh [COUNT] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-1000}
runs=${2:-21}

source Benchmarks/common.sh
url="$base/users/1"

# What the shell itself costs to start a command, subtracted from every figure.
shell=$(median "true")

start=$(median "'$fathom' </dev/null")
echo "start to first prompt (and exit):   $(ms $((start - shell)))   (target ≤ 30 ms; http-prompt ≈ 500 ms)"

curl_one=$(median "curl -s '$url'")
fathom_one=$(median "'$fathom' -c 'get $url'")
echo "one GET, whole process:             curl $(ms $((curl_one - shell)))   fathom -c $(ms $((fathom_one - shell)))   $(ratio $((fathom_one - shell)) $((curl_one - shell))) curl (target ≤ 1.5×)"

curl_config "$url" "$count" >"$work/curl.cfg"
for _ in $(seq "$count"); do printf 'get %s\n' "$url"; done >"$work/script.fathom"
runs=5
curl_many=$(median "curl -s -K '$work/curl.cfg'")
fathom_many=$(median "'$fathom' < '$work/script.fathom'")
echo "$count GETs from one process:        curl $(ms "$curl_many")   fathom < script $(ms "$fathom_many")   $(ratio "$fathom_many" "$curl_many") curl (target ≤ 1.3×)"
echo "                                    per request: curl $(ms $((curl_many / count)))   fathom $(ms $((fathom_many / count)))"
