// A ctff-run plugin binding the two TensorFlow blocks of a Python-made FedAvg round
// (tests/forms/python/rounds.py: fedavg, saved as tests/forms/goldens/fedavg.binpb) to a C++
// client update and a C++ server update, so that the round runs from the command line with no
// Python and no TensorFlow:
//
//   ctff-run tests/forms/goldens/fedavg.binpb --bind fedavg_plugin.so ARG.json
//
// The model is linear, y ~ weights . x + bias. A client runs `epochs` passes of plain SGD over its
// examples, in order, one step per example, on half the squared error (gradient err * x, err =
// prediction - y), and returns its model delta, its number of examples as the weight of the
// round's weighted means, and its mean loss over the steps (each measured before its step). The
// server adds the clients' weighted mean delta to the model (FedAvg with server learning rate 1).
#include <array>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/run/plugin.hpp>

namespace {

// The round's types (rounds.py: model_t, example_t, update_t). The C++ structs are both the TFF
// types the computations are declared with and the values the bindings take and return.
struct model_t {
  std::array<float, 2> weights;
  float bias;
};
struct example_t {
  std::array<float, 2> x;
  float y;
};
struct update_t {
  model_t delta;
  float weight;
  float loss;
};

// The two blocks declared as rounds.py's opaque() declares them: its placeholder GraphDef (one
// NoOp node named after the function) and its bindings (tensors in_N:0 / out_N:0 numbered in
// order, the dataset a variant tensor). Same Computation bytes, hence the same keys as in the
// round (comp#866b42f5, comp#dcd63ab8; checked below): binding the objects checks the C++
// functions against their types at compile time.
inline constexpr char client_update_graph[] = "\x0a\x15\x0a\x0d" "client_update\x12\x04NoOp";
inline constexpr char server_update_graph[] = "\x0a\x15\x0a\x0d" "server_update\x12\x04NoOp";

constexpr auto client_update_comp =
    ctff::tensorflow_computation<ctff::function<ctff::struct_<model_t, ctff::sequence<example_t>>, update_t>>(
        client_update_graph,
        ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("in_1:0"), ctff::tf_tensor("in_2:0")),
                        ctff::tf_sequence("in_3:0")),
        ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("out_1:0"), ctff::tf_tensor("out_2:0")),
                        ctff::tf_tensor("out_3:0"), ctff::tf_tensor("out_4:0")));

constexpr auto server_update_comp =
    ctff::tensorflow_computation<ctff::function<ctff::struct_<model_t, model_t>, model_t>>(
        server_update_graph,
        ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("in_1:0"), ctff::tf_tensor("in_2:0")),
                        ctff::tf_struct(ctff::tf_tensor("in_3:0"), ctff::tf_tensor("in_4:0"))),
        ctff::tf_struct(ctff::tf_tensor("out_1:0"), ctff::tf_tensor("out_2:0")));

// If rounds.py's declarations change, this fails here rather than leaving the round unbound.
static_assert(client_update_comp.compact() == "comp#866b42f5");
static_assert(server_update_comp.compact() == "comp#dcd63ab8");

constexpr float learning_rate = 0.1f;
constexpr int epochs = 2;

// Called once per client, on ctff-run's worker threads: no shared state. The arithmetic is
// float32, one operation at a time in the order written (the test's reference,
// tools/ctff_run/testdata/fedavg_expected.py, repeats it).
update_t client_update(const model_t& initial, const std::vector<example_t>& data) {
  model_t m = initial;
  float loss = 0;
  for (int epoch = 0; epoch != epochs; ++epoch)
    for (const example_t& e : data) {
      const float err = m.weights[0] * e.x[0] + m.weights[1] * e.x[1] + m.bias - e.y;
      loss += 0.5f * err * err;
      const float step = learning_rate * err;
      m.weights[0] -= step * e.x[0];
      m.weights[1] -= step * e.x[1];
      m.bias -= step;
    }
  const float n = static_cast<float>(data.size());
  // A client without examples weighs 0 in the means; its loss is 0, not 0/0.
  return {{{m.weights[0] - initial.weights[0], m.weights[1] - initial.weights[1]}, m.bias - initial.bias},
          n,
          data.empty() ? 0.0f : loss / (static_cast<float>(epochs) * n)};
}

model_t server_update(const model_t& model, const model_t& mean_delta) {
  return {{model.weights[0] + mean_delta.weights[0], model.weights[1] + mean_delta.weights[1]},
          model.bias + mean_delta.bias};
}

}  // namespace

CTFF_PLUGIN(registry) {
  registry.bind(client_update_comp, client_update);
  registry.bind(server_update_comp, server_update);
}
