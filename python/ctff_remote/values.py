"""Python values <-> TFF's wire values (tensorflow_federated.v0.Value), guided by a type.

The type is a federated_language.Type *message* (a Computation's `type.function.parameter` or
`.result`), so nothing here needs federated_language itself.

Python to wire (`to_value(value, type_pb)`), by the type:

* tensor: a Python scalar (bool, int, float, complex, str, bytes), a numpy scalar or array, or
  nested lists of them. Kinds convert only upwards: bool to bool; ints to any int dtype (each value
  in range); ints and floats to floats; ints, floats and complexes to complexes; str (UTF-8) and
  bytes to strings. A float that the narrower dtype would make infinite is refused. The shape must
  fit the type's dims (-1 matches any length; an unknown rank any shape).
* struct: a federated_language Struct, a dict (Mapping), a namedtuple, an attrs or dataclass
  instance (by name when the type's elements are all named: every name, no other), or a list or
  tuple (by position).
* federated: all_equal types (SERVER, or CLIENTS all_equal) take the member value itself; other
  CLIENTS values a list or tuple, one member per client.
* sequence: a list or tuple of elements (tensors and structs of them).
* function: a computation (a federated_language Computation message, its serialized bytes, or
  anything with `to_proto()`, such as federated_language's ConcreteComputation).
* data on the workers, wherever a value of a non-function type goes (typically each member of a
  CLIENTS value): a federated_language `Data` building block, a Computation message with `data`
  set, or `Data(uri)` (below), sent as that Data computation for the worker to read
  (`ctff-worker --data DIR`; docs/distributed.md, "Data on the workers").

Wire to Python (`from_value(value_pb, type_pb=None)`), as federated_language's own contexts
return values:

* tensor: a numpy scalar for shape (), else a numpy array; strings as bytes (arrays of them with
  dtype object); bfloat16 as ml_dtypes.bfloat16 when ml_dtypes imports, else as float32.
* struct: a collections.OrderedDict when every element is named, a tuple when none is (what
  federated_language's type_to_py_container returns for a struct type without a Python
  container); mixed names: a list of (name or None, value) pairs. `make_struct` overrides this (the
  context passes federated_language's Struct, then converts with the computation's result type).
* federated: the member for all_equal values (SERVER), a list of members for CLIENTS.
* sequence: a list of elements. computation: the Computation message.
"""

import collections
import dataclasses
import importlib
import math

import numpy as np

from ctff_remote import _protos

try:  # bfloat16 as numpy knows it, when available (federated_language needs it anyway).
  import ml_dtypes as _ml_dtypes  # type: ignore
except ImportError:  # pragma: no cover - depends on the machine
  _ml_dtypes = None

# DataType enum name -> (numpy type, the Array list field).
_DTYPES = {
    "DT_BOOL": (np.bool_, "bool_list"),
    "DT_INT8": (np.int8, "int8_list"),
    "DT_INT16": (np.int16, "int16_list"),
    "DT_INT32": (np.int32, "int32_list"),
    "DT_INT64": (np.int64, "int64_list"),
    "DT_UINT8": (np.uint8, "uint8_list"),
    "DT_UINT16": (np.uint16, "uint16_list"),
    "DT_UINT32": (np.uint32, "uint32_list"),
    "DT_UINT64": (np.uint64, "uint64_list"),
    "DT_HALF": (np.float16, "float16_list"),
    "DT_BFLOAT16": ("bfloat16", "bfloat16_list"),
    "DT_FLOAT": (np.float32, "float32_list"),
    "DT_DOUBLE": (np.float64, "float64_list"),
    "DT_COMPLEX64": (np.complex64, "complex64_list"),
    "DT_COMPLEX128": (np.complex128, "complex128_list"),
    "DT_STRING": (np.str_, "string_list"),
}

# The kinds (numpy dtype.kind) each target kind accepts.
_ACCEPTS = {"b": "b", "i": "iu", "u": "iu", "f": "iuf", "c": "iufc"}


class ConversionError(ValueError):
  """A value that does not fit its type, or a wire value ctff_remote cannot read; the message says
  where in the value (`value.alpha[2]`: element `alpha`, client 2)."""


def _fail(where, what):
  raise ConversionError(f"{where}: {what}")


def _step(where, name, k):
  return f"{where}.{name}" if name else f"{where}[{k}]"


def _dtype_name(pb, enum_value):
  try:
    return pb.data_type_pb2.DataType.Name(enum_value)
  except ValueError:
    return str(enum_value)


# --- tensors -------------------------------------------------------------------------------------

