#!/usr/bin/env python3
"""Cohorts beyond one controller (issue 52 item 4): a round over N clients whose data lives on the
workers, run in subrounds. A round of `federated_sum(federated_map(x -> x + 1, data))` runs over N
int32 clients on 4 local ctff-worker processes. Each worker holds the same shard file under
`--data` (row i is client i's value). The controller is `ctff-run --workers --subrounds K
--clients N` with the argument `{"data": "shard.npy#{i}"}`, so it makes each subround's K
references only when that subround runs. Each result is checked against numpy's sum. The
controller's peak resident memory (/usr/bin/time's maximum RSS) at each N shows whether it depends
on N. Prints a Markdown table (docs/performance.md).

    tools/cohort_memory.py --run BUILD/tools/ctff_run/ctff-run --worker BUILD/tools/ctff_worker/ctff-worker \\
        --messages BUILD/proto/python [--clients 1000000,10000000] [--subrounds 100000] [--workers 4]

Exit 1 when a result is wrong, or when the largest N's peak exceeds the smallest's by more than
25 % (a memory that grew with N).
"""

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

import numpy as np  # noqa: E402


def map_sum(pb, path):
  """(x: {int32}@CLIENTS -> federated_sum(federated_map(x -> x + 1, x))), from the golden
  simple_broadcast_map_sum with its broadcast taken out; checked by ctff-run when it reads it."""
  c = pb.computation_pb2.Computation.FromString((ROOT / "tests/goldens/simple_broadcast_map_sum.binpb").read_bytes())
  lam = getattr(c, "lambda")
  clients = c.type.function.parameter
  clients.federated.placement.value.uri = "clients"
  clients.federated.all_equal = False
  first = lam.result.block.local[0].value
  first.Clear()
  first.type.CopyFrom(clients)
  first.reference.name = lam.parameter_name
  mapped = lam.result.block.local[1].value.call
  mapped.function.type.function.parameter.struct.element[1].value.CopyFrom(clients)
  mapped.argument.type.struct.element[1].value.CopyFrom(clients)
  getattr(mapped.argument, "struct").element[1].value.type.CopyFrom(clients)
  path.write_bytes(c.SerializeToString())


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  for flag in ("--run", "--worker", "--messages"):
    ap.add_argument(flag, required=True)
  ap.add_argument("--clients", default="1000000,10000000", help="N, comma-separated")
  ap.add_argument("--subrounds", type=int, default=100000, help="K")
  ap.add_argument("--workers", type=int, default=4)
  ap.add_argument("--no-memory-check", action="store_true", help="check the results only (a test)")
  a = ap.parse_args()
  import ctff_remote  # pylint: disable=import-outside-toplevel
  ctff_remote.set_proto_path(a.messages)
  pb = ctff_remote.load_protos()
  sizes = [int(x) for x in a.clients.split(",")]
  failures, rows = [], []
  with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    (tmp / "data").mkdir()
    values = (np.arange(max(sizes), dtype=np.int64) % 1000).astype(np.int32)
    np.save(tmp / "data" / "shard.npy", values)
    map_sum(pb, tmp / "map_sum.binpb")
    (tmp / "arg.json").write_text('{"data": "shard.npy#{i}"}\n')
    ws = [ctff_remote.start_worker(a.worker, [f"--data={tmp / 'data'}", "--threads=1"]) for _ in range(a.workers)]
    try:
      for n in sizes:
        want = int((values[:n].astype(np.int64) + 1).sum()) % (1 << 32)  # (int32 arithmetic wraps)
        want = want - (1 << 32) if want >= 1 << 31 else want
        t0 = time.monotonic()
        r = subprocess.run(["/usr/bin/time", "-f", "maxrss %M", a.run, str(tmp / "map_sum.binpb"), "--workers",
                            ",".join(x for _, x in ws), "--clients", str(n), "--subrounds", str(a.subrounds),
                            str(tmp / "arg.json")], capture_output=True, text=True, check=False)
        took = time.monotonic() - t0
        rss = re.search(r"maxrss (\d+)", r.stderr)
        if r.returncode != 0 or r.stdout.strip() != str(want) or not rss:
          failures.append(f"N = {n}: exit {r.returncode}, printed {r.stdout.strip()!r}, expected {want}: "
                          f"{r.stderr.strip()[-500:]}")
          continue
        rows.append((n, int(rss.group(1)), took))
    finally:
      for p, _ in ws:
        p.terminate()
        p.wait(timeout=20)
  print(f"| N clients ({a.workers} workers, subrounds of {a.subrounds}) | controller peak RSS | seconds |")
  print("|---:|---:|---:|")
  for n, kib, took in rows:
    print(f"| {n:,} | {kib / 1024:.1f} MiB | {took:.1f} |")
  if len(rows) >= 2 and not a.no_memory_check and rows[-1][1] > rows[0][1] * 1.25:
    failures.append(f"the controller's peak grew with N: {rows[0][1]} KiB at {rows[0][0]}, {rows[-1][1]} KiB at "
                    f"{rows[-1][0]}")
  for f in failures:
    print("FAILED:", f)
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
