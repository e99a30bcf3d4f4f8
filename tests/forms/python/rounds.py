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


bitwidth_fn = opaque('bitwidth', None, count_t)


@named_round('secure_sum_bitwidth_computed', at_s(count_t), at_c(count_t))
def secure_sum_bitwidth_computed(rounds_done, values):
  """federated_secure_sum_bitwidth whose bitwidth is computed (an unplaced call, no argument)."""
  total = fl.federated_secure_sum_bitwidth(values, bitwidth_fn())
  return rounds_done, total


pair_t = StructType([('a', TensorType(int32)), ('b', TensorType(int32))])


@named_round('secure_sum_max_input', at_s(count_t), at_c(pair_t))
def secure_sum_max_input(rounds_done, values):
  """federated_secure_sum of a named pair, one max_input for both (becomes <1000,1000>)."""
  return rounds_done, fl.federated_secure_sum(values, 1000)


@named_round('secure_modular_sum', at_s(count_t), at_c(count_t))
def secure_modular_sum_round(rounds_done, values):
  """TFF's federated_secure_modular_sum, with a literal modulus."""
  return fl.federated_map(bump, rounds_done), secure_modular_sum(values, 97)


table_state_t = StructType([('table', TensorType(float32, [8])), ('max_key', TensorType(int32))])
keys_t = TensorType(int32, [3])
slice_fn = opaque('slice', StructType([TensorType(float32, [8]), TensorType(int32)]),
                  TensorType(float32))
reduce_selected = opaque('reduce_selected', SequenceType(TensorType(float32)),
                         TensorType(float32))


ab_t = StructType([('a', TensorType(int32)), ('b', TensorType(float32))])
take_a = opaque('take_a', ab_t, TensorType(float32))
take_b = opaque('take_b', ab_t, TensorType(float32))
combine = opaque('combine', StructType([TensorType(float32), TensorType(float32)]),
                 TensorType(float32))
add_count = opaque('add_count', StructType([count_t, TensorType(float32)]), count_t)


@named_round('zips', at_s(count_t), at_c(ab_t))
def zips(state, data):
  """federated_zip at the clients (two mapped values) and at the server (state and a sum)."""
  x = fl.federated_map(take_a, data)
  y = fl.federated_map(take_b, data)
  combined = fl.federated_map(combine, fl.federated_zip([x, y]))
  total = fl.federated_sum(combined)
  new_state = fl.federated_map(add_count, fl.federated_zip([state, total]))
  return new_state, fl.federated_zip([total, fl.federated_sum(y)])


named_state_t = StructType([('step', count_t), ('model', model_t)])


@named_round('named_state', at_s(named_state_t), at_c(dataset_t))
def named_state(state, data):
  """State <step,model> with names: broadcast of a field, a named result <state=,metrics=>."""
  update = fl.federated_map(client_update, fl.federated_zip(
      [fl.federated_broadcast(state.model), data]))
  mean_delta = fl.federated_mean(update.delta, update.weight)
  new_state = fl.federated_zip(collections.OrderedDict(
      step=fl.federated_map(bump, state.step),
      model=fl.federated_map(server_update, fl.federated_zip([state.model, mean_delta]))))
  metrics = fl.federated_zip(collections.OrderedDict(
      loss=fl.federated_mean(update.loss), clients=fl.federated_sum(
          fl.federated_map(one, update.weight))))
  return collections.OrderedDict(state=new_state, metrics=metrics)


@named_round('two_aggregation_kinds', at_s(count_t), at_c(ab_t))
def two_aggregation_kinds(state, data):
  """A default aggregation (federated_sum) and a secure one (secure_sum_bitwidth) side by side."""
  plain = fl.federated_sum(fl.federated_map(take_b, data))
  secure = fl.federated_secure_sum_bitwidth(data.a, 16)
  return state, fl.federated_zip([plain, secure])


nested_state_t = StructType([
    ('outer', StructType([('inner', count_t),
                          ('pair', StructType([TensorType(float32), TensorType(float32)]))])),
    ('flag', TensorType(np.bool_))])
nested_data_t = StructType([StructType([('u', TensorType(float32)), ('v', count_t)]),
                            TensorType(float32)])
