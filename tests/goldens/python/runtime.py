"""Python twins of programs in tests/unit/runtime_test.cpp (federated_language 0.5.3).

Computations that C++ makes inside a trace (lambdas with captures) are
defined inside the Python function that is traced, as Python programs do.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top

fl = federated_language


def adder(name, k):
  @comp_named(name, int32)
  def add(x):
    return generic_plus((x, k))
  return add


add_one = adder('add_one', 1)


@comp_named('mapped', at_c(int32))
def mapped(v):
  return fl.federated_map(add_one, v)


@comp_named('mapped', at_c(int32))
def mapped_7(v):
  return fl.federated_map(adder('add_one', 7), v)


def lit(value):
  @comp_named('lit')
  def c():
    return fl.federated_value(value, SERVER)
  return c


add_1, add_2, add_3 = adder('add', 1), adder('add', 2), adder('add', 3)


def often(n):
  @comp_named('often', at_c(int32))
  def c(v):
    for i in range(n):
      k = i % 3 + 1 if i < 24 else 1
      v = fl.federated_map((add_1, add_2, add_3)[k - 1], v)
    return v
  return c


@comp_named('lits')
def lits():
  return fl.federated_value(np.array([1.5, -2.0, 0.0], dtype=np.float32), SERVER)


@comp_named('s')
def string_literal():
  return 'a string literal'


@comp_named('twice', int32)
def twice(x):
  add = adder('twice', 2)
  return add(add(x))


@comp_named('on_constant')
def on_constant():
  seven = adder('seven', 7)
  return seven(1)


@comp_named('m', int32)
def named_where_made(x):
  @comp_named('h', int32)
  def inner(y):
    return y

  @comp_named('h', int32)
  def outer(y):
    return inner(y)

  return outer(x)


@comp_named('outer')
def locals_on_constants():
  c0 = adder('c0', 1)

  @comp_named('c1', int32)
  def c1(y):
    return c0(y)

  return fl.federated_map(c1, fl.federated_value(3, CLIENTS))


@comp_named('outer')
def nested_on_constants():
  c0 = adder('c0', 1)

  @comp_named('c1', int32)
  def c1(y):
    del y
    return fl.federated_value(c0(5), SERVER)

  return c1(2)


def polymorphic(name, fn):
  fn.__name__ = name
  return fl.federated_computation(fn)


@comp_named('p')
def poly_on_constants():
  p = polymorphic('p', lambda y: generic_plus((y, 1)))
  return fl.federated_map(p, fl.federated_value(3, CLIENTS))


@comp_named('outer')
def poly_calling_local():
  c0 = adder('c0', 1)
  q = polymorphic('q', lambda y: c0(y))  # pylint: disable=unnecessary-lambda
  return fl.federated_map(q, fl.federated_value(3, CLIENTS))


comps = [
    ('mapped', mapped),
    ('mapped_7', mapped_7),
    ('literal_int64', lit(np.int64(-5))),
    ('literal_bool', lit(True)),
    ('literal_float32', lit(np.float32(0.1))),
    ('literal_float64', lit(np.float64(1.0))),
    ('literal_float64_small', lit(np.float64(1e-5))),
    ('literal_bytes', lit(b'hi')),
    ('often_40', often(40)),
    ('often_24', often(24)),
    ('literal_array', lits),
    ('literal_string', string_literal),
    ('nested_same_name', twice),
    ('called_on_constant', on_constant),
    ('named_where_made', named_where_made),
    ('locals_on_constants', locals_on_constants),
    ('nested_on_constants', nested_on_constants),
    ('polymorphic_on_constants', poly_on_constants),
    ('polymorphic_calling_local', poly_calling_local),
]
