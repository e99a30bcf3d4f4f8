"""Python twins of tests/unit/order_test.cpp (federated_language 0.5.3)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top

fl = federated_language
ci = at_c(int32)


@comp_named('inc', int32)
def inc(x):
  return generic_plus((x, 1))


@comp_named('dbl', int32)
def dbl(x):
  return generic_intrinsic('generic_multiply', (x, 2))


# static_two: named parameters a, b; static_scalars: one unnamed <int32,int32>.
@comp_named('o', ci, ci)
def zip_of_sums(a, b):
  return fl.federated_zip((fl.federated_sum(a), fl.federated_sum(b)))


@comp_named('s', StructType([int32, int32]))
def struct_of_calls(p):
  x, y = p[0], p[1]
  return (inc(x), dbl(y))


@comp_named('n', ci, ci)
def nested_groups(a, b):
  return fl.federated_zip(
      (fl.federated_zip((fl.federated_sum(a), fl.federated_sum(b))),
       fl.federated_zip((fl.federated_max(b), fl.federated_sum(a)))))


@comp_named('t', StructType([int32, int32]))
def paren_tuple(p):
  x, y = p[0], p[1]
  return (fl.federated_value(generic_plus((x, 1)), SERVER),
          fl.federated_value(generic_intrinsic('generic_multiply', (y, 2)),
                             CLIENTS))


@comp_named('m', ci, ci)
def named_first(a, b):
  s = fl.federated_sum(b)
  return fl.federated_zip((fl.federated_sum(a), s))


comps = [
    ('zip_of_sums', zip_of_sums),
    ('struct_of_calls', struct_of_calls),
    ('nested_groups', nested_groups),
    ('paren_tuple', paren_tuple),
    ('named_first', named_first),
]
