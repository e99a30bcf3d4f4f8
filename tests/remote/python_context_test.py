#!/usr/bin/env python3
"""Tests python/ctff_remote (federated_language over ctff workers) against real ctff-worker
processes: the repository's goldens run through the context's invoke with Python values, on one
worker and on three (the local-controller path), every dtype both ways through an identity
computation, failures raised with ctff's message, the context's lifecycle, and where the
generated messages are found. With federated_language importable, also a @federated_computation
end to end; without it, says so and skips that test.

    python_context_test.py --worker BIN --messages DIR [unittest args]

Expected results are the hand-computed ones of tools/ctff_run/test_run.cmake.
"""

import argparse
import collections
import dataclasses
import gc
import math
import os
import pathlib
import subprocess
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDENS = ROOT / "tests" / "goldens"
TESTDATA = ROOT / "tools" / "ctff_run" / "testdata"
sys.path.insert(0, str(ROOT / "python"))

ARGS = None
WORKERS = []  # (process, address)

import numpy as np  # noqa: E402  (after the path set-up, with the package's imports)


def start_worker():
  import ctff_remote  # pylint: disable=import-outside-toplevel
  return ctff_remote.start_worker(ARGS.worker, ["--threads=2"])


def setUpModule():  # pylint: disable=invalid-name
  for _ in range(3):
    WORKERS.append(start_worker())


def tearDownModule():  # pylint: disable=invalid-name
  for p, _ in WORKERS:
    p.terminate()
    p.wait(timeout=20)


def addresses(k):
  return [a for _, a in WORKERS[:k]]


def golden(name):
  return (GOLDENS / f"{name}.binpb").read_bytes()


def textproto(path):
  import ctff_remote  # pylint: disable=import-outside-toplevel
  from google.protobuf import text_format  # pylint: disable=import-outside-toplevel
  pb = ctff_remote.load_protos()
  c = pb.computation_pb2.Computation()
  text_format.Parse(pathlib.Path(path).read_text(), c)
  return c


def identity(type_pb):
  """(x -> x) of type T -> T."""
  import ctff_remote  # pylint: disable=import-outside-toplevel
  pb = ctff_remote.load_protos()
  c = pb.computation_pb2.Computation()
  c.type.function.parameter.CopyFrom(type_pb)
  c.type.function.result.CopyFrom(type_pb)
  lam = getattr(c, "lambda")
  lam.parameter_name = "x"
  lam.result.type.CopyFrom(type_pb)
  lam.result.reference.name = "x"
  return c


def tensor_type(dtype_name, dims=None, unknown_rank=False):
  import ctff_remote  # pylint: disable=import-outside-toplevel
  pb = ctff_remote.load_protos()
  t = pb.computation_pb2.Type()
  t.tensor.dtype = pb.data_type_pb2.DataType.Value(dtype_name)
  if dims is not None:
    t.tensor.dims.extend(dims)
  t.tensor.unknown_rank = unknown_rank
  return t


Pair = collections.namedtuple("Pair", ["a", "b"])
Named = collections.namedtuple("Named", ["gamma", "alpha", "beta"])


@dataclasses.dataclass
class NamedData:
  alpha: int
  beta: list
  gamma: int


class Base(unittest.TestCase):

  def assertScalar(self, got, want, dtype):  # pylint: disable=invalid-name
    self.assertIsInstance(got, np.generic, f"{got!r} is not a numpy scalar")
    self.assertEqual(got.dtype, np.dtype(dtype), f"{got!r}")
    if isinstance(want, float) and math.isnan(want):
      self.assertTrue(np.isnan(got))
    else:
      self.assertEqual(got, want)


