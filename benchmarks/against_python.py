#!/usr/bin/env python3
"""ctff against federated_language's example execution context: federated_sum of N int32 clients.

Issue 45's target: ctff >= 100x faster than federated_language's example context on
`federated_sum` at 100,000 clients, measured side by side. This script runs, alternating the two
sides so that both see the same machine in the same minutes:

  in process   ctff: `ctff_bench_per_client --time sum N RUNS` (a typed `call` on a
               std::vector<int32_t>, one executor, 1 thread; the fastest of RUNS calls after the
               first; the first call of each process is shown apart).
               Python: `ExecutionContext().invoke(comp, arg)` of federated_language's
               examples/executor/execution_context.py on a list of N Python ints, of N np.int32
               scalars and of N 0-d int32 numpy arrays (the fastest of RUNS calls after the
               first; comp traced once, before timing; the first call of each process, on the
               ints, shown apart).
  whole process  ctff: `ctff-run sum.binpb --threads 1 ARG.json`. Python: a fresh interpreter that
               imports federated_language and the example context, reads the same ARG.json, traces
               the computation, invokes it once and prints the result (the fastest of RUNS).

The client values are ctff_bench_per_client's (i * 7 % 1000003). ctff sums int32 with wrapping, as
TensorFlow does; the example context sums Python numbers (no wrapping), so results are compared
modulo 2**32.

  benchmarks/against_python.py --build build/gcc                       # the ctff side only
  benchmarks/against_python.py --build build/gcc --reference DIR[:DIR] --python /usr/bin/python3

--reference is the PYTHONPATH under which `import federated_language` and
`from executor import execution_context` (federated_language's examples/ folder) work; with
federated_language's dependencies (numpy, protobuf, absl, attrs, dm-tree, ml_dtypes, cloudpickle)
importable by --python. Nothing of federated_language is in this repository.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# The Python side, run by --python with PYTHONPATH=--reference. argv: MODE N RUNS [ARG.json]
CHILD = r'''
import sys, time, asyncio, json
mode, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import numpy as np
import federated_language
from executor import execution_context

@federated_language.federated_computation(
    federated_language.FederatedType(np.int32, federated_language.CLIENTS))
def fsum(x):
  return federated_language.federated_sum(x)

ctx = execution_context.ExecutionContext()
if mode == 'whole':
  with open(sys.argv[4]) as f:
    arg = json.load(f)
  print(asyncio.run(ctx.invoke(fsum, arg)))
  sys.exit(0)

import google.protobuf, tree
out = {'python': sys.version.split()[0], 'numpy': np.__version__,
       'protobuf': google.protobuf.__version__,
       'federated_language': getattr(federated_language, '__version__', '?'),
       'tree': tree.__file__, 'tree_ext': tree._tree.__file__,
       'context': execution_context.__file__}
loop = asyncio.new_event_loop()
for form in ('int', 'np.int32', '0-d'):
  v = [i * 7 % 1000003 for i in range(n)]
  if form == 'np.int32':
    v = [np.int32(x) for x in v]
  elif form == '0-d':
    v = [np.array(x, np.int32) for x in v]
  secs = []
  for _ in range(runs):
    t = time.perf_counter()
    r = loop.run_until_complete(ctx.invoke(fsum, v))
    secs.append(time.perf_counter() - t)
  out[form] = {'result': int(r), 'seconds': secs}
print(json.dumps(out))
'''


def wrap32(x):
  x &= 0xFFFFFFFF
  return x - (1 << 32) if x >= (1 << 31) else x


def run(cmd, env=None):
  p = subprocess.run(cmd, capture_output=True, text=True, env=env)
  if p.returncode != 0:
    sys.exit(f'{" ".join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}')
  return p.stdout


def timed(cmd, env=None):
  t = time.perf_counter()
  out = run(cmd, env)
  return time.perf_counter() - t, out


def ms(s):
  return f'{s * 1e3:9.3f} ms'


def main():
  ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  ap.add_argument('--build', required=True, help='a Release build tree of ctff (g++-12: build/gcc)')
  ap.add_argument('--reference', help='PYTHONPATH of federated_language and its examples/ folder')
  ap.add_argument('--python', default='/usr/bin/python3', help='the interpreter of the reference')
  ap.add_argument('--clients', type=int, default=100000)
  ap.add_argument('--runs', type=int, default=7, help='calls (or processes) per round')
  ap.add_argument('--rounds', type=int, default=3, help='rounds, the two sides alternating')
  a = ap.parse_args()

  bench = os.path.join(a.build, 'benchmarks', 'ctff_bench_per_client')
  ctff_run = os.path.join(a.build, 'tools', 'ctff_run', 'ctff-run')
  n = a.clients
  expected = wrap32(sum(i * 7 % 1000003 for i in range(n)))
  env = None
  if a.reference:
    env = dict(os.environ, PYTHONPATH=a.reference)

  load_before = os.getloadavg()[0]
  with tempfile.TemporaryDirectory() as tmp:
    run([bench, '--emit', tmp])
    arg = os.path.join(tmp, 'arg.json')
    with open(arg, 'w') as f:
      f.write('[' + ','.join(str(i * 7 % 1000003) for i in range(n)) + ']')
    child = os.path.join(tmp, 'child.py')
    with open(child, 'w') as f:
      f.write(CHILD)

    c_call, c_proc, p_int, p_np, p_0d, p_proc = [], [], [], [], [], []
    c_first, p_first = [], []  # each process's first call (ctff prepares the program in it)
    info = None
    for _ in range(a.rounds):
      r, *secs = run([bench, '--time', 'sum', str(n), str(a.runs)]).split()
      assert int(r) == expected, (r, expected)
      secs = [float(s) for s in secs]
      c_first.append(secs[0])
      c_call.extend(secs[1:] or secs)
      if a.reference:
        info = json.loads(run([a.python, child, 'calls', str(n), str(a.runs)], env))
        for form, acc in (('int', p_int), ('np.int32', p_np), ('0-d', p_0d)):
          assert wrap32(info[form]['result']) == expected, (form, info[form]['result'], expected)
          acc.extend(info[form]['seconds'][1:] or info[form]['seconds'])
        p_first.append(info['int']['seconds'][0])
      for _ in range(a.runs):
        s, out = timed([ctff_run, os.path.join(tmp, 'sum.binpb'), '--threads', '1', arg])
        assert int(out.strip()) == expected, (out, expected)
        c_proc.append(s)
        if a.reference:
          s, out = timed([a.python, child, 'whole', str(n), '1', arg], env)
          assert wrap32(int(out.strip())) == expected, (out, expected)
          p_proc.append(s)

  print(f'federated_sum of {n:,} int32 clients; fastest (median), {a.rounds} rounds x {a.runs} '
        f'calls or processes, the sides alternating; load average {load_before:.1f} -> '
        f'{os.getloadavg()[0]:.1f}')
  if info:
    print(f'reference: federated_language {info["federated_language"]}, Python {info["python"]}, '
          f'numpy {info["numpy"]}, protobuf {info["protobuf"]}')
    print(f'  context: {info["context"]}\n  dm-tree _tree: {info["tree_ext"]}')
  rows = [('in process: ctff typed call', c_call, None),
          ('in process: Python, list of int', p_int, c_call),
          ('in process: Python, list of np.int32', p_np, c_call),
          ('in process: Python, list of 0-d arrays', p_0d, c_call),
          ('first call of a process: ctff', c_first, None),
          ('first call of a process: Python, int', p_first, c_first),
          ('whole process: ctff-run, JSON', c_proc, None),
          ('whole process: Python, JSON', p_proc, c_proc)]
  for name, xs, base in rows:
    if not xs:
      continue
    line = f'{name:40s} {ms(min(xs))} ({ms(statistics.median(xs)).strip()})'
    if base:
      line += f'   Python / ctff = {min(xs) / min(base):,.1f}x'
    print(line)


if __name__ == '__main__':
  main()
