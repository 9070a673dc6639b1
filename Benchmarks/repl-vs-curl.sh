#!/usr/bin/env bash
# The prompt's speed beside curl on loopback, against the demo API (release build):
#   1. start to first prompt: `fathom < /dev/null` (start, read end of input, exit)   target ≤ 8 ms
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

# The previous commit's binary beside this one, so that a start-up regression shows: built once
# per commit into .build-previous/ (FATHOM_PREVIOUS_BIN names one instead; FATHOM_PREVIOUS=none skips it).
previous=${FATHOM_PREVIOUS_BIN:-}
if [[ -z "$previous" && "${FATHOM_PREVIOUS:-}" != none ]] && git rev-parse -q --verify HEAD~1 >/dev/null; then
    commit=$(git rev-parse --short HEAD~1)
    tree=.build-previous/$commit
    if [[ ! -x "$tree/bin/fathom" ]]; then
        echo "building the previous commit ($commit) once, into $tree…" >&2
        rm -rf "$tree/src"
        mkdir -p "$tree"
        git archive "$commit" | tar -x -C "$tree" --one-top-level=src
        (cd "$tree/src" && swift build "${release[@]}" --product fathom >/dev/null)
        mkdir -p "$tree/bin"
        cp "$(cd "$tree/src" && swift build "${release[@]}" --show-bin-path)/fathom" "$tree/bin/"
    fi
    previous=$tree/bin/fathom
fi

# The middle of the values given.
middle() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

# Interleaved: this binary, then the previous one, each run in turn.
starts=()
previous_starts=()
for _ in $(seq "$runs"); do
    starts+=($(runs=1 median "'$fathom' </dev/null"))
    [[ -n "$previous" ]] && previous_starts+=($(runs=1 median "'$previous' </dev/null"))
done
start=$(middle "${starts[@]}")
echo "start to first prompt (and exit):   $(ms $((start - shell)))   (target ≤ 8 ms; http-prompt ≈ 500 ms)"
if [[ -n "$previous" ]]; then
    before=$(middle "${previous_starts[@]}")
    echo "                                    previous commit: $(ms $((before - shell)))   ($(ratio $((start - shell)) $((before - shell))) of it)"
fi

# One GET, whole process: curl, this binary and the previous one, each run in turn.
curls=()
ones=()
previous_ones=()
for _ in $(seq "$runs"); do
    curls+=($(runs=1 median "curl -s '$url'"))
    ones+=($(runs=1 median "'$fathom' -c 'get $url'"))
    [[ -n "$previous" ]] && previous_ones+=($(runs=1 median "'$previous' -c 'get $url'"))
done
curl_one=$(middle "${curls[@]}")
fathom_one=$(middle "${ones[@]}")
echo "one GET, whole process:             curl $(ms $((curl_one - shell)))   fathom -c $(ms $((fathom_one - shell)))   $(ratio $((fathom_one - shell)) $((curl_one - shell))) curl (target ≤ 1.5×)"
if [[ -n "$previous" ]]; then
    before=$(middle "${previous_ones[@]}")
    echo "                                    previous commit: $(ms $((before - shell)))   $(ratio $((before - shell)) $((curl_one - shell))) curl"
fi

curl_config "$url" "$count" >"$work/curl.cfg"
for _ in $(seq "$count"); do printf 'get %s\n' "$url"; done >"$work/script.fathom"
runs=5
curl_many=$(median "curl -s -K '$work/curl.cfg'")
fathom_many=$(median "'$fathom' < '$work/script.fathom'")
echo "$count GETs from one process:        curl $(ms "$curl_many")   fathom < script $(ms "$fathom_many")   $(ratio "$fathom_many" "$curl_many") curl (target ≤ 1.3×)"
echo "                                    per request: curl $(ms $((curl_many / count)))   fathom $(ms $((fathom_many / count)))"
if [[ -n "$previous" ]]; then
    previous_many=$(median "'$previous' < '$work/script.fathom'")
    echo "                                    previous commit: $(ms "$previous_many")   $(ratio "$previous_many" "$curl_many") curl"
fi
