"""Python twins of tests/unit/structural_test.cpp (federated_language 0.5.3).

The opaque TensorFlow computation (`scale`, `called`) and Data have no twin:
this runner has no TensorFlow to build them.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top

fl = federated_language


@comp_named('fa', at_c(StructType([int32, float32])))
def fa(v):
  return v[1]


@comp_named('inner', int32)
def inner(x):
  return generic_intrinsic('generic_multiply', (x, 2))


@comp_named('mid', at_c(int32))
def mid(v):
  return fl.federated_map(inner, v)


@comp_named('outer', at_s(int32))
def outer(s):
  return fl.federated_sum(mid(fl.federated_broadcast(s)))


@comp_named('grid', int32)
def grid(x):
  return (x, np.array([[1, 2], [3, 4]], dtype=np.int32))


@comp_named('use_grid', int32)
def use_grid(x):
  return grid(x)


@comp_named('five')
def five():
  return 5


@comp_named('empty', int32)
def empty(x):
  return ((), x, ())


@comp_named('ns', StructType([StructType([int32, float32]), int32]))
def nested_sel(p):
  return p[0][1]


def twice_fn(x):
  return generic_plus((x, x))


twice_fn.__name__ = 'twice'
twice = fl.federated_computation(twice_fn)  # polymorphic


@comp_named('poly', at_c(int32))
def poly(v):
  return fl.federated_map(twice, v)


@comp_named('call_five', int32)
def call_five(x):
  return (x, five())


@comp_named('add_one', int32)
def add_one(x):
  return generic_plus((x, 1))


@comp_named('chain', at_s(int32))
def chain(s):
  v = s
  for _ in range(10):
    v = fl.federated_sum(fl.federated_map(add_one, fl.federated_broadcast(v)))
  return v


comps = [
    ('federated_selection', fa),
    ('nested_computations', outer),
    ('grid', grid),
    ('use_grid', use_grid),
    ('parameterless', five),
    ('empty_structs', empty),
    ('nested_selections', nested_sel),
    ('polymorphic', poly),
    ('call_without_argument', call_five),
    ('wide', chain),
]
