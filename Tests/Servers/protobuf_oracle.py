"""Python's protobuf (json_format) as the oracle for FathomProtobuf: random messages of a proto,
and the check of what Fathom made of them.

  protobuf_oracle.py generate --proto-dir DIR --proto FILE --message NAME --count N --seed S --out OUT
      compiles FILE with grpc_tools.protoc (OUT/descriptors.pb, every import included, and the
      Python module), then writes N random messages to OUT/cases.jsonl: each as its binary
      encoding (base64) and json_format's JSON of it (or why json_format refused it).
  protobuf_oracle.py check --out OUT
      reads OUT/fathom.jsonl (Fathom's JSON of each binary, and Fathom's binary of each JSON) and
      prints a JSON summary: how many agree, and the first mismatches.
"""
import base64
import importlib
import json
import math
import os
import random
import struct
import subprocess
import sys

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor as FD

INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
UINT32 = (0, 2**32 - 1)
UINT64 = (0, 2**64 - 1)


def compile_proto(proto_dir, proto, out):
    import grpc_tools
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{proto_dir}", f"-I{include}",
         f"--descriptor_set_out={out}/descriptors.pb", "--include_imports", "--include_source_info",
         f"--python_out={out}", proto],
        check=True)
    sys.path.insert(0, out)
    return importlib.import_module(proto[:-len(".proto")].replace("/", ".") + "_pb2")


