#!/usr/bin/env python3
"""Flat memory over many rounds (issue 52 item 5): Python's FedAvg round
(tests/forms/goldens/fedavg.binpb, its TensorFlow blocks bound by examples/plugin/fedavg_plugin)
run ROUNDS times through ctff_remote over three ctff-worker processes and their controller
(ctff-worker --workers), the model of each round fed to the next; the resident memory (VmRSS) of
the three workers and the controller after round 10 and at checkpoints after, and whether the
last is within 5 % of round 10's.

    tools/flat_memory.py --worker BUILD/tools/ctff_worker/ctff-worker \\
        --plugin BUILD/examples/plugin/fedavg_plugin.so --messages BUILD/proto/python \\
        [--rounds 1000] [--clients 300] [--examples 20]

Prints a Markdown table (docs/performance.md); exit 1 when a process grew by more than 5 %.
Run it with Debian's python3 (grpcio, protobuf, numpy).
"""

import argparse
import pathlib
import re
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

import numpy as np  # noqa: E402


def rss_kib(pid):
  status = pathlib.Path(f"/proc/{pid}/status").read_text()
  return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  ap.add_argument("--worker", required=True)
  ap.add_argument("--plugin", required=True)
  ap.add_argument("--messages", required=True)
  ap.add_argument("--rounds", type=int, default=1000)
  ap.add_argument("--clients", type=int, default=300)
  ap.add_argument("--examples", type=int, default=20)
  args = ap.parse_args()

  import ctff_remote  # pylint: disable=import-outside-toplevel
  ctff_remote.set_proto_path(args.messages)
  comp = (ROOT / "tests" / "forms" / "goldens" / "fedavg.binpb").read_bytes()
  rng = np.random.default_rng(7)
  data = [[{"x": rng.normal(size=2).astype(np.float32), "y": np.float32(rng.normal())}
           for _ in range(args.examples)] for _ in range(args.clients)]
  model = {"weights": np.zeros(2, np.float32), "bias": np.float32(0)}

  workers = [ctff_remote.start_worker(args.worker, ["--threads=1", f"--bind={args.plugin}"]) for _ in range(3)]
  checkpoints = sorted({10, 100, args.rounds // 2, args.rounds} & set(range(10, args.rounds + 1)))
  rows = {}
  started = time.monotonic()
  try:
    with ctff_remote.execution_context([a for _, a in workers], controller_binary=args.worker,
                                       controller_args=["--threads=1", f"--bind={args.plugin}"]) as ctx:
      pids = [("controller", ctx.controller.pid)] + [(f"worker {k}", p.pid) for k, (p, _) in enumerate(workers)]
      for r in range(1, args.rounds + 1):
        new_model, loss = ctx.invoke(comp, {"model": model, "data": data})
        model = {"weights": np.asarray(new_model["weights"], np.float32), "bias": np.float32(new_model["bias"])}
        if not np.isfinite(loss):
          raise RuntimeError(f"round {r}: the loss is {loss}")
        if r in checkpoints:
          rows[r] = [rss_kib(pid) for _, pid in pids]
  finally:
    for p, _ in workers:
      p.terminate()
      p.wait(timeout=20)
  seconds = time.monotonic() - started

  print(f"{args.rounds} rounds of FedAvg ({args.clients} clients x {args.examples} examples) over 3 ctff-worker "
        f"processes and their controller, {seconds:.1f} s; resident memory (VmRSS, MiB) after round:\n")
  print("| process | " + " | ".join(f"round {r}" for r in checkpoints) + " | last / round 10 |")
  print("|---|" + "---:|" * (len(checkpoints) + 1))
  grew = False
  for k, (name, _) in enumerate(pids):
    first, last = rows[checkpoints[0]][k], rows[checkpoints[-1]][k]
    ratio = last / first
    grew = grew or ratio > 1.05
    print(f"| {name} | " + " | ".join(f"{rows[r][k] / 1024:.1f}" for r in checkpoints) + f" | {ratio:.3f} |")
  print("\nwithin 5 %: " + ("no" if grew else "yes"))
  return 1 if grew else 0


if __name__ == "__main__":
  sys.exit(main())
