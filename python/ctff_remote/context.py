"""ExecutionContext: runs federated_language computations on ctff workers over TFF's
remote-execution gRPC service (tensorflow_federated.v0.ExecutorGroup).

One address: that worker is driven directly. Several: a local controller process
`ctff-worker --port=0 --workers=A,B,...` is started (it splits each per-client intrinsic over
the workers, ceil(N/K) clients each, in the order given) and driven like one worker; it is
stopped when the context closes. A slice whose worker dies, hangs past a deadline or restarts
runs again on another worker, with the same result (`retries=`, `slice_deadline=`,
`worker_deadline=`; docs/distributed.md, "Failover").

Each invoke: GetExecutor(clients=N) (one executor per N, kept until the context closes),
CreateValue(the computation), CreateValue(the argument), CreateCall, Compute, Dispose of the
three values. close() (or the context's garbage collection, or `with`) sends DisposeExecutor
for each executor, closes the channel and stops the controller.
"""

import collections
import os
import re
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref

from ctff_remote import _protos
from ctff_remote import values as _values

try:  # federated_language, when importable: the context is one of its SyncContexts.
  import federated_language as _fl  # type: ignore
  _SyncContext = _fl.framework.SyncContext
except Exception:  # ImportError, or a federated_language that does not import here
  _fl = None
  _SyncContext = object

_METHODS = ("GetExecutor", "CreateValue", "CreateCall", "CreateStruct", "CreateSelection", "Compute",
            "Dispose", "DisposeExecutor")


TapEvent = collections.namedtuple("TapEvent", ["path", "placement", "client", "worker", "value"])
TapEvent.__doc__ = """One value a tap saw: `path` (the building block's, as `ctff-inspect --paths` lists
it), `placement` ("clients", "server", or None: unplaced), `client` (the client's index; None: at
the server, unplaced, or shared by all clients), `worker` (HOST:PORT of the worker that computed
it), `value` (as ctff_remote.from_value gives it; a function as its printed form)."""

_TAP_REQUEST = "ctff-tap"
_TAP_EVENTS = "ctff-tap-bin"


def _text(x):
  if hasattr(x, "item"):
    x = x.item()
  return x.decode() if isinstance(x, bytes) else str(x)


def _tap_events(trailing, address, pb):
  """TapEvents from a CreateCall's trailing metadata (see remote/shipped_taps.hpp)."""
  out = []
  for key, raw in trailing:
    if key != _TAP_EVENTS:
      continue
    v = pb.executor_pb2.Value.FromString(raw)
    e = _values.from_value(v, where="tap")
    items = list(e.values()) if hasattr(e, "values") else list(e)
    path, placement, client, worker, value = items
    placement, worker = _text(placement), _text(worker)
    client = int(client.item() if hasattr(client, "item") else client)
    out.append(TapEvent(_text(path), placement or None, None if client < 0 else client, worker or address, value))
  return out


class RemoteError(RuntimeError):
  """A request a ctff worker refused or a run that failed there.

  Attributes: `details` (ctff's message, as the worker sent it), `code` (the grpc.StatusCode:
  INTERNAL for a run that failed, INVALID_ARGUMENT for a value or computation the worker cannot
  use, UNAVAILABLE for a worker not reachable, ...), `method` (the request), `address` (the
  worker or controller)."""

  def __init__(self, method, code, details, address):
    self.method, self.code, self.details, self.address = method, code, details, address
    code_name = getattr(code, "name", str(code))
    super().__init__(f"ctff worker {address}: {method} failed ({code_name}): {details}")


