"""A GraphQL server nobody at Fathom wrote: Strawberry (graphql-core underneath) under uvicorn.

Users and their todos: queries, a mutation with variables, a subscription (over both WebSocket
subprotocols), a field that fails (an `errors` entry), and a nullable field. With --changed, one
field comes back with another value and type, which a replay with --compare or the schema check
must notice. It prints the port it listens on, then serves until killed.

    python graphql_server.py [--changed] [--no-introspection] [--token TOKEN] [--legacy-ws]

--legacy-ws serves subscriptions over the legacy `graphql-ws` subprotocol only (else both);
--no-delay sends a subscription's results as fast as it can (for Benchmarks/graphql.sh);
--no-websocket serves subscriptions over server-sent events only (GraphQL over SSE).
"""

import asyncio
import enum
import socket
import sys
import typing

import strawberry
import uvicorn
from strawberry.asgi import GraphQL
from strawberry.extensions import AddValidationRules
from graphql.validation import NoSchemaIntrospectionCustomRule

CHANGED = "--changed" in sys.argv
NO_DELAY = "--no-delay" in sys.argv
TOKEN = sys.argv[sys.argv.index("--token") + 1] if "--token" in sys.argv else None


@strawberry.enum
class Role(enum.Enum):
    ADMIN = "ADMIN"
    MEMBER = "MEMBER"


@strawberry.type
class Todo:
    id: strawberry.ID
    title: str
    done: bool


@strawberry.type
class User:
    id: strawberry.ID
    name: str
    role: Role
    nickname: typing.Optional[str] = strawberry.field(default=None, description="Nobody has one yet.")

    @strawberry.field
    def todos(self, done: typing.Optional[bool] = None) -> typing.List[Todo]:
        todos = TODOS.get(self.id, [])
        return [t for t in todos if done is None or t.done == done]

    @strawberry.field
    def age(self) -> int:
        return 36 if not CHANGED else 37

    @strawberry.field(deprecation_reason="use `name`")
    def login(self) -> str:
        return self.name.lower()

    @strawberry.field
    def secret(self) -> str:
        raise Exception("not allowed to read the secret of user " + self.id)


USERS = {
    "1": User(id="1", name="Ada", role=Role.ADMIN),
    "2": User(id="2", name="Grace", role=Role.MEMBER),
}
TODOS = {
    "1": [Todo(id="1", title="Write the notes", done=True), Todo(id="2", title="Engine", done=False)],
    "2": [Todo(id="3", title="Compiler", done=False)],
}


def authorized(info) -> None:
    if TOKEN is None:
        return
    request = info.context["request"]
    if request.headers.get("authorization") != "Bearer " + TOKEN:
        raise Exception("unauthorized")


@strawberry.type
class Query:
    @strawberry.field
    def user(self, info: strawberry.Info, id: strawberry.ID) -> typing.Optional[User]:
        authorized(info)
        return USERS.get(str(id))

    @strawberry.field
    def users(self, info: strawberry.Info, role: typing.Optional[Role] = None) -> typing.List[User]:
        authorized(info)
        return [u for u in USERS.values() if role is None or u.role == role]

    @strawberry.field
    def hello(self, name: str = "world") -> str:
        return "hello " + name if not CHANGED else "hi " + name


@strawberry.input
class TodoInput:
    title: str
    done: bool = False


@strawberry.type
class Mutation:
    @strawberry.mutation
    def add_todo(self, info: strawberry.Info, user_id: strawberry.ID, todo: TodoInput) -> Todo:
        authorized(info)
        todos = TODOS.setdefault(str(user_id), [])
        created = Todo(id=str(sum(len(v) for v in TODOS.values()) + 1), title=todo.title, done=todo.done)
        todos.append(created)
        return created


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def count(self, to: int = 3) -> typing.AsyncGenerator[int, None]:
        for i in range(1, to + 1):
            yield i
            await asyncio.sleep(0 if NO_DELAY else 0.01)


extensions = [AddValidationRules([NoSchemaIntrospectionCustomRule])] if "--no-introspection" in sys.argv else []
schema = strawberry.Schema(query=Query, mutation=Mutation, subscription=Subscription, extensions=extensions)

if __name__ == "__main__":
    if "--print-schema" in sys.argv:
        print(schema.as_str())
        sys.exit(0)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    print(port, flush=True)
    from strawberry.subscriptions import GRAPHQL_SSE_PROTOCOL, GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL
    protocols = [GRAPHQL_WS_PROTOCOL] if "--legacy-ws" in sys.argv else [GRAPHQL_TRANSPORT_WS_PROTOCOL, GRAPHQL_WS_PROTOCOL]
    if "--no-websocket" in sys.argv:
        protocols = [GRAPHQL_SSE_PROTOCOL]
    # ws="websockets": without the package uvicorn would start and answer every upgrade 400.
    config = uvicorn.Config(GraphQL(schema, subscription_protocols=protocols), log_level="warning", ws="websockets")
    server = uvicorn.Server(config)
    asyncio.run(server.serve(sockets=[sock]))
