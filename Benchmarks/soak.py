#!/usr/bin/env python3
"""Soak: COUNT requests in one interactive prompt session (a real pseudo-terminal, so the line
editor, the prompt snapshot and the history file are all in play), starting from a history file
that already holds 10,000 lines. Prints, per thousand requests, the time they took and the
process's resident memory: both should stay flat.

    Benchmarks/soak.py FATHOM_BINARY [COUNT]
"""
import os, pty, re, select, subprocess, sys, tempfile, threading, time

binary = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
state = tempfile.mkdtemp(prefix="fathom-soak-")
os.makedirs(f"{state}/fathom")
with open(f"{state}/fathom/history", "w") as history:
    for index in range(10_000):
        history.write(f"get /users/{index % 25 + 1}\n")

server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
base = server.stdout.readline().strip()

primary, secondary = pty.openpty()
env = dict(os.environ, XDG_STATE_HOME=state, NO_COLOR="1", TERM="xterm")
fathom = subprocess.Popen([binary, base], stdin=secondary, stdout=secondary, stderr=secondary, env=env,
                          start_new_session=True)
os.close(secondary)

def feed():
    os.write(primary, b"pager off\r")
    for index in range(count):
        os.write(primary, f"get /users/{index % 25 + 1}\r".encode())
    os.write(primary, b"exit\r")

threading.Thread(target=feed, daemon=True).start()

def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

numbers = re.compile(rb"#(\d+)\s")
last_seen, mark, started = 0, 1000, time.monotonic()
previous = started
tail = b""
print(f"{'requests':>9} {'ms per 1,000':>13} {'RSS MiB':>8}")
while True:
    ready, _, _ = select.select([primary], [], [], 30)
    if not ready:
        print("no output for 30 s: stopped"); break
    try:
        chunk = os.read(primary, 65536)
    except OSError:
        break
    if not chunk:
        break
    found = numbers.findall(tail + chunk)
    tail = chunk[-32:]
    if found:
        last_seen = max(last_seen, max(int(n) for n in found))
    while last_seen >= mark:
        now = time.monotonic()
        print(f"{mark:>9} {(now - previous) * 1000:>13.0f} {rss_mib(fathom.pid):>8.1f}", flush=True)
        previous, mark = now, mark + 1000
    if last_seen >= count:
        break
fathom.wait(timeout=30)
server.terminate()
with open(f"{state}/fathom/history") as history:
    lines = sum(1 for _ in history)
print(f"{count} requests in {time.monotonic() - started:.1f} s; the history file holds {lines} lines (kept: the last 1,000)")
