// One round of federated averaging (FedAvg), as in TFF's "Building your own federated learning
// algorithm" tutorial:
//   1. broadcast the server model to the clients;
//   2. run the client update (an opaque TensorFlow computation) on each client's model and data;
//   3. average the updated models at the server, weighted by each client's example count.
//
// The same program in Python (federated_language / TFF):
//
//   model_type = StructType([('weights', TensorType(np.float32, [8])), ('bias', np.float32)])
//   batch_type = StructType([('x', TensorType(np.float32, [None, 8])),
//                            ('y', TensorType(np.float32, [None]))])
//
//   @tff.tensorflow.computation(model_type, SequenceType(batch_type))
//   def client_update(model, dataset):
//     ...                                   # local training: returns a dict
//     return collections.OrderedDict(model=new_model, num_examples=count)
//
//   @federated_computation(FederatedType(model_type, SERVER),
//                          FederatedType(SequenceType(batch_type), CLIENTS))
//   def fedavg_round(server_model, client_data):
//     model_at_clients = federated_broadcast(server_model)
//     outputs = federated_map(client_update, (model_at_clients, client_data))
//     return federated_mean(outputs.model, weight=outputs.num_examples)
#include <array>

#include <ctff/ctff.hpp>

#include "example_output.hpp"

namespace {

// The model is a plain C++ aggregate: ctff reflects its members (with their names) into the TFF
// struct type <weights=float32[8],bias=float32>.
struct model {
  std::array<float, 8> weights;
  float bias;
};

// A batch of client data: 8 features and a label per example, any number of examples ([?]).
struct batch {
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 8> x;
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim> y;
};

// What the client update returns, spelled as a TFF struct type (a C++ struct could not have a
// member named `model` of type `model`).
using client_output =
    ctff::struct_<ctff::field<"model", model>, ctff::field<"num_examples", float>>;

static_assert(ctff::type_string<model>() == "<weights=float32[8],bias=float32>");
static_assert(ctff::type_string<ctff::sequence<batch>>() == "<x=float32[?,8],y=float32[?]>*");

// A serialized tensorflow.GraphDef stand-in: GraphDef{node {name: "update" op: "NoOp"}}. A real
// program would embed (or read at run time) the graph TensorFlow serialized for the update.
constexpr char client_update_graph[] = "\x0a\x0e\x0a\x06update\x12\x04NoOp";

// (<model=<weights=float32[8],bias=float32>,dataset=<x=float32[?,8],y=float32[?]>*>
//    -> <model=<weights=float32[8],bias=float32>,num_examples=float32>)
// The bindings name the graph's placeholders and outputs, element by element of the parameter and
// result types.
constexpr auto client_update = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", model>, ctff::field<"dataset", ctff::sequence<batch>>>,
    client_output>>(
    client_update_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("model_weights:0"),
                                    ctff::tf_tensor("model_bias:0")),
                    ctff::tf_sequence("dataset:0")),
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("Identity:0"), ctff::tf_tensor("Identity_1:0")),
                    ctff::tf_tensor("Identity_2:0")),
    ctff::tf_options{.session_token_tensor_name = "session_token_tensor:0"});

constexpr auto fedavg_round =
    ctff::computation<"fedavg_round", ctff::arg<"server_model", ctff::at_server<model>>,
                      ctff::arg<"client_data", ctff::at_clients<ctff::sequence<batch>>>>(
        [](auto server_model, auto client_data) {
          auto model_at_clients = ctff::federated_broadcast(server_model);
          // A tuple of federated values is zipped implicitly, as in Python.
          auto outputs = ctff::federated_map(client_update, std::tuple{model_at_clients, client_data});
          // outputs.model and outputs.num_examples: selections on a federated struct.
          return ctff::federated_mean(ctff::get<"model">(outputs),
                                      ctff::get<"num_examples">(outputs));
        });

static_assert(fedavg_round.type_string() ==
              "(<server_model=<weights=float32[8],bias=float32>@SERVER,"
              "client_data={<x=float32[?,8],y=float32[?]>*}@CLIENTS> -> "
              "<weights=float32[8],bias=float32>@SERVER)");

// What Python prints for the round (after a proto round trip, selections show their index).
// comp#938b6dbb is the client update's name: the adler32 of its serialized message, computed
// independently (protoc --encode of the message written by hand, then zlib.adler32).
static_assert(fedavg_round.compact() ==
              "(fedavg_round_arg -> (let "
              "fc_fedavg_round_symbol_0=federated_broadcast(fedavg_round_arg[0]),"
              "fc_fedavg_round_symbol_1=federated_map(<comp#938b6dbb,"
              "federated_zip_at_clients(<fc_fedavg_round_symbol_0,fedavg_round_arg[1]>)>),"
              "fc_fedavg_round_symbol_2=federated_weighted_mean(<"
              "federated_map(<(x -> x[0]),fc_fedavg_round_symbol_1>),"
              "federated_map(<(x -> x[1]),fc_fedavg_round_symbol_1>)>) "
              "in fc_fedavg_round_symbol_2))");

}  // namespace

int main(int argc, char** argv) {
  example::print("client_update", client_update.type_string());
  return example::output(fedavg_round, argc, argv);
}
