#!/usr/bin/env python3
"""Runs fathom's JSON commands and jq side by side on the generated documents and prints ratios.

    Benchmarks/json-vs-jq.sh  (builds fathom in release mode, generates data, then runs this)

Each command runs RUNS times (best wall time kept); peak memory is each process's own maximum RSS,
read with wait4(2). Output goes to /dev/null.
"""
import os
import sys
import time

RUNS = int(os.environ.get("RUNS", "3"))


def measure(argv):
    best, peak = None, 0
    for _ in range(RUNS):
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.execvp(argv[0], argv)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            sys.exit("%s failed with %d" % (" ".join(argv), code))
        best = elapsed if best is None else min(best, elapsed)
        peak = max(peak, usage.ru_maxrss * 1024)
    return best, peak


def mb(n):
    return n / (1024 * 1024)


def compare(title, ours, theirs, size, target):
    t_ours, m_ours = measure(ours)
    t_theirs, m_theirs = measure(theirs)
    print(title)
    print("  fathom  %7.2f s  %7.1f MB peak (%.2f× input)" % (t_ours, mb(m_ours), m_ours / size))
    print("  jq      %7.2f s  %7.1f MB peak (%.2f× input)" % (t_theirs, mb(m_theirs), m_theirs / size))
    print("  fathom is %.1f× faster  (target %s)" % (t_theirs / t_ours, target))


def main():
    fathom, data = sys.argv[1], sys.argv[2]
    big = os.path.join(data, "records-100mb.json")
    if not os.path.exists(big):
        big = os.path.join(data, "records-10mb.json")
    size = os.path.getsize(big)
    print("document: %s (%.1f MB); best of %d runs" % (os.path.basename(big), mb(size), RUNS))
    compare("fmt --color always  vs  jq -C .", [fathom, "fmt", "--color", "always", big], ["jq", "-C", ".", big], size, "≥ 15×, memory ≤ 1.5× input")
    compare("query '$..id'  vs  jq '.. | objects | select(has(\"id\")) | .id'", [fathom, "query", "$..id", big],
            ["jq", ".. | objects | select(has(\"id\")) | .id", big], size, "≥ 3×")

    a = os.path.join(data, "records-10mb-original.json")
    b = os.path.join(data, "records-10mb-mutated.json")
    inserted = int(open(os.path.join(data, "inserted.txt")).read())
    t, m = measure([fathom, "diff", a, b])
    pair = os.path.getsize(a) + os.path.getsize(b)
    print("diff of the 10 MB pair (%.1f MB together)" % mb(pair))
    print("  fathom  %7.2f s  %7.1f MB peak (%.2f× the two inputs)  (target ≤ 0.5 s, ≤ 6×)" % (t, mb(m), m / pair))
    out = os.popen("'%s' diff --format json '%s' '%s'" % (fathom, a, b)).read()
    import json
    summary = json.loads(out)
    whole_records = [c for c in summary["changes"] if c["kind"] == "added" and c["path"].count("[") == 1]
    print("  %d records inserted; reported as %d whole-record insertions; counts %s" % (inserted, len(whole_records), summary["counts"]))


if __name__ == "__main__":
    main()
