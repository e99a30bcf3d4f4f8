#!/usr/bin/python3
"""Writes the seeds of ctff_fuzz_run_arrays (tests/fuzz/corpus/run_arrays) with numpy's own
np.save / np.savez / np.savez_compressed (/usr/bin/python3: Debian's python3-numpy): one file per
type of fuzz_run_arrays.cpp and format, behind the byte that picks them, each in a file named by
the SHA-1 of its bytes.

    arrays_seeds.py OUT_DIR
"""
import hashlib
import io
import os
import sys

import numpy as np


def npz(arrays, compressed=False):
    b = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(b, **arrays)
    return b.getvalue()


def npy(a, version=None):
    b = io.BytesIO()
    if version:
        np.lib.format.write_array(b, a, version=version)
    else:
        np.save(b, a)
    return b.getvalue()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    every = {
        "arg.i8": np.array(-128, np.int8), "arg.u64": np.array([1, 2**64 - 1], np.uint64),
        "arg.i64": np.array([[1, -1], [0, 2]], np.int64), "arg.f16": np.array([0.1, -np.inf], np.float16),
        "arg.bf": np.array(0x3FC0, "<u2").view("V2"), "arg.f64": np.array([[1.5]], np.float64),
        "arg.c64": np.array([1 + 2j], np.complex64), "arg.c128": np.array(3j, np.complex128),
        "arg.s": np.array([b"ab", b"c"]), "arg.b": np.array(True), "arg[10][0]": np.array(7, np.uint16),
        "arg.u32": np.array(9, np.uint32), "arg.i16": np.array(-3, np.int16), "arg.u8": np.array(255, np.uint8),
        "arg.f32": np.array(np.nan, np.float32),
    }
    swapped = {k: (v.astype(v.dtype.newbyteorder(">")) if v.dtype.byteorder not in "|" else v) for k, v in every.items()}
    swapped["arg.s"] = np.array(["\u00e9", "x"])
    swapped["arg.i64"] = np.asfortranarray(every["arg.i64"])
    clients = {"arg.cl[0]": np.array([1, 2], np.uint32), "arg.cl.y": np.array([[0.5], [1.5]], np.float32),
               "arg.seq[0][0].x": np.array([1, 2], np.int16), "arg.seq[1][0].x": np.array([], np.int16),
               "arg.seq[1][1].x": np.array([3], np.int16), "arg.ae": np.array(4, np.uint8)}
    per_client = {"arg.cl[0][0]": np.array(1, np.uint32), "arg.cl[0].y": np.array([0.5], np.float32),
                  "arg.cl[1][0]": np.array(2, np.uint32), "arg.cl[1].y": np.array([1.5, 2], np.float32),
                  "arg.ae": np.array(4, np.uint8)}
    named = {"arg.alpha": np.array(3, np.int32), "arg.beta": np.array([1, 2, 4.5], np.float32),
             "arg.gamma": np.array(7, np.int32)}
    seeds = [
        bytes([0]) + npz({"arg": np.array([1, 2, 3], np.int32)}),
        bytes([4]) + npy(np.array([1, 2, 3], np.int32)),
        bytes([4]) + npy(np.array([1, 2, 3], ">i4"), (2, 0)),
        bytes([4]) + npy(np.array([], np.int32), (3, 0)),
        bytes([1]) + npz(named),
        bytes([1]) + npz(named, compressed=True),
        bytes([2]) + npz(every, compressed=True),
        bytes([2]) + npz(swapped, compressed=True),
        bytes([3]) + npz(clients),
        bytes([3]) + npz(per_client, compressed=True),
    ]
    for s in seeds:
        assert len(s) <= 4096, len(s)
        with open(os.path.join(out, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)


if __name__ == "__main__":
    main()
