// The FedAvg round the run benchmarks measure (benchmarks/run.cpp against a hand loop,
// benchmarks/remote.cpp against workers): a linear model float32[784,10] + float32[10], 1,000
// clients of 32 examples, the client update an opaque TensorFlow computation bound to a C++
// gradient step; the hand-written round; the clients' data, both ways.
#pragma once

#include <federated_language/proto/computation.pb.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>

namespace ctff_bench {

constexpr std::size_t inputs = 784, outputs = 10, batch = 32, fedavg_clients = 1000;

struct linear_model {
  std::array<std::array<float, outputs>, inputs> w;
  std::array<float, outputs> b;
};
struct client_batch {
  std::array<std::array<float, inputs>, batch> x;
  std::array<std::array<float, outputs>, batch> y;
};
using update_result = ctff::struct_<ctff::field<"model", linear_model>, ctff::field<"weight", float>>;

constexpr char update_graph[] = "\x0a\x0e\x0a\x06update\x12\x04NoOp";
constexpr auto client_update = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", linear_model>, ctff::field<"data", client_batch>>, update_result>>(
    update_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("w:0"), ctff::tf_tensor("b:0")),
                    ctff::tf_struct(ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"))),
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("w1:0"), ctff::tf_tensor("b1:0")),
                    ctff::tf_tensor("n:0")));

constexpr auto fedavg_round =
    ctff::computation<"fedavg_round", ctff::arg<"model", ctff::at_server<linear_model>>,
                      ctff::arg<"data", ctff::at_clients<client_batch>>>([](auto model, auto data) {
      auto out = ctff::federated_map(client_update,
                                     std::tuple{ctff::federated_broadcast(model), data});
      return ctff::federated_mean(ctff::get<"model">(out), ctff::get<"weight">(out));
    });

// One gradient step of least squares: W -= lr * 2/B * x^T (xW + b - y); the same code for both.
inline void step(const linear_model& m, const client_batch& d, linear_model& next) {
  constexpr float lr = 0.01f, scale = 2.0f / batch;
  next = m;
  for (std::size_t i = 0; i != batch; ++i) {
    std::array<float, outputs> err = m.b;
    for (std::size_t k = 0; k != inputs; ++k)
      for (std::size_t o = 0; o != outputs; ++o) err[o] += d.x[i][k] * m.w[k][o];
    for (std::size_t o = 0; o != outputs; ++o) err[o] = (err[o] - d.y[i][o]) * scale * lr;
    for (std::size_t k = 0; k != inputs; ++k)
      for (std::size_t o = 0; o != outputs; ++o) next.w[k][o] -= d.x[i][k] * err[o];
    for (std::size_t o = 0; o != outputs; ++o) next.b[o] -= err[o];
  }
}
inline std::tuple<linear_model, float> bound_update(const std::tuple<linear_model, client_batch>& in) {
  std::tuple<linear_model, float> out;
  step(std::get<0>(in), std::get<1>(in), std::get<0>(out));
  std::get<1>(out) = static_cast<float>(batch);
  return out;
}

inline client_batch make_batch(std::mt19937& gen) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  client_batch b;
  for (auto& row : b.x)
    for (auto& v : row) v = u(gen);
  for (auto& row : b.y)
    for (auto& v : row) v = u(gen);
  return b;
}

// The hand-written round: the clients on `threads` threads (contiguous blocks), then the weighted
// mean folded in client order, in float32 as the executor does it.
inline linear_model hand_round(const linear_model& m, const std::vector<client_batch>& data, unsigned threads) {
  std::vector<linear_model> updated(data.size());
  std::vector<float> weight(data.size());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t != threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t c = t; c < data.size(); c += threads) {
        step(m, data[c], updated[c]);
        weight[c] = static_cast<float>(batch);
      }
    });
  for (auto& th : pool) th.join();
  linear_model sum{};
  float total = 0;
  for (std::size_t c = 0; c != data.size(); ++c) {
    for (std::size_t k = 0; k != inputs; ++k)
      for (std::size_t o = 0; o != outputs; ++o) sum.w[k][o] += updated[c].w[k][o] * weight[c];
    for (std::size_t o = 0; o != outputs; ++o) sum.b[o] += updated[c].b[o] * weight[c];
    total += weight[c];
  }
  for (auto& row : sum.w)
    for (auto& v : row) v /= total;
  for (auto& v : sum.b) v /= total;
  return sum;
}

// The clients' data as one executor value, made without keeping a C++ copy.
inline ctff::dynamic_value client_values(std::size_t n) {
  std::mt19937 gen(7);
  std::vector<ctff::dynamic_value> members;
  for (std::size_t c = 0; c != n; ++c) {
    const client_batch b = make_batch(gen);
    members.push_back(ctff::to_value<ctff::tff_t<client_batch>>(b));
  }
  return ctff::make_federated(ctff::placement_kind::clients, false, std::move(members));
}
inline std::vector<client_batch> client_structs(std::size_t n) {
  std::mt19937 gen(7);
  std::vector<client_batch> out;
  for (std::size_t c = 0; c != n; ++c) out.push_back(make_batch(gen));
  return out;
}

// Every computation run here is parsed back by protobuf and checked by ctff's checker.
template <class C>
void check_emitted(const C& c) {
  const ctff::byte_view b = c.bytes();
  const std::string bytes(reinterpret_cast<const char*>(b.data()), b.size());
  federated_language::Computation m;
  if (!m.ParseFromString(bytes) || !ctff::check(ctff::read_computation(bytes)).empty()) {
    std::fprintf(stderr, "run benchmark: %s does not parse back or check\n", std::string(c.name()).c_str());
    std::exit(1);
  }
}

}  // namespace ctff_bench
