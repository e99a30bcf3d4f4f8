"""Federated rounds for the DistributeAggregateForm goldens (issue 46), in federated_language 0.5.3.

A round has type (<S@SERVER, {D}@CLIENTS> -> <S@SERVER, X@SERVER>). There is no TensorFlow here,
so the local functions a round calls (a client update, a server update, ...) are opaque stand-ins:
`opaque(name, parameter, result)` is a Computation proto holding a TensorFlow block whose
GraphDef is a fixed placeholder (one NoOp node named after the function) and whose bindings
follow the declared type, wrapped as a ConcreteComputation so that traced code can call it. It
is the style of tests/goldens/python/benchmark_programs.py (the evaluation round's client_eval).
Nothing ever runs these functions; TFF's conversion only moves them around.

`ROUNDS` lists (name, what it exercises, computation) for rounds TFF converts; `REJECTIONS` the
same for rounds its conversion refuses. make_goldens.py imports both.
"""
import collections

import numpy as np

import federated_language as fl
from federated_language import (CLIENTS, SERVER, FederatedType, SequenceType,
                                StructType, TensorType)
from federated_language.compiler import building_blocks
from federated_language.federated_context import intrinsics as fl_intrinsics
from federated_language.federated_context import value_impl
from federated_language.proto import computation_pb2 as pb
from federated_language.types import computation_types
from google.protobuf import any_pb2

int32 = np.int32
float32 = np.float32

# --------------------------------------------------------------------------------------------
# Opaque local functions.


def _varint(n):
  out = bytearray()
  while True:
    byte = n & 0x7F
    n >>= 7
    if n:
      out.append(byte | 0x80)
    else:
      out.append(byte)
      return bytes(out)


def _field_bytes(number, payload):
  return bytes([number << 3 | 2]) + _varint(len(payload)) + payload


def _placeholder_graph_def(name):
  """GraphDef bytes: node { name: NAME op: "NoOp" } (fields 1/1 and 1/2 of GraphDef/NodeDef)."""
  node = _field_bytes(1, name.encode()) + _field_bytes(2, b'NoOp')
  return _field_bytes(1, node)


def _binding(type_spec, prefix, counter):
  """A TensorFlow binding shaped like type_spec; tensor names PREFIX_N:0, numbered in order."""
  if isinstance(type_spec, computation_types.StructType):
    return pb.TensorFlow.Binding(struct=pb.TensorFlow.StructBinding(
        element=[_binding(t, prefix, counter) for _, t in type_spec.items()]))
  counter[0] += 1
  name = f'{prefix}_{counter[0]}:0'
  if isinstance(type_spec, computation_types.SequenceType):
    return pb.TensorFlow.Binding(
        sequence=pb.TensorFlow.SequenceBinding(variant_tensor_name=name))
  return pb.TensorFlow.Binding(tensor=pb.TensorFlow.TensorBinding(tensor_name=name))


def opaque(name, parameter, result):
  """An opaque TensorFlow function (parameter -> result); parameter None: no parameter."""
  parameter = computation_types.to_type(parameter) if parameter is not None else None
  result = computation_types.to_type(result)
  tf = pb.TensorFlow(
      graph_def=any_pb2.Any(type_url='type.googleapis.com/tensorflow.GraphDef',
                            value=_placeholder_graph_def(name)),
      result=_binding(result, 'out', [0]))
  if parameter is not None:
    tf.parameter.CopyFrom(_binding(parameter, 'in', [0]))
  proto = pb.Computation(
      type=computation_types.FunctionType(parameter, result).to_proto(), tensorflow=tf)
  return fl.framework.ConcreteComputation(
      computation_proto=proto, context_stack=fl.framework.get_context_stack())


def at_s(t):
  return FederatedType(t, SERVER)


def at_c(t):
  return FederatedType(t, CLIENTS)


def named_round(name, *types):
  """federated_computation(*types) named NAME (the parameter is then NAME_arg)."""
  def wrap(fn):
    fn.__name__ = name
    return fl.federated_computation(*types)(fn)
  return wrap


