#!/usr/bin/python3
"""Checks with numpy the files ctff-run's --output wrote in test_run.cmake (WORK, its argument):
identity_out.npz (every kind of value), sum_out.npy (a scalar), zip_out.npz (stacked clients)."""
import math
import os
import sys

import numpy as np


def main():
    work = sys.argv[1]
    d = np.load(os.path.join(work, "identity_out.npz"))
    want = {
        "result.i8": (np.int8, -128), "result.u64": (np.uint64, 18446744073709551615),
        "result.i64": (np.int64, [[9007199254740993, -1], [0, 2]]),
        "result.f16": (np.float16, [0.1, 65504, -np.inf]), "result.f64": (np.float64, 1e-7),
        "result.c64": (np.complex64, [1 + 2j, complex(0.5, np.inf)]), "result.s": (np.bytes_, 'h\u00e9"llo'.encode()),
        "result.b": (np.bool_, [True, False]), "result.u[0]": (np.int32, 7), "result.seq[0]": (np.int32, 1),
        "result.seq[1]": (np.int32, 2), "result.seq[2]": (np.int32, 3), "result.r": (np.float32, [[1, 2]]),
        "result.srv": (np.int32, 5), "result.cl": (np.float64, [1.5, 2]), "result.ae": (np.int32, 9),
    }
    assert sorted(d.keys()) == sorted(list(want) + ["result.bf", "result.f32"]), sorted(d.keys())
    for k, (t, v) in want.items():
        a = d[k]
        assert a.dtype.type == t and np.array_equal(a, np.array(v, t)), (k, a)
    f32 = d["result.f32"]
    assert f32.dtype == np.float32 and list(f32[:3]) == [np.float32(0.1), 0, np.float32(1e20)], f32
    assert math.copysign(1, f32[1]) < 0 and np.isnan(f32[3]), f32
    assert d["result.bf"].dtype == np.dtype("V2") and d["result.bf"].tobytes() == b"\xc0\x3f", d["result.bf"]
    s = np.load(os.path.join(work, "sum_out.npy"))
    assert s.dtype == np.int32 and s.shape == () and s == 6, s
    z = np.load(os.path.join(work, "zip_out.npz"))  # {<int32,float32>}@CLIENTS: [[1,0.5],[2,1.5]]
    assert list(z.keys()) == ["result[0]", "result[1]"], list(z.keys())
    assert z["result[0]"].dtype == np.int32 and list(z["result[0]"]) == [1, 2]
    assert z["result[1]"].dtype == np.float32 and list(z["result[1]"]) == [0.5, 1.5]
    print("numpy reads ctff-run's --output files")


if __name__ == "__main__":
    main()