nested_client = opaque('nested_client', StructType([nested_state_t, nested_data_t]),
                       StructType([StructType([TensorType(float32), ('w', count_t)]),
                                   TensorType(float32)]))
nested_server = opaque('nested_server', StructType([nested_state_t, TensorType(float32)]),
                       nested_state_t)


@named_round('nested_structs', at_s(nested_state_t), at_c(nested_data_t))
def nested_structs(state, data):
  """Nested named and unnamed structs in the state, the client data, the update and the result."""
  out = fl.federated_map(nested_client, fl.federated_zip([fl.federated_broadcast(state), data]))
  s = fl.federated_sum(out[0][0])
  w = fl.federated_max(out[0].w)
  m = fl.federated_mean(out[1])
  new_state = fl.federated_map(nested_server, fl.federated_zip([state, m]))
  return new_state, fl.federated_zip([[s, collections.OrderedDict(w=w)], m])


step_t = TensorType(int32)
client_step = opaque('client_step', StructType([model_t, step_t, dataset_t]), update_t)


@named_round('two_broadcasts', at_s(named_state_t), at_c(dataset_t))
def two_broadcasts(state, data):
  """Two broadcasts (two fields of the state), one client map over both, one weighted mean."""
  m = fl.federated_broadcast(state.model)
  k = fl.federated_broadcast(state.step)
  update = fl.federated_map(client_step, fl.federated_zip([m, k, data]))
  return state, fl.federated_mean(update.loss, update.weight)


@named_round('client_value_count', at_s(count_t), at_c(TensorType(float32)))
def client_value_count(state, values):
  """A count from federated_value(1, CLIENTS) (depends on no client data), and a sum."""
  count = fl.federated_sum(fl.federated_value(np.int32(1), CLIENTS))
  return state, fl.federated_zip([count, fl.federated_sum(values)])


@named_round('server_only', at_s(count_t), at_c(TensorType(float32)))
def server_only(state, values):
  """No broadcast and no aggregation: the client data is unused."""
  del values
  return fl.federated_map(bump, state), state


@named_round('broadcast_unused', at_s(model_t), at_c(TensorType(float32)))
def broadcast_unused(model, values):
  """A broadcast whose result no client uses; one sum."""
  fl.federated_broadcast(model)
  return model, fl.federated_sum(values)


@named_round('result_unplaced', at_s(count_t), at_c(TensorType(float32)))
def result_unplaced(state, values):
  """X not placed (a literal)."""
  del values
  return state, np.int32(7)


@named_round('empty_state', at_s(StructType([])), at_c(TensorType(float32)))
def empty_state(state, values):
  """The state is the empty struct (TFF's advice for a round without state)."""
  return state, fl.federated_sum(values)


probe = opaque('probe', model_t, TensorType(float32))


@named_round('broadcast_only_clients', at_s(model_t), at_c(TensorType(float32)))
def broadcast_only_clients(model, values):
  """The clients compute from the broadcast alone (their data is unused), then a mean."""
  del values
  return model, fl.federated_mean(fl.federated_map(probe, fl.federated_broadcast(model)))


@named_round('struct_bitwidth', at_s(count_t), at_c(pair_t))
def struct_bitwidth(state, values):
  """federated_secure_sum_bitwidth of a named pair with a named struct of bitwidths."""
  return state, fl.federated_secure_sum_bitwidth(
      values, collections.OrderedDict(a=np.int32(4), b=np.int32(12)))


noise = opaque('noise', None, TensorType(float32))


@named_round('federated_eval_clients', at_s(count_t), at_c(TensorType(float32)))
def federated_eval_clients(state, values):
  """federated_eval of a no-parameter function at the clients, zipped with the data, summed."""
  n = fl.federated_eval(noise, CLIENTS)
  return state, fl.federated_sum(fl.federated_map(combine, fl.federated_zip([n, values])))


f1 = opaque('f1', TensorType(float32), TensorType(float32))
f2 = opaque('f2', TensorType(float32), TensorType(int32))


@named_round('local_fn', TensorType(float32))
def local_fn(x):
  a = f1(x)
  return collections.OrderedDict(a=a, b=f2(a))


