"""Python twins of tests/unit/benchmark_programs_test.cpp (federated_language 0.5.3).

The federated evaluation round of benchmarks/compile/fedeval_round.hpp. Its opaque TensorFlow
computation, `client_eval`, is built here as TFF would hold it: a Computation proto with a
TensorFlow block (the same GraphDef stand-in and bindings as the C++), read in as a
CompiledComputation; no TensorFlow is needed to build the proto.
"""
import collections
import os
import sys

from google.protobuf import any_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # pylint: disable=wildcard-import,g-import-not-at-top
from federated_language.proto import computation_pb2 as pb  # pylint: disable=g-import-not-at-top

fl = federated_language

model_t = StructType([('weights', TensorType(float32, [784, 10])),
                      ('bias', TensorType(float32, [10]))])
batch = StructType([('x', TensorType(float32, [None, 784])),
                    ('y', TensorType(int32, [None]))])
eval_metrics = StructType([('loss', TensorType(float32)),
                           ('accuracy', TensorType(float32)),
                           ('num_examples', TensorType(int32))])
client_eval_output = StructType([('metrics', eval_metrics),
                                 ('weight', TensorType(float32))])


def tensor(name):
  return pb.TensorFlow.Binding(tensor=pb.TensorFlow.TensorBinding(tensor_name=name))


def sequence(name):
  return pb.TensorFlow.Binding(
      sequence=pb.TensorFlow.SequenceBinding(variant_tensor_name=name))


def struct(*elements):
  return pb.TensorFlow.Binding(struct=pb.TensorFlow.StructBinding(element=elements))


client_eval = building_blocks.CompiledComputation(pb.Computation(
    type=computation_types.FunctionType(
        StructType([('model', model_t), ('dataset', SequenceType(batch))]),
        client_eval_output).to_proto(),
    tensorflow=pb.TensorFlow(
        graph_def=any_pb2.Any(type_url='type.googleapis.com/tensorflow.GraphDef',
                              value=b'\x0a\x0c\x0a\x04eval\x12\x04NoOp'),
        parameter=struct(struct(tensor('weights:0'), tensor('bias:0')),
                         sequence('dataset:0')),
        result=struct(struct(tensor('loss:0'), tensor('accuracy:0'),
                             tensor('num_examples:0')),
                      tensor('weight:0')))))


@comp_named('fedeval_round', at_s(model_t), at_c(SequenceType(batch)))
def fedeval_round(model, client_data):
  model_at_clients = fl.federated_broadcast(model)
  outputs = fl.federated_map(client_eval, (model_at_clients, client_data))
  metrics = outputs.metrics
  weight = outputs.weight
  loss = fl.federated_mean(metrics.loss, weight)
  accuracy = fl.federated_mean(metrics.accuracy, weight)
  num_examples = fl.federated_sum(metrics.num_examples)
  max_loss = fl.federated_max(metrics.loss)
  return fl.federated_zip(collections.OrderedDict(
      loss=loss, accuracy=accuracy, num_examples=num_examples, max_loss=max_loss))


comps = [
    ('client_eval', client_eval),
    ('fedeval_round', fedeval_round),
]
