// A FedAvg round written as a user would (issue 24): the server state
// <model=<weights=float32[784,10],bias=float32[10]>,round_num=int32>, an opaque TensorFlow client
// update over a sequence of batches, two weighted means, a sum, a server update with `+`, and a
// named result. 14 intrinsic calls: broadcast, 6 selections on federated structs (a
// federated_apply / federated_map of a selection: the state's model, weights_delta, loss, and
// num_examples at each of its 3 uses), the implicit zip and the map of the client update, 2
// weighted means, a sum, the zip and the apply of the server update; and 2 generic_plus in
// server_update.
//
// The model's members are spelled one of two ways, chosen by CTFF_FEDAVG_STD_ARRAY:
//   0 (default)  ctff::tensor<ctff::dtype::float32, 784, 10>, ctff::tensor<ctff::dtype::float32, 10>
//   1            std::array<std::array<float, 10>, 784>, std::array<float, 10>
// Both are the same TFF type (docs/types.md), so both emit the same computation, byte for byte.
// CTFF_FEDAVG_ROWS / CTFF_FEDAVG_COLS (784 / 10) set the weights' shape, e.g. 1000 / 1000.
// No include guard: a TU may include it again with another spelling in another namespace
// (CTFF_FEDAVG_NAMESPACE, default ctff_bench_fedavg), as tests/unit/benchmark_programs_test.cpp
// does. Used by tools/compile_realistic.sh (compile time and memory) and by the unit tests (every
// output parsed back by protobuf and checked by ctff's checker).

#include <array>
#include <cstdint>
#include <ctff/ctff.hpp>
#include <tuple>

#ifndef CTFF_FEDAVG_STD_ARRAY
#define CTFF_FEDAVG_STD_ARRAY 0
#endif
#ifndef CTFF_FEDAVG_ROWS
#define CTFF_FEDAVG_ROWS 784
#endif
#ifndef CTFF_FEDAVG_COLS
#define CTFF_FEDAVG_COLS 10
#endif
#ifndef CTFF_FEDAVG_NAMESPACE
#define CTFF_FEDAVG_NAMESPACE ctff_bench_fedavg
#endif

namespace CTFF_FEDAVG_NAMESPACE {

#if CTFF_FEDAVG_STD_ARRAY
struct model_t {
  std::array<std::array<float, CTFF_FEDAVG_COLS>, CTFF_FEDAVG_ROWS> weights;
  std::array<float, CTFF_FEDAVG_COLS> bias;
};
#else
struct model_t {
  ctff::tensor<ctff::dtype::float32, CTFF_FEDAVG_ROWS, CTFF_FEDAVG_COLS> weights;
  ctff::tensor<ctff::dtype::float32, CTFF_FEDAVG_COLS> bias;
};
#endif

struct server_state {
  model_t model;
  std::int32_t round_num;
};

struct batch {
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, CTFF_FEDAVG_ROWS> x;
  ctff::tensor<ctff::dtype::int32, ctff::unknown_dim> y;
};

using client_output = ctff::struct_<ctff::field<"weights_delta", model_t>,
                                    ctff::field<"num_examples", float>, ctff::field<"loss", float>>;

// A serialized tensorflow.GraphDef stand-in: GraphDef{node {name: "update" op: "NoOp"}}.
inline constexpr char client_update_graph[] = "\x0a\x0e\x0a\x06update\x12\x04NoOp";

inline constexpr auto client_update = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", model_t>, ctff::field<"dataset", ctff::sequence<batch>>>,
    client_output>>(
    client_update_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("weights:0"), ctff::tf_tensor("bias:0")),
                    ctff::tf_sequence("dataset:0")),
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("Identity:0"), ctff::tf_tensor("Identity_1:0")),
                    ctff::tf_tensor("Identity_2:0"), ctff::tf_tensor("Identity_3:0")));

inline constexpr auto server_update =
    ctff::computation<"server_update", ctff::arg<"state", server_state>, ctff::arg<"delta", model_t>>(
        [](auto state, auto delta) {
          return ctff::make_struct<"model", "round_num">(ctff::get<"model">(state) + delta,
                                                         ctff::get<"round_num">(state) + 1);
        });

inline constexpr auto fedavg_round =
    ctff::computation<"fedavg_round", ctff::arg<"server_state", ctff::at_server<server_state>>,
                      ctff::arg<"client_data", ctff::at_clients<ctff::sequence<batch>>>>(
        [](auto state, auto client_data) {
          auto model_at_clients = ctff::federated_broadcast(ctff::get<"model">(state));
          auto outputs =
              ctff::federated_map(client_update, std::tuple{model_at_clients, client_data});
          auto num_examples = ctff::get<"num_examples">(outputs);
          auto delta = ctff::federated_mean(ctff::get<"weights_delta">(outputs), num_examples);
          auto loss = ctff::federated_mean(ctff::get<"loss">(outputs), num_examples);
          auto examples = ctff::federated_sum(num_examples);
          auto new_state = ctff::federated_map(server_update, std::tuple{state, delta});
          return ctff::make_struct<"state", "loss", "num_examples">(new_state, loss, examples);
        });

}  // namespace CTFF_FEDAVG_NAMESPACE
