"""A gRPC server nobody at Fathom wrote: Python grpcio with grpcio-reflection (which serves only
grpc.reflection.v1alpha), serving Tests/Servers/grpc/users.proto on 127.0.0.1.

  grpc_server.py [--token T] [--changed] [--tls CERT KEY] [--no-reflection] [--record FILE]

Prints its port, then serves until killed. --token: every call needs `authorization: Bearer T`.
--changed: GetUser answers another name (a replay against it must fail). Metadata sent as
`x-echo-NAME` comes back as header `x-echo-NAME` and trailer `x-trailer-NAME`. --record: every
call's metadata is appended to FILE (a test asserts what a server was never sent).
"""
import os
import subprocess
import sys
import tempfile
import time
from concurrent import futures

import grpc
import grpc_tools

here = os.path.dirname(os.path.abspath(__file__))
out = tempfile.mkdtemp(prefix="fathom-grpc-")
include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
subprocess.run(
    [sys.executable, "-m", "grpc_tools.protoc", f"-I{here}/grpc", f"-I{include}", f"--python_out={out}",
     f"--grpc_python_out={out}", "users.proto"],
    check=True)
sys.path.insert(0, out)
import users_pb2  # noqa: E402
import users_pb2_grpc  # noqa: E402
from google.protobuf import any_pb2  # noqa: E402

arguments = sys.argv[1:]
token = arguments[arguments.index("--token") + 1] if "--token" in arguments else None
changed = "--changed" in arguments
record = arguments[arguments.index("--record") + 1] if "--record" in arguments else None

USERS = [
    users_pb2.User(id=1, display_name="Ada Lovelace", role=users_pb2.ADMIN, tags=["math"], email="ada@example.com"),
    users_pb2.User(id=2, display_name="Alan Turing", role=users_pb2.MEMBER, counters={"logins": 12}),
    users_pb2.User(id=3, display_name="Grace Hopper", role=users_pb2.MEMBER, phone="+1 555 0100"),
]
USERS[0].created.FromSeconds(1_700_000_000)


def check(context):
    metadata = dict(context.invocation_metadata())
    if record is not None:
        with open(record, "a") as log:
            for key, value in metadata.items():
                log.write(f"{key}: {value if isinstance(value, str) else value.hex()}\n")
    echoes = [(k, v) for k, v in metadata.items() if k.startswith("x-echo-")]
    if echoes:
        context.send_initial_metadata(echoes)
        context.set_trailing_metadata([("x-trailer-" + k[len("x-echo-"):], v) for k, v in echoes])
    if token is not None and metadata.get("authorization") != f"Bearer {token}":
        context.abort(grpc.StatusCode.UNAUTHENTICATED, "a bearer token is needed")


def bad_request(field, description):
    """A google.rpc.Status with a BadRequest detail, built by hand: its generated code is not in
    grpcio. BadRequest { repeated FieldViolation field_violations = 1 }, FieldViolation
    { string field = 1; string description = 2 }."""
    def string(number, text):
        data = text.encode()
        return bytes([number << 3 | 2, len(data)]) + data
    violation = string(1, field) + string(2, description)
    detail = any_pb2.Any(type_url="type.googleapis.com/google.rpc.BadRequest", value=bytes([0x0a, len(violation)]) + violation)
    message = f"no user {description}"
    status = bytes([0x08, 5]) + string(2, message) + bytes([0x1a, len(detail.SerializeToString())]) + detail.SerializeToString()
    return message, status


class Users(users_pb2_grpc.UsersServicer):
    def GetUser(self, request, context):
        check(context)
        for user in USERS:
            if user.id == request.id:
                answer = users_pb2.User()
                answer.CopyFrom(user)
                if changed:
                    answer.display_name = answer.display_name.upper()
                return answer
        message, status = bad_request("id", f"has id {request.id}")
        context.abort_with_status(_Status(grpc.StatusCode.NOT_FOUND, message, status))

    def ListUsers(self, request, context):
        check(context)
        sent = 0
        for user in USERS:
            if request.role and user.role != request.role:
                continue
            if request.limit and sent >= request.limit:
                break
            sent += 1
            yield user

    def CreateUsers(self, request_iterator, context):
        check(context)
        ids = [100 + index for index, _ in enumerate(request_iterator)]
        return users_pb2.CreateUsersReply(created=len(ids), ids=ids)

    def Shout(self, request_iterator, context):
        check(context)
        for user in request_iterator:
            user.display_name = user.display_name.upper()
            yield user


class _Status(grpc.Status):
    def __init__(self, code, details, status_bytes):
        self.code = code
        self.details = details
        self.trailing_metadata = (("grpc-status-details-bin", status_bytes),)


def main():
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    users_pb2_grpc.add_UsersServicer_to_server(Users(), server)
    if "--no-reflection" not in arguments:
        from grpc_reflection.v1alpha import reflection
        names = (users_pb2.DESCRIPTOR.services_by_name["Users"].full_name, reflection.SERVICE_NAME)
        reflection.enable_server_reflection(names, server)
    if "--tls" in arguments:
        at = arguments.index("--tls")
        certificate = open(arguments[at + 1], "rb").read()
        key = open(arguments[at + 2], "rb").read()
        # --client-ca FILE: mutual TLS, a client certificate from that CA required.
        client_ca = open(arguments[arguments.index("--client-ca") + 1], "rb").read() if "--client-ca" in arguments else None
        credentials = grpc.ssl_server_credentials(
            [(key, certificate)], root_certificates=client_ca, require_client_auth=client_ca is not None)
        port = server.add_secure_port("127.0.0.1:0", credentials)
    else:
        port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
