#!/usr/bin/env bash
# Hostile input, timed and weighed (release build): each case of the "hostile input" findings,
# its wall time and peak memory. Targets: each ≤ 1 s and ≤ 100 MB beyond its real work; a 2 GiB
# upload in flat memory, beside curl -T within 1.2×; a preview of a 2 GiB `-d @FILE` that reads nothing.
#
#   Benchmarks/hostile.sh
#   FATHOM_BIN=/path/to/older/fathom Benchmarks/hostile.sh     the same cases on another build
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh

# Wall seconds and peak memory (MiB) of a shell line, from getrusage of the child.
measure() {
    python3 - "$1" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(["bash", "-c", sys.argv[1]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.monotonic() - start
print(f"{wall:6.2f} s  {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:7.1f} MiB")
PY
}

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
headers = [{"name": f"X-H{i}", "value": f"v{i}"} for i in range(45000)]
har = {"log": {"version": "1.2", "creator": {"name": "b", "version": "1"}, "entries": [
    {"request": {"method": "GET", "url": "http://127.0.0.1:9/x", "headers": headers}, "response": {"status": 0}}]}}
json.dump(har, open(f"{work}/headers.har", "w"))
open(f"{work}/parts.curl", "w").write("curl " + " ".join(f"-F f{i}=v{i}" for i in range(40000)) + " http://127.0.0.1:9/x\n")
urls = " ".join(f"http://127.0.0.1:9/u{i}" for i in range(300))
hs = " ".join(f"-H 'X-H{i}: v{i}'" for i in range(300))
open(f"{work}/urls.curl", "w").write(f"curl {hs} -d a=1 {urls}\n")
bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{n}: &a{n} [{', '.join([f'*a{n-1}'] * 9)}]\n" for n in range(1, 9))
open(f"{work}/bomb.yaml", "w").write(bomb)
PY
truncate -s 2G "$work/big.bin"

echo "import har, 45,000 headers, at the prompt:   $(measure "'$fathom' -c 'import har $work/headers.har'")"
echo "import curl, 40,000 -F parts:                $(measure "'$fathom' -c 'import curl $work/parts.curl'")"
echo "fathom import, 300 URLs x 300 headers:       $(measure "'$fathom' import $work/urls.curl > $work/urls.fathom")   $(wc -c < "$work/urls.fathom") bytes written"
echo "spec of a $(wc -c < "$work/bomb.yaml")-byte YAML alias bomb:          $(measure "'$fathom' -c 'spec $work/bomb.yaml'")"
# The demo server's first large upload is slow whoever sends it (6–8 s where the next take 2–3 s):
# one untimed upload first, so that the lines below compare the clients.
curl -s -T "$work/big.bin" "$base/upload" -o /dev/null
echo "2 GiB upload, body @FILE:                    $(measure "'$fathom' -c 'base $base' -c 'body @$work/big.bin' -c 'method PUT' -c 'path /upload' -c send")"
echo "2 GiB upload, curl -F part=@FILE:            $(measure "'$fathom' -c 'curl -F part=@$work/big.bin $base/upload'")"
# The upload beside curl -T on the same server and file, interleaved, median of three.
runs=3
uploads=()
curl_uploads=()
for _ in 1 2 3; do
    uploads+=($(runs=1 median "'$fathom' -c 'base $base' -c 'body @$work/big.bin' -c 'method PUT' -c 'path /upload' -c send"))
    curl_uploads+=($(runs=1 median "curl -s -T '$work/big.bin' '$base/upload' -o /dev/null"))
done
upload=$(printf '%s\n' "${uploads[@]}" | sort -n | sed -n 2p)
curl_upload=$(printf '%s\n' "${curl_uploads[@]}" | sort -n | sed -n 2p)
echo "2 GiB upload beside curl -T:                 fathom $(ms "$upload")   curl $(ms "$curl_upload")   $(ratio "$upload" "$curl_upload") curl (target ≤ 1.2×)"
# A preview of curl -d @FILE (line breaks dropped when sent) never reads the file.
echo "preview of curl -d @FILE, 2 GiB:             $(measure "printf 'curl -d @$work/big.bin $base/x\n' > $work/big.curl; '$fathom' -c 'import curl $work/big.curl' -c 'show request'")"
