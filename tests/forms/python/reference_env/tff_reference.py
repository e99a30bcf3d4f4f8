"""Loads TensorFlow Federated's DistributeAggregateForm conversion without TensorFlow.

Written for ctff. Import this module before anything from `tensorflow_federated`. It expects the
layout that tests/forms/python/setup_reference.sh builds:

  /work/pyref-tff/tensorflow_federated/   TFF's sources, extracted unmodified from the mirror
  /work/pyref-tff/tensorflow/             the stand-in tensorflow package (reference_env/)
  /work/pyref-tff/tff_reference.py        this file

What it does, before `form_utils` is imported:

1. Package stand-ins. TFF's package `__init__.py` files (tensorflow_federated/__init__.py,
   core/backends/__init__.py, core/backends/mapreduce/__init__.py, ...) import all of TFF,
   TensorFlow included. Each package on the way to the modules we use is registered in
   `sys.modules` as an empty module whose `__path__` is its directory in the extracted tree, so its
   submodules load from TFF's own files while its `__init__.py` is not run.
2. Module stand-ins. form_utils.py imports four TensorFlow-backed modules. Three are replaced:
   `core.backends.mapreduce.compiler`, `environments.tensorflow_backend.
   tensorflow_building_block_factory` and `...tensorflow_tree_transformations`; each is an empty
   module whose every attribute raises StandInReached, except that the compiler stand-in defines
   `MapReduceFormCompilationError` (an Exception subclass, as in TFF), because form_utils.py names
   it in default arguments at import time. The fourth, `core.backends.mapreduce.intrinsics`, is
   TFF's real module: importing it registers the `federated_secure_modular_sum` intrinsic
   (aggregation kind SECURE) in federated_language's registry, as in a real TFF installation, and
   it only needs TensorFlow inside functions the DAF path does not call. Its own TensorFlow-backed
   import, `environments.tensorflow_backend.tensorflow_computation_factory`, is the fourth
   stand-in. The DistributeAggregateForm path uses none of them; if it ever did, StandInReached
   says so (and STAND_IN_READS records the name).

Then `form_utils`, `forms`, `transformations` and `tree_transformations` are TFF's real modules.
"""
import os
import sys
import types

ROOT = os.path.dirname(os.path.abspath(__file__))
if ROOT not in sys.path:
  sys.path.insert(0, ROOT)

import tensorflow  # pylint: disable=g-import-not-at-top  (the stand-in, from ROOT)

StandInReached = tensorflow.StandInReached

_PACKAGES = [
    'tensorflow_federated',
    'tensorflow_federated.python',
    'tensorflow_federated.python.common_libs',
    'tensorflow_federated.python.core',
    'tensorflow_federated.python.core.backends',
    'tensorflow_federated.python.core.backends.mapreduce',
    'tensorflow_federated.python.core.environments',
    'tensorflow_federated.python.core.environments.tensorflow_backend',
    'tensorflow_federated.python.core.impl',
    'tensorflow_federated.python.core.impl.compiler',
]

_STAND_IN_MODULES = [
    'tensorflow_federated.python.core.backends.mapreduce.compiler',
    'tensorflow_federated.python.core.environments.tensorflow_backend.tensorflow_building_block_factory',
    'tensorflow_federated.python.core.environments.tensorflow_backend.tensorflow_tree_transformations',
    'tensorflow_federated.python.core.environments.tensorflow_backend.tensorflow_computation_factory',
]

# Every attribute read from a stand-in module or from the tensorflow stand-in (other than
# compat.v1.ConfigProto), in order: make_goldens.py fails if any was reached.
STAND_IN_READS = tensorflow.READS


def _install():
  for name in _PACKAGES:
    if name in sys.modules:
      continue
    package = types.ModuleType(name)
    package.__path__ = [os.path.join(ROOT, *name.split('.'))]
    package.__package__ = name
    sys.modules[name] = package
    parent, _, child = name.rpartition('.')
    if parent:
      setattr(sys.modules[parent], child, package)

  for name in _STAND_IN_MODULES:
    module = types.ModuleType(name, f'Stand-in for TFF module {name} (TensorFlow-backed).')

    def _getattr(attr, _name=name):
      if attr.startswith('__'):
        raise AttributeError(attr)
      STAND_IN_READS.append(f'{_name}.{attr}')
      raise StandInReached(f'stand-in module {_name}: {attr} is not available')

    module.__getattr__ = _getattr
    if name.endswith('.mapreduce.compiler'):

      class MapReduceFormCompilationError(Exception):
        pass

      MapReduceFormCompilationError.__module__ = name
      module.MapReduceFormCompilationError = MapReduceFormCompilationError
    sys.modules[name] = module
    parent, _, child = name.rpartition('.')
    setattr(sys.modules[parent], child, module)


_install()

# pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow_federated.python.core.backends.mapreduce import form_utils
from tensorflow_federated.python.core.backends.mapreduce import forms
from tensorflow_federated.python.core.backends.mapreduce import intrinsics as mapreduce_intrinsics
from tensorflow_federated.python.core.impl.compiler import transformations
from tensorflow_federated.python.core.impl.compiler import tree_transformations