@named_round('summarize', at_c(TensorType(float32)))
def summarize(v):
  return fl.federated_sum(v), fl.federated_max(v)


@named_round('composed_functions', at_s(count_t), at_c(TensorType(float32)))
def composed_functions(state, values):
  """A client function that is a traced lambda with a Block (not opaque), and a federated helper
  computation called inside the round (a Call of a Lambda that call-dominant form inlines)."""
  out = fl.federated_map(local_fn, values)
  s, m = summarize(out.a)
  return state, fl.federated_zip([s, m, fl.federated_sum(out.b)])


@named_round('noise_fn')
def noise_fn():
  return noise()


@named_round('no_parameter_lambda', at_s(count_t), at_c(TensorType(float32)))
def no_parameter_lambda(state, values):
  """federated_eval of a traced no-parameter computation: a Lambda without parameter stays in
  client_work (it binds nothing in the renaming)."""
  n = fl.federated_eval(noise_fn, CLIENTS)
  return state, fl.federated_sum(fl.federated_map(combine, fl.federated_zip([n, values])))


@named_round('inner_round', at_s(model_t), at_c(dataset_t))
def inner_round(model, data):
  u = fl.federated_map(client_update, fl.federated_zip([fl.federated_broadcast(model), data]))
  return fl.federated_mean(u.delta, u.weight)


@named_round('nested_federated_call', at_s(model_t), at_c(dataset_t))
def nested_federated_call(model, data):
  """A federated computation (broadcast, map, weighted mean) called inside the round, and a second
  broadcast of the same model outside it."""
  mean = inner_round(model, data)
  probed = fl.federated_sum(fl.federated_map(probe, fl.federated_broadcast(model)))
  return fl.federated_map(server_update, fl.federated_zip([model, mean])), probed



@named_round('server_values', at_s(count_t), at_c(TensorType(float32)))
def server_values(state, values):
  """federated_value and federated_eval at SERVER in X: computed in server_result."""
  return state, fl.federated_zip([fl.federated_sum(values),
                                  fl.federated_value(np.int32(3), SERVER),
                                  fl.federated_eval(noise, SERVER)])


@named_round('broadcast_constant', at_s(count_t), at_c(TensorType(float32)))
def broadcast_constant(state, values):
  """A broadcast of federated_value(2.0, SERVER): the constant is made in server_prepare."""
  k = fl.federated_broadcast(fl.federated_value(np.float32(2), SERVER))
  return state, fl.federated_sum(fl.federated_map(combine, fl.federated_zip([k, values])))



@named_round('fedavg_secure_count', at_s(model_t), at_c(dataset_t))
def fedavg_secure_count(model, data):
  """FedAvg plus a secure count (secure_sum_bitwidth, literal bitwidth): a real broadcast and the
  injected one side by side (B is <model,<>>)."""
  u = fl.federated_map(client_update, fl.federated_zip([fl.federated_broadcast(model), data]))
  count = fl.federated_secure_sum_bitwidth(fl.federated_map(one, u.weight), 8)
  mean = fl.federated_mean(u.delta, u.weight)
  return fl.federated_map(server_update, fl.federated_zip([model, mean])), count


@named_round('three_secure_args', at_s(count_t), at_c(pair_t))
def three_secure_args(state, values):
  """Three secure aggregations with a literal, a computed and a struct argument: TFF zips all three
  at the server for its injected broadcast."""
  s1 = fl.federated_secure_sum_bitwidth(values.a, 8)
  s2 = secure_modular_sum(values.b, bitwidth_fn())
  s3 = fl.federated_secure_sum(values, 100)
  return state, fl.federated_zip([s1, s2, s3])


g1 = opaque('g1', TensorType(float32), TensorType(float32))


@named_round('inner_local', TensorType(float32))
def inner_local(x):
  return g1(g1(x))


@named_round('outer_local', TensorType(float32))
def outer_local(x):
  return collections.OrderedDict(p=inner_local(x), q=inner_local(f1(x)))


