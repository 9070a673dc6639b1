#!/usr/bin/env bash
# `fathom import` of a generated HAR log of about 50 MB (release build): time and peak memory.
#   Benchmarks/import-har.sh [MEGABYTES]
set -euo pipefail
cd "$(dirname "$0")/.."

megabytes=${1:-50}
source Benchmarks/common.sh

python3 - "$work/big.har" "$megabytes" <<'PY'
import json, sys
path, megabytes = sys.argv[1], int(sys.argv[2])
body = json.dumps({"items": [{"id": i, "name": f"item {i}", "tags": ["a", "b", "c"]} for i in range(60)]})
entries, size, index = [], 0, 0
while size < megabytes * 1_000_000:
    entry = {
        "startedDateTime": "2026-11-23T10:00:00.000Z", "time": 12,
        "request": {"method": "POST" if index % 3 == 0 else "GET", "url": f"http://127.0.0.1:8080/items/{index}?page={index % 7}",
                    "httpVersion": "HTTP/1.1", "headers": [{"name": "Accept", "value": "application/json"},
                                                           {"name": "Authorization", "value": "Bearer har-benchmark-token"}],
                    "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0,
                    **({"postData": {"mimeType": "application/json", "text": body}} if index % 3 == 0 else {})},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
                     "content": {"size": len(body), "mimeType": "application/json", "text": body},
                     "redirectURL": "", "headersSize": -1, "bodySize": len(body)},
        "cache": {}, "timings": {"send": 0, "wait": 10, "receive": 2},
    }
    entries.append(entry)
    size += len(json.dumps(entry))
    index += 1
json.dump({"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "entries": entries}}, open(path, "w"))
print(f"{len(entries)} entries", file=sys.stderr)
PY
size=$(du -m "$work/big.har" | cut -f1)
measured=$(python3 - "$fathom" "$work/big.har" "$work/big.fathom" <<'PY'
import resource, subprocess, sys, time
started = time.monotonic()
with open(sys.argv[3], "w") as out:
    subprocess.run([sys.argv[1], "import", sys.argv[2]], stdout=out, check=True)
elapsed = time.monotonic() - started
print(f"{elapsed:.2f} s, peak memory {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB")
PY
)
echo "fathom import of a ${size} MB HAR: $measured; session file $(du -k "$work/big.fathom" | cut -f1) KiB, $(grep -c '^send$' "$work/big.fathom") requests"