def secure_modular_sum(value, modulus):
  """Call(Intrinsic('federated_secure_modular_sum', (<{V}@CLIENTS,M> -> V@SERVER)), <value,modulus>).

  TFF's own intrinsic (registered by tensorflow_federated/.../mapreduce/intrinsics.py, which the
  reference environment imports), called without the modulus pre-application (that part of
  TFF's helper needs TensorFlow): the bare intrinsic on the value and the modulus.
  """
  value = value_impl.to_value(value, type_spec=None)
  modulus = value_impl.to_value(modulus, type_spec=None)
  fn_type = computation_types.FunctionType(
      [value.type_signature, modulus.type_signature], at_s(value.type_signature.member))
  call = building_blocks.Call(
      building_blocks.Intrinsic('federated_secure_modular_sum', fn_type),
      building_blocks.Struct([value.comp, modulus.comp]))
  return value_impl.Value(fl_intrinsics._bind_comp_as_reference(call))  # pylint: disable=protected-access


# --------------------------------------------------------------------------------------------
# Types and opaque functions the rounds share.

model_t = StructType([('weights', TensorType(float32, [2])), ('bias', TensorType(float32))])
example_t = StructType([('x', TensorType(float32, [2])), ('y', TensorType(float32))])
dataset_t = SequenceType(example_t)
update_t = StructType([('delta', model_t), ('weight', TensorType(float32)),
                       ('loss', TensorType(float32))])

client_update = opaque('client_update', StructType([model_t, dataset_t]), update_t)
server_update = opaque('server_update', StructType([model_t, model_t]), model_t)
client_eval = opaque('client_eval', StructType([model_t, dataset_t]),
                     StructType([('loss', TensorType(float32)),
                                  ('num_examples', TensorType(int32))]))

# --------------------------------------------------------------------------------------------
# Rounds TFF converts.


@named_round('fedavg', at_s(model_t), at_c(dataset_t))
def fedavg(model, data):
  """FedAvg: broadcast the model, client update, weighted mean, server update by apply."""
  model_at_clients = fl.federated_broadcast(model)
  update = fl.federated_map(client_update, fl.federated_zip([model_at_clients, data]))
  mean_delta = fl.federated_mean(update.delta, update.weight)
  new_model = fl.federated_map(server_update, fl.federated_zip([model, mean_delta]))
  loss = fl.federated_mean(update.loss, update.weight)
  return new_model, loss


@named_round('fedeval', at_s(model_t), at_c(dataset_t))
def fedeval(model, data):
  """Federated evaluation: metrics at the server, the state returned unchanged."""
  metrics = fl.federated_map(client_eval, fl.federated_zip(
      [fl.federated_broadcast(model), data]))
  loss = fl.federated_mean(metrics.loss)
  num_examples = fl.federated_sum(metrics.num_examples)
  max_loss = fl.federated_max(metrics.loss)
  return model, fl.federated_zip(collections.OrderedDict(
      loss=loss, num_examples=num_examples, max_loss=max_loss))


count_t = TensorType(int32)
bump = opaque('bump', count_t, count_t)
one = opaque('one', TensorType(float32), count_t)


@named_round('analytics', at_s(count_t), at_c(TensorType(float32)))
def analytics(rounds_done, values):
  """Analytics without broadcast: sum, mean, min, max and a count of the clients' values."""
  count = fl.federated_sum(fl.federated_map(one, values))
  stats = fl.federated_zip(collections.OrderedDict(
      sum=fl.federated_sum(values), mean=fl.federated_mean(values),
      min=fl.federated_min(values), max=fl.federated_max(values), count=count))
  return fl.federated_map(bump, rounds_done), stats


@named_round('secure_sum_bitwidth_literal', at_s(count_t), at_c(count_t))
def secure_sum_bitwidth_literal(rounds_done, values):
  """federated_secure_sum_bitwidth with a literal bitwidth (TFF injects a broadcast of <>)."""
  total = fl.federated_secure_sum_bitwidth(values, 8)
  return fl.federated_map(bump, rounds_done), total


ROUNDS = [
    ('fedavg', 'FedAvg: broadcast, client update on the zip, two weighted means, server update '
     'by federated_map (an apply), unnamed result', fedavg),
    ('fedeval', 'federated evaluation: broadcast, map, mean, sum, max; state returned unchanged; '
     'named zipped metrics', fedeval),
    ('analytics', 'no broadcast: sum, mean, min, max and a count (map then sum) of client values; '
     'the state bumped by an apply', analytics),
    ('secure_sum_bitwidth_literal', 'federated_secure_sum_bitwidth with a literal bitwidth: the '
     'injected <> broadcast and T', secure_sum_bitwidth_literal),
]

REJECTIONS = []
