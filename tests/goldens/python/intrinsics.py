"""Python twins of tests/unit/intrinsics_test.cpp (federated_language 0.5.3).

A C++ computation with unnamed parameters (computation<"n", A, B>) has one
unnamed struct parameter: its twin takes the struct whole and selects.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top


@comp_named('ident', int32)
def ident(x):
  return x


@comp_named('five')
def five():
  return 5


@comp_named('acc', int32, int32)
def acc(u, t):
  return generic_plus((u, t))


@comp_named('merge', StructType([int32, int32]))
def merge(p):
  return generic_plus((p[0], p[1]))


@comp_named('pick', float32, int32)
def pick(s, k):
  del k
  return s


@comp_named('seq_id', SequenceType(int32))
def seq_id(s):
  return federated_language.sequence_map(ident, s)


@comp_named('bc', at_s(int32))
def bc(x):
  return federated_language.federated_broadcast(x)


@comp_named('map_eq', at_c(int32, all_equal=True))
def map_eq(x):
  return federated_language.federated_map(ident, x)


@comp_named('apply', at_s(int32))
def apply(x):
  return federated_language.federated_map(ident, x)


@comp_named('mae', at_c(int32, all_equal=True))
def mae(x):
  return intrinsics.federated_map_all_equal(ident, x)


@comp_named('s', at_c(int32, all_equal=True))
def s(x):
  return federated_language.federated_sum(x)


@comp_named('agg', StructType([at_c(float32), at_c(int32)]))
def agg_mean(p):
  x, w = p[0], p[1]
  return (federated_language.federated_mean(x),
          federated_language.federated_mean(x, w),
          federated_language.federated_min(w),
          federated_language.federated_max(x))


@comp_named('place', int32)
def place(x):
  return (federated_language.federated_value(x, CLIENTS),
          federated_language.federated_value((x, 2.5), SERVER))


@comp_named('ev')
def ev():
  return (federated_language.federated_eval(five, CLIENTS),
          federated_language.federated_eval(five, SERVER))


@comp_named('zip', at_c(int32, all_equal=True), at_c(float32))
def zip_clients(a, b):
  return federated_language.federated_zip(
      collections.OrderedDict(x=a, y=(b, a)))


@comp_named('zs', StructType([at_s(int32), at_s(float32)]))
def zs(p):
  return federated_language.federated_zip((p[0], p[1]))


@comp_named('autozip', StructType([at_c(int32), at_c(int32)]))
def autozip(p):
  return federated_language.federated_sum((p[0], p[1]))


@comp_named('agg', at_c(int32))
def agg_aggregate(v):
  return federated_language.federated_aggregate(v, 0, acc, merge, ident)


@comp_named('ss', at_c(StructType([('a', int32),
                                   ('b', StructType([int32, int64]))])))
def ss(v):
  return (federated_language.federated_secure_sum(v, 5),
          federated_language.federated_secure_sum_bitwidth(
              v, collections.OrderedDict(a=1, b=(2, 3))))


@comp_named('sel', at_c(TensorType(int32, [3])), at_s(int32), at_s(float32))
def sel(keys, max, db):  # pylint: disable=redefined-builtin
  return (federated_language.federated_select(keys, max, db, pick),
          federated_language.federated_secure_select(keys, max, db, pick))


@comp_named('seq', SequenceType(int32))
def seq(s):
  return (federated_language.sequence_map(ident, s),
          federated_language.sequence_reduce(s, 0, merge),
          federated_language.sequence_sum(s))


@comp_named('fseq', at_c(SequenceType(int32)))
def fseq(s):
  return (federated_language.sequence_map(ident, s),
          federated_language.sequence_reduce(
              s, federated_language.federated_value(0, CLIENTS), acc),
          federated_language.sequence_sum(s))


@comp_named('fget', StructType([
    at_c(StructType([('a', int32), float32])),
    at_s(StructType([int32, float32])),
    at_c(StructType([int32, float32]), all_equal=True)]))
def fget(p):
  a, b, cc = p[0], p[1], p[2]
  return (a.a, a[1], b[0], cc[1])


@comp_named('zero')
def zero():
  return generic_zero(StructType([int32, float32]))


@comp_named('f', at_c(SequenceType(int32)))
def nested_sequences(s):
  fm = federated_language.federated_map
  return (federated_language.sequence_map(ident, fm(seq_id, fm(seq_id, s))),
          federated_language.sequence_reduce(
              fm(seq_id, s), federated_language.federated_value(0, CLIENTS),
              acc),
          federated_language.federated_sum(federated_language.sequence_sum(s)))


comps = [
    ('broadcast', bc),
    ('map_all_equal_arg', map_eq),
    ('map_at_server', apply),
    ('map_all_equal', mae),
    ('sum_all_equal', s),
    ('mean_min_max', agg_mean),
    ('value', place),
    ('eval', ev),
    ('zip_clients', zip_clients),
    ('zip_server', zs),
    ('implicit_zip', autozip),
    ('aggregate', agg_aggregate),
    ('secure_sum', ss),
    ('select', sel),
    ('sequence_unplaced', seq),
    ('sequence_federated', fseq),
    ('federated_struct_selection', fget),
    ('generic_zero', zero),
    ('nested_sequences', nested_sequences),
]
