#!/usr/bin/env python3
"""Reads `fathom --output json` from standard input and prints how long after the server wrote
each stream event Fathom printed it: the demo's /stream?stamp=1 puts the write time (ns) in `t`.

    fathom --output json -c 'get URL/stream?count=200&ms=10&stamp=1' | Benchmarks/stream_latency.py
"""
import json
import sys
import time

delays = []
for line in sys.stdin:
    arrived = time.time_ns()
    try:
        value = json.loads(line)
    except ValueError:
        continue
    if value.get("type") != "stream_event":
        continue
    data = value.get("data")
    if isinstance(data, dict) and "t" in data:
        delays.append((arrived - data["t"]) / 1e6)
if not delays:
    sys.exit("no stamped events read")
delays.sort()
def at(p):
    return delays[min(len(delays) - 1, int(len(delays) * p / 100))]
print(f"{len(delays)} events: median {at(50):.2f} ms, p90 {at(90):.2f} ms, p99 {at(99):.2f} ms, max {delays[-1]:.2f} ms")
