// A federated evaluation round written as a user would (issue 24): the server's model
// <weights=float32[784,10],bias=float32[10]> broadcast to the clients, an opaque TensorFlow
// evaluation of it over each client's sequence of batches returning a metrics struct and a weight,
// the metrics aggregated member by member, and a named struct of metrics at SERVER. Every struct
// is a C++ aggregate (reflected by Boost.PFR), as a user would write it. 18 intrinsic calls:
// broadcast, the implicit zip and the map of the evaluation, 2 weighted means, a sum, a max, the
// zip of the result at SERVER, and 10 selections on federated structs (a federated_map of a
// selection, emitted at each use as Python does: `metrics` at its 4 uses, a member of it at each,
// `weight` at its 2).
// No include guard and a namespace macro (CTFF_FEDEVAL_NAMESPACE, default ctff_bench_fedeval),
// as fedavg_round.hpp. Used by tools/compile_realistic.sh (compile time and memory) and by
// tests/unit/benchmark_programs_test.cpp (every output parsed back by protobuf, checked by ctff's
// checker, and compared byte for byte with Python's, tests/goldens/python/benchmark_programs.py).

#include <cstdint>
#include <ctff/ctff.hpp>
#include <tuple>

#ifndef CTFF_FEDEVAL_NAMESPACE
#define CTFF_FEDEVAL_NAMESPACE ctff_bench_fedeval
#endif

namespace CTFF_FEDEVAL_NAMESPACE {

struct model_t {
  ctff::tensor<ctff::dtype::float32, 784, 10> weights;
  ctff::tensor<ctff::dtype::float32, 10> bias;
};

struct batch {
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 784> x;
  ctff::tensor<ctff::dtype::int32, ctff::unknown_dim> y;
};

struct eval_metrics {
  float loss;
  float accuracy;
  std::int32_t num_examples;
};

// The weight is the client's example count as a float: federated_mean weights by float32.
struct client_eval_output {
  eval_metrics metrics;
  float weight;
};

// A serialized tensorflow.GraphDef stand-in: GraphDef{node {name: "eval" op: "NoOp"}}.
inline constexpr char client_eval_graph[] = "\x0a\x0c\x0a\x04" "eval\x12\x04NoOp";

inline constexpr auto client_eval = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", model_t>, ctff::field<"dataset", ctff::sequence<batch>>>,
    client_eval_output>>(
    client_eval_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("weights:0"), ctff::tf_tensor("bias:0")),
                    ctff::tf_sequence("dataset:0")),
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("loss:0"), ctff::tf_tensor("accuracy:0"),
                                    ctff::tf_tensor("num_examples:0")),
                    ctff::tf_tensor("weight:0")));

inline constexpr auto fedeval_round =
    ctff::computation<"fedeval_round", ctff::arg<"model", ctff::at_server<model_t>>,
                      ctff::arg<"client_data", ctff::at_clients<ctff::sequence<batch>>>>(
        [](auto model, auto client_data) {
          auto model_at_clients = ctff::federated_broadcast(model);
          auto outputs = ctff::federated_map(client_eval, std::tuple{model_at_clients, client_data});
          auto metrics = ctff::get<"metrics">(outputs);
          auto weight = ctff::get<"weight">(outputs);
          auto loss = ctff::federated_mean(ctff::get<"loss">(metrics), weight);
          auto accuracy = ctff::federated_mean(ctff::get<"accuracy">(metrics), weight);
          auto num_examples = ctff::federated_sum(ctff::get<"num_examples">(metrics));
          // The worst client's loss: a mean hides a client the model fails on.
          auto max_loss = ctff::federated_max(ctff::get<"loss">(metrics));
          return ctff::federated_zip(
              ctff::make_struct<"loss", "accuracy", "num_examples", "max_loss">(loss, accuracy,
                                                                                num_examples, max_loss));
        });

}  // namespace CTFF_FEDEVAL_NAMESPACE
