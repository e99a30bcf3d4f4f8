#!/usr/bin/env python3
"""What a killed worker costs a round (issue 52's speed target: at most its slice's time again).
ctff-run --workers over 3 ctff-worker processes runs tools/ctff_run/testdata/map_tensorflow.textproto
(federated_map of a binding that sleeps x ms per client: testdata/plugins/sleeping.cpp) on 3
clients of SLICE ms each, one slice per worker. Timed: the round with no failure, and the round in
which the second worker is killed (SIGKILL) half way through its slice, which then runs again on
the next worker. Prints a Markdown table (docs/performance.md, "Failover").

    tools/failover_cost.py --worker BUILD/tools/ctff_worker/ctff-worker --run BUILD/tools/ctff_run/ctff-run \\
        --plugins BUILD/tools/ctff_run/test_plugins [--slice 1000] [--repeat 3]
"""

import argparse
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  ap.add_argument("--worker", required=True)
  ap.add_argument("--run", required=True)
  ap.add_argument("--plugins", required=True)
  ap.add_argument("--slice", type=int, default=1000, help="ms of work per slice")
  ap.add_argument("--repeat", type=int, default=3)
  a = ap.parse_args()
  import ctff_remote  # pylint: disable=import-outside-toplevel
  comp = ROOT / "tools/ctff_run/testdata/map_tensorflow.textproto"
  sleeping = str(pathlib.Path(a.plugins) / "sleeping.so")
  with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    f.write(f"[{a.slice},{a.slice},{a.slice}]\n")
  want = f"[{a.slice},{a.slice},{a.slice}]"

  def round_time(kill):
    ws = [ctff_remote.start_worker(a.worker, [f"--bind={sleeping}", "--threads=1"]) for _ in range(3)]
    try:
      t0 = time.monotonic()
      p = subprocess.Popen([a.run, str(comp), "--workers", ",".join(x for _, x in ws), f.name],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
      if kill:
        time.sleep(a.slice / 2000)
        ws[1][0].kill()
      out, err = p.communicate(timeout=60)
      took = time.monotonic() - t0
      if p.returncode != 0 or out.strip() != want:
        sys.exit(f"failover_cost: the round failed: exit {p.returncode}: {out.strip()} {err.strip()}")
      return took
    finally:
      for proc, _ in ws:
        proc.kill()
        proc.wait()

  plain = [round_time(False) for _ in range(a.repeat)]
  killed = [round_time(True) for _ in range(a.repeat)]
  pathlib.Path(f.name).unlink()
  m0, m1 = statistics.median(plain), statistics.median(killed)
  print("| round (3 workers, a slice of %d ms each) | median of %d | extra over no failure |" % (a.slice, a.repeat))
  print("|---|---:|---:|")
  print(f"| no failure | {m0:.2f} s | |")
  print(f"| the second worker killed half way | {m1:.2f} s | {m1 - m0:.2f} s ({(m1 - m0) * 1000 / a.slice:.2f} slices) |")
  return 0 if m1 - m0 <= a.slice / 1000 * 1.1 else 1


if __name__ == "__main__":
  sys.exit(main())