@named_round('nested_local_calls', at_s(count_t), at_c(TensorType(float32)))
def nested_local_calls(state, values):
  """A traced client function calling another traced function twice: call-dominant form inlines
  the calls inside the mapped Lambda into one flat Block."""
  return state, fl.federated_sum(fl.federated_map(outer_local, values))


consume_t = StructType([('m', model_t), ('inner', StructType([TensorType(float32), ab_t]))])
consume = opaque('consume', consume_t, TensorType(float32))


@named_round('nested_client_zip', at_s(model_t), at_c(ab_t))
def nested_client_zip(model, data):
  """federated_zip at the clients of a nested named struct <m=broadcast, inner=<mapped, data>>."""
  m = fl.federated_broadcast(model)
  x = fl.federated_map(take_a, data)
  z = fl.federated_zip(collections.OrderedDict(m=m, inner=[x, data]))
  return model, fl.federated_sum(fl.federated_map(consume, z))


@named_round('seq_total', SequenceType(TensorType(float32)))
def seq_total(ds):
  return fl.sequence_sum(ds)


@named_round('sequence_sum_at_clients', at_s(count_t), at_c(SequenceType(TensorType(float32))))
def sequence_sum_at_clients(state, data):
  """A client function using the sequence_sum intrinsic on each client's dataset, then a mean."""
  return state, fl.federated_mean(fl.federated_map(seq_total, data))


def from_bytes(filename):
  """A round read from serialized Computation bytes in inputs/ (made elsewhere, e.g. by ctff)."""
  import os  # pylint: disable=g-import-not-at-top
  with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'inputs', filename),
            'rb') as f:
    proto = pb.Computation.FromString(f.read())
  return fl.framework.ConcreteComputation(
      computation_proto=proto, context_stack=fl.framework.get_context_stack())


ROUNDS = [
    ('ctff_fedavg_round', 'the FedAvg round of examples/fedavg_round.hpp as ctff traces it '
     '(inputs/ctff_fedavg_round.binpb, a copy of /fedavg_round.binpb): state unused after the '
     'broadcast, named result <model=,loss=>', from_bytes('ctff_fedavg_round.binpb')),
    ('fedavg', 'FedAvg: broadcast, client update on the zip, two weighted means, server update '
     'by federated_map (an apply), unnamed result', fedavg),
    ('fedeval', 'federated evaluation: broadcast, map, mean, sum, max; state returned unchanged; '
     'named zipped metrics', fedeval),
    ('analytics', 'no broadcast: sum, mean, min, max and a count (map then sum) of client values; '
     'the state bumped by an apply', analytics),
    ('secure_sum_bitwidth_literal', 'federated_secure_sum_bitwidth with a literal bitwidth: the '
     'injected <> broadcast and T', secure_sum_bitwidth_literal),
    ('secure_sum_bitwidth_computed', 'federated_secure_sum_bitwidth with a computed, unplaced '
     'bitwidth (a call of an opaque function without parameter)', secure_sum_bitwidth_computed),
    ('secure_sum_max_input', 'federated_secure_sum of a named pair with one max_input literal',
     secure_sum_max_input),
    ('secure_modular_sum', "TFF's federated_secure_modular_sum with a literal modulus",
     secure_modular_sum_round),
    ('zips', 'federated_zip at clients and at server; a zipped unnamed result', zips),
    ('named_state', 'struct state with names, broadcast of a field, named result <state=,metrics=>',
     named_state),
    ('two_aggregation_kinds', 'federated_sum and federated_secure_sum_bitwidth together',
     two_aggregation_kinds),
    ('nested_structs', 'nested named/unnamed structs in state, data, update and result',
     nested_structs),
    ('two_broadcasts', 'two broadcasts of two state fields', two_broadcasts),
    ('client_value_count', 'federated_value at CLIENTS (no data dependence) summed', client_value_count),
    ('server_only', 'no broadcast, no aggregation', server_only),
    ('broadcast_unused', 'a broadcast no client uses', broadcast_unused),
    ('result_unplaced', 'X not placed (a literal)', result_unplaced),
    ('empty_state', 'state is <>@SERVER', empty_state),
    ('broadcast_only_clients', 'clients compute from the broadcast only; a mean',
     broadcast_only_clients),
    ('struct_bitwidth', 'federated_secure_sum_bitwidth with a named struct of bitwidths',
     struct_bitwidth),
    ('federated_eval_clients', 'federated_eval at CLIENTS zipped with the data', federated_eval_clients),
    ('composed_functions', 'a traced (non-opaque) client function with a Block; a federated helper '
     'called inside the round', composed_functions),
    ('no_parameter_lambda', 'federated_eval of a traced no-parameter Lambda', no_parameter_lambda),
    ('nested_federated_call', 'a federated computation with a broadcast called inside the round, '
     'and a second broadcast of the same value', nested_federated_call),
    ('server_values', 'federated_value and federated_eval at SERVER in X', server_values),
    ('broadcast_constant', 'a broadcast of federated_value at SERVER', broadcast_constant),
    ('fedavg_secure_count', 'FedAvg with a secure count: a real and the injected broadcast',
     fedavg_secure_count),
    ('three_secure_args', 'three secure aggregations (literal, computed, struct arguments)',
     three_secure_args),
    ('nested_local_calls', 'a traced client function calling a traced function twice',
     nested_local_calls),
    ('nested_client_zip', 'federated_zip at the clients of a nested named struct', nested_client_zip),
    ('sequence_sum_at_clients', 'sequence_sum inside the mapped client function',
     sequence_sum_at_clients),
]


