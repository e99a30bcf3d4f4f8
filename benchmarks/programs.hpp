// The programs the benchmarks trace besides the chains of chain.hpp: a FedAvg-like round.
#pragma once

#include <array>
#include <cstdint>
#include <ctff/ctff.hpp>

#include "chain.hpp"

namespace ctff_bench {

// A FedAvg-like round over a 10-float model:
//   model@SERVER, data@CLIENTS, weight@CLIENTS ->
//   <model = apply_update(<model, weighted mean of local_update(<broadcast model, data>)>),
//    examples = sum(weight)>
using model_t = std::array<float, 10>;

inline constexpr auto local_update = ctff::computation<"local_update", model_t, model_t>(
    [](auto model, auto data) { return model + data; });
inline constexpr auto apply_update = ctff::computation<"apply_update", model_t, model_t>(
    [](auto model, auto delta) { return model + delta; });

template <class Update, class Apply>
constexpr auto fedavg_body(const Update& update, const Apply& apply) {
  return [&update, &apply](auto model, auto data, auto weight) {
    auto at_clients = ctff::federated_broadcast(model);
    auto updates = ctff::federated_map(update, ctff::federated_zip(at_clients, data));
    auto delta = ctff::federated_mean(updates, weight);
    auto new_model = ctff::federated_map(apply, ctff::federated_zip(model, delta));
    auto examples = ctff::federated_sum(weight);
    return ctff::make_struct<"model", "examples">(new_model, examples);
  };
}

using fedavg_model = ctff::arg<"model", ctff::at_server<model_t>>;
using fedavg_data = ctff::arg<"data", ctff::at_clients<model_t>>;
using fedavg_weight = ctff::arg<"weight", ctff::at_clients<float>>;

inline constexpr auto fedavg =
    ctff::computation<"fedavg", fedavg_model, fedavg_data, fedavg_weight>(
        [](auto model, auto data, auto weight) {
          return fedavg_body(local_update, apply_update)(model, data, weight);
        });

// The FedAvg round traced at run time: the mapped computations add a captured run-time scale
// (unused in the output: it only makes the lambdas capture, which moves tracing to run time).
inline auto runtime_fedavg(float scale) {
  auto update = ctff::computation<"local_update", model_t, model_t>([scale](auto model, auto data) {
    static_cast<void>(scale);
    return model + data;
  });
  auto apply = ctff::computation<"apply_update", model_t, model_t>([scale](auto model, auto delta) {
    static_cast<void>(scale);
    return model + delta;
  });
  return ctff::computation<"fedavg", fedavg_model, fedavg_data, fedavg_weight>(
      [update, apply](auto model, auto data, auto weight) {
        return fedavg_body(update, apply)(model, data, weight);
      });
}

}  // namespace ctff_bench
