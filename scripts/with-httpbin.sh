#!/usr/bin/env bash
# Runs a command with httpbin serving on 127.0.0.1 (a free port), its URL in FATHOM_HTTPBIN_URL, and
# on a Unix socket, its path in FATHOM_HTTPBIN_SOCKET,
# HTTPie's `http` in FATHOM_HTTPIE (for the export round trips) and a Python with jsonschema in
# FATHOM_PYTHON (to check exported HAR against its schema, AWS signatures against botocore's, and
# GraphQL against graphql-core and a Strawberry server, Tests/Servers/graphql_server.py; protobuf
# against json_format, Tests/Servers/protobuf_oracle.py; gRPC against grpcio,
# Tests/Servers/grpc_server.py).
# httpbin, gunicorn, httpie, jsonschema, botocore, graphql-core, strawberry-graphql, starlette,
# uvicorn, websockets (uvicorn answers a WebSocket upgrade 400 without it), protobuf, grpcio-tools
# (protoc), grpcio-reflection mcp (the MCP client `fathom mcp` is tested with) and authlib (the OAuth 2.0 server) are installed from PyPI into .build/httpbin-venv the first time.
#   scripts/with-httpbin.sh swift test
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/httpbin-venv
if [[ ! -x $venv/bin/gunicorn || ! -x $venv/bin/http ]] || ! "$venv/bin/python" -c "import jsonschema, botocore, graphql, strawberry, starlette, uvicorn, websockets, google.protobuf, grpc_tools, grpc_reflection, mcp, authlib" 2>/dev/null; then
    echo "Installing httpbin, gunicorn, httpie, jsonschema, botocore and the GraphQL packages into $venv…"
    mkdir -p .build
    [[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check httpbin gunicorn httpie jsonschema botocore \
        graphql-core strawberry-graphql starlette uvicorn websockets protobuf grpcio-tools grpcio-reflection mcp authlib
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
"$venv/bin/gunicorn" --bind "127.0.0.1:$port" --workers 2 --log-level warning httpbin:app \
    2> >(grep -v "flasgger is not installed" >&2) &
gunicorn_pid=$!
# The same httpbin on a Unix socket, for `base http+unix://…` and curl's --unix-socket.
socket_dir=$(mktemp -d)
"$venv/bin/gunicorn" --bind "unix:$socket_dir/httpbin.sock" --workers 1 --log-level warning httpbin:app \
    2> >(grep -v "flasgger is not installed" >&2) &
socket_pid=$!
trap 'kill $gunicorn_pid $socket_pid 2>/dev/null || true; wait $gunicorn_pid $socket_pid 2>/dev/null || true; rm -rf "$socket_dir"' EXIT

for _ in $(seq 1 100); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/get"; then break; fi
    sleep 0.1
done
curl -s -o /dev/null "http://127.0.0.1:$port/get" || { echo "httpbin did not start" >&2; exit 1; }

for _ in $(seq 1 100); do
    if curl -s -o /dev/null --unix-socket "$socket_dir/httpbin.sock" http://localhost/get; then break; fi
    sleep 0.1
done

export FATHOM_HTTPBIN_URL="http://127.0.0.1:$port"
export FATHOM_HTTPBIN_SOCKET="$socket_dir/httpbin.sock"
export FATHOM_HTTPIE="$PWD/$venv/bin/http"
export FATHOM_PYTHON="$PWD/$venv/bin/python"
"$@"
