"""Shared by the Python twins of the unit tests (tests/unit/*_test.cpp).

`comp_named(name, *types)` decorates like federated_computation(*types) under
the C++ computation's name (Python names a computation after its function,
and the parameter `NAME_arg` after that name).
"""
import numpy as np

import federated_language
from federated_language import (CLIENTS, SERVER, FederatedType, SequenceType,
                                StructType, TensorType)
from federated_language.compiler import building_blocks
from federated_language.federated_context import intrinsics
from federated_language.federated_context import value_impl
from federated_language.types import computation_types

from pyref_helpers import generic_plus

int32 = np.int32
int64 = np.int64
float32 = np.float32


def comp_named(name, *types):
  def wrap(fn):
    fn.__name__ = name
    return federated_language.federated_computation(*types)(fn)
  return wrap


def at_c(t, all_equal=False):
  return FederatedType(t, CLIENTS, all_equal=all_equal)


def at_s(t):
  return FederatedType(t, SERVER)


def generic_intrinsic(uri, arg):
  """Call(Intrinsic(uri, (<T,T> -> T)), arg) bound to a symbol, as generic_plus."""
  value = value_impl.to_value(arg, type_spec=None)
  fn_type = computation_types.FunctionType(value.type_signature,
                                           value.type_signature[0])
  call = building_blocks.Call(building_blocks.Intrinsic(uri, fn_type), value.comp)
  return value_impl.Value(intrinsics._bind_comp_as_reference(call))  # pylint: disable=protected-access


def generic_zero(t):
  """The bare generic_zero intrinsic of type t (not bound: Python inlines it)."""
  return value_impl.Value(building_blocks.Intrinsic('generic_zero', t))