def _to_bfloat16_bits(a):
  """float32 values -> bfloat16 bit patterns (round to nearest even), as uint16."""
  if _ml_dtypes is not None:
    return np.asarray(a, np.float32).astype(_ml_dtypes.bfloat16).view(np.uint16)
  b = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
  rounded = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF
  nan = np.isnan(np.asarray(a, np.float32))
  rounded = np.where(nan, ((b >> 16) & 0x8000) | 0x7FC0, rounded)
  return rounded.astype(np.uint16)


def _from_bfloat16_bits(bits):
  bits = np.asarray(bits, np.uint16)
  if _ml_dtypes is not None:
    return bits.view(_ml_dtypes.bfloat16)
  return (bits.astype(np.uint32) << 16).view(np.float32)


def _strings(value, where):
  """A value of strings -> an object array of bytes."""
  if isinstance(value, (str, bytes)):
    a = np.empty((), object)
    a[()] = value
  else:
    try:
      a = np.asarray(value, dtype=object)
    except ValueError as e:
      _fail(where, f"not a rectangular array of strings ({e})")
  out = np.empty(a.shape, object)
  for idx in np.ndindex(a.shape):
    x = a[idx]
    if isinstance(x, str):
      out[idx] = x.encode("utf-8")
    elif isinstance(x, bytes):
      out[idx] = bytes(x)
    else:
      _fail(where, f"{type(x).__name__} {x!r} where a string (str or bytes) is expected")
  return out


def _python_elements(value, where):
  """Python scalars or nested lists of them -> an object array of the scalars."""
  try:
    a = np.asarray(value, dtype=object)
  except ValueError as e:
    _fail(where, f"not a rectangular array ({e})")
  for x in a.reshape(-1).tolist():
    if isinstance(x, (list, tuple, np.ndarray)):
      _fail(where, "not a rectangular array (nested lists of different lengths)")
  return a


def _kind_of(x, where):
  if isinstance(x, (bool, np.bool_)):
    return "b"
  if isinstance(x, (int, np.integer)):
    return "i"
  if isinstance(x, (float, np.floating)):
    return "f"
  if isinstance(x, (complex, np.complexfloating)):
    return "c"
  if isinstance(x, (str, bytes)):
    _fail(where, f"a string where a number is expected")
  _fail(where, f"a {type(x).__name__} where a number is expected")


def _finite(x):
  try:
    return bool(np.isfinite(x))
  except TypeError:  # a Python int beyond float64
    return True


def _fits_shape(shape, tensor_type):
  if tensor_type.unknown_rank:
    return True
  dims = list(tensor_type.dims)
  return len(dims) == len(shape) and all(d < 0 or d == s for d, s in zip(dims, shape))


def _shape_text(tensor_type):
  if tensor_type.unknown_rank:
    return "any shape"
  return "[" + ",".join("?" if d < 0 else str(d) for d in tensor_type.dims) + "]"


def tensor_to_array(value, tensor_type, where="value"):
  """A Python or numpy value -> federated_language.Array of `tensor_type` (a TensorType)."""
  pb = _protos.load()
  name = _dtype_name(pb, tensor_type.dtype)
  if name not in _DTYPES:
    _fail(where, f"the dtype {name} is not one ctff_remote converts")
  np_type, list_field = _DTYPES[name]
  if np_type is np.str_:
    a = _strings(value, where)
  else:
    if isinstance(value, (str, bytes)):
      _fail(where, f"a string where a {name} is expected")
    target_kind = "f" if np_type == "bfloat16" else np.dtype(np_type).kind
    if isinstance(value, (np.ndarray, np.generic)):
      src = np.asarray(value)
      kinds = {src.dtype.kind} if src.size else set()
    else:  # Python values: each element's own kind (numpy would make [2**64-1, 3] float64)
      src = _python_elements(value, where)
      kinds = {_kind_of(x, where) for x in src.reshape(-1).tolist()}
    for kind in kinds:
      if kind not in _ACCEPTS[target_kind]:
        what = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}.get(kind, str(src.dtype))
        _fail(where, f"a {what} value where a {name} is expected")
    if target_kind in "iu" and src.size:
      info = np.iinfo(np_type)
      for bad in (src.min(), src.max()):
        if int(bad) < info.min or int(bad) > info.max:
          _fail(where, f"the value {int(bad)} is out of range of {np.dtype(np_type).name}")
    with np.errstate(over="ignore", invalid="ignore"):
      numbers = src.tolist() if src.dtype == object else src
      a = np.array(numbers, np.float32 if np_type == "bfloat16" else np_type)
    if target_kind in "fc" and src.size:
      if src.dtype == object:
        finite = np.array([_finite(x) for x in src.reshape(-1).tolist()]).reshape(src.shape)
      else:
        finite = np.isfinite(src)
      if np.any(finite & ~np.isfinite(a)):
        _fail(where, f"a value too large for {name}")
  if not _fits_shape(a.shape, tensor_type):
    _fail(where, f"a value of shape {list(a.shape)} where {name} of shape {_shape_text(tensor_type)} is expected")
  out = pb.array_pb2.Array(dtype=tensor_type.dtype)
  out.shape.dim.extend(a.shape)
  flat = a.reshape(-1)
  target = getattr(out, list_field)
  if np_type is np.float16:
    target.value.extend(flat.view(np.uint16).tolist())
  elif np_type == "bfloat16":
    target.value.extend(_to_bfloat16_bits(flat).tolist())
  elif np_type in (np.complex64, np.complex128):
    target.value.extend(np.stack([flat.real, flat.imag], -1).reshape(-1).tolist())
  else:
    target.value.extend(flat.tolist())
  target.SetInParent()  # an empty array still names its list
  return out


