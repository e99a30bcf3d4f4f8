"""Python twins of tests/unit/embedded_text_test.cpp (federated_language 0.5.3)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top

g = np.array([[1, 2], [3, 4]], dtype=np.int32)


@comp_named('inner', int32)
def inner(x):
  return (x, g)


@comp_named('outer', int32)
def outer(x):
  return (x, inner(x))


# Polymorphic: traced for the argument it is called with.
def poly_inner(x):
  return (x, g)


poly_inner.__name__ = 'inner'
poly = federated_language.federated_computation(poly_inner)


@comp_named('outer', int32)
def outer_poly(x):
  return (x, poly(x))


@comp_named('top', int32)
def top(x):
  return outer(x)


comps = [
    ('inner', inner),
    ('outer', outer),
    ('outer_polymorphic', outer_poly),
    ('top', top),
]
