"""An MCP client nobody here wrote (Python's `mcp` package) driving `fathom mcp` over stdio.

  mcp_client.py FATHOM SCHEMA WORKDIR HTTPBIN_URL SECRET

Starts a server of its own on loopback that echoes the request's Authorization header in a
UTF-16 body (an API with credentials), writes a setup file giving it and the demo a bearer
token (FATHOM_SECRET_TOKEN), and runs `fathom mcp --demo --setup … --transcript …` with every
message the server writes copied to WORKDIR/server-messages.jsonl. Then: initialize, tools/list,
20 tool calls (send against the demo, the UTF-16 server and httpbin; op; inspect; expect;
ls; describe; responses; save; an unsafe send refused; a `{{token}}` refused), and, with
--allow-writes, a POST. Each structuredContent's outputs are validated against
docs/output.schema.json (jsonschema). Prints one JSON object: what the test checks.
"""
import asyncio
import http.server
import json
import os
import sys
import threading

import jsonschema
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

fathom, schema_path, workdir, httpbin, secret = sys.argv[1:6]
schema = json.load(open(schema_path))


class Echo16(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/hostile":
            # A body that would drive a terminal: a color, a title change, a cursor move.
            body = b"plain \x1b[31mred\x1b]0;owned\x07 \x1b[2J done"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        body = json.dumps({"authorization": self.headers.get("Authorization")}).encode("utf-16")
        self.send_response(200)
        self.send_header("Content-Type", "application/json; charset=utf-16")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


echo16 = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo16)
threading.Thread(target=echo16.serve_forever, daemon=True).start()
echo_url = f"http://127.0.0.1:{echo16.server_address[1]}"

setup = os.path.join(workdir, "setup.fathom")
with open(setup, "w") as f:
    # The UTF-16 server's API takes basic credentials; the demo's a bearer token and an API key.
    f.write(f"secret token\nbase {echo_url}\nauth basic ada:{{{{token}}}}\n"
            "base {{demo}}\nauth bearer {{token}}\ndefault header X-Api-Key: {{token}}\n")
transcript = os.path.join(workdir, "agent.fathom")
messages = os.path.join(workdir, "server-messages.jsonl")
environment = dict(os.environ, FATHOM_SECRET_TOKEN=secret)
report = {"calls": [], "invalid": []}


def server(arguments, log):
    command = " ".join(["exec", fathom, "mcp", *arguments])
    return StdioServerParameters(
        command="sh", args=["-c", f"{command} | tee -a {log}"], env=environment, cwd=workdir)


def check(name, result):
    structured = result.structured_content or {}
    for output in structured.get("outputs", []):
        try:
            jsonschema.validate(output, schema)
        except jsonschema.ValidationError as error:
            report["invalid"].append(f"{name}: {error.message}")
    text = "".join(part.text for part in result.content if getattr(part, "text", None))
    report["calls"].append({"tool": name, "error": bool(result.is_error), "ok": structured.get("ok"),
                            "types": [o.get("type") for o in structured.get("outputs", [])], "text": text[:2000],
                            "outputs": structured.get("outputs", [])})
    return structured


