"""The peer of `make bench-grpc`: Python grpcio's asyncio client making unary calls of the demo's
fathom.demo.v1.Todos/GetUser, CONCURRENCY at once, COUNT in all, its request message encoded once
(raw bytes both ways, as Fathom's batch does). Prints calls per second.

  grpc_load.py HOST:PORT COUNT CONCURRENCY
"""
import asyncio
import sys
import time

import grpc


async def main(target, count, concurrency):
    request = bytes([0x08, 0x01])  # GetUserRequest { id: 1 }
    async with grpc.aio.insecure_channel(target) as channel:
        call = channel.unary_unary(
            "/fathom.demo.v1.Todos/GetUser", request_serializer=None, response_deserializer=None)
        remaining = count
        failures = 0

        async def worker():
            nonlocal remaining, failures
            while remaining > 0:
                remaining -= 1
                try:
                    await call(request, timeout=30)
                except grpc.RpcError:
                    failures += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    if failures:
        print(f"{failures} calls failed", file=sys.stderr)
    print(f"{count / elapsed:.0f}")


asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
