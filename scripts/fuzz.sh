#!/usr/bin/env bash
# `make fuzz`: builds the fuzz targets in Fuzz/ with libFuzzer and AddressSanitizer, then runs
# each for FUZZ_SECONDS (120 by default), seeded from the test corpora and Sessions/.
#   FUZZ_SECONDS=600 scripts/fuzz.sh [TARGET…]     targets: json jsonpath command line session schema openapi
#                                                  import yaml files graphql protobuf
# A crash leaves its input in .build-fuzz/crashes/TARGET/ (replay it with the target's binary and
# the file) and makes the run fail; turn it into a regression test before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-120}
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(json jsonpath command line session schema openapi import yaml files graphql protobuf)
out=$PWD/.build-fuzz

# SwiftPM links an executable's entry under another name; libFuzzer brings its own `main`, and
# each target defines both, so either may win.
(cd Fuzz && swift build --build-path "$out" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    -Xlinker --allow-multiple-definition 2>&1 | grep -v "Cannot export local symbol" | tail -1)

seeds=$out/seeds
rm -rf "$seeds" && mkdir -p "$seeds"/{json,jsonpath,command,line,session,schema,openapi,import,yaml,files,graphql,protobuf}
cp Tests/Corpora/openapi/oai-examples/v3.*/*.{json,yaml} Tests/Corpora/openapi/swagger-petstore-v3/openapi.yaml "$seeds/openapi/" 2>/dev/null || true
cp Tests/Corpora/openapi/oai-examples/v3.*/*.yaml Tests/Corpora/openapi/swagger-petstore-v3/openapi.yaml "$seeds/yaml/" 2>/dev/null || true
cp Tests/Corpora/jsontestsuite/*.json "$seeds/json/"
python3 - "$seeds" <<'PY'
import glob, json, os, sys
seeds = sys.argv[1]
cts = json.load(open("Tests/Corpora/jsonpath-cts/cts.json"))
for index, case in enumerate(cts["tests"]):
    open(f"{seeds}/jsonpath/{index:04}", "w").write(case["selector"])
lines = []
for name in glob.glob("Sessions/*.fathom") + glob.glob("Tests/FathomREPLTests/Snapshots/*.txt"):
    for line in open(name, encoding="utf-8"):
        line = line.rstrip("\n")
        if name.endswith(".txt"):
            if not line.startswith("» "): continue
            line = line[2:]
        if line.strip(): lines.append(line)
for index, line in enumerate(dict.fromkeys(lines)):
    open(f"{seeds}/command/{index:04}", "w").write(line)
    open(f"{seeds}/line/{index:04}", "w").write(line)
# The JSON Schema Test Suite: each case as its schema and instance on two lines.
count = 0
for name in glob.glob("Tests/Corpora/json-schema-test-suite/tests/*/*.json"):
    for group in json.load(open(name, encoding="utf-8")):
        for case in group["tests"]:
            text = json.dumps(group["schema"]) + "\n" + json.dumps(case["data"])
            open(f"{seeds}/schema/{count:05}", "w").write(text)
            count += 1
for name in glob.glob("Sessions/*.fathom"):
    open(f"{seeds}/session/{os.path.basename(name)}", "w").write(open(name, encoding="utf-8").read())
# Imports: the first byte picks the format (0 curl, 1 HAR, 2 Postman), as fuzz-import reads it.
count = 0
for name in glob.glob("Tests/Corpora/curlconverter/**/*.sh", recursive=True)[:400]:
    open(f"{seeds}/import/curl{count:04}", "wb").write(b"\x00" + open(name, "rb").read()[:4000])
    count += 1
for name in glob.glob("Tests/Corpora/har/**/*.har", recursive=True):
    open(f"{seeds}/import/har{count:04}", "wb").write(b"\x01" + open(name, "rb").read()[:4000])
    count += 1
for name in glob.glob("Tests/Corpora/postman/**/*.json", recursive=True):
    open(f"{seeds}/import/postman{count:04}", "wb").write(b"\x02" + open(name, "rb").read()[:4000])
    count += 1
