// Federated evaluation: broadcast the server model, evaluate it on every client's data (an opaque
// TensorFlow computation), and return the mean accuracy and the total example count as a named
// result.
//
// The same program in Python (federated_language / TFF):
//
//   model_type = StructType([('weights', TensorType(np.float32, [8])), ('bias', np.float32)])
//   batch_type = StructType([('x', TensorType(np.float32, [None, 8])),
//                            ('y', TensorType(np.float32, [None]))])
//
//   @tff.tensorflow.computation(model_type, SequenceType(batch_type))
//   def evaluate(model, dataset):
//     ...
//     return collections.OrderedDict(accuracy=accuracy, num_examples=num_examples)
//
//   @federated_computation(FederatedType(model_type, SERVER),
//                          FederatedType(SequenceType(batch_type), CLIENTS))
//   def federated_evaluation(server_model, client_data):
//     model_at_clients = federated_broadcast(server_model)
//     metrics = federated_map(evaluate, (model_at_clients, client_data))
//     return collections.OrderedDict(
//         accuracy=federated_mean(metrics.accuracy),
//         num_examples=federated_sum(metrics.num_examples))
#include <array>
#include <cstdint>

#include <ctff/ctff.hpp>

#include "example_output.hpp"

namespace {

struct model {
  std::array<float, 8> weights;
  float bias;
};

struct batch {
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 8> x;
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim> y;
};

// What evaluate returns on each client: <accuracy=float32,num_examples=int32>.
struct metrics {
  float accuracy;
  std::int32_t num_examples;
};

// A serialized tensorflow.GraphDef stand-in: GraphDef{node {name: "evaluate" op: "NoOp"}}.
constexpr char evaluate_graph[] = "\x0a\x10\x0a\x08" "evaluate" "\x12\x04NoOp";

constexpr auto evaluate = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", model>, ctff::field<"dataset", ctff::sequence<batch>>>,
    metrics>>(
    evaluate_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("model_weights:0"),
                                    ctff::tf_tensor("model_bias:0")),
                    ctff::tf_sequence("dataset:0")),
    ctff::tf_struct(ctff::tf_tensor("Identity:0"), ctff::tf_tensor("Identity_1:0")));

constexpr auto federated_evaluation =
    ctff::computation<"federated_evaluation", ctff::arg<"server_model", ctff::at_server<model>>,
                      ctff::arg<"client_data", ctff::at_clients<ctff::sequence<batch>>>>(
        [](auto server_model, auto client_data) {
          auto model_at_clients = ctff::federated_broadcast(server_model);
          auto metrics = ctff::federated_map(evaluate, std::tuple{model_at_clients, client_data});
          // A named result, like Python's OrderedDict: <accuracy=...,num_examples=...>.
          return ctff::make_struct<"accuracy", "num_examples">(
              ctff::federated_mean(ctff::get<"accuracy">(metrics)),
              ctff::federated_sum(ctff::get<"num_examples">(metrics)));
        });

static_assert(federated_evaluation.type_string() ==
              "(<server_model=<weights=float32[8],bias=float32>@SERVER,"
              "client_data={<x=float32[?,8],y=float32[?]>*}@CLIENTS> -> "
              "<accuracy=float32@SERVER,num_examples=int32@SERVER>)");

// What Python prints. comp#85085b15: adler32 of evaluate's message, computed independently
// (protoc --encode of the hand-written message, then zlib.adler32).
static_assert(federated_evaluation.compact() ==
              "(federated_evaluation_arg -> (let "
              "fc_federated_evaluation_symbol_0=federated_broadcast(federated_evaluation_arg[0]),"
              "fc_federated_evaluation_symbol_1=federated_map(<comp#85085b15,federated_zip_at_clients"
              "(<fc_federated_evaluation_symbol_0,federated_evaluation_arg[1]>)>),"
              "fc_federated_evaluation_symbol_2=federated_mean("
              "federated_map(<(x -> x[0]),fc_federated_evaluation_symbol_1>)),"
              "fc_federated_evaluation_symbol_3=federated_sum("
              "federated_map(<(x -> x[1]),fc_federated_evaluation_symbol_1>)) "
              "in <accuracy=fc_federated_evaluation_symbol_2,"
              "num_examples=fc_federated_evaluation_symbol_3>))");

}  // namespace

int main(int argc, char** argv) {
  example::print("evaluate", evaluate.type_string());
  return example::output(federated_evaluation, argc, argv);
}