# --------------------------------------------------------------------------------------------
# Rounds TFF's conversion refuses.

accumulate = opaque('accumulate', StructType([count_t, count_t]), count_t)
merge = opaque('merge', StructType([count_t, count_t]), count_t)
report = opaque('report', count_t, TensorType(float32))


@named_round('aggregate', at_s(count_t), at_c(count_t))
def aggregate_round(state, values):
  """federated_aggregate with a literal zero and opaque accumulate, merge and report."""
  return state, fl.federated_aggregate(values, np.int32(0), accumulate, merge, report)


scale = opaque('scale', StructType([TensorType(float32), TensorType(float32)]),
               TensorType(float32))


@named_round('two_rounds', at_s(count_t), at_c(TensorType(float32)))
def two_rounds(state, values):
  """A broadcast of an aggregate: the clients are needed twice."""
  total = fl.federated_sum(values)
  scaled = fl.federated_map(scale, fl.federated_zip([fl.federated_broadcast(total), values]))
  return state, fl.federated_sum(scaled)


@named_round('one_parameter', at_s(count_t))
def one_parameter(state):
  """One (non-struct) parameter."""
  return state, state


@named_round('three_parameters', at_s(count_t), at_c(TensorType(float32)), at_s(count_t))
def three_parameters(state, values, extra):
  """Three parameters."""
  return state, fl.federated_zip([fl.federated_sum(values), extra])


@named_round('one_result', at_s(count_t), at_c(TensorType(float32)))
def one_result(state, values):
  """A result struct with one element."""
  del values
  return [state]


@named_round('non_struct_result', at_s(count_t), at_c(TensorType(float32)))
def non_struct_result(state, values):
  """A result that is not a struct: the summed values only."""
  del state
  return fl.federated_sum(values)


@named_round('state_type_changed', at_s(count_t), at_c(TensorType(float32)))
def state_type_changed(state, values):
  """The new state's type (float32) is not the old state's (int32)."""
  del state
  total = fl.federated_sum(values)
  return total, total


@named_round('result_at_clients', at_s(count_t), at_c(TensorType(float32)))
def result_at_clients(state, values):
  """X placed at the clients."""
  return state, values


@named_round('data_at_server', at_s(count_t), at_s(TensorType(float32)))
def data_at_server(state, values):
  """The second parameter placed at the server."""
  return state, values


@named_round('state_at_clients', at_c(count_t), at_c(TensorType(float32)))
def state_at_clients(state, values):
  """The first parameter placed at the clients."""
  return fl.federated_sum(state), fl.federated_sum(values)


select_t = StructType([('table', TensorType(float32, [8])), ('max_key', TensorType(int32)),
                       ('keys', keys_t)])


