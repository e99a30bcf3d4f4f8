"""Finds the generated message modules (`*_pb2`) ctff_remote speaks.

ctff's build generates them (`cmake --build BUILD --target ctff_remote_python` writes
BUILD/proto/python/{federated_language/proto,tensorflow_federated/proto/v0}/*_pb2.py). They are
looked for, first found wins:

1. a directory given to `set_proto_path(DIR)` or `execution_context(..., proto_path=DIR)`;
2. the directories in the environment variable CTFF_REMOTE_PROTO_PATH (os.pathsep-separated);
3. installed with this package: ctff_remote/_messages (`cmake --install` puts them there);
4. an installed location: the modules already importable from sys.path (e.g. the directory
   copied into site-packages, or TFF's and federated_language's own packages);
5. in a source checkout: the newest REPO/build/*/proto/python beside this package.

A directory that is used is put at the front of sys.path, since the modules import each other by
their package names (tensorflow_federated.proto.v0.executor_pb2 imports
federated_language.proto.computation_pb2).
"""

import glob
import importlib
import os
import sys
import types

ENV = "CTFF_REMOTE_PROTO_PATH"
_MODULES = {
    "executor_pb2": "tensorflow_federated.proto.v0.executor_pb2",
    "computation_pb2": "federated_language.proto.computation_pb2",
    "array_pb2": "federated_language.proto.array_pb2",
    "data_type_pb2": "federated_language.proto.data_type_pb2",
}
_explicit = []
_loaded = None


class ProtoNotFoundError(ImportError):
  """The generated *_pb2 modules were found nowhere (see ctff_remote._protos)."""


def set_proto_path(path):
  """Uses the generated modules under `path` (a directory holding tensorflow_federated/ and
  federated_language/). Takes effect if called before the messages are first loaded (protobuf
  registers each .proto file once per process: the first modules loaded stay)."""
  path = os.path.abspath(os.fspath(path))
  if not os.path.isfile(os.path.join(path, *_MODULES["executor_pb2"].split(".")) + ".py"):
    raise ProtoNotFoundError(
        f"ctff_remote: {path} holds no tensorflow_federated/proto/v0/executor_pb2.py "
        "(the directory `cmake --build BUILD --target ctff_remote_python` writes: BUILD/proto/python)")
  if path not in _explicit:
    _explicit.insert(0, path)


def _has_modules(path):
  return os.path.isfile(os.path.join(path, "tensorflow_federated", "proto", "v0", "executor_pb2.py"))


def _candidates():
  for p in _explicit:
    yield p
  for p in os.environ.get(ENV, "").split(os.pathsep):
    if p:
      yield os.path.abspath(p)


def _installed_dir():
  """ctff_remote/_messages, where ctff's install rules (proto/CMakeLists.txt) put the modules."""
  path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_messages")
  return path if _has_modules(path) else None


def _source_checkout_dirs():
  repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
  found = [d for d in glob.glob(os.path.join(repo, "build", "*", "proto", "python")) if _has_modules(d)]
  found.sort(key=lambda d: os.path.getmtime(os.path.join(d, "tensorflow_federated", "proto", "v0", "executor_pb2.py")),
             reverse=True)
  return found


def _import_all():
  return types.SimpleNamespace(**{k: importlib.import_module(v) for k, v in _MODULES.items()})


def load():
  """The generated modules, as a namespace (executor_pb2, computation_pb2, array_pb2,
  data_type_pb2); ProtoNotFoundError when they are nowhere."""
  global _loaded
  if _loaded is not None:
    return _loaded
  tried = []
  for path in _candidates():
    if _has_modules(path):
      if path not in sys.path:
        sys.path.insert(0, path)
      _loaded = _import_all()
      _loaded.path = path
      return _loaded
    tried.append(path)
  path = _installed_dir()
  if path is not None:
    if path not in sys.path:
      sys.path.insert(0, path)
    _loaded = _import_all()
    _loaded.path = path
    return _loaded
  try:
    _loaded = _import_all()
    _loaded.path = None  # an installed location
    return _loaded
  except ImportError:
    pass
  for path in _source_checkout_dirs():
    if path not in sys.path:
      sys.path.insert(0, path)
    _loaded = _import_all()
    _loaded.path = path
    return _loaded
  raise ProtoNotFoundError(
      "ctff_remote: the generated messages (tensorflow_federated/proto/v0/executor_pb2.py and "
      "federated_language/proto/*_pb2.py) were not found"
      + (f" in {', '.join(tried)}" if tried else "")
      + ": build them (`cmake --build BUILD --target ctff_remote_python`, into BUILD/proto/python) "
      f"and pass that directory as proto_path=, set {ENV}, or install them on sys.path "
      "(`cmake --install` of a build with gRPC installs this package with them)")
