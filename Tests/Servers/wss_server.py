"""A WebSocket server over TLS that wants a client certificate, nobody at Fathom wrote: Python's
`websockets` with an `ssl` context (CERT_REQUIRED against the given CA). It echoes each message,
prefixed with the common name of the certificate the client showed.

    python wss_server.py SERVER_CERT SERVER_KEY CA

It prints the port it listens on, then serves until killed.
"""

import asyncio
import socket
import ssl
import sys

from websockets.asyncio.server import serve


async def echo(websocket):
    peer = websocket.transport.get_extra_info("peercert") or {}
    name = dict(pair[0] for pair in peer.get("subject", ())).get("commonName", "nobody")
    async for message in websocket:
        await websocket.send(f"{name}: {message}")


async def main():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    context.load_verify_locations(sys.argv[3])
    context.verify_mode = ssl.CERT_REQUIRED
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    async with serve(echo, sock=sock, ssl=context):
        print(sock.getsockname()[1], flush=True)
        await asyncio.Future()


asyncio.run(main())