@named_round('select_keys_from_clients', at_s(table_state_t), at_c(keys_t))
def select_keys_from_clients(state, keys):
  """federated_select with the clients' own keys (from the client data)."""
  selected = fl.federated_select(keys, state.max_key, state.table, slice_fn)
  return state, fl.federated_sum(fl.federated_map(reduce_selected, selected))


@named_round('secure_select_keys_from_clients', at_s(table_state_t), at_c(keys_t))
def secure_select_keys_from_clients(state, keys):
  """federated_secure_select with the clients' own keys, then a mean."""
  selected = fl.federated_secure_select(keys, state.max_key, state.table, slice_fn)
  return state, fl.federated_mean(fl.federated_map(reduce_selected, selected))


@named_round('select_keys_broadcast', at_s(select_t), at_c(TensorType(float32)))
def select_keys_broadcast(state, values):
  """federated_select with keys broadcast from the server state."""
  del values
  keys = fl.federated_broadcast(state.keys)
  selected = fl.federated_select(keys, state.max_key, state.table, slice_fn)
  return state, fl.federated_sum(fl.federated_map(reduce_selected, selected))


@named_round('select_keys_constant', at_s(table_state_t), at_c(TensorType(float32)))
def select_keys_constant(state, values):
  """federated_select with keys from federated_value(literal, CLIENTS)."""
  del values
  keys = fl.federated_value(np.array([0, 1, 2], np.int32), CLIENTS)
  selected = fl.federated_select(keys, state.max_key, state.table, slice_fn)
  return state, fl.federated_sum(fl.federated_map(reduce_selected, selected))


def _not_a_lambda():
  """A Block whose result is the round's lambda: the right type, but not a Lambda."""
  body = building_blocks.Block([], fedavg.to_building_block())
  return fl.framework.ConcreteComputation.from_building_block(body)


not_a_lambda = _not_a_lambda()


@named_round('aggregation_arg_placed_inside', at_s(count_t), at_c(count_t))
def aggregation_arg_placed_inside(state, values):
  """federated_secure_sum_bitwidth whose bitwidth is an unplaced struct holding a server value.

  Built by hand (federated_language's own function refuses such a bitwidth): the intrinsic's
  type is (<{int32}@CLIENTS,<int32@SERVER>> -> int32@SERVER).
  """
  bitwidth = building_blocks.Struct([state.comp])
  fn_type = computation_types.FunctionType(
      [values.type_signature, bitwidth.type_signature], at_s(count_t))
  call = building_blocks.Call(
      building_blocks.Intrinsic('federated_secure_sum_bitwidth', fn_type),
      building_blocks.Struct([values.comp, bitwidth]))
  total = value_impl.Value(fl_intrinsics._bind_comp_as_reference(call))  # pylint: disable=protected-access
  return state, total


REJECTIONS = [
    ('aggregate', 'federated_aggregate (zero literal, opaque accumulate/merge/report)',
     aggregate_round),
    ('two_rounds', 'a broadcast that depends on an aggregate', two_rounds),
    ('one_parameter', 'one parameter (not a struct)', one_parameter),
    ('three_parameters', 'three parameters', three_parameters),
    ('one_result', 'a result struct of one element', one_result),
    ('non_struct_result', 'a result that is not a struct', non_struct_result),
    ('state_type_changed', 'new state type differs from the state parameter', state_type_changed),
    ('result_at_clients', 'X placed at CLIENTS', result_at_clients),
    ('data_at_server', 'client data parameter placed at SERVER', data_at_server),
    ('state_at_clients', 'state parameter placed at CLIENTS', state_at_clients),
    ('select_keys_from_clients', 'federated_select, keys from the client data',
     select_keys_from_clients),
    ('secure_select_keys_from_clients', 'federated_secure_select, keys from the client data',
     secure_select_keys_from_clients),
    ('select_keys_broadcast', 'federated_select, keys broadcast from the state',
     select_keys_broadcast),
    ('select_keys_constant', 'federated_select, keys from federated_value at CLIENTS',
     select_keys_constant),
    ('not_a_lambda', 'a round-typed Block, not a Lambda', not_a_lambda),
    ('aggregation_arg_placed_inside', 'an unplaced aggregation argument containing a placed value',
     aggregation_arg_placed_inside),
]
