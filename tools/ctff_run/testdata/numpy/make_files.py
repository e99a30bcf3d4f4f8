#!/usr/bin/python3
"""Writes the numpy test files of ctff-run (test_run.cmake) into this directory, with numpy's own
np.save / np.savez / np.savez_compressed (run with /usr/bin/python3: Debian's python3-numpy).

  identity.npz             the argument of identity.textproto, every kind of value, as the JSON
                           argument `identity` of test_run.cmake holds it (np.savez)
  identity_compressed.npz  the same, np.savez_compressed
  identity_swapped.npz     the same, big-endian where numpy has a byte order, the string as '<U',
                           i64 in Fortran order
  sum_v1.npy, sum_v2.npy, sum_v3.npy  [1, 2, 3] as int32, .npy format versions 1.0, 2.0, 3.0
  fedeval.npz              fedeval_round.binpb's argument, one value per client (sequences):
                           the JSON argument `fedeval` of test_run.cmake (np.savez_compressed)
  named.npz                named_params' argument {alpha: 3, beta: [1, 2, 4.5], gamma: 7}
  bad_*.npz, bad_*.npy     arguments that do not fit, or are not numpy's files (test_run.cmake
                           says what each holds)
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def identity(swapped=False):
    def be(a):
        return a.astype(a.dtype.newbyteorder(">")) if swapped and a.dtype.byteorder != "|" else a
    s = 'h\u00e9"llo'
    a = {
        "arg.i8": np.array(-128, np.int8),
        "arg.u64": be(np.array(18446744073709551615, np.uint64)),
        "arg.i64": be(np.array([[9007199254740993, -1], [0, 2]], np.int64)),
        "arg.f16": be(np.array([0.1, 65504, -np.inf], np.float16)),
        # bfloat16 1.5 (0x3fc0): two raw bytes, as numpy holds an ml_dtypes.bfloat16.
        "arg.bf": np.array(0x3FC0, "<u2").view("V2"),
        "arg.f32": be(np.array([0.1, -0.0, 1e20, np.nan], np.float32)),
        "arg.f64": be(np.array(1e-7, np.float64)),
        "arg.c64": be(np.array([1 + 2j, 0.5 + np.inf * 1j], np.complex64)),
        "arg.s": np.array(s) if swapped else np.array(s.encode()),
        "arg.b": np.array([True, False]),
        "arg.u[0]": be(np.array(7, np.int32)),
        "arg.seq[0]": be(np.array(1, np.int32)),
        "arg.seq[1]": be(np.array(2, np.int32)),
        "arg.seq[2]": be(np.array(3, np.int32)),
        "arg.r": be(np.array([[1, 2]], np.float32)),
        "arg.srv": be(np.array(5, np.int32)),
        "arg.cl": be(np.array([1.5, 2], np.float64)),
        "arg.ae": be(np.array(9, np.int32)),
    }
    # c64's imaginary inf: 0.5 + inf*1j is nan+infj in numpy arithmetic; set the parts directly.
    c = np.zeros(2, np.complex64)
    c.real = [1, 0.5]
    c.imag = [2, np.inf]
    a["arg.c64"] = be(c)
    if swapped:
        a["arg.i64"] = np.asfortranarray(a["arg.i64"])
    return a


def main():
    np.savez(os.path.join(HERE, "identity.npz"), **identity())
    np.savez_compressed(os.path.join(HERE, "identity_compressed.npz"), **identity())
    np.savez(os.path.join(HERE, "identity_swapped.npz"), **identity(swapped=True))
    for v in (1, 2, 3):
        with open(os.path.join(HERE, "sum_v%d.npy" % v), "wb") as f:
            np.lib.format.write_array(f, np.array([1, 2, 3], np.int32), version=(v, 0))
    # fedeval: weights 784x10, row i < 10 the one-hot of class i; client 0 one batch of a and b,
    # client 1 two batches, c then e (test_run.cmake's rows).
    w = np.zeros((784, 10), np.float32)
    w[np.arange(10), np.arange(10)] = 1

    def row(at, value):
        r = np.zeros(784, np.float32)
        r[at] = value
        return r
    np.savez_compressed(
        os.path.join(HERE, "fedeval.npz"),
        **{"arg.model.weights": w, "arg.model.bias": np.zeros(10, np.float32),
           "arg.client_data[0][0].x": np.stack([row(3, 1), row(2, 2)]),
           "arg.client_data[0][0].y": np.array([3, 5], np.int32),
           "arg.client_data[1][0].x": row(7, 0.5)[None, :], "arg.client_data[1][0].y": np.array([7], np.int32),
           "arg.client_data[1][1].x": row(4, 3)[None, :], "arg.client_data[1][1].y": np.array([4], np.int32)})
    # named_params and the arrays that do not fit it.
    named = {"arg.alpha": np.array(3, np.int32), "arg.beta": np.array([1, 2, 4.5], np.float32),
             "arg.gamma": np.array(7, np.int32)}
    np.savez(os.path.join(HERE, "named.npz"), **named)
    np.savez(os.path.join(HERE, "bad_missing.npz"), **{k: v for k, v in named.items() if k != "arg.gamma"})
    np.savez(os.path.join(HERE, "bad_extra.npz"), **named, **{"arg.delta": np.array(0, np.int32)})
    np.savez(os.path.join(HERE, "bad_dtype.npz"), **{**named, "arg.alpha": np.array(3, np.int64)})
    np.savez(os.path.join(HERE, "bad_shape.npz"), **{**named, "arg.gamma": np.array([7], np.int32)})
    np.savez(os.path.join(HERE, "bad_scalar_clients.npz"), **{**named, "arg.beta": np.array(1, np.float32)})
    # zip_unnamed: a of 2 clients, b of 1.
    np.savez(os.path.join(HERE, "bad_clients.npz"),
             **{"arg.a": np.array([1, 2], np.int32), "arg.b": np.array([0.5], np.float32)})
    # sum_clients: an object array (pickled), a structured array, a truncated archive, a damaged
    # stored member (CRC-32), a .npy cut short.
    np.save(os.path.join(HERE, "bad_object.npy"), np.array([1, "x"], dtype=object), allow_pickle=True)
    np.save(os.path.join(HERE, "bad_structured.npy"), np.zeros(3, dtype=[("a", "<i4")]))
    with open(os.path.join(HERE, "identity.npz"), "rb") as f:
        whole = f.read()
    with open(os.path.join(HERE, "bad_truncated.npz"), "wb") as f:
        f.write(whole[:1000])
    at = whole.index(b"\x93NUMPY") + 128  # the first member's elements
    with open(os.path.join(HERE, "bad_crc.npz"), "wb") as f:
        f.write(whole[:at] + bytes([whole[at] ^ 1]) + whole[at + 1:])
    with open(os.path.join(HERE, "sum_v1.npy"), "rb") as f:
        npy = f.read()
    with open(os.path.join(HERE, "bad_short.npy"), "wb") as f:
        f.write(npy[:-1])


if __name__ == "__main__":
    main()
