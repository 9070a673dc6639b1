#!/usr/bin/env bash
# Large OpenAPI descriptions, whole process, side by side with openapi-spec-validator (release
# build): Twilio's (JSON and YAML), one generated at GitHub's size from Twilio's shapes (JSON and
# its YAML twin), and a split one of 3,000 files with every operation by `$ref`. For each:
#   usable   from exec until a line after `spec FILE` has run (the prompt would be ready)
#   whole    until the process exits (it waits for OpenAPIKit's structure check, run off the line)
#   peak     the process's peak memory, and as a multiple of the file
#   peer     `openapi-spec-validator FILE`, the same file, interleaved
# Medians of RUNS runs (5 by default). Goals: 4 MB JSON usable ≤ 200 ms, 4 MB YAML ≤ 600 ms, peak ≤ 3×.
#
#   Benchmarks/openapi.sh
#   FATHOM_BIN=/path/to/older/fathom Benchmarks/openapi.sh     the same files on another build
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
runs=${RUNS:-5}

venv=.build/bench-venv
if [[ ! -x $venv/bin/openapi-spec-validator ]] || ! "$venv/bin/python" -c "import yaml" 2>/dev/null; then
    echo "Installing openapi-spec-validator and PyYAML into $venv…" >&2
    [[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check openapi-spec-validator pyyaml
fi

# The files: Twilio's, GitHub's size from Twilio's shapes, and a split description.
"$venv/bin/python" - "$work" Tests/Corpora/openapi/twilio/twilio_api_v2010.json <<'PY'
import json, os, sys, yaml
work, twilio = sys.argv[1], sys.argv[2]
source = json.load(open(twilio))
os.system(f"cp {twilio} {work}/twilio.json; cp {twilio[:-5]}.yaml {work}/twilio.yaml")

# Copies of Twilio's paths and schemas, each under its own prefix with its own schema names,
# until the description is GitHub's size (about 4 MB of JSON).
paths_text = json.dumps(source["paths"])
schemas = source["components"]["schemas"]
big = dict(source)
big["paths"], big["components"] = {}, dict(source["components"])
big["components"]["schemas"] = {}
copy = 0
while len(json.dumps(big)) < 4_000_000:
    renamed = lambda text: text.replace("#/components/schemas/", f"#/components/schemas/c{copy}_")
    for path, item in json.loads(renamed(paths_text)).items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                operation["operationId"] += f"_{copy}"
        big["paths"][f"/copy{copy}{path}"] = item
    for name, schema in schemas.items():
        big["components"]["schemas"][f"c{copy}_{name}"] = json.loads(renamed(json.dumps(schema)))
    copy += 1
big["info"] = dict(source["info"], title=f"Twilio x{copy}")
json.dump(big, open(f"{work}/large.json", "w"))
yaml.safe_dump(big, open(f"{work}/large.yaml", "w"), sort_keys=False, allow_unicode=True)

# A split description of 3,000 files: 1,000 paths, each a path item file whose operation is a
# `$ref` to a third file, whose response schema is in a fourth (which names the next one).
os.makedirs(f"{work}/split/paths")
os.makedirs(f"{work}/split/operations")
os.makedirs(f"{work}/split/models")
root = {"openapi": "3.0.3", "info": {"title": "Split", "version": "1"}, "paths": {}}
for n in range(1000):
    root["paths"][f"/things{n}/{{id}}"] = {"$ref": f"paths/things{n}.yaml"}
    open(f"{work}/split/paths/things{n}.yaml", "w").write(f'get: {{$ref: "../operations/get{n}.yaml"}}\n')
    open(f"{work}/split/operations/get{n}.yaml", "w").write(
        f"operationId: get{n}\n"
        "parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n"
        f'responses: {{"200": {{description: ok, content: {{application/json: {{schema: {{$ref: "../models/thing{n}.yaml"}}}}}}}}}}\n')
    open(f"{work}/split/models/thing{n}.yaml", "w").write(
        "type: object\nrequired: [id]\n"
        f'properties: {{id: {{type: integer}}, next: {{$ref: "thing{(n + 1) % 1000}.yaml"}}}}\n')
yaml.safe_dump(root, open(f"{work}/split/openapi.yaml", "w"), sort_keys=False)
PY

# Usable and whole time (ms) and peak memory (MiB) of one fathom run, by watching its output.
fathom_once() {
    "$venv/bin/python" - "$fathom" "$1" <<'PY'
import resource, subprocess, sys, time
fathom, file = sys.argv[1], sys.argv[2]
start = time.monotonic()
process = subprocess.Popen([fathom, "--color", "never", "-c", f"spec {file}", "-c", "set usable yes", "-c", "vars"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
usable = None
for line in process.stdout:
    if usable is None and line.startswith("usable = yes"):
        usable = time.monotonic() - start
process.wait()
whole = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{usable * 1000:.0f} {whole * 1000:.0f} {peak:.1f}" if usable else "0 0 0")
PY
}

peer_once() {
    local start end
    start=$(now)
    "$venv/bin/openapi-spec-validator" "$1" >/dev/null 2>&1 || true
    end=$(now)
    echo $(((end - start) / 1000000))
}

median_of() { sort -n | sed -n "$(((runs + 1) / 2))p"; }

# What the process weighs with no description, to tell the description's share of its peak.
read -r _ _ start_peak < <(fathom_once /dev/null)
echo "fathom's own peak with no description: $start_peak MiB; 'grown' is the peak beyond it, as a multiple of the file"
printf '%-22s %8s %9s %9s %10s %18s %10s %8s\n' file size usable whole peak "grown (× file)" peer "peer/us"
for name in twilio.json twilio.yaml large.json large.yaml split/openapi.yaml; do
    file=$work/$name
    if [[ $name == split/* ]]; then
        bytes=$(cat "$work"/split/*.yaml "$work"/split/*/*.yaml | wc -c)
        label="split (3,001 files)"
    else
        bytes=$(wc -c <"$file")
        label=$name
    fi
    usable=() whole=() peak=() peer=()
    "$fathom" -c "spec $file" >/dev/null 2>&1 || true # warm the page cache
    for _ in $(seq "$runs"); do
        read -r u w p < <(fathom_once "$file")
        usable+=("$u") whole+=("$w") peak+=("$p")
        peer+=("$(peer_once "$file")")
    done
    u=$(printf '%s\n' "${usable[@]}" | median_of)
    w=$(printf '%s\n' "${whole[@]}" | median_of)
    p=$(printf '%s\n' "${peak[@]}" | median_of)
    q=$(printf '%s\n' "${peer[@]}" | median_of)
    printf '%-22s %6.1f MB %6s ms %6s ms %6s MiB %8.1f MiB (%4.1f×) %7s ms %7.1f×\n' "$label" \
        "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$u" "$w" "$p" \
        "$(awk -v p="$p" -v s="$start_peak" 'BEGIN { print p - s }')" \
        "$(awk -v p="$p" -v s="$start_peak" -v b="$bytes" 'BEGIN { print (p - s) * 1048576 / b }')" "$q" \
        "$(awk -v q="$q" -v u="$u" 'BEGIN { print (u > 0 ? q / u : 0) }')"
done