async def run():
    arguments = ["--demo", "--setup", setup, "--transcript", transcript]
    async with stdio_client(server(arguments, messages)) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            report["protocol"] = initialized.protocol_version
            report["server"] = initialized.server_info.name
            tools = await session.list_tools()
            report["tools"] = {t.name: {"readOnly": t.annotations.read_only_hint,
                                        "destructive": t.annotations.destructive_hint,
                                        "idempotent": t.annotations.idempotent_hint,
                                        "openWorld": t.annotations.open_world_hint,
                                        "input": t.input_schema, "output": t.output_schema} for t in tools.tools}
            calls = [
                ("send", {"url": "/users/1"}),
                ("expect", {"check": "status 200"}),
                ("expect", {"check": "$.name == \"Ada Lovelace\""}),
                ("inspect", {"expression": "$.email"}),
                ("send", {"url": "/users", "query": {"per_page": 2}}),
                ("expect", {"check": "status 200"}),
                ("op", {"operationId": "getUser", "parameters": {"id": 2}}),
                ("expect", {"check": "$.id == 2"}),
                ("ls", {}),
                ("describe", {"operation": "getUser"}),
                ("send", {"url": "/echo", "headers": {"X-Trace": "agent"}}),
                ("expect", {"check": "status 200"}),
                ("send", {"url": echo_url + "/whoami"}),
                ("send", {"url": httpbin + "/anything", "headers": {"X-Agent": "yes"}}),
                ("expect", {"check": "status 200"}),
                ("send", {"method": "POST", "url": "/users", "body": {"name": "Eve", "email": "eve@example.com"}}),
                ("send", {"url": "/users/{{token}}"}),
                ("inspect", {"response": 1, "expression": "$.role"}),
                ("responses", {}),
                ("save", {}),
                ("send", {"url": echo_url + "/hostile"}),
                ("graphql", {"endpoint": "/graphql", "document": "query One($id: ID!) {\n  user(id: $id) { name }\n}",
                             "variables": {"id": "2"}}),
                ("graphql", {"endpoint": "/graphql", "document": "mutation { addTodo(title: \"x\") { id } }"}),
            ]
            for name, args in calls:
                check(name, await session.call_tool(name, args))
            resources = await session.list_resources()
            report["resources"] = [str(r.uri) for r in resources.resources]
            report["session"] = (await session.read_resource("fathom://session")).contents[0].text
            description = (await session.read_resource("fathom://description")).contents[0].text
            report["description"] = json.loads(description).get("openapi")
            prompts = await session.list_prompts()
            report["prompts"] = [p.name for p in prompts.prompts]
            explore = await session.get_prompt("explore", {"goal": "who the users are"})
            report["explore"] = explore.messages[0].content.text
    writes = os.path.join(workdir, "writes.fathom")
    async with stdio_client(server(["--demo", "--setup", setup, "--allow-writes", "--transcript", writes], messages)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            report["writeTools"] = {t.name: t.annotations.destructive_hint for t in tools.tools}
            check("send-writes", await session.call_tool(
                "send", {"method": "POST", "url": "/echo", "body": {"name": "Eve", "age": 31}}))
    grpc_setup = os.path.join(workdir, "grpc.fathom")
    with open(grpc_setup, "w") as f:
        f.write("grpc {{grpc}} --plaintext\n")
    refused = os.path.join(workdir, "grpc-refused.fathom")
    async with stdio_client(server(["--demo", "--setup", grpc_setup, "--transcript", refused], messages)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            check("call-read-only", await session.call_tool("call", {"method": "GetUser", "request": {"id": 2}}))
            check("ls-grpc", await session.call_tool("ls", {}))
    granted = os.path.join(workdir, "grpc-writes.fathom")
    async with stdio_client(server(["--demo", "--setup", grpc_setup, "--allow-writes", "--transcript", granted], messages)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            check("call", await session.call_tool("call", {"method": "GetUser", "request": {"id": 2}}))
            check("expect-call", await session.call_tool("expect", {"check": "status OK"}))


async def asked(answer, log):
    """A client that supports elicitation: the person answers `answer` to every question."""
    questions = []

    async def elicit(context, parameters):
        questions.append(parameters.message)
        return types.ElicitResult(action=answer, content={} if answer == "accept" else None)

    path = os.path.join(workdir, f"asked-{answer}.fathom")
    async with stdio_client(server(["--demo", "--transcript", path], log)) as (read, write):
        async with ClientSession(read, write, elicitation_callback=elicit) as session:
            await session.initialize()
            result = await session.call_tool("send", {"method": "POST", "url": "/echo", "body": {"asked": answer}})
            check("asked-" + answer, result)
    report["asked-" + answer] = questions


asyncio.run(run())
asyncio.run(asked("accept", messages))
asyncio.run(asked("decline", messages))


async def strict():
    """`validate strict` in the setup: what the description forbids is not sent."""
    setup_strict = os.path.join(workdir, "strict-setup.fathom")
    with open(setup_strict, "w") as f:
        f.write("validate strict\n")
    path = os.path.join(workdir, "strict.fathom")
    async with stdio_client(server(["--demo", "--setup", setup_strict, "--transcript", path], messages)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            check("strict-refused", await session.call_tool("send", {"url": "/users", "query": {"per_page": 500}}))
            check("strict-sent", await session.call_tool("send", {"url": "/users", "query": {"per_page": 2}}))


asyncio.run(strict())
report["transcript"] = open(transcript).read()
# The transcript replays, the UTF-16 server still up, the token from the environment.
import subprocess
replay = subprocess.run([fathom, "replay", "--demo", transcript], env=environment, capture_output=True, text=True)
report["replay"] = {"status": replay.returncode, "stdout": replay.stdout, "stderr": replay.stderr}
compare = subprocess.run([fathom, "replay", "--demo", "--compare", transcript], env=environment, capture_output=True, text=True)
report["compare"] = {"status": compare.returncode, "stdout": compare.stdout, "stderr": compare.stderr}
echo16.shutdown()
print(json.dumps(report))