def array_to_python(array, where="value"):
  """federated_language.Array -> numpy scalar (shape ()) or array; strings as bytes."""
  pb = _protos.load()
  name = _dtype_name(pb, array.dtype)
  if name not in _DTYPES:
    _fail(where, f"the dtype {name} is not one ctff_remote converts")
  np_type, list_field = _DTYPES[name]
  if array.shape.unknown_rank:
    _fail(where, "an Array of unknown rank")
  shape = tuple(array.shape.dim)
  if array.HasField("content"):
    if np_type is np.str_:
      _fail(where, "a string Array in raw content")
    raw_type = np.uint16 if np_type == "bfloat16" else np_type
    a = np.frombuffer(array.content, np.dtype(raw_type).newbyteorder("<")).astype(raw_type)
    if np_type == "bfloat16":
      a = _from_bfloat16_bits(a)
  else:
    values = getattr(array, list_field).value
    if np_type is np.str_:
      a = np.empty(len(values), object)
      for k, v in enumerate(values):
        a[k] = bytes(v)
    elif np_type is np.float16:
      a = np.asarray(values, np.uint16).view(np.float16)
    elif np_type == "bfloat16":
      a = _from_bfloat16_bits(values)
    elif np_type in (np.complex64, np.complex128):
      parts = np.asarray(values, np.float32 if np_type is np.complex64 else np.float64)
      if parts.size % 2:
        _fail(where, "an odd count of complex parts")
      a = np.empty(parts.size // 2, np_type)
      a.real, a.imag = parts[0::2], parts[1::2]
    else:
      a = np.asarray(values, np_type)
  n = math.prod(shape)
  if a.size != n:
    _fail(where, f"the Array holds {a.size} values; its shape {list(shape)} needs {n}")
  a = a.reshape(shape)
  return a[()] if shape == () else a


# --- structures ----------------------------------------------------------------------------------

def _is_fl_struct(value):
  t = type(value)
  return t.__name__ == "Struct" and t.__module__.startswith("federated_language")


def struct_elements(value):
  """The (name or None, value) pairs of a Python structure, or None if `value` is not one."""
  if _is_fl_struct(value):
    return list(importlib.import_module(type(value).__module__).to_elements(value))
  if isinstance(value, collections.abc.Mapping):
    return [(k, v) for k, v in value.items()]
  if isinstance(value, tuple) and hasattr(value, "_fields") and hasattr(value, "_asdict"):
    return list(value._asdict().items())
  attrs_fields = getattr(type(value), "__attrs_attrs__", None)
  if attrs_fields is not None:
    return [(a.name, getattr(value, a.name)) for a in attrs_fields]
  if dataclasses.is_dataclass(value) and not isinstance(value, type):
    return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
  if isinstance(value, (list, tuple)):
    return [(None, v) for v in value]
  return None


def _match_struct(value, struct_type, where):
  """The values of `value` for each element of `struct_type`, in the type's order."""
  elems = struct_elements(value)
  if elems is None:
    _fail(where, f"a {type(value).__name__} where a struct of {len(struct_type.element)} elements is expected")
  type_names = [e.name for e in struct_type.element]
  value_named = bool(elems) and all(isinstance(n, str) for n, _ in elems)
  if value_named and all(type_names):
    by_name = dict(elems)
    missing = [n for n in type_names if n not in by_name]
    extra = [n for n, _ in elems if n not in type_names]
    if missing:
      _fail(where, f"no element `{missing[0]}` (the type's elements: {', '.join(type_names)})")
    if extra:
      _fail(where, f"an element `{extra[0]}` the type does not have (its elements: {', '.join(type_names)})")
    return [by_name[n] for n in type_names]
  if len(elems) != len(type_names):
    _fail(where, f"{len(elems)} elements where the type has {len(type_names)}")
  for k, ((vn, _), tn) in enumerate(zip(elems, type_names)):
    if isinstance(vn, str) and tn and vn != tn:
      _fail(where, f"element {k} is named `{vn}`; the type names it `{tn}`")
  return [v for _, v in elems]


class Data:
  """A client's data that the worker reads by URI (`ctff-worker --data DIR`): `FILE.npy`,
  `FILE.npz` or `FILE#ROW` of a shard file, relative to the worker's DIR. What federated_language's
  `Data` building block is on the wire (`Computation{type, data{uri}}`), usable without it; `type_pb`
  (a federated_language.Type message) defaults to the type the value goes where."""

  def __init__(self, uri, type_pb=None):
    if not isinstance(uri, str) or not uri:
      raise ConversionError(f"Data: a URI is a non-empty str, not {uri!r}")
    self.uri = uri
    self.type_pb = type_pb

  def __repr__(self):
    return f"ctff_remote.Data({self.uri!r})"


def _data_computation(value, type_pb, where):
  """The Data computation `value` is (None: it is not one)."""
  pb = _protos.load()
  if isinstance(value, Data):
    c = pb.computation_pb2.Computation()
    c.type.CopyFrom(value.type_pb if value.type_pb is not None else type_pb)
    c.data.uri = value.uri
    return c
  name = type(value).__name__
  if name == "Data" and hasattr(value, "to_proto"):  # federated_language's building block
    return _computation_message(value, where)
  if name == "Computation" and hasattr(value, "HasField") and value.HasField("data"):
    return _computation_message(value, where)
  return None


def _is_member_list(value):
  """One member per client: a list or tuple, or a numpy array (by its first axis)."""
  return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim > 0)


