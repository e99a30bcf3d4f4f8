#!/usr/bin/env python3
"""Data on the workers, end to end (ctest remote.data): ctff-worker --data DIR processes read the
clients' data by URI; ctff-run --workers and the Python context (ctff_remote.Data members) send
only URIs and the model. The data are written here with numpy (an .npz per client, and one shard
file whose leading axis is the client index), and every expected result is computed here with
numpy, one float32 operation at a time in client order, as the round is written.

    worker_data_e2e.py --worker W --run R --messages DIR --work DIR [unittest args]

The round (built here as a federated_language Computation, checked by ctff-run before it runs):
  (<w=float32[3]@SERVER, data={<x=float32[3],y=float32[3]>}@CLIENTS> -> float32[3]@SERVER)
  federated_sum(federated_map(p -> p[0] * p[1].x + p[1].y,
                              federated_zip_at_clients(<federated_broadcast(w), data>)))
"""

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import unittest

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

ARGS = None
N = 7
W = np.array([0.5, -2.0, 0.25], np.float32)


def pb():
  import ctff_remote  # pylint: disable=import-outside-toplevel
  ctff_remote.set_proto_path(ARGS.messages)
  return ctff_remote.load_protos()


# --- the round, as a federated_language Computation ----------------------------------------------

def f32x3():
  t = pb().computation_pb2.Type()
  t.tensor.dtype = pb().data_type_pb2.DT_FLOAT
  t.tensor.dims.extend([3])
  return t


def struct_type(*elements):
  t = pb().computation_pb2.Type()
  t.struct.SetInParent()
  for name, e in elements:
    el = t.struct.element.add(name=name)
    el.value.CopyFrom(e)
  return t


def federated(member, where, all_equal=False):
  t = pb().computation_pb2.Type()
  t.federated.placement.value.uri = where
  t.federated.all_equal = all_equal
  t.federated.member.CopyFrom(member)
  return t


def function(param, result):
  t = pb().computation_pb2.Type()
  if param is not None:
    t.function.parameter.CopyFrom(param)
  t.function.result.CopyFrom(result)
  return t


def comp(type_pb, **kind):
  c = pb().computation_pb2.Computation()
  c.type.CopyFrom(type_pb)
  (field, value), = kind.items()
  if field == "reference":
    c.reference.name = value
  elif field == "intrinsic":
    c.intrinsic.uri = value
  elif field == "selection":
    source, index = value
    c.selection.source.CopyFrom(source)
    c.selection.index = index
  elif field == "call":
    fn, arg = value
    c.call.function.CopyFrom(fn)
    c.call.argument.CopyFrom(arg)
  elif field == "struct":
    c.struct.SetInParent()
    for e in value:
      c.struct.element.add().value.CopyFrom(e)
  elif field == "lambda_":
    name, result = value
    lam = getattr(c, "lambda")  # (a Python keyword)
    lam.parameter_name = name
    lam.result.CopyFrom(result)
  else:
    raise ValueError(field)
  return c


def call(uri, arg, result_type):
  return comp(result_type, call=(comp(function(arg.type, result_type), intrinsic=uri), arg))


def pair(a, b):
  return comp(struct_type(("", a.type), ("", b.type)), struct=[a, b])


def the_round():
  v = f32x3()
  example = struct_type(("x", v), ("y", v))
  param = struct_type(("w", federated(v, "server", True)), ("data", federated(example, "clients")))
  arg = comp(param, reference="arg")
  w = comp(param.struct.element[0].value, selection=(arg, 0))
  data = comp(param.struct.element[1].value, selection=(arg, 1))
  broadcast = call("federated_broadcast", w, federated(v, "clients", True))
  zipped_member = struct_type(("", v), ("", example))
  zipped = call("federated_zip_at_clients", pair(broadcast, data), federated(zipped_member, "clients"))
  p = comp(zipped_member, reference="p")
  d = comp(example, selection=(p, 1))
  product = call("generic_multiply", pair(comp(v, selection=(p, 0)), comp(v, selection=(d, 0))), v)
  update = comp(function(zipped_member, v),
                lambda_=("p", call("generic_plus", pair(product, comp(v, selection=(d, 1))), v)))
  mapped = call("federated_map", pair(update, zipped), federated(v, "clients"))
  total = call("federated_sum", mapped, federated(v, "server", True))
  return comp(function(param, total.type), lambda_=("arg", total))


# --- the data and what the round gives, by numpy -------------------------------------------------

def make_data(work):
  rng = np.random.default_rng(52)
  xs = rng.uniform(-1, 1, (N, 3)).astype(np.float32)
  ys = rng.uniform(-1, 1, (N, 3)).astype(np.float32)
  (work / "clients").mkdir(parents=True, exist_ok=True)
  for i in range(N):
    np.savez(work / "clients" / f"{i}.npz", x=xs[i], y=ys[i])
  np.savez(work / "shard.npz", x=xs, y=ys)
  np.save(work / "f64.npy", np.zeros(3))
  acc = np.zeros(3, np.float32)
  for i in range(N):
    acc = (acc + ((W * xs[i]).astype(np.float32) + ys[i]).astype(np.float32)).astype(np.float32)
  return acc


class Env:
  work = None
  expected = None
  round_file = None
  round_bytes = None
  procs = []
  addresses = []


