// The FedAvg round of examples/simulate_fedavg.cpp and examples/distributed_fedavg.cpp: the model,
// the client data, the client update (an opaque TensorFlow computation in the Computation, as a
// TFF runtime would receive it, bound to the C++ function local_step), the round itself, and the
// synthetic clients.
#pragma once

#include <array>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

namespace fedavg {


constexpr std::size_t features = 4;
constexpr std::size_t examples_per_client = 32;

struct model {
  std::array<float, features> weights;
  float bias;
};

// One client's data: 32 examples of 4 features, and their targets.
struct client_data {
  std::array<std::array<float, features>, examples_per_client> x;
  std::array<float, examples_per_client> y;
};

// What the client update returns: the new model, the loss before the step, the example count.
using client_output = ctff::struct_<ctff::field<"model", model>, ctff::field<"loss", float>,
                                    ctff::field<"num_examples", float>>;

// The client update as TFF runtimes see it: a TensorFlow computation (this GraphDef is a stand-in:
// GraphDef{node {name: "update" op: "NoOp"}}). In the simulation it is bound to local_step below.
constexpr char update_graph[] = "\x0a\x0e\x0a\x06update\x12\x04NoOp";
constexpr auto client_update = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", model>, ctff::field<"data", client_data>>, client_output>>(
    update_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("weights:0"), ctff::tf_tensor("bias:0")),
                    ctff::tf_struct(ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"))),
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("new_weights:0"), ctff::tf_tensor("new_bias:0")),
                    ctff::tf_tensor("loss:0"), ctff::tf_tensor("count:0")));

// One round: broadcast, update on every client, weighted mean of the models, mean of the losses.
constexpr auto fedavg_round =
    ctff::computation<"fedavg_round", ctff::arg<"server_model", ctff::at_server<model>>,
                      ctff::arg<"client_data", ctff::at_clients<client_data>>>(
        [](auto server_model, auto data) {
          auto outputs = ctff::federated_map(
              client_update, std::tuple{ctff::federated_broadcast(server_model), data});
          auto new_model = ctff::federated_mean(ctff::get<"model">(outputs),
                                                ctff::get<"num_examples">(outputs));
          auto loss = ctff::federated_mean(ctff::get<"loss">(outputs));
          return ctff::make_struct<"model", "loss">(new_model, loss);
        });

static_assert(fedavg_round.type_string() ==
              "(<server_model=<weights=float32[4],bias=float32>@SERVER,"
              "client_data={<x=float32[32,4],y=float32[32]>}@CLIENTS> -> "
              "<model=<weights=float32[4],bias=float32>@SERVER,loss=float32@SERVER>)");

// The C++ client update: the mean squared error of the model on the client's data, then one
// gradient step on it.
inline std::tuple<model, float, float> local_step(const std::tuple<model, client_data>& in) {
  const auto& [m, d] = in;
  constexpr float learning_rate = 0.1f;
  std::array<float, features> grad_w{};
  float grad_b = 0, loss = 0;
  for (std::size_t i = 0; i != examples_per_client; ++i) {
    float pred = m.bias;
    for (std::size_t k = 0; k != features; ++k) pred += m.weights[k] * d.x[i][k];
    const float err = pred - d.y[i];
    loss += err * err;
    for (std::size_t k = 0; k != features; ++k) grad_w[k] += 2 * err * d.x[i][k];
    grad_b += 2 * err;
  }
  constexpr float n = examples_per_client;
  model next = m;
  for (std::size_t k = 0; k != features; ++k) next.weights[k] -= learning_rate * grad_w[k] / n;
  next.bias -= learning_rate * grad_b / n;
  return {next, loss / n, n};
}

// Synthetic data: y = x . (1, -2, 0.5, 3) + 1 + noise, a different x for every client.
inline std::vector<client_data> make_clients(std::size_t count) {
  std::mt19937 gen(2026);
  std::normal_distribution<float> x_dist(0.0f, 1.0f), noise(0.0f, 0.1f);
  constexpr std::array<float, features> truth{1.0f, -2.0f, 0.5f, 3.0f};
  std::vector<client_data> clients(count);
  for (auto& c : clients)
    for (std::size_t i = 0; i != examples_per_client; ++i) {
      float y = 1.0f + noise(gen);
      for (std::size_t k = 0; k != features; ++k) {
        c.x[i][k] = x_dist(gen);
        y += truth[k] * c.x[i][k];
      }
      c.y[i] = y;
    }
  return clients;
}

// The model as both examples print it.
inline void print_model(const model& m) {
  std::printf("model     weights %.3f %.3f %.3f %.3f  bias %.3f\n", static_cast<double>(m.weights[0]),
              static_cast<double>(m.weights[1]), static_cast<double>(m.weights[2]),
              static_cast<double>(m.weights[3]), static_cast<double>(m.bias));
}

}  // namespace fedavg