class Generator:
    def __init__(self, seed):
        self.random = random.Random(seed)

    def chance(self, percent):
        return self.random.random() * 100 < percent

    def integer(self, bounds):
        low, high = bounds
        pick = self.random.randrange(6)
        if pick == 0:
            return self.random.choice([low, high, 0, 1, -1 if low < 0 else 2])
        if pick == 1:
            return self.random.randint(max(low, -300), min(high, 300))
        if pick == 2:
            bits = self.random.choice([7, 8, 14, 16, 21, 28, 31, 32, 35, 49, 56, 63, 64])
            value = self.random.getrandbits(bits)
            if low < 0 and self.chance(50):
                value = -value
            return max(low, min(high, value))
        return self.random.randint(low, high)

    def double(self, single):
        pick = self.random.randrange(8)
        if pick == 0:
            return self.random.choice([0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.5, 0.1])
        if pick == 1:
            # The largest float seldom: json_format writes it as 3.4028235e+38 and cannot read that.
            if single and self.chance(5):
                return 3.4028234663852886e38
            return self.random.choice([-3.4028e38, 1.17549435e-38, 1.401298464324817e-45]) if single \
                else self.random.choice([sys.float_info.max, sys.float_info.min, 5e-324, 1e300, 2**53 + 1.0])
        if pick == 2:
            return float(self.random.randint(-(2**40), 2**40))
        while True:
            if single:
                value = struct.unpack("<f", struct.pack("<I", self.random.getrandbits(32)))[0]
            else:
                value = struct.unpack("<d", struct.pack("<Q", self.random.getrandbits(64)))[0]
            if not math.isnan(value):
                return value

    def text(self):
        alphabet = ["a", "b", "Z", "0", " ", "_", "\"", "\\", "/", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "ß",
                    "€", "中", "\u2028", "\ufeff", "😀", "𝄞", "<", "&"]
        return "".join(self.random.choice(alphabet) for _ in range(self.random.randrange(0, 12)))

    def bytes(self):
        return bytes(self.random.getrandbits(8) for _ in range(self.random.randrange(0, 20)))

    def scalar(self, field):
        kind = field.type
        if kind in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32):
            return self.integer(INT32)
        if kind in (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
            return self.integer(INT64)
        if kind in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
            return self.integer(UINT32)
        if kind in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
            return self.integer(UINT64)
        if kind == FD.TYPE_FLOAT:
            return self.double(True)
        if kind == FD.TYPE_DOUBLE:
            return self.double(False)
        if kind == FD.TYPE_BOOL:
            return self.chance(50)
        if kind == FD.TYPE_STRING:
            return self.text()
        if kind == FD.TYPE_BYTES:
            return self.bytes()
        if kind == FD.TYPE_ENUM:
            if field.enum_type.full_name == "google.protobuf.NullValue":
                return 0
            if not field.enum_type.is_closed and self.chance(15):
                return self.integer(INT32)
            return self.random.choice(field.enum_type.values).number
        raise ValueError(field.full_name)

    def json_value(self, depth):
        pick = self.random.randrange(8 if depth < 3 else 4)
        if pick == 0:
            return None
        if pick == 1:
            return self.chance(50)
        if pick == 2:
            value = self.double(False)
            return value if math.isfinite(value) else 2.5
        if pick == 3:
            return self.text()
        if pick < 6:
            return [self.json_value(depth + 1) for _ in range(self.random.randrange(0, 4))]
        return {self.text(): self.json_value(depth + 1) for _ in range(self.random.randrange(0, 4))}

    def field_mask_path(self):
        words = ["foo", "bar_baz", "a", "x1", "deep_nested_name"]
        return ".".join(self.random.choice(words) for _ in range(self.random.randrange(1, 4)))

    def well_known(self, message, depth):
        """Fills a well-known type with a value json_format can write; False if not one."""
        name = message.DESCRIPTOR.full_name
        if name == "google.protobuf.Duration":
            seconds = self.integer((-315576000000, 315576000000))
            nanos = self.random.choice([0, 0, 500000000, 123000000, 123456000, 123456789, 1])
            if seconds < 0 or (seconds == 0 and self.chance(50)):
                nanos = -nanos
            if abs(seconds) == 315576000000:
                nanos = 0
            message.seconds, message.nanos = seconds, nanos
        elif name == "google.protobuf.Timestamp":
            message.seconds = self.integer((-62135596800, 253402300799))
            message.nanos = self.random.choice([0, 0, 1, 10, 999999999, 123000000, 123456000, self.random.randrange(10**9)])
        elif name == "google.protobuf.FieldMask":
            message.paths.extend(self.field_mask_path() for _ in range(self.random.randrange(0, 4)))
        elif name == "google.protobuf.Struct":
            message.update({self.text(): self.json_value(1) for _ in range(self.random.randrange(0, 4))})
        elif name == "google.protobuf.Value":
            json_format.ParseDict(self.json_value(0), message)
        elif name == "google.protobuf.ListValue":
            json_format.ParseDict([self.json_value(1) for _ in range(self.random.randrange(0, 4))], message)
        elif name == "google.protobuf.Any":
            inner = self.random.choice(self.any_types)()
            self.fill(inner, depth + 1)
            message.Pack(inner)
        elif name.startswith("google.protobuf.") and name.endswith("Value"):
            message.value = self.scalar(message.DESCRIPTOR.fields_by_name["value"])
        elif name == "google.protobuf.Empty":
            pass
        else:
            return False
        return True

    def fill(self, message, depth=0):
        if self.well_known(message, depth):
            return
        for field in message.DESCRIPTOR.fields:
            if not self.chance(35 if depth == 0 else 20):
                continue
            is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
            if is_map:
                key_field = field.message_type.fields_by_name["key"]
                value_field = field.message_type.fields_by_name["value"]
                target = getattr(message, field.name)
                for _ in range(self.random.randrange(0, 4)):
                    key = self.scalar(key_field)
                    if value_field.message_type is not None:
                        if depth < 3:
                            self.fill(target[key], depth + 1)
                    else:
                        target[key] = self.scalar(value_field)
            elif field.is_repeated:
                target = getattr(message, field.name)
                for _ in range(self.random.randrange(0, 5)):
                    if field.message_type is not None:
                        if depth < 3:
                            self.fill(target.add(), depth + 1)
                    else:
                        target.append(self.scalar(field))
            elif field.message_type is not None:
                if depth < 4:
                    sub = getattr(message, field.name)
                    sub.SetInParent()
                    self.fill(sub, depth + 1)
            else:
                setattr(message, field.name, self.scalar(field))


def generate(arguments):
    out = arguments["--out"]
    os.makedirs(out, exist_ok=True)
    module = compile_proto(arguments["--proto-dir"], arguments["--proto"], out)
    message_type = getattr(module, arguments["--message"])
    generator = Generator(int(arguments["--seed"]))
    from google.protobuf import duration_pb2, timestamp_pb2, struct_pb2
    generator.any_types = [message_type, duration_pb2.Duration, timestamp_pb2.Timestamp, struct_pb2.Value]
    for name in ("NestedMessage",):
        if hasattr(message_type, name):
            generator.any_types.append(getattr(message_type, name))
    with open(f"{out}/cases.jsonl", "w") as cases:
        for _ in range(int(arguments["--count"])):
            message = message_type()
            generator.fill(message)
            case = {"binary": base64.b64encode(message.SerializeToString()).decode()}
            try:
                case["json"] = json_format.MessageToJson(message, indent=None)
            except Exception as error:
                case["error"] = str(error).splitlines()[0]
            cases.write(json.dumps(case) + "\n")


def difference(a, b, path="$"):
    """Where two JSON values first differ (numbers by value), or None."""
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return f"{path}: {a!r} | {b!r}"
        if a.keys() != b.keys():
            return f"{path}: keys {sorted(a.keys() ^ b.keys())}"
        return next((d for key in a if (d := difference(a[key], b[key], f"{path}.{key}"))), None)
    if isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            return f"{path}: {str(a)[:200]} | {str(b)[:200]}"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := difference(x, y, f"{path}[{i}]"))), None)
    if isinstance(a, bool) or isinstance(b, bool):
        return None if type(a) is type(b) and a == b else f"{path}: {a!r} | {b!r}"
    if isinstance(a, float) and isinstance(b, float) and a != b and float32(a) == float32(b):
        # A float field's value written with other digits (json_format writes at least six
        # significant ones: 1.4013e-45 for what is also 1e-45). check() then requires the JSON to
        # parse to the very message, so a double written wrong is still caught.
        return None
    return None if a == b else f"{path}: {a!r} | {b!r}"


