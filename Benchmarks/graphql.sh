#!/usr/bin/env bash
# GraphQL, side by side with graphql-core (the reference implementation's Python port), release
# build, on a schema of GitHub's public schema's size (generated: Benchmarks/graphql/generate.py,
# ~1.8 MB of SDL, 3,000 types) and a 12 KB operation over it:
#   usable    from exec until a line after `graphql --schema FILE` has run (the prompt is ready,
#             Tab and `describe` work; the schema's build goes on off the line)
#   peer      graphql-core's `build_schema` of the same file, a whole process, interleaved
#   validate  the 12 KB operation by every rule, in process: Fathom's median beside graphql-core's
#   events/s  a subscription's results through `fathom` (graphql-transport-ws, a Strawberry server
#             on loopback sending 20,000 as fast as it can), beside a Python `websockets` client
#             speaking the same protocol to the same server, interleaved
# then fathom-graphql-bench's in-process figures (usable, built whole, validation, Tab).
# Medians of RUNS runs (5 by default). Goal: usable ≤ 300 ms.
#
#   Benchmarks/graphql.sh
#   FATHOM_BIN=/path/to/older/fathom Benchmarks/graphql.sh     the same files on another build
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/common.sh
runs=${RUNS:-5}

venv=.build/bench-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c "import graphql, strawberry, starlette, uvicorn, websockets" 2>/dev/null; then
    echo "Installing graphql-core, strawberry-graphql, starlette, uvicorn and websockets into $venv…" >&2
    [[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check graphql-core strawberry-graphql starlette uvicorn websockets
fi
"$venv/bin/python" Benchmarks/graphql/generate.py "$work"
schema=$work/large.graphql
operation=$work/operation.graphql
printf 'schema: %s KB of SDL, %s types; operation: %s KB\n' "$(($(wc -c <"$schema") / 1024))" \
    "$(grep -cE '^(type|interface|union|enum|input|scalar) ' "$schema")" "$(($(wc -c <"$operation") / 1024))"

usable_line="'$fathom' -c 'base http://127.0.0.1:1' -c 'graphql /graphql --schema $schema' -c 'describe Object1' --color never"
peer_line="'$venv/bin/python' -c 'from graphql import build_schema; build_schema(open(\"$schema\").read())'"
# Interleaved: each round runs both, so the machine's state weighs on them alike.
fathom_times=()
peer_times=()
bash -c "$usable_line" >/dev/null 2>&1 || true
bash -c "$peer_line" >/dev/null 2>&1 || true
for _ in $(seq "$runs"); do
    start=$(now); bash -c "$usable_line" >/dev/null 2>&1 || true; end=$(now); fathom_times+=($((end - start)))
    start=$(now); bash -c "$peer_line" >/dev/null 2>&1 || true; end=$(now); peer_times+=($((end - start)))
done
middle() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
usable=$(middle "${fathom_times[@]}")
peer=$(middle "${peer_times[@]}")
echo "usable after graphql --schema: $(ms "$usable")   graphql-core build_schema: $(ms "$peer")   ($(ratio "$usable" "$peer") of graphql-core)"

core_validate=$("$venv/bin/python" - "$schema" "$operation" <<'PY'
import statistics, sys, time
from graphql import build_schema, parse, validate
schema = build_schema(open(sys.argv[1]).read())
document = parse(open(sys.argv[2]).read())
times = []
for _ in range(20):
    start = time.perf_counter()
    validate(schema, document)
    times.append(time.perf_counter() - start)
print(int(statistics.median(times) * 1e9))
PY
)
echo "graphql-core: validate the 12 KB operation: $(ms "$core_validate") (median of 20, in process)"

# Subscription results per second, Fathom beside a Python websockets client, one server.
"$venv/bin/python" Tests/Servers/graphql_server.py --no-delay >"$work/port" 2>/dev/null &
strawberry=$!
trap 'kill "$server" "$strawberry" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.05; done
graphql_url="http://127.0.0.1:$(head -1 "$work/port")"
count=20000
cat >"$work/client.py" <<'PY'
import asyncio, json, sys
import websockets
async def main(url, count):
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], max_size=None) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        await socket.recv()
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": "subscription { count(to: %d) }" % count}}))
        received = 0
        async for message in socket:
            kind = json.loads(message)["type"]
            if kind == "next": received += 1
            elif kind == "complete": break
        assert received == count, received
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
PY
fathom_line="'$fathom' '$graphql_url' -c 'graphql /graphql' -c 'subscription { count(to: $count) }' -c 'expect events == $count' --color never"
peer_line="'$venv/bin/python' '$work/client.py' 'ws://${graphql_url#http://}/graphql' $count"
fathom_times=()
peer_times=()
bash -c "$fathom_line" >/dev/null 2>&1 || echo "the subscription through fathom failed" >&2
for _ in $(seq "$runs"); do
    start=$(now); bash -c "$fathom_line" >/dev/null 2>&1 || true; end=$(now); fathom_times+=($((end - start)))
    start=$(now); bash -c "$peer_line" >/dev/null 2>&1 || true; end=$(now); peer_times+=($((end - start)))
done
subscribed=$(middle "${fathom_times[@]}")
client=$(middle "${peer_times[@]}")
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f/s", n / (t / 1e9) }'; }
echo "subscription, $count results: fathom $(ms "$subscribed") ($(rate "$count" "$subscribed"))   python websockets $(ms "$client") ($(rate "$count" "$client"))   ($(ratio "$subscribed" "$client") of the client's time)"

# The same flags as the fathom build above (common.sh): another set would rebuild everything.
swift build "${release[@]}" --product fathom-graphql-bench >/dev/null
"$(swift build "${release[@]}" --show-bin-path)/fathom-graphql-bench" "$schema" "$operation"
