#!/usr/bin/env python3
"""The chaos test of failover (docs/distributed.md, "Failover"): 50 FedAvg rounds
(tests/forms/goldens/fedavg.binpb with examples/plugin/fedavg_plugin.cpp bound) through
ctff_remote over 3 ctff-workers, while, at seeded random rounds and moments, a worker is killed
(SIGKILL, started again on its port a little later), stopped (SIGSTOP, past the slice deadline,
then SIGCONT), or restarted (SIGTERM, started again at once). Every round's result must equal the
one computed without ctff (tools/ctff_run/testdata/fedavg_expected.py, float32 op by op, client
order); no round may take longer than its deadlines allow; no process may be left behind.

    chaos_test.py --worker BIN --plugin FEDAVG_PLUGIN.so --messages DIR [--seed S] [--rounds R]
"""

import argparse
import json
import pathlib
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import numpy as np  # noqa: E402

SLICE_DEADLINE = 1.0  # seconds, per attempt at a slice
WORKER_DEADLINE = 2.0  # per request
RETRIES = 3
# A round's bound: every attempt at its slices timing out, and waiting for a worker (the
# controller's connect, 5 s) once; with a margin for a loaded machine.
ROUND_BOUND = (RETRIES + 1) * SLICE_DEADLINE + 5.0 + 5.0


class Worker:
  """One ctff-worker process, started again on the same port after it dies."""

  def __init__(self, args, ctff_remote):
    self.args, self.ctff_remote = args, ctff_remote
    self.all = []  # every process started, to check none is left
    self.proc, self.address = ctff_remote.start_worker(args.worker, self.flags())
    self.all.append(self.proc)
    self.port = int(self.address.rsplit(":", 1)[1])

  def flags(self, port=0):
    return [f"--port={port}", f"--bind={self.args.plugin}", "--threads=1"]

  def start_again(self):
    for attempt in range(50):  # (the port may take a moment to be free again)
      try:
        self.proc, _ = self.ctff_remote.start_worker(self.args.worker, self.flags(self.port))
        self.all.append(self.proc)
        return
      except RuntimeError:
        time.sleep(0.1)
    raise RuntimeError(f"worker on port {self.port}: could not be started again")

  def stop(self):
    for p in self.all:
      if p.poll() is None:
        p.send_signal(signal.SIGCONT)
        p.terminate()
    for p in self.all:
      try:
        p.wait(timeout=20)
      except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def chaos(rng, worker, kind, log):
  """One disruption of `worker`, ended (the worker answering again) before returning."""
  time.sleep(rng.uniform(0.0, 0.05))  # at a random moment of the round
  if kind == "kill":
    worker.proc.send_signal(signal.SIGKILL)
    worker.proc.wait()
    time.sleep(rng.uniform(0.2, 1.0))
    worker.start_again()
  elif kind == "stop":
    worker.proc.send_signal(signal.SIGSTOP)
    time.sleep(SLICE_DEADLINE + rng.uniform(0.3, 1.0))
    worker.proc.send_signal(signal.SIGCONT)
  else:  # restart
    worker.proc.terminate()
    worker.proc.wait(timeout=20)
    worker.start_again()
  log.append(f"{kind} {worker.address}")


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  for flag in ("--worker", "--plugin", "--messages"):  # ctff-worker, fedavg_plugin.so, the messages' directory
    ap.add_argument(flag, required=True)
  for flag, default in (("--seed", 52), ("--rounds", 50), ("--clients", 60)):
    ap.add_argument(flag, type=int, default=default)
  args = ap.parse_args()

  import ctff_remote  # pylint: disable=import-outside-toplevel
  ctff_remote.set_proto_path(args.messages)
  rng = random.Random(args.seed)

  # The round's argument, and its result computed without ctff.
  model = {"weights": [rng.uniform(-1, 1), rng.uniform(-1, 1)], "bias": rng.uniform(-1, 1)}
  data = [[{"x": [rng.uniform(-2, 2), rng.uniform(-2, 2)], "y": rng.uniform(-5, 5)}
           for _ in range(rng.randint(1, 4))] for _ in range(args.clients)]
  f32 = np.float32
  model = {"weights": [float(f32(w)) for w in model["weights"]], "bias": float(f32(model["bias"]))}
  data = [[{"x": [float(f32(v)) for v in e["x"]], "y": float(f32(e["y"]))} for e in c] for c in data]
  with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump({"model": model, "data": data}, f)
  line = subprocess.run([sys.executable, str(ROOT / "tools/ctff_run/testdata/fedavg_expected.py"), f.name],
                        check=True, capture_output=True, text=True).stdout
  pathlib.Path(f.name).unlink()
  expected = json.loads(line)
  arg = {"model": {"weights": np.array(model["weights"], f32), "bias": f32(model["bias"])},
         "data": [[{"x": np.array(e["x"], f32), "y": f32(e["y"])} for e in c] for c in data]}
  comp = (ROOT / "tests/forms/goldens/fedavg.binpb").read_bytes()

  # Which rounds see a disruption, of what kind, to which worker: seeded.
  kinds = ["kill", "stop", "restart"] * 3
  rng.shuffle(kinds)
  at = sorted(rng.sample(range(1, args.rounds - 1), len(kinds)))
  plan = {r: (k, rng.randrange(3)) for r, k in zip(at, kinds)}

  workers = [Worker(args, ctff_remote) for _ in range(3)]
  log, failures, slowest = [], [], 0.0
  ctx = None
  current = None
  try:
    ctx = ctff_remote.execution_context(
        [w.address for w in workers], controller_binary=args.worker, controller_args=[f"--bind={args.plugin}"],
        retries=RETRIES, slice_deadline=SLICE_DEADLINE, worker_deadline=WORKER_DEADLINE)
    for r in range(args.rounds):
      if r in plan:  # (one disruption at a time: two workers always answer)
        if current:
          current.join()
        kind, w = plan[r]
        current = threading.Thread(target=chaos, args=(random.Random(args.seed * 1000 + r), workers[w], kind, log))
        current.start()
      t0 = time.monotonic()
      try:
        (weights_bias, loss) = ctx.invoke(comp, arg)
        got = [[float(x) for x in weights_bias["weights"]], float(weights_bias["bias"]), float(loss)]
        want = [[float(f32(x)) for x in expected[0]["weights"]], float(f32(expected[0]["bias"])),
                float(f32(expected[1]))]
        if got != want:
          failures.append(f"round {r}: {got}, expected {want}")
      except Exception as e:  # pylint: disable=broad-except
        failures.append(f"round {r}: {type(e).__name__}: {e}")
      took = time.monotonic() - t0
      slowest = max(slowest, took)
      if took > ROUND_BOUND:
        failures.append(f"round {r} took {took:.1f} s, more than its deadlines allow ({ROUND_BOUND:.1f} s)")
    if current:
      current.join()
  finally:
    controller = ctx.controller if ctx else None
    if ctx:
      ctx.close()
    for w in workers:
      w.stop()
  left = [p.pid for w in workers for p in w.all if p.poll() is None]
  if controller is not None and controller.poll() is None:
    left.append(controller.pid)
  if left:
    failures.append(f"processes left behind: {left}")
  print(f"chaos_test: {args.rounds} rounds, {len(log)} disruptions ({'; '.join(log)}), slowest round {slowest:.2f} s")
  if len(log) < len(kinds):
    failures.append(f"only {len(log)} of {len(kinds)} disruptions happened")
  for f in failures:
    print("FAILED:", f)
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