def setUpModule():  # pylint: disable=invalid-name
  import ctff_remote  # pylint: disable=import-outside-toplevel
  Env.work = pathlib.Path(ARGS.work)
  shutil.rmtree(Env.work, ignore_errors=True)
  Env.work.mkdir(parents=True)
  Env.expected = make_data(Env.work / "data")
  Env.round_bytes = the_round().SerializeToString()
  Env.round_file = Env.work / "round.binpb"
  Env.round_file.write_bytes(Env.round_bytes)
  for _ in range(3):
    p, a = ctff_remote.start_worker(ARGS.worker, ["--threads=2", f"--data={Env.work / 'data'}"])
    Env.procs.append(p)
    Env.addresses.append(a)


def tearDownModule():  # pylint: disable=invalid-name
  for p in Env.procs:
    p.terminate()
    p.wait(timeout=20)


def run(*args, arg=None):
  cmd = [ARGS.run, str(Env.round_file), *args]
  if arg is not None:
    path = Env.work / "arg.json"
    path.write_text(json.dumps(arg))
    cmd.append(str(path))
  return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def uris(shard):
  return [{"data": f"shard.npz#{i}" if shard else f"clients/{i}.npz"} for i in range(N)]


class CtffRun(unittest.TestCase):
  """ctff-run --workers with URIs, and locally with --data: numpy's result."""

  def check_line(self, r):
    self.assertEqual(r.returncode, 0, r.stderr)
    got = np.array(json.loads(r.stdout), np.float32)
    np.testing.assert_array_equal(got, Env.expected)

  def test_workers_read_the_data(self):
    w = [float(x) for x in W]
    for k in (1, 3):
      for shard in (False, True):
        with self.subTest(workers=k, shard=shard):
          self.check_line(run("--workers", ",".join(Env.addresses[:k]), arg={"w": w, "data": uris(shard)}))
    # The whole CLIENTS value as a pattern.
    self.check_line(run("--workers", Env.addresses[0], "--clients", str(N),
                        arg={"w": w, "data": {"data": "clients/{i}.npz"}}))

  def test_local_run_with_data(self):
    w = [float(x) for x in W]
    self.check_line(run("--data", str(Env.work / "data"), arg={"w": w, "data": uris(True)}))

  def test_refusals(self):
    w = [float(x) for x in W]
    r = run(arg={"w": w, "data": uris(False)})
    self.assertEqual(r.returncode, 2)
    self.assertIn("give --data DIR", r.stderr)
    r = run("--workers", Env.addresses[0], arg={"w": w, "data": uris(False)[:-1] + [{"data": "nope.npz"}]})
    self.assertEqual(r.returncode, 1)
    self.assertIn("INVALID_ARGUMENT", r.stderr)
    self.assertIn(f"data URI `nope.npz` (file {(Env.work / 'data').resolve()}/nope.npz): no such file", r.stderr)
    r = run("--workers", Env.addresses[0], arg={"w": w, "data": uris(False)[:-1] + [{"data": "../x.npz"}]})
    self.assertEqual(r.returncode, 1)
    self.assertIn("`..` in the path", r.stderr)


class PythonContext(unittest.TestCase):
  """ctff_remote with Data members (ctff_remote.Data, or a Computation with data set)."""

  def test_one_worker_and_three(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    members = [ctff_remote.Data(f"clients/{i}.npz") for i in range(N)]
    for k in (1, 3):
      kw = {"controller_binary": ARGS.worker} if k > 1 else {}
      with ctff_remote.execution_context(Env.addresses[:k], proto_path=ARGS.messages, **kw) as ctx:
        got = ctx.invoke(Env.round_bytes, {"w": W, "data": members})
        np.testing.assert_array_equal(np.asarray(got, np.float32), Env.expected)
    # A Data computation message, as federated_language's Data building block serializes.
    c = pb().computation_pb2.Computation.FromString(Env.round_bytes)
    example = c.type.function.parameter.struct.element[1].value.federated.member
    messages = []
    for i in range(N):
      m = pb().computation_pb2.Computation()
      m.type.CopyFrom(example)
      m.data.uri = f"shard.npz#{i}"
      messages.append(m)
    with ctff_remote.execution_context(Env.addresses[:1], proto_path=ARGS.messages) as ctx:
      got = ctx.invoke(Env.round_bytes, {"w": W, "data": messages})
      np.testing.assert_array_equal(np.asarray(got, np.float32), Env.expected)

  def test_a_bad_uri(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    members = [ctff_remote.Data(f"clients/{i}.npz") for i in range(N - 1)] + [ctff_remote.Data("f64.npy")]
    with ctff_remote.execution_context(Env.addresses[:1], proto_path=ARGS.messages) as ctx:
      with self.assertRaises(ctff_remote.RemoteError) as e:
        ctx.invoke(Env.round_bytes, {"w": W, "data": members})
    self.assertEqual(e.exception.code.name, "INVALID_ARGUMENT")
    self.assertIn("data URI `f64.npy`", e.exception.details)


def main():
  global ARGS
  ap = argparse.ArgumentParser()
  ap.add_argument("--worker", required=True)
  ap.add_argument("--run", required=True)
  ap.add_argument("--messages", required=True)
  ap.add_argument("--work", required=True)
  ARGS, rest = ap.parse_known_args()
  unittest.main(argv=[sys.argv[0], "-v"] + rest)


if __name__ == "__main__":
  main()