class GoldensTest(Base):
  """The goldens with the results test_run.cmake computed by hand, on 1 worker and on 3."""

  def run_goldens(self, ctx):
    sum_clients = golden("sum_clients")
    self.assertScalar(ctx.invoke(sum_clients, [1, 2, 3]), 6, np.int32)
    self.assertScalar(ctx.invoke(sum_clients, []), 0, np.int32)
    self.assertScalar(ctx.invoke(sum_clients, [2147483647, 1]), -2147483648, np.int32)
    self.assertScalar(ctx.invoke(sum_clients, np.arange(1, 8, dtype=np.int32).tolist()), 28, np.int32)
    self.assertScalar(ctx.invoke(sum_clients, (np.int32(4), np.int16(5))), 9, np.int32)

    named = golden("named_params")
    want = collections.OrderedDict(total=np.float32(2.5), first=np.int32(3), last=np.int32(7))
    for arg in (dict(alpha=3, beta=[1, 2, 4.5], gamma=7),
                collections.OrderedDict(gamma=7, beta=[1.0, 2.0, 4.5], alpha=3),
                Named(gamma=7, alpha=3, beta=np.array([1, 2, 4.5], np.float32)),
                NamedData(alpha=3, beta=[1, 2, 4.5], gamma=7),
                [3, [1, 2, 4.5], 7]):
      got = ctx.invoke(named, arg)
      self.assertIsInstance(got, collections.OrderedDict, repr(arg))
      self.assertEqual(list(got), ["total", "first", "last"])
      self.assertScalar(got["total"], 2.5, np.float32)
      self.assertScalar(got["first"], 3, np.int32)
      self.assertScalar(got["last"], 7, np.int32)
      self.assertEqual(got, want)
    got = ctx.invoke(named, {"gamma": -7, "beta": [0.25], "alpha": -1})
    self.assertEqual(got, collections.OrderedDict(total=0.25, first=-1, last=-7))
    got = ctx.invoke(named, {"alpha": 3, "beta": [], "gamma": 7})  # N = 0: the mean is NaN
    self.assertTrue(np.isnan(got["total"]))
    self.assertEqual(ctx.call(named, 3, [1, 2, 4.5], 7), want)
    self.assertEqual(ctx.call(named, 3, gamma=7, beta=[1, 2, 4.5]), want)

    zipped = ctx.invoke(golden("zip_unnamed"), {"a": [1, 2], "b": [0.5, 1.5]})
    self.assertEqual(zipped, [(1, 0.5), (2, 1.5)])
    self.assertIsInstance(zipped[0], tuple)
    self.assertEqual(ctx.invoke(golden("zip_unnamed"), Pair(a=[], b=[])), [])

    fv = ctx.invoke(golden("federated_values"), None)
    self.assertEqual(fv, (10, 2.5))
    self.assertScalar(fv[1], 2.5, np.float32)
    self.assertScalar(ctx.invoke(golden("add_one_local"), 41), 42, np.int32)

  def test_one_worker(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    with ctff_remote.execution_context(addresses(1), proto_path=ARGS.messages) as ctx:
      self.assertIsNone(ctx.controller)
      self.assertEqual(ctx.address, addresses(1)[0])
      self.run_goldens(ctx)
      # N neither given nor inferable: default_num_clients (0).
      self.assertScalar(ctx.invoke(golden("simple_broadcast_map_sum"), 5), 0, np.int32)
    with ctff_remote.execution_context(addresses(1)[0], default_num_clients=3) as ctx:
      self.assertScalar(ctx.invoke(golden("simple_broadcast_map_sum"), 5), 18, np.int32)
      self.assertScalar(ctx.invoke(golden("simple_broadcast_map_sum"), np.int32(5)), 18, np.int32)

  def test_three_workers(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    ctx = ctff_remote.execution_context(addresses(3), controller_binary=ARGS.worker,
                                        controller_args=["--threads=2"], default_num_clients=10)
    proc = ctx.controller
    self.assertIsNotNone(proc)
    self.assertNotIn(ctx.address, addresses(3))
    try:
      self.run_goldens(ctx)
      self.assertScalar(ctx.invoke(golden("simple_broadcast_map_sum"), 5), 60, np.int32)
    finally:
      ctx.close()
    self.assertTrue(ctx.closed)
    self.assertIsNotNone(proc.poll(), "the controller still runs after close()")
    with self.assertRaisesRegex(RuntimeError, "closed"):
      ctx.invoke(golden("sum_clients"), [1])

  def test_controller_stopped_when_collected(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    ctx = ctff_remote.execution_context(addresses(2), controller_binary=ARGS.worker)
    self.assertScalar(ctx.invoke(golden("sum_clients"), [1, 2, 3, 4, 5]), 15, np.int32)
    proc = ctx.controller
    del ctx
    gc.collect()
    self.assertIsNotNone(proc.poll(), "the controller still runs after the context was collected")

  def test_controller_not_found(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    with self.assertRaises(FileNotFoundError):
      ctff_remote.execution_context(addresses(2), controller_binary=str(ROOT / "no-such-ctff-worker"))


# Every dtype: (DataType name, numpy type, values to send (scalar first), what comes back).
DTYPES = [
    ("DT_BOOL", np.bool_, [True, False], None),
    ("DT_INT8", np.int8, [-128, 127], None),
    ("DT_INT16", np.int16, [-32768, 32767], None),
    ("DT_INT32", np.int32, [-2147483648, 2147483647], None),
    ("DT_INT64", np.int64, [9007199254740993, -(2**63)], None),
    ("DT_UINT8", np.uint8, [255, 0], None),
    ("DT_UINT16", np.uint16, [65535, 1], None),
    ("DT_UINT32", np.uint32, [4294967295, 2], None),
    ("DT_UINT64", np.uint64, [18446744073709551615, 3], None),
    ("DT_HALF", np.float16, [65504.0, -0.0, 0.1, float("inf")], None),
    ("DT_FLOAT", np.float32, [0.1, -0.0, 1e20, float("nan"), float("-inf")], None),
    ("DT_DOUBLE", np.float64, [1e-7, 1e300, float("nan")], None),
    ("DT_COMPLEX64", np.complex64, [1 + 2j, complex(0.5, float("inf")), -3j], None),
    ("DT_COMPLEX128", np.complex128, [1e300 + 1e-300j, 0j], None),
    ("DT_STRING", np.str_, ["h\u00e9\"llo", b"\x00\xffbytes\x00", ""],
     [b"h\xc3\xa9\"llo", b"\x00\xffbytes\x00", b""]),
]


class DtypeTest(Base):
  """Every dtype to the worker and back through (x -> x): scalars, arrays, numpy inputs."""

  @classmethod
  def setUpClass(cls):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    cls.ctx = ctff_remote.execution_context(addresses(1), proto_path=ARGS.messages)

  @classmethod
  def tearDownClass(cls):
    cls.ctx.close()

  def same(self, got, want, dtype):
    got = np.asarray(got)
    self.assertEqual(got.dtype, np.dtype(object) if dtype is np.str_ else np.dtype(dtype))
    want = np.asarray(want, object if dtype is np.str_ else dtype)
    self.assertEqual(got.shape, want.shape)
    if dtype is np.str_:
      self.assertEqual(got.tolist(), want.tolist())
    else:
      self.assertTrue(np.array_equal(got, want, equal_nan=dtype not in (np.bool_,) and np.dtype(dtype).kind in "fc"),
                      f"{got!r} != {want!r}")
      if np.dtype(dtype).kind == "f":  # -0.0 stays negative
        self.assertTrue(np.array_equal(np.signbit(got), np.signbit(want)))

  def test_every_dtype(self):
    for name, dtype, vals, back in DTYPES:
      back = back or vals
      with self.subTest(dtype=name):
        # A scalar, from a Python value and from a numpy one.
        scalar = self.ctx.invoke(identity(tensor_type(name)), vals[0])
        if dtype is np.str_:
          self.assertIsInstance(scalar, bytes)
          self.assertEqual(scalar, back[0])
        else:
          self.assertIsInstance(scalar, np.generic)
          self.same(scalar, np.asarray(vals[0], dtype), dtype)
          self.same(self.ctx.invoke(identity(tensor_type(name)), np.asarray(vals[0], dtype)[()]),
                    np.asarray(vals[0], dtype), dtype)
        # A vector of any length, from a list and from a numpy array; a 2 x n matrix.
        vec = self.ctx.invoke(identity(tensor_type(name, [-1])), vals)
        self.assertIsInstance(vec, np.ndarray)
        self.same(vec, back, dtype)
        if dtype is not np.str_:
          self.same(self.ctx.invoke(identity(tensor_type(name, [len(vals)])), np.asarray(vals, dtype)), back, dtype)
        mat = self.ctx.invoke(identity(tensor_type(name, [2, len(vals)])), [vals, vals[::-1]])
        self.same(mat, [back, back[::-1]], dtype)
        # An empty array, and any shape for an unknown rank.
        self.same(self.ctx.invoke(identity(tensor_type(name, [0])), []), [], dtype)
        self.same(self.ctx.invoke(identity(tensor_type(name, unknown_rank=True)), [[vals[0]]]), [[back[0]]], dtype)

  def test_bfloat16(self):
    got = self.ctx.invoke(identity(tensor_type("DT_BFLOAT16", [4])), [1.5, -2.0, 0.1, float("inf")])
    got = np.asarray(got, np.float32)
    self.assertEqual(got.tolist(), [1.5, -2.0, 0.10009765625, float("inf")])

  def test_upward_conversions(self):
    self.same(self.ctx.invoke(identity(tensor_type("DT_DOUBLE", [2])), [1, 2]), [1.0, 2.0], np.float64)
    self.same(self.ctx.invoke(identity(tensor_type("DT_COMPLEX64")), 2.5), 2.5 + 0j, np.complex64)
    self.same(self.ctx.invoke(identity(tensor_type("DT_INT8")), np.int64(-5)), -5, np.int8)

  def test_refused_conversions(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    cases = [
        ("DT_INT32", None, 1.5, "a float value where a DT_INT32 is expected"),
        ("DT_INT8", None, 128, "the value 128 is out of range of int8"),
        ("DT_UINT8", [2], [1, -1], "the value -1 is out of range of uint8"),
        ("DT_BOOL", None, 1, "a int value where a DT_BOOL is expected"),
        ("DT_FLOAT", None, 1e300, "a value too large for DT_FLOAT"),
        ("DT_FLOAT", None, 1j, "a complex value where a DT_FLOAT is expected"),
        ("DT_INT32", [2], [1, 2, 3], r"a value of shape \[3\] where DT_INT32 of shape \[2\] is expected"),
        ("DT_INT32", [-1, 2], [[1, 2], [3]], "not a rectangular array"),
        ("DT_STRING", None, 5, "int 5 where a string"),
        ("DT_INT32", None, "5", "a string where a DT_INT32 is expected"),
        ("DT_INT32", [2], [1, "5"], "a string where a number is expected"),
    ]
    for name, dims, value, message in cases:
      with self.subTest(dtype=name, value=value):
        with self.assertRaisesRegex(ctff_remote.ConversionError, "^argument: " + message):
          self.ctx.invoke(identity(tensor_type(name, dims)), value)

  def test_every_kind_of_value(self):
    """testdata/identity.textproto: a struct of every kind of value ctff-run reads and writes."""
    comp = textproto(TESTDATA / "identity.textproto")
    arg = dict(i8=-128, u64=18446744073709551615, i64=[[9007199254740993, -1], [0, 2]],
               f16=[0.1, 65504, float("-inf")], bf=1.5, f32=[0.1, -0.0, 1e20, float("nan")], f64=1e-7,
               c64=[1 + 2j, complex(0.5, float("inf"))], s="h\u00e9\"llo", b=[True, False], u=(7, {}),
               seq=[1, 2, 3], r=[[1, 2]], srv=5, cl=[1.5, 2], ae=9)
    got = self.ctx.invoke(comp, arg)
    self.assertIsInstance(got, collections.OrderedDict)
    self.assertEqual(list(got), list(arg))
    self.assertScalar(got["i8"], -128, np.int8)
    self.assertScalar(got["u64"], 18446744073709551615, np.uint64)
    self.same(got["i64"], [[9007199254740993, -1], [0, 2]], np.int64)
    self.assertEqual(got["f16"].tolist(), [0.0999755859375, 65504.0, float("-inf")])
    self.assertEqual(float(got["bf"]), 1.5)
    self.same(got["f32"], np.array([0.1, -0.0, 1e20, float("nan")], np.float32), np.float32)
    self.assertScalar(got["f64"], 1e-7, np.float64)
    self.same(got["c64"], [1 + 2j, complex(0.5, float("inf"))], np.complex64)
    self.assertEqual(got["s"], "h\u00e9\"llo".encode())
    self.same(got["b"], [True, False], np.bool_)
    self.assertEqual(got["u"], (7, ()))
    self.assertEqual([int(x) for x in got["seq"]], [1, 2, 3])
    self.same(got["r"], [[1.0, 2.0]], np.float32)
    self.assertScalar(got["srv"], 5, np.int32)
    self.assertEqual(got["cl"], [1.5, 2.0])
    self.assertScalar(got["cl"][0], 1.5, np.float64)
    self.assertScalar(got["ae"], 9, np.int32)


class TapTest(Base):
  """Taps through the context: each client's value inside the mapped function (x + 1 of the
  broadcast 5: 6 on every client, worked out by hand), with the worker that computed it; the
  sum at the server; on one worker and on three through the controller."""

  PLUS_ONE = ("lambda.result.block.local[1](fc_simple_symbol_1).call.argument.struct[0].lambda.result."
              "block.local[0](fc_add_one_symbol_0)")
  SUM = "lambda.result.block.local[2](fc_simple_symbol_2)"

  def tapped(self, ctx, clients):
    seen = []
    ctx.taps = ["fc_add_one_symbol_0", self.SUM]
    ctx.on_value = seen.append
    self.assertScalar(ctx.invoke(golden("simple_broadcast_map_sum"), 5), 6 * clients, np.int32)
    per_client = sorted((e.client, int(e.value), e.worker) for e in seen if e.path == self.PLUS_ONE)
    self.assertEqual([(c, v) for c, v, _ in per_client], [(i, 6) for i in range(clients)])
    self.assertTrue(all(e.placement == "clients" for e in seen if e.path == self.PLUS_ONE))
    at_server = [e for e in seen if e.path == self.SUM]
    self.assertEqual(len(at_server), 1)
    self.assertEqual((at_server[0].placement, at_server[0].client, int(at_server[0].value)), ("server", None, 6 * clients))
    self.assertEqual(len(seen), clients + 1)
    return [w for _, _, w in per_client]

  def test_one_worker(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    with ctff_remote.execution_context(addresses(1)[0], default_num_clients=4) as ctx:
      self.assertEqual(self.tapped(ctx, 4), addresses(1) * 4)

  def test_three_workers(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    with ctff_remote.execution_context(addresses(3), controller_binary=ARGS.worker, default_num_clients=7) as ctx:
      # ceil(7/3) = 3 clients to each worker in order: 3, 3, 1.
      a = addresses(3)
      self.assertEqual(self.tapped(ctx, 7), [a[0]] * 3 + [a[1]] * 3 + [a[2]])

  def test_a_path_with_no_building_block(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    with ctff_remote.execution_context(addresses(1)[0], default_num_clients=2) as ctx:
      ctx.taps = ["lambda.result.nowhere"]
      ctx.on_value = lambda e: None
      with self.assertRaisesRegex(ctff_remote.RemoteError, "tap: `lambda.result.nowhere`"):
        ctx.invoke(golden("simple_broadcast_map_sum"), 5)


class ErrorTest(Base):

  def test_failed_run_raises_ctffs_message(self):
    import grpc  # pylint: disable=import-outside-toplevel
    import ctff_remote  # pylint: disable=import-outside-toplevel
    divide = textproto(TESTDATA / "divide.textproto")
    for k in (1, 3):
      kw = {"controller_binary": ARGS.worker} if k > 1 else {}
      with ctff_remote.execution_context(addresses(k), **kw) as ctx:
        self.assertScalar(ctx.invoke(divide, (7, 2)), 3, np.int32)
        with self.assertRaises(ctff_remote.RemoteError) as e:
          ctx.invoke(divide, (7, 0))
        self.assertIn("integer division by zero", e.exception.details)
        self.assertIn("integer division by zero", str(e.exception))
        self.assertEqual(e.exception.code, grpc.StatusCode.INTERNAL)
        self.assertEqual(e.exception.method, "CreateCall")
        # The executor is still good after a failed run.
        self.assertScalar(ctx.invoke(divide, (-7, 2)), -3, np.int32)

  def test_values_that_do_not_fit(self):
    import ctff_remote  # pylint: disable=import-outside-toplevel
    named = golden("named_params")
    cases = [
        (dict(alpha=3.5, beta=[1.0], gamma=7), r"^argument\.alpha: a float value where a DT_INT32"),
        (dict(alpha=3, beta=[1.0]), r"^argument: no element `gamma`"),
        (dict(alpha=3, beta=[1.0], gamma=7, delta=1), r"^argument: an element `delta` the type does not have"),
        ([3, [1.0]], r"^argument: 2 elements where the type has 3"),
        (dict(alpha=3, beta=1.0, gamma=7), r"^argument\.beta: a float where a list of client values"),
        (dict(alpha=3, beta=[1.0, "x"], gamma=7), r"^argument\.beta\[1\]: a string where a DT_FLOAT"),
        (5, r"^argument: a int where a struct of 3 elements"),
    ]
    with ctff_remote.execution_context(addresses(1)) as ctx:
      for arg, message in cases:
        with self.subTest(arg=arg):
          with self.assertRaisesRegex(ctff_remote.ConversionError, message):
            ctx.invoke(named, arg)
      with self.assertRaisesRegex(ctff_remote.ConversionError, "3 clients here, 2 at argument.a"):
        ctx.invoke(golden("zip_unnamed"), {"a": [1, 2], "b": [0.5, 1.5, 2.5]})
      with self.assertRaisesRegex(TypeError, "takes an argument; none was given"):
        ctx.invoke(golden("sum_clients"), None)
      with self.assertRaisesRegex(TypeError, "takes no argument"):
        ctx.invoke(golden("federated_values"), 1)

  def test_unreachable_worker(self):
    import grpc  # pylint: disable=import-outside-toplevel
    import ctff_remote  # pylint: disable=import-outside-toplevel
    p, address = start_worker()
    p.terminate()
    p.wait()
    with ctff_remote.execution_context([address], timeout=10) as ctx:
      with self.assertRaises(ctff_remote.RemoteError) as e:
        ctx.invoke(golden("sum_clients"), [1])
      self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)
      self.assertEqual(e.exception.method, "GetExecutor")
      self.assertIn(address, str(e.exception))


class ProtoPathTest(unittest.TestCase):
  """The generated messages: from CTFF_REMOTE_PROTO_PATH, from an installed location, and a clear
  error when nowhere (each in a fresh interpreter, outside the source checkout)."""

  def run_python(self, code, env_extra, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("CTFF_REMOTE_PROTO_PATH", "PYTHONPATH")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=60, check=False)

  def test_where_the_messages_are_found(self):
    import shutil  # pylint: disable=import-outside-toplevel
    import tempfile  # pylint: disable=import-outside-toplevel
    messages = os.path.abspath(ARGS.messages)
    with tempfile.TemporaryDirectory() as tmp:
      # A copy of the package outside the checkout: no build/ beside it to fall back on.
      shutil.copytree(ROOT / "python" / "ctff_remote", pathlib.Path(tmp) / "ctff_remote")
      show = "import ctff_remote; print(ctff_remote.load_protos().path)"
      r = self.run_python(show, {"CTFF_REMOTE_PROTO_PATH": messages}, tmp)
      self.assertEqual(r.returncode, 0, r.stderr)
      self.assertEqual(r.stdout.strip(), messages)
      r = self.run_python(show.replace("print", "ctff_remote.set_proto_path(%r); print" % messages), {}, tmp)
      self.assertEqual(r.returncode, 0, r.stderr)
      self.assertEqual(r.stdout.strip(), messages)
      r = self.run_python(show, {"PYTHONPATH": messages}, tmp)  # installed: importable already
      self.assertEqual(r.returncode, 0, r.stderr)
      self.assertEqual(r.stdout.strip(), "None")
      r = self.run_python(show, {}, tmp)
      self.assertNotEqual(r.returncode, 0)
      self.assertIn("CTFF_REMOTE_PROTO_PATH", r.stderr)
      # The package itself imports without the messages (and without federated_language).
      r = self.run_python("import ctff_remote; print(ctff_remote.ExecutionContext.__mro__[1].__name__)", {}, tmp)
      self.assertEqual(r.returncode, 0, r.stderr)


class FederatedLanguageTest(unittest.TestCase):
  """A @federated_computation defined and called end to end, when federated_language imports."""

  def test_end_to_end(self):
    try:
      # (The generated messages make a namespace package `federated_language` of their own:
      # only federated_language's own package has `framework`.)
      import federated_language  # pylint: disable=import-outside-toplevel
      import federated_language.framework  # pylint: disable=import-outside-toplevel,unused-import
    except Exception as e:  # pylint: disable=broad-except
      print(f"\nfederated_language not importable: end-to-end test skipped ({type(e).__name__}: {e})",
            flush=True)
      return
    import ctff_remote  # pylint: disable=import-outside-toplevel
    for k in (1, 3):
      kw = {"controller_binary": ARGS.worker} if k > 1 else {}
      with ctff_remote.execution_context(addresses(k), **kw) as ctx:
        with federated_language.framework.get_context_stack().install(ctx):

          @federated_language.federated_computation(
              federated_language.FederatedType(np.int32, federated_language.CLIENTS))
          def total(x):
            return federated_language.federated_sum(x)

          self.assertEqual(total([1, 2, 3, 4]), 10)

          @federated_language.federated_computation(
              federated_language.FederatedType(np.float32, federated_language.CLIENTS),
              federated_language.FederatedType(np.int32, federated_language.SERVER))
          def stats(x, y):
            return collections.OrderedDict(mean=federated_language.federated_mean(x), y=y)

          got = stats([1.0, 2.0, 6.0], 5)
          self.assertEqual(got["mean"], 3.0)
          self.assertEqual(got["y"], 5)


def main():
  global ARGS
  ap = argparse.ArgumentParser()
  ap.add_argument("--worker", required=True)
  ap.add_argument("--messages", required=True, help="the directory of the generated *_pb2.py")
  ARGS, rest = ap.parse_known_args()
  unittest.main(argv=[sys.argv[0], "-v"] + rest)


if __name__ == "__main__":
  main()