def _computation_message(value, where):
  pb = _protos.load()
  if isinstance(value, (bytes, bytearray)):
    return pb.computation_pb2.Computation.FromString(bytes(value))
  if hasattr(value, "to_proto"):
    value = value.to_proto()
  if hasattr(value, "SerializeToString") and type(value).__name__ == "Computation":
    if isinstance(value, pb.computation_pb2.Computation):
      return value
    return pb.computation_pb2.Computation.FromString(value.SerializeToString())
  _fail(where, f"a {type(value).__name__} where a computation is expected")


def _flat_leaves(value, type_pb, where, out):
  kind = type_pb.WhichOneof("type")
  if kind == "tensor":
    out.append(tensor_to_array(value, type_pb.tensor, where))
  elif kind == "struct":
    for k, (e, v) in enumerate(zip(type_pb.struct.element, _match_struct(value, type_pb.struct, where))):
      _flat_leaves(v, e.value, _step(where, e.name, k), out)
  else:
    _fail(where, f"a sequence element type of kind {kind} (tensors and structs only)")


def to_value(value, type_pb, where="value"):
  """A Python value -> tensorflow_federated.v0.Value of type `type_pb` (a federated_language.Type)."""
  pb = _protos.load()
  V = pb.executor_pb2.Value
  kind = type_pb.WhichOneof("type")
  if kind != "function":
    data = _data_computation(value, type_pb, where)
    if data is not None:
      return V(computation=data)
  if kind == "tensor":
    return V(array=tensor_to_array(value, type_pb.tensor, where))
  if kind == "struct":
    out = V()
    out.struct.SetInParent()
    for k, (e, v) in enumerate(zip(type_pb.struct.element, _match_struct(value, type_pb.struct, where))):
      el = out.struct.element.add(name=e.name)
      el.value.CopyFrom(to_value(v, e.value, _step(where, e.name, k)))
    return out
  if kind == "federated":
    ft = type_pb.federated
    server = ft.placement.WhichOneof("placement") == "value" and ft.placement.value.uri == "server"
    if ft.all_equal or server:
      members = [value]
    else:
      if not _is_member_list(value):
        _fail(where, f"a {type(value).__name__} where a list of client values is expected")
      members = list(value)
    out = V()
    out.federated.type.CopyFrom(ft)
    for k, m in enumerate(members):
      at = where if ft.all_equal or server else f"{where}[{k}]"
      out.federated.value.add().CopyFrom(to_value(m, ft.member, at))
    return out
  if kind == "sequence":
    if not _is_member_list(value):
      _fail(where, f"a {type(value).__name__} where a list of sequence elements is expected")
    out = V()
    out.sequence.element_type.CopyFrom(type_pb.sequence.element)
    for k, e in enumerate(value):
      leaves = []
      _flat_leaves(e, type_pb.sequence.element, f"{where}[{k}]", leaves)
      out.sequence.element.add().flat_value.extend(leaves)
    return out
  if kind == "function":
    return V(computation=_computation_message(value, where))
  _fail(where, f"a value of a {kind or 'missing'} type cannot be sent")


