"""Python twins of tests/unit/evaluation_order_test.cpp (federated_language 0.5.3).

Each computation's outputs are tests/goldens/python/evaluation_order/NAME.*, written by the local
reference runner (tests/goldens/README.md)."""
import numpy as np
from federated_language import (CLIENTS, FederatedType, federated_computation, federated_max,
                                federated_min, federated_sum, federated_zip)

ci = FederatedType(np.int32, CLIENTS)


@federated_computation(ci, ci)
def tuple_kept(a, b):                      # auto t = std::tuple(sum(a), max(b)); return t;
  t = (federated_sum(a), federated_max(b))
  return t


@federated_computation(ci, ci)
def tuple_selected(a, b):                  # ... make_struct(get<0>(t), min(a)..., get<1>(t))
  t = (federated_sum(a), federated_max(b))
  m = federated_min(a)
  return t[0], m, t[1]


def pair_up(x, y):
  return x, y


@federated_computation(ci, ci)
def pair_up_call(a, b):                    # pair_up(sum(a), max(b))
  return pair_up(federated_sum(a), federated_max(b))


@federated_computation(ci, ci)
def variables(a, b):                       # y = max(b); x = sum(a); return x, y
  y = federated_max(b)
  x = federated_sum(a)
  return x, y


@federated_computation(ci, ci)
def variables_zipped(a, b):                # y = max(b); x = sum(a); zip(x, y)
  y = federated_max(b)
  x = federated_sum(a)
  return federated_zip((x, y))


def h(v):
  federated_max(v)
  return federated_sum(v)


@federated_computation(ci, ci)
def unused_in_helpers(a, b):               # zip(h(a), h(b))
  return federated_zip((h(a), h(b)))


comps = [('tuple_kept', tuple_kept), ('tuple_selected', tuple_selected),
         ('pair_up_call', pair_up_call), ('variables', variables),
         ('variables_zipped', variables_zipped), ('unused_in_helpers', unused_in_helpers)]
