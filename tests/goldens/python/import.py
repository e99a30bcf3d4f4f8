"""Python twins of the traces in tests/unit/import_test.cpp (federated_language 0.5.3).

The C++ test imports a computation from bytes and uses it in a trace; the twin
uses the same computation (add_one and simple are tests/goldens' programs).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top

fl = federated_language


@comp_named('add_one', int32)
def add_one(x):
  return generic_plus((x, 1))


@comp_named('simple', at_s(int32))
def simple(server_val):
  at_clients = fl.federated_broadcast(server_val)
  plus_one = fl.federated_map(add_one, at_clients)
  return fl.federated_sum(plus_one)


@comp_named('twice', int32)
def twice(x):
  return add_one(add_one(x))


@comp_named('m', at_c(int32))
def mapped(v):
  return fl.federated_map(add_one, v)


@comp_named('e')
def embedded():
  return (add_one, 3)


@comp_named('lit')
def lit():
  return np.array([[1, 2], [3, 4]], dtype=np.int32)


@comp_named('e', int32)
def embedded_literal(x):
  return (x, (lit, x))


@comp_named('outer', at_s(int32))
def outer(s):
  return simple(simple(s))


comps = [
    ('called', twice),
    ('mapped', mapped),
    ('embedded', embedded),
    ('embedded_literal', embedded_literal),
    ('federated_called', outer),
]