def infer_clients(value, type_pb, where="value"):
  """The number of clients a value of `type_pb` has (its CLIENTS lists agree), or None."""
  found = {}

  def walk(v, t, at):
    kind = t.WhichOneof("type")
    if kind != "function" and _data_computation(v, t, at) is not None:
      return  # (read by the worker)
    if kind == "federated":
      ft = t.federated
      uri = ft.placement.value.uri if ft.placement.WhichOneof("placement") == "value" else ""
      if uri == "clients" and not ft.all_equal:
        if not _is_member_list(v):
          _fail(at, f"a {type(v).__name__} where a list of client values is expected")
        if "n" in found and found["n"][0] != len(v):
          _fail(at, f"{len(v)} clients here, {found['n'][0]} at {found['n'][1]}")
        found["n"] = (len(v), at)
    elif kind == "struct":
      for k, (e, x) in enumerate(zip(t.struct.element, _match_struct(v, t.struct, at))):
        walk(x, e.value, _step(at, e.name, k))

  if value is not None:
    walk(value, type_pb, where)
  return found["n"][0] if "n" in found else None


def _default_struct(elements):
  names = [n for n, _ in elements]
  if elements and all(n is not None for n in names):
    return collections.OrderedDict(elements)
  if all(n is None for n in names):
    return tuple(v for _, v in elements)
  return list(elements)


def _nest(arrays, type_pb, make_struct, where, cursor):
  kind = type_pb.WhichOneof("type")
  if kind == "struct":
    return make_struct([(e.name or None, _nest(arrays, e.value, make_struct, _step(where, e.name, k), cursor))
                        for k, e in enumerate(type_pb.struct.element)])
  if kind != "tensor":
    _fail(where, f"a sequence element type of kind {kind}")
  if cursor[0] >= len(arrays):
    _fail(where, "a sequence element with fewer tensors than its type")
  cursor[0] += 1
  return array_to_python(arrays[cursor[0] - 1], where)


def from_value(value, type_pb=None, make_struct=None, where="value"):
  """tensorflow_federated.v0.Value -> Python (see the module's doc); `type_pb` (optional) names
  struct elements the message leaves unnamed and types empty sequences."""
  make_struct = make_struct or _default_struct
  kind = value.WhichOneof("value")
  tkind = type_pb.WhichOneof("type") if type_pb is not None else None
  if kind == "array":
    return array_to_python(value.array, where)
  if kind == "struct":
    type_elems = list(type_pb.struct.element) if tkind == "struct" else []
    if type_elems and len(type_elems) != len(value.struct.element):
      type_elems = []
    out = []
    for k, e in enumerate(value.struct.element):
      t = type_elems[k] if type_elems else None
      name = e.name or (t.name if t is not None else "") or None
      out.append((name, from_value(e.value, t.value if t is not None else None, make_struct, _step(where, name, k))))
    return make_struct(out)
  if kind == "federated":
    f = value.federated
    member_type = type_pb.federated.member if tkind == "federated" else (f.type.member if f.type.HasField("member") else None)
    server = f.type.placement.WhichOneof("placement") == "value" and f.type.placement.value.uri == "server"
    members = [from_value(m, member_type, make_struct, f"{where}[{k}]") for k, m in enumerate(f.value)]
    if f.type.all_equal or server:
      if len(members) != 1:
        _fail(where, f"an all_equal federated value with {len(members)} members")
      return members[0]
    return members
  if kind == "sequence":
    s = value.sequence
    et = s.element_type if s.HasField("element_type") else (type_pb.sequence.element if tkind == "sequence" else None)
    out = []
    for k, e in enumerate(s.element):
      if et is None:
        if len(e.flat_value) != 1:
          _fail(f"{where}[{k}]", "a sequence element of several tensors without an element type")
        out.append(array_to_python(e.flat_value[0], f"{where}[{k}]"))
        continue
      cursor = [0]
      out.append(_nest(list(e.flat_value), et, make_struct, f"{where}[{k}]", cursor))
      if cursor[0] != len(e.flat_value):
        _fail(f"{where}[{k}]", "a sequence element with more tensors than its type")
    return out
  if kind == "computation":
    return value.computation
  _fail(where, "a Value with nothing set")
