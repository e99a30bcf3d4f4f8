#!/usr/bin/env python3
"""consumer.python: the installed python/ctff_remote finds its generated messages in the install
prefix with no environment variable, and runs a golden on the installed ctff-worker.

    python_installed.py --site DIR --worker BIN --golden sum_clients.binpb

Run with PYTHONPATH=DIR only (DIR: <prefix>/<CTFF_INSTALL_PYTHONDIR>) and no CTFF_REMOTE_PROTO_PATH.
"""

import argparse
import os
import re
import subprocess
import sys


def under(path, root):
  path, root = os.path.realpath(path), os.path.realpath(root)
  return os.path.commonpath([path, root]) == root


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--site", required=True)
  ap.add_argument("--worker", required=True)
  ap.add_argument("--golden", required=True)
  args = ap.parse_args()
  if os.environ.get("CTFF_REMOTE_PROTO_PATH"):
    sys.exit("python_installed.py: run without CTFF_REMOTE_PROTO_PATH")

  import ctff_remote  # pylint: disable=import-outside-toplevel
  if not under(ctff_remote.__file__, args.site):
    sys.exit(f"ctff_remote imported from {ctff_remote.__file__}, not from {args.site}")
  pb = ctff_remote.load_protos()
  if not under(pb.executor_pb2.__file__, args.site):
    sys.exit(f"executor_pb2 loaded from {pb.executor_pb2.__file__}, not from {args.site}")
  print(f"ctff_remote from {os.path.dirname(ctff_remote.__file__)}, messages from {pb.path}")

  worker = subprocess.Popen([args.worker, "--port=0", "--threads=1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
  try:
    m = re.search(r"listening on \S+:(\d+)", worker.stdout.readline())
    if not m:
      sys.exit(f"{args.worker} did not start: {worker.stderr.read()}")
    with open(args.golden, "rb") as f:
      sum_clients = f.read()
    with ctff_remote.execution_context([f"127.0.0.1:{m.group(1)}"]) as ctx:
      got = ctx.invoke(sum_clients, [1, 2, 3])  # 3 clients: 1 + 2 + 3
    if int(got) != 6:
      sys.exit(f"sum_clients([1, 2, 3]) gave {got!r}, expected 6")
  finally:
    worker.terminate()
    worker.wait(timeout=20)
    worker.stdout.close()
    worker.stderr.close()
  print("ctff_remote installed: ok")


if __name__ == "__main__":
  main()
