#!/usr/bin/env bash
# fathom fmt/query/diff beside jq on ~10 MB and ~100 MB API-like documents; prints ratios and memory.
#   Benchmarks/json-vs-jq.sh [MB ...]      (default: 10 100)
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a release <scripts/release-build-flags
swift build "${release[@]}" --product fathom >/dev/null
bin=$(swift build "${release[@]}" --show-bin-path)
data=.build/bench-data
if [[ $# -eq 0 ]]; then set -- 10 100; fi
python3 Benchmarks/json/generate.py "$data" "$@"
python3 Benchmarks/json/run.py "$bin/fathom" "$data"