def same_message(a, b):
    """Equal messages: the same deterministic bytes, or (an Any's bytes are one serialization of
    many) the same text with every Any expanded and map entries in key order."""
    if a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True):
        return True
    from google.protobuf import text_format
    return text_format.MessageToString(a) == text_format.MessageToString(b)


def float32(value):
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return value


def text_difference(a, b):
    import difflib
    lines = difflib.unified_diff(str(a).splitlines(), str(b).splitlines(), lineterm="", n=1)
    return " / ".join(list(lines)[2:12])


def check(arguments):
    out = arguments["--out"]
    sys.path.insert(0, out)
    module = importlib.import_module(arguments["--module"])
    message_type = getattr(module, arguments["--message"])
    summary = {"cases": 0, "pythonRefused": 0, "jsonAgree": 0, "binaryAgree": 0, "refusalsAgree": 0, "pythonCannotReread": 0,
               "mismatches": []}
    # newline="\n": a line ends at "\n" only (Fathom writes U+2028 and friends as they are).
    with open(f"{out}/cases.jsonl", newline="\n") as cases, open(f"{out}/fathom.jsonl", newline="\n") as results:
        for index, (case_line, result_line) in enumerate(zip(cases, results)):
            summary["cases"] += 1
            case = json.loads(case_line)
            try:
                result = json.loads(result_line)
            except ValueError as error:
                summary["mismatches"].append({"case": index, "kind": "unreadable line", "detail": f"{error} {result_line[:300]!r}"})
                continue

            def mismatch(kind, detail):
                if len(summary["mismatches"]) < 8:
                    summary["mismatches"].append({"case": index, "kind": kind, "detail": detail[:600]})

            if "json" not in case:
                summary["pythonRefused"] += 1
                if "json" not in result:
                    summary["refusalsAgree"] += 1
                else:
                    mismatch("python refused, fathom wrote", case["error"] + " | " + result["json"])
                continue
            original = message_type.FromString(base64.b64decode(case["binary"]))
            try:
                parsed = message_type.FromString(base64.b64decode(result["binary"]))
                if same_message(parsed, original):
                    summary["binaryAgree"] += 1
                else:
                    mismatch("JSON → binary", text_difference(original, parsed))
            except Exception as error:
                mismatch("JSON → binary", f"{result.get('encodeError', '')} {error}")
            if "json" not in result:
                mismatch("binary → JSON", f"fathom refused: {result.get('error')}")
            elif (where := difference(json.loads(case["json"]), json.loads(result["json"]))) is not None:
                mismatch("binary → JSON", where)
            else:
                try:
                    expected = json_format.Parse(case["json"], message_type())
                except json_format.ParseError:
                    # json_format cannot read what it wrote: the largest float, written as
                    # 3.4028235e+38, is above its bound. The values compared equal above.
                    summary["pythonCannotReread"] += 1
                    summary["jsonAgree"] += 1
                    continue
                try:
                    reread = json_format.Parse(result["json"], message_type())
                except json_format.ParseError as error:
                    mismatch("binary → JSON", f"json_format cannot read it: {error}")
                    continue
                if same_message(reread, expected):
                    summary["jsonAgree"] += 1
                else:
                    mismatch("binary → JSON", "reads back otherwise: " + text_difference(expected, reread))
    print(json.dumps(summary))


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    arguments = dict(zip(rest[::2], rest[1::2]))
    {"generate": generate, "check": check}[command](arguments)
