// One round of a FedAvg-like algorithm, traced at compile time:
//   1. broadcast the server model to the clients;
//   2. zip it with each client's data and run the client update, an opaque TensorFlow computation
//      (the GraphDef here is a stand-in: well-formed protobuf bytes, not a real training graph);
//   3. average the updated models, weighted by each client's example count.
// Prints the round's type string, compact and formatted forms, and writes its serialized
// federated_language.Computation to the file named by the first argument, if any.
#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "ctff/ctff.hpp"
#include "ctff/proto.hpp"
#include "ctff/trace/opaque.hpp"
#include "ctff/trace/polymorphic.hpp"

namespace {

using ctff::field;

// The model: a 4x2 weight matrix and a bias vector.
using model = ctff::struct_<field<"weights", std::array<std::array<float, 2>, 4>>,
                            field<"bias", std::array<float, 2>>>;
// A client's data: a sequence of batches of 4 features and a label, of unknown batch size.
using batch = ctff::struct_<field<"x", ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 4>>,
                            field<"y", ctff::tensor<ctff::dtype::int32, ctff::unknown_dim>>>;
using client_data = ctff::sequence<batch>;
// What a client sends back: its new model and how many examples it trained on.
using client_output = ctff::struct_<field<"model", model>, field<"num_examples", float>>;

// A serialized tensorflow.GraphDef stand-in: GraphDef{node {name: "update" op: "NoOp"}}.
constexpr char client_update_graph[] = "\x0a\x0e\x0a\x06update\x12\x04NoOp";

// (<model, data*> -> <model=model, num_examples=float32>), with placeholders named like TFF's
// serializer names them (parameter elements `<param>_<element>`).
constexpr auto client_update =
    ctff::tensorflow_computation<ctff::function<ctff::struct_<model, client_data>, client_output>>(
        client_update_graph,
        ctff::tf_struct(
            ctff::tf_struct(ctff::tf_tensor("arg_0_weights:0"), ctff::tf_tensor("arg_0_bias:0")),
            ctff::tf_sequence("arg_1:0")),
        ctff::tf_struct(
            ctff::tf_struct(ctff::tf_tensor("model_weights:0"), ctff::tf_tensor("model_bias:0")),
            ctff::tf_tensor("num_examples:0")),
        ctff::tf_options{.initialize_op = "",
                         .cache_key = 0,
                         .session_token_tensor_name = "session_token_tensor:0"});

// Selections of the client output (`model`, `num_examples`), traced for the member type
// federated_map hands them.
constexpr auto model_of = ctff::polymorphic<"model_of">([](auto out) { return ctff::get<0>(out); });
constexpr auto weight_of =
    ctff::polymorphic<"weight_of">([](auto out) { return ctff::get<1>(out); });

constexpr auto fedavg_round =
    ctff::computation<"fedavg_round", ctff::arg<"server_model", ctff::at_server<model>>,
                      ctff::arg<"client_data", ctff::at_clients<client_data>>>(
        [](auto server_model, auto data) {
          auto model_at_clients = ctff::federated_broadcast(server_model);
          auto outputs =
              ctff::federated_map(client_update, ctff::federated_zip(model_at_clients, data));
          auto models = ctff::federated_map(model_of, outputs);
          auto weights = ctff::federated_map(weight_of, outputs);
          return ctff::federated_mean(models, weights);
        });

static_assert(fedavg_round.type_string() ==
              "(<server_model=<weights=float32[4,2],bias=float32[2]>@SERVER,"
              "client_data={<x=float32[?,4],y=int32[?]>*}@CLIENTS> -> "
              "<weights=float32[4,2],bias=float32[2]>@SERVER)");

}  // namespace

int main(int argc, char** argv) {
  // Parsed by protobuf (to_proto throws if it cannot), which writes the very same bytes back.
  // Checked before anything is printed: the example test passes only if the output appears.
  if (ctff::to_proto(fedavg_round).SerializeAsString() != fedavg_round.bytes().str()) {
    std::fprintf(stderr, "protobuf re-serializes the round differently\n");
    return 1;
  }
  std::printf("client_update: %.*s\n  %.*s\n\n",
              static_cast<int>(client_update.type_string().size()),
              client_update.type_string().data(), static_cast<int>(client_update.compact().size()),
              client_update.compact().data());
  auto show = [](const char* label, std::string_view s) {
    std::printf("%s:\n%.*s\n\n", label, static_cast<int>(s.size()), s.data());
  };
  show("type", fedavg_round.type_string());
  show("compact", fedavg_round.compact());
  show("formatted", fedavg_round.formatted());
  std::printf("%zu bytes\n", fedavg_round.bytes().size());
  if (argc > 1) {
    std::ofstream out(argv[1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(fedavg_round.bytes().data()),
              static_cast<std::streamsize>(fedavg_round.bytes().size()));
  }
  return 0;
}