class _Connection:
  """A channel to one worker (or controller) and the executors held there, by client count.
  Kept apart from the context so that a finalizer can release it without the context."""

  def __init__(self, address, timeout, options):
    import grpc  # pylint: disable=import-outside-toplevel
    self._grpc = grpc
    self.address = address
    self.timeout = timeout
    self.pb = _protos.load()
    self.channel = grpc.insecure_channel(address, options=options)
    ex = self.pb.executor_pb2
    self.stubs = {
        m: self.channel.unary_unary(f"/tensorflow_federated.v0.ExecutorGroup/{m}",
                                    request_serializer=lambda r: r.SerializeToString(),
                                    response_deserializer=getattr(ex, m + "Response").FromString)
        for m in _METHODS
    }
    self.executors = {}  # clients -> executor id
    self.lock = threading.Lock()

  def call(self, method, request, metadata=None, trailing=None):
    """The response; with `trailing` (a list), the trailing metadata appended to it."""
    try:
      if trailing is None:
        return self.stubs[method](request, timeout=self.timeout, metadata=metadata)
      response, call = self.stubs[method].with_call(request, timeout=self.timeout, metadata=metadata)
      trailing.extend(call.trailing_metadata() or ())
      return response
    except self._grpc.RpcError as e:
      raise RemoteError(method, e.code(), e.details(), self.address) from None

  def executor(self, clients):
    with self.lock:
      if clients not in self.executors:
        ex = self.pb.executor_pb2
        rq = ex.GetExecutorRequest()
        c = rq.cardinalities.add()
        c.placement.uri = "clients"
        c.cardinality = clients
        self.executors[clients] = self.call("GetExecutor", rq).executor.id
      return self.executors[clients]

  def forget(self, clients):
    with self.lock:
      self.executors.pop(clients, None)

  def release(self):
    """DisposeExecutor for each executor held (errors ignored: the worker may be gone)."""
    with self.lock:
      ids, self.executors = list(self.executors.values()), {}
    ex = self.pb.executor_pb2
    for i in ids:
      try:
        self.stubs["DisposeExecutor"](ex.DisposeExecutorRequest(executor=ex.ExecutorId(id=i)), timeout=5)
      except Exception:  # pylint: disable=broad-except
        pass
    self.channel.close()


def _drain(stream):
  try:
    while stream.read(4096):
      pass
  except (OSError, ValueError):
    pass
  finally:
    try:
      stream.close()
    except (OSError, ValueError):
      pass


def _stop_process(proc):
  if proc is None:
    return
  if proc.poll() is None:
    try:
      proc.send_signal(signal.SIGTERM)
      proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
      proc.kill()
      proc.wait()
    except OSError:
      pass


def _finalize(connection, proc):
  try:
    if connection is not None:
      connection.release()
  finally:
    _stop_process(proc)


def start_worker(binary=None, args=(), start_timeout=30.0, what="worker"):
  """Starts `ctff-worker --port=0 ARGS...` (`binary`: default `ctff-worker` on PATH) and waits
  until it listens; returns (process, "HOST:PORT"). Stop it with process.terminate()."""
  binary = binary or shutil.which("ctff-worker")
  if not binary:
    raise FileNotFoundError("ctff_remote: `ctff-worker` is not on PATH: pass its path (the build's "
                            "tools/ctff_worker/ctff-worker)")
  argv = [os.fspath(binary), "--port=0", *args]
  err = tempfile.TemporaryFile()  # what the worker says when it does not start
  try:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL)
  except BaseException:
    err.close()
    raise
  line = b""
  deadline = time.monotonic() + start_timeout
  with selectors.DefaultSelector() as sel:
    sel.register(proc.stdout, selectors.EVENT_READ)
    while not line.endswith(b"\n"):
      left = deadline - time.monotonic()
      if left <= 0 or not sel.select(left):
        break
      chunk = os.read(proc.stdout.fileno(), 1)
      if not chunk:
        break
      line += chunk
  m = re.search(rb"listening on (\S+):(\d+)", line)
  if not m:
    _stop_process(proc)
    err.seek(0)
    why = err.read().decode(errors="replace").strip()
    err.close()
    raise RuntimeError(f"ctff_remote: the {what} {' '.join(argv)} did not start: "
                       f"{line.decode(errors='replace').strip() or why or 'no output'}")
  err.close()  # the worker keeps its own descriptor
  # The worker prints nothing more on stdout; drain it so that it can never block on it.
  threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
  host = m.group(1).decode()
  if host in ("0.0.0.0", "::", "[::]", ""):
    host = "127.0.0.1"
  return proc, f"{host}:{int(m.group(2))}"


def start_controller(addresses, binary=None, args=(), start_timeout=30.0):
  """Starts `ctff-worker --port=0 --workers=A,B,...`; returns (process, "127.0.0.1:PORT")."""
  binary = binary or shutil.which("ctff-worker")
  if not binary:
    raise FileNotFoundError(
        "ctff_remote: several worker addresses need a local controller, `ctff-worker`, which is not "
        "on PATH: pass controller_binary= (the build's tools/ctff_worker/ctff-worker)")
  return start_worker(binary, ["--workers=" + ",".join(addresses), *args], start_timeout, "controller")


