#!/usr/bin/env python3
"""Writes the seeds of ctff_fuzz_value (tests/fuzz/corpus/value): the Value of every CreateValue
request recorded from TFF's clients (tests/remote/recorded/*.txt) and hand-made values (every
dtype in its typed list and in raw `content`, structs, federated values, sequences, literal
computations), serialized, each in a file named by the SHA-1 of its bytes.

    value_seeds.py --messages BUILD/proto/python OUT_DIR

(--messages: the Python messages CMake generates, target ctff_remote_python.)
"""

import argparse
import hashlib
import pathlib
import struct
import sys

HERE = pathlib.Path(__file__).resolve().parent
RECORDED = HERE.parent / "remote" / "recorded"

# (dtype, typed-list field, text of two values, struct format of one element in `content`).
DTYPES = [
    ("DT_BOOL", "bool_list", "true false", "?"),
    ("DT_INT8", "int8_list", "-128 127", "b"),
    ("DT_INT16", "int16_list", "-32768 7", "h"),
    ("DT_INT32", "int32_list", "-1 2147483647", "i"),
    ("DT_INT64", "int64_list", "-9223372036854775808 5", "q"),
    ("DT_UINT8", "uint8_list", "0 255", "B"),
    ("DT_UINT16", "uint16_list", "1 65535", "H"),
    ("DT_UINT32", "uint32_list", "0 4294967295", "I"),
    ("DT_UINT64", "uint64_list", "0 18446744073709551615", "Q"),
    ("DT_HALF", "float16_list", "15360 31744", "H"),          # 1.0, +inf
    ("DT_BFLOAT16", "bfloat16_list", "16256 32704", "H"),     # 1.0, NaN
    ("DT_FLOAT", "float32_list", "1.5 -0.0", "f"),
    ("DT_DOUBLE", "float64_list", "2.25 1e300", "d"),
    ("DT_COMPLEX64", "complex64_list", "1 2 3 4", "ff"),
    ("DT_COMPLEX128", "complex128_list", "0.5 -1 nan inf", "dd"),
    ("DT_STRING", "string_list", '"a" "\\000b"', None),
]

I32 = 'array { dtype: DT_INT32 shape { } int32_list { value: 7 } }'
F32x2 = 'array { dtype: DT_FLOAT shape { dim: 2 } float32_list { value: 1 value: 2 } }'
CLIENTS = 'placement { value { uri: "clients" } }'
SERVER = 'placement { value { uri: "server" } }'
I32_TYPE = 'tensor { dtype: DT_INT32 }'
LITERAL = ('computation { type { tensor { dtype: DT_INT32 } } '
           'literal { value { dtype: DT_INT32 shape { } int32_list { value: 3 } } } }')


def hand_made():
    out = []
    for dt, field, values, fmt in DTYPES:
        vals = " ".join(f"value: {v}" for v in values.split())
        n = 2
        out.append(f"array {{ dtype: {dt} shape {{ dim: {n} }} {field} {{ {vals} }} }}")
        out.append(f"array {{ dtype: {dt} shape {{ dim: 0 dim: 3 }} }}")  # no elements
        if fmt:
            per = len(fmt)
            nums = [0, 1, 2, 3][: n * per]
            if fmt[0] in "fd":
                raw = struct.pack("<" + fmt[0] * (n * per), *[float(x) for x in nums])
            elif fmt == "?":
                raw = bytes([1, 0])
            else:
                raw = struct.pack("<" + fmt * n, *nums)
            esc = "".join(f"\\{b:03o}" for b in raw)
            out.append(f'array {{ dtype: {dt} shape {{ dim: 1 dim: {n} }} content: "{esc}" }}')
    out += [
        'struct { }',
        f'struct {{ element {{ name: "a" value {{ {I32} }} }} element {{ value {{ {F32x2} }} }} }}',
        f'struct {{ element {{ value {{ struct {{ element {{ name: "x" value {{ {I32} }} }} }} }} }} }}',
        f'federated {{ type {{ {CLIENTS} member {{ {I32_TYPE} }} }} value {{ {I32} }} value {{ {I32} }} }}',
        f'federated {{ type {{ {CLIENTS} all_equal: true }} value {{ {I32} }} }}',
        f'federated {{ type {{ {SERVER} all_equal: true member {{ {I32_TYPE} }} }} value {{ {F32x2} }} }}',
        f'federated {{ type {{ {CLIENTS} }} }}',  # no clients
        'sequence { }',
        f'sequence {{ element_type {{ {I32_TYPE} }} element {{ flat_value {{ dtype: DT_INT32 shape {{ }} '
        'int32_list { value: 1 } } } element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 2 } } } }',
        'sequence { element_type { struct { element { name: "x" value { tensor { dtype: DT_INT32 } } } '
        'element { name: "y" value { struct { element { value { tensor { dtype: DT_FLOAT dims: 2 } } } } } } } } '
        'element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 1 } } '
        'flat_value { dtype: DT_FLOAT shape { dim: 2 } float32_list { value: 1 value: 2 } } } }',
        LITERAL,
        f'struct {{ element {{ value {{ {LITERAL} }} }} element {{ value {{ {I32} }} }} }}',
        f'federated {{ type {{ {CLIENTS} }} value {{ {LITERAL} }} value {{ {I32} }} }}',
    ]
    return out


def recorded():
    out = []
    for path in sorted(RECORDED.glob("*.txt")):
        lines = path.read_text().splitlines()
        for k, line in enumerate(lines):
            if line == "== CreateValue":
                out.append(("request", lines[k + 1]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", required=True)
    ap.add_argument("out")
    args = ap.parse_args()
    sys.path.insert(0, args.messages)
    from google.protobuf import text_format
    from tensorflow_federated.proto.v0 import executor_pb2

    blobs = set()
    for _, text in recorded():
        rq = text_format.Parse(text, executor_pb2.CreateValueRequest())
        blobs.add(rq.value.SerializeToString())
    for text in hand_made():
        blobs.add(text_format.Parse(text, executor_pb2.Value()).SerializeToString())
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for b in sorted(blobs):
        (out / hashlib.sha1(b).hexdigest()).write_bytes(b)
    print(f"{len(blobs)} seeds in {out}")


if __name__ == "__main__":
    main()
