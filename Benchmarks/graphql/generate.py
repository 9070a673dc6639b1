"""Writes a GraphQL schema of GitHub's public schema's size (about 1.5 MB of SDL, 3,000 types:
objects with descriptions, arguments and deprecations, interfaces, unions, enums, input objects,
connections) and a 12 KB operation over it, for Benchmarks/graphql.sh.

    python generate.py OUT_DIR
"""
import os
import random
import sys

out = sys.argv[1]
random.seed(32)
scalars = ["String", "Int", "Float", "Boolean", "ID", "DateTime", "URI"]
words = "repository issue pull request commit branch label milestone project team member review comment".split()


def describe(name):
    return '"""\n' + f"The {name} as the API knows it: " + " ".join(random.choice(words) for _ in range(8)) + '\n"""\n'


objects = [f"Object{n}" for n in range(1800)]
interfaces = [f"Node{n}" for n in range(60)]
enums = [f"Kind{n}" for n in range(500)]
inputs = [f"Input{n}" for n in range(500)]
unions = [f"Result{n}" for n in range(140)]
parts = ["scalar DateTime\nscalar URI\n"]
for name in interfaces:
    parts.append(describe(name) + f"interface {name} {{\n  id: ID!\n  url: URI\n}}\n")
for name in enums:
    values = "\n".join(f"  VALUE_{k}" for k in range(random.randint(3, 9)))
    parts.append(describe(name) + f"enum {name} {{\n{values}\n}}\n")
for name in inputs:
    fields = "\n".join(
        f"  field{k}: {random.choice(scalars + enums[:50])}{'!' if k == 0 else ''}" for k in range(random.randint(2, 7)))
    parts.append(describe(name) + f"input {name} {{\n{fields}\n}}\n")
implementations = {}
for index, name in enumerate(objects):
    interface = interfaces[index % len(interfaces)]
    implementations.setdefault(interface, []).append(name)
    fields = ["  id: ID!", "  url: URI"]
    for k in range(random.randint(8, 16)):
        kind = random.random()
        if kind < 0.5:
            type_ = random.choice(scalars) + random.choice(["", "!"])
        elif kind < 0.7:
            type_ = random.choice(enums)
        else:
            type_ = f"[{random.choice(objects)}!]"
        arguments = ""
        if random.random() < 0.3:
            arguments = f"(first: Int = 10, after: String, filter: {random.choice(inputs)})"
        deprecated = ' @deprecated(reason: "use field0")' if random.random() < 0.05 else ""
        fields.append(f'  "The {random.choice(words)} it has."\n  field{k}{arguments}: {type_}{deprecated}')
    parts.append(describe(name) + f"type {name} implements {interface} {{\n" + "\n".join(fields) + "\n}\n")
for name in unions:
    members = " | ".join(random.sample(objects, 4))
    parts.append(describe(name) + f"union {name} = {members}\n")
roots = "\n".join(f"  object{n}(id: ID!): {objects[n]}" for n in range(300))
parts.append(f'type Query {{\n{roots}\n  node(id: ID!): {interfaces[0]}\n  search(query: String!, first: Int): [{unions[0]}!]!\n}}\n')
mutations = "\n".join(f"  update{n}(input: {inputs[n]}!): {objects[n]}" for n in range(200))
parts.append(f"type Mutation {{\n{mutations}\n}}\n")
with open(os.path.join(out, "large.graphql"), "w") as file:
    file.write("\n".join(parts))

# A 12 KB operation: root fields with nested selections, fragments and variables.
import re
sdl = "\n".join(parts)
fields_of = {}
for match in re.finditer(r"type (Object\d+) implements \w+ \{\n(.*?)\n\}", sdl, re.S):
    fields_of[match.group(1)] = re.findall(r"^  (field\d+)(\([^)]*\))?: (\[?)(\w+)", match.group(2), re.M)


def selection(type_, depth):
    chosen = ["id"]
    for name, arguments, _, inner in fields_of.get(type_, [])[:6]:
        if inner in fields_of and depth < 2:
            chosen.append(f"{name}{'(first: 5)' if arguments else ''} {{ {selection(inner, depth + 1)} }}")
        elif inner not in fields_of:
            chosen.append(name + ("(first: 5)" if arguments else ""))
    return " ".join(chosen)


body = []
n = 0
while len(" ".join(body)) < 12_000:
    body.append(f"o{n}: object{n}(id: $id) {{ {selection(objects[n], 0)} }}")
    n += 1
with open(os.path.join(out, "operation.graphql"), "w") as file:
    file.write("query Large($id: ID!) {\n  " + "\n  ".join(body) + "\n}\n")