class ExecutionContext(_SyncContext):
  """A federated_language execution context over ctff workers (see the module's doc).

  `invoke(comp, arg)` takes a computation (federated_language's ConcreteComputation, a
  federated_language.Computation message, or its serialized bytes) and its argument as Python
  values (ctff_remote.values), and returns the result as Python values: with a
  ConcreteComputation and federated_language importable, converted by federated_language's
  type_to_py_container with the computation's result type (its Python containers); otherwise
  structs as collections.OrderedDict (all named) or tuple (none named).
  """

  def __init__(self, addresses, *, controller_binary=None, controller_args=(), proto_path=None,
               default_num_clients=0, timeout=None, start_timeout=30.0, grpc_options=None, taps=(),
               on_value=None, retries=None, slice_deadline=None, worker_deadline=None):
    if isinstance(addresses, str):
      addresses = [addresses]
    addresses = [a.strip() for a in addresses]
    if not addresses or not all(addresses):
      raise ValueError("ctff_remote: execution_context needs at least one worker address HOST:PORT")
    if proto_path is not None:
      _protos.set_proto_path(proto_path)
    _protos.load()
    self.addresses = list(addresses)
    self.default_num_clients = int(default_num_clients)
    # Taps: the building blocks at these paths (or Block locals of these names) of each computation
    # invoked give every value they take to on_value(TapEvent), after the call, on this thread.
    self.taps = list(taps)
    self.on_value = on_value
    self._proc = None
    self._conn = None
    # Failover (several addresses: the controller's --retries, --slice_deadline, --deadline; in
    # seconds here): a slice whose worker dies, hangs or restarts runs on another worker.
    failover = [f"--{flag}={value}" for flag, value in (
        ("retries", None if retries is None else int(retries)),
        ("slice_deadline", None if slice_deadline is None else round(float(slice_deadline) * 1000)),
        ("deadline", None if worker_deadline is None else round(float(worker_deadline) * 1000))) if value is not None]
    if len(addresses) == 1:
      if failover:
        raise ValueError("ctff_remote: retries, slice_deadline and worker_deadline need several worker addresses")
      target = addresses[0]
    else:
      self._proc, target = start_controller(addresses, controller_binary, [*failover, *controller_args],
                                            start_timeout)
    options = grpc_options if grpc_options is not None else [
        ("grpc.max_send_message_length", -1), ("grpc.max_receive_message_length", -1),
        ("grpc.max_metadata_size", 80 << 20)]  # (taps' values come back as metadata)
    try:
      self._conn = _Connection(target, timeout, options)
    except BaseException:
      _stop_process(self._proc)
      raise
    self._finalizer = weakref.finalize(self, _finalize, self._conn, self._proc)

  @property
  def address(self):
    """The address driven: the one worker's, or the local controller's."""
    return self._conn.address

  @property
  def controller(self):
    """The controller process (subprocess.Popen), or None with one address."""
    return self._proc

  def close(self):
    """Disposes of the executors held on the worker, closes the channel, stops the controller."""
    self._finalizer()

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()

  @property
  def closed(self):
    return not self._finalizer.alive

  # --- running -----------------------------------------------------------------------------------

  def invoke(self, comp, arg):
    if self.closed:
      raise RuntimeError("ctff_remote: the execution context is closed")
    pb = self._conn.pb
    comp_pb = _values._computation_message(comp, "computation")  # pylint: disable=protected-access
    if comp_pb.type.WhichOneof("type") != "function":
      raise TypeError("ctff_remote: the computation is not a function "
                      f"(its type is a {comp_pb.type.WhichOneof('type')}): nothing to call")
    fn_type = comp_pb.type.function
    has_param = fn_type.HasField("parameter")
    if has_param and arg is None:
      p = fn_type.parameter
      if p.WhichOneof("type") != "struct" or len(p.struct.element):
        raise TypeError("ctff_remote: the computation takes an argument; none was given")
      arg = ()  # the empty struct <>
    if not has_param and arg is not None:
      raise TypeError("ctff_remote: the computation takes no argument; one was given")
    clients = _values.infer_clients(arg, fn_type.parameter, "argument") if has_param else None
    if clients is None:
      clients = self.default_num_clients
    arg_value = _values.to_value(arg, fn_type.parameter, "argument") if has_param else None
    comp_value = pb.executor_pb2.Value(computation=comp_pb)
    try:
      result = self._run(clients, comp_value, arg_value)
    except RemoteError as e:
      if e.code is None or getattr(e.code, "name", "") != "FAILED_PRECONDITION":
        raise
      self._conn.forget(clients)  # the worker no longer knows the executor: once more, anew
      result = self._run(clients, comp_value, arg_value)
    return self._to_python(result, comp, fn_type.result)

  def _run(self, clients, comp_value, arg_value):
    ex = self._conn.pb.executor_pb2
    executor = ex.ExecutorId(id=self._conn.executor(clients))
    call = self._conn.call
    held = []
    tapping = bool(self.taps) and self.on_value is not None
    tap_md = [(_TAP_REQUEST, p) for p in self.taps] if tapping else None
    trailing = [] if tapping else None
    try:
      fn = call("CreateValue", ex.CreateValueRequest(executor=executor, value=comp_value), metadata=tap_md).value_ref
      held.append(fn)
      rq = ex.CreateCallRequest(executor=executor, function_ref=fn)
      if arg_value is not None:
        a = call("CreateValue", ex.CreateValueRequest(executor=executor, value=arg_value)).value_ref
        held.append(a)
        rq.argument_ref.CopyFrom(a)
      r = call("CreateCall", rq, trailing=trailing).value_ref
      held.append(r)
      result = call("Compute", ex.ComputeRequest(executor=executor, value_ref=r)).value
      if tapping:
        for e in _tap_events(trailing, self._conn.address, self._conn.pb):
          self.on_value(e)
      return result
    finally:
      if held:
        try:
          self._conn.stubs["Dispose"](ex.DisposeRequest(executor=executor, value_ref=held), timeout=10)
        except Exception:  # pylint: disable=broad-except
          pass

  def _to_python(self, value, comp, result_type):
    if _fl is not None and hasattr(comp, "type_signature"):
      from federated_language.common_libs import structure  # pylint: disable=import-outside-toplevel
      py = _values.from_value(value, result_type, make_struct=structure.Struct, where="result")
      return _fl.framework.type_to_py_container(py, comp.type_signature.result)
    return _values.from_value(value, result_type, where="result")

  def call(self, comp, *args, **kwargs):
    """Calls `comp` with Python arguments, packed as federated_language packs them: one
    positional argument is the argument; several, or keywords, make a struct (positional first,
    then the keywords by name). For use without federated_language."""
    if not args and not kwargs:
      return self.invoke(comp, None)
    if len(args) == 1 and not kwargs:
      return self.invoke(comp, args[0])
    comp_pb = _values._computation_message(comp, "computation")  # pylint: disable=protected-access
    param = comp_pb.type.function.parameter
    names = [e.name for e in param.struct.element] if param.WhichOneof("type") == "struct" else []
    if kwargs:
      if not names or not all(names):
        raise TypeError("ctff_remote: keyword arguments for a parameter whose elements are not all named")
      packed = dict(zip(names, args))
      packed.update(kwargs)
      return self.invoke(comp_pb, packed)
    return self.invoke(comp_pb, list(args))


def execution_context(addresses, **kwargs):
  """An ExecutionContext over the ctff workers at `addresses` (HOST:PORT, or a list of them).

  Keywords: controller_binary= (the ctff-worker that controls several workers; default
  `ctff-worker` on PATH), controller_args= (extra flags for it, e.g. ["--threads=4"]),
  proto_path= (the directory of the generated *_pb2 modules), default_num_clients= (N when the
  argument has no CLIENTS list; default 0), timeout= (seconds per request; default none),
  start_timeout= (seconds for the controller to start), grpc_options= (channel options), taps=
  (paths of building blocks, or names of Block locals, to tap) and on_value= (called with each
  TapEvent they saw, after each call).

  >>> ctx = ctff_remote.execution_context(["127.0.0.1:8000"])
  >>> federated_language.framework.set_default_context(ctx)
  """
  return ExecutionContext(addresses, **kwargs)
