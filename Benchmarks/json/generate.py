#!/usr/bin/env python3
"""Deterministic API-like JSON documents for the JSON benchmarks.

    generate.py OUT_DIR [MB ...]     writes records-<MB>mb.json for each size (default 10 100)
                                     and records-10mb-mutated.json beside the 10 MB one

Records have nested objects, unicode and escapes, and exotic numbers (1.0, -0, 1e3, 2.50,
integers past 2^64). The mutated copy changes about 1% of values, adds and removes keys, and
inserts some whole records, whose count it prints.
"""
import json
import os
import random
import sys

NAMES = ["Ada", "Grace", "Zoë", "Ångström", "Kraków", "東京", "Москва", "José", "O'Brien", 'Quote "Q"']
CITIES = ["Zürich", "São Paulo", "Reykjavík", "Ōsaka", "Dublin", "Tab\tCity", "Line\nBreak"]
NUMBERS = ["1.0", "-0", "1e3", "2.50", "12345678901234567890", "-1.5E-7", "0.1", "100"]


def record(rng, index):
    number = rng.choice(NUMBERS)
    return (
        '{"id":%d,"name":%s,"email":"user%d@example.com","active":%s,"score":%s,'
        '"balance":%s,"tags":%s,"address":{"city":%s,"zip":"%05d","geo":{"lat":%.6f,"lng":%.6f}},'
        '"history":[{"at":"2026-01-%02dT10:00:00Z","event":"login"},{"at":"2026-02-%02dT11:30:00Z","event":"purchase","amount":%d.%02d}],'
        '"note":%s,"manager":null}'
        % (
            index,
            json.dumps(rng.choice(NAMES) + " " + str(index), ensure_ascii=rng.random() < 0.5),
            index,
            "true" if rng.random() < 0.7 else "false",
            number,
            rng.choice(NUMBERS),
            json.dumps(["t%d" % rng.randrange(50) for _ in range(rng.randrange(4))]),
            json.dumps(rng.choice(CITIES)),
            rng.randrange(100000),
            rng.uniform(-90, 90),
            rng.uniform(-180, 180),
            rng.randrange(1, 29),
            rng.randrange(1, 29),
            rng.randrange(1000),
            rng.randrange(100),
            json.dumps("café \\ slash / emoji 😀 \u0001 end" if rng.random() < 0.1 else "plain note"),
        )
    )


def document(megabytes, seed=7):
    rng = random.Random(seed)
    target = int(megabytes * 1024 * 1024)
    parts, size, index = [], 2, 1
    while size < target:
        text = record(rng, index)
        parts.append(text)
        size += len(text.encode()) + 1
        index += 1
    return parts


def mutate(parts, seed=11):
    """About 1% of values changed, keys added/removed, and whole records inserted."""
    rng = random.Random(seed)
    records = [json.loads(p) for p in parts]
    for rec in records:
        if rng.random() < 0.01:
            rec["email"] = rec["email"].replace("example", "example-new")
        if rng.random() < 0.005:
            rec["address"]["zip"] = "99999"
        if rng.random() < 0.003:
            rec["nickname"] = "new key"
        if rng.random() < 0.003:
            rec.pop("manager", None)
    inserted = 0
    for _ in range(max(3, len(records) // 2000)):
        position = rng.randrange(len(records))
        new = json.loads(record(rng, 10_000_000 + inserted))
        records.insert(position, new)
        inserted += 1
    return [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records], inserted


def write(path, parts):
    with open(path, "w", encoding="utf-8") as out:
        out.write("[")
        out.write(",\n".join(parts))
        out.write("]\n")


def main():
    out_dir = sys.argv[1]
    sizes = [float(s) for s in sys.argv[2:]] or [10, 100]
    os.makedirs(out_dir, exist_ok=True)
    for mb in sizes:
        name = os.path.join(out_dir, "records-%dmb.json" % mb)
        parts = document(mb)
        if not os.path.exists(name):
            write(name, parts)
        if mb == 10:
            # The mutated copy is written from re-serialized records, so rewrite the original the same way
            # for a fair diff: both sides then differ only by the mutations.
            original = [json.dumps(json.loads(p), ensure_ascii=False, separators=(",", ":")) for p in parts]
            write(os.path.join(out_dir, "records-10mb-original.json"), original)
            mutated, inserted = mutate(parts)
            write(os.path.join(out_dir, "records-10mb-mutated.json"), mutated)
            with open(os.path.join(out_dir, "inserted.txt"), "w") as f:
                f.write(str(inserted))


if __name__ == "__main__":
    main()
