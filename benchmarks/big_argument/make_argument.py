#!/usr/bin/python3
"""Writes the big-argument benchmark of ctff-run (issue 45, item 4) into OUT_DIR (not committed):

    make_argument.py OUT_DIR [CLIENTS]      (/usr/bin/python3: needs numpy)

  sum_models.textproto  ({float32[784,10]}@CLIENTS -> float32[784,10]@SERVER): federated_sum
  arg.json              CLIENTS (default 1,000) client models as JSON: 68 MB at 1,000
  arg.npz, arg.npy      the same argument as numpy writes it: one array `arg` of [CLIENTS,784,10]
                        (np.savez; .npy: np.save)
  arg_compressed.npz    np.savez_compressed

Values: uniform in [-1, 1) rounded to 5 decimals (the JSON text is their repr), seed 45.
Run:  ctff-run OUT_DIR/sum_models.textproto OUT_DIR/arg.json   (or arg.npz)
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    out = sys.argv[1]
    clients = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(HERE, "sum_models.textproto")) as f:
        comp = f.read()
    with open(os.path.join(out, "sum_models.textproto"), "w") as f:
        f.write(comp)
    rng = np.random.default_rng(45)
    x = np.round(rng.uniform(-1, 1, size=(clients, 784, 10)), 5)
    with open(os.path.join(out, "arg.json"), "w") as f:
        f.write("[")
        for c in range(clients):
            if c:
                f.write(",")
            f.write("[" + ",".join("[" + ",".join(map(repr, row.tolist())) + "]" for row in x[c]) + "]")
        f.write("]\n")
    a = x.astype(np.float32)
    np.savez(os.path.join(out, "arg.npz"), arg=a)
    np.savez_compressed(os.path.join(out, "arg_compressed.npz"), arg=a)
    np.save(os.path.join(out, "arg.npy"), a)


if __name__ == "__main__":
    main()