# The other files Fathom reads (the first byte picks the reader: 0 .env, 1 config, 2 CSV, 3 recording,
# 4 the response archive's index and records).
open(f"{seeds}/files/env", "wb").write(b"\x00" + b'A=1\nexport B="two\nlines"\nC=\'x # y\'\nD="esc \\" q" # c\nE="open\n')
open(f"{seeds}/files/config", "wb").write(b"\x01" + b"timeout 10s\nvalidate strict  # c\ncolor never\nnonsense 1\npager\n")
open(f"{seeds}/files/csv", "wb").write(b"\x02" + b'\xef\xbb\xbfid,name\n1,"Ada ""L"""\n2,"multi\nline"\n')
open(f"{seeds}/files/archive", "wb").write(b"\x04" + b'{"id":1,"at":1764300000.5,"session":"ab12cd","number":1,"listed":"GET http://h/a \xe2\x86\x92 200 OK","method":"GET","url":"http://h/a","request_headers":[["Accept","*/*"]],"status":200,"reason":"OK","protocol":"HTTP/1.1","headers":[["Content-Type","application/json"]],"size":9,"kept":true,"time_ms":5.2,"first_byte_ms":3,"body":"{\\"id\\": 1}"}\n{"id":2,"at":1764300001,"session":"ab12cd","number":2,"listed":"WS ws://h/ws","document":{"messages":[]}}\n{"id":3,"at":1,"session":"x","number":1,"listed":"l","offset":0,"length":10}\n')
for name in glob.glob("Sessions/*.recording.json"):
    open(f"{seeds}/files/{os.path.basename(name)}", "wb").write(b"\x03" + open(name, "rb").read()[:4000])
# GraphQL (the first byte picks: 0 SDL, 1 an introspection result, 2 an operation and a response).
for name in glob.glob("Tests/Corpora/graphql/*.graphql"):
    open(f"{seeds}/graphql/{os.path.basename(name)}", "wb").write(b"\x00" + open(name, "rb").read())
open(f"{seeds}/graphql/operation", "wb").write(
    b"\x02query Q($r: Role) { users(role: $r) { name ...F } search(text: \"a\") { __typename ... on Team { id } } }"
    b" fragment F on User { age friends { id } }\n"
    b'{"data": {"users": [{"name": "a", "age": 1, "friends": null}], "search": [{"__typename": "Team", "id": "1"}]}}')
open(f"{seeds}/graphql/introspection", "wb").write(
    b'\x01{"__schema": {"queryType": {"name": "Query"}, "directives": [], "types": [{"kind": "OBJECT", "name": "Query",'
    b' "interfaces": [], "fields": [{"name": "a", "args": [{"name": "x", "type": {"kind": "SCALAR", "name": "Int"},'
    b' "defaultValue": "1"}], "type": {"kind": "LIST", "ofType": {"kind": "SCALAR", "name": "Int"}}}]}]}}')
# protobuf (the first byte picks: 0 a descriptor set, 1 a TestAllTypesProto3's binary, 2 its JSON).
open(f"{seeds}/protobuf/descriptors", "wb").write(b"\x00" + open("Tests/Corpora/protobuf/test_messages_proto3.pb", "rb").read())
# optional_int32 150, optional_string "hi", a packed int32s, recursive_message { optional_int64 -1 },
# map_string_string {"k": "v"}, an unknown group.
open(f"{seeds}/protobuf/binary", "wb").write(
    b"\x01\x08\x96\x01\x72\x02hi\xfa\x04\x03\x01\x02\x03\xda\x01\x0b\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"
    b"\x8a\x04\x06\x0a\x01k\x12\x01v\xab\x3e\x08\x01\xac\x3e")
open(f"{seeds}/protobuf/json", "wb").write(
    b'\x02{"optionalInt64": "-5", "optionalFloat": "NaN", "optionalNestedEnum": "BAR", "repeatedBytes": ["AQI="],'
    b' "mapInt32Double": {"1": 2.5}, "optionalTimestamp": "2026-11-28T00:00:00Z", "optionalDuration": "1.5s",'
    b' "optionalStruct": {"a": [1, null, {"b": true}]}, "optionalAny": {"@type": "type.googleapis.com/'
    b'google.protobuf.Duration", "value": "3s"}, "oneofString": "x", "recursiveMessage": {"optionalBool": true}}')
# A small alias bomb: the fuzzer grows it.
open(f"{seeds}/yaml/bomb.yaml", "w").write("a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n")
PY

# Leaks LeakSanitizer cannot see through (see the file); real leaks are still reported.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

failed=0
for target in "${targets[@]}"; do
    mkdir -p "$out/corpus/$target" "$out/crashes/$target"
    echo "== fuzz-$target for ${seconds} s ($(ls "$seeds/$target" | wc -l) seeds)"
    dict=()
    [[ -f Fuzz/dictionaries/$target.dict ]] && dict=(-dict="$PWD/Fuzz/dictionaries/$target.dict")
    if "$out/debug/fuzz-$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
        -artifact_prefix="$out/crashes/$target/" -print_final_stats=1 \
        "$out/corpus/$target" "$seeds/$target" >"$out/fuzz-$target.log" 2>&1; then
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/fuzz-$target.log" | tr '\n' ' '
        echo "— no crash"
    else
        failed=1
        grep -E "ERROR|SUMMARY|Test unit written|ParseDictionaryFile" "$out/fuzz-$target.log" | head -5 || true
    fi
done
exit $failed
