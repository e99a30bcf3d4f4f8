// The six programs of tests/goldens written with ctff: captureless (traced at compile time) and
// run-time variants whose literals come from a run-time variable (traced when constructed).
#pragma once

#include <cstdint>
#include <tuple>

#include <ctff/ctff.hpp>

namespace programs {

inline constexpr auto add_one =
    ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });

inline constexpr auto simple =
    ctff::computation<"simple", ctff::at_server<std::int32_t>>([](auto server_val) {
      auto at_clients = ctff::federated_broadcast(server_val);
      auto plus_one = ctff::federated_map(add_one, at_clients);
      return ctff::federated_sum(plus_one);
    });

inline constexpr auto sum_clients = ctff::computation<"sum_clients", ctff::at_clients<std::int32_t>>(
    [](auto x) { return ctff::federated_sum(x); });

inline constexpr auto named_params =
    ctff::computation<"named_params", ctff::arg<"alpha", ctff::at_server<std::int32_t>>,
                      ctff::arg<"beta", ctff::at_clients<float>>, ctff::arg<"gamma", std::int32_t>>(
        [](auto alpha, auto beta, auto gamma) {
          return ctff::make_struct<"total", "first", "last">(ctff::federated_mean(beta), alpha, gamma);
        });

inline constexpr auto zip_unnamed =
    ctff::computation<"zip_unnamed", ctff::arg<"a", ctff::at_clients<std::int32_t>>,
                      ctff::arg<"b", ctff::at_clients<float>>>(
        [](auto a, auto b) { return ctff::federated_zip(ctff::make_struct(a, b)); });

inline constexpr auto federated_values = ctff::computation<"federated_values">([] {
  return std::tuple(ctff::federated_value(10, ctff::SERVER), ctff::federated_value(2.5f, ctff::CLIENTS));
});

// Run-time variants: `one`, `ten` and `two_and_a_half` are known only at run time.
inline auto rt_add_one(std::int32_t one) {
  return ctff::computation<"add_one", std::int32_t>([one](auto x) { return x + one; });
}
inline auto rt_simple(std::int32_t one) {
  auto inner = rt_add_one(one);
  return ctff::computation<"simple", ctff::at_server<std::int32_t>>([inner](auto server_val) {
    auto at_clients = ctff::federated_broadcast(server_val);
    auto plus_one = ctff::federated_map(inner, at_clients);
    return ctff::federated_sum(plus_one);
  });
}
inline auto rt_sum_clients(int unused) {
  return ctff::computation<"sum_clients", ctff::at_clients<std::int32_t>>([unused](auto x) {
    static_cast<void>(unused);
    return ctff::federated_sum(x);
  });
}
inline auto rt_named_params(int unused) {
  return ctff::computation<"named_params", ctff::arg<"alpha", ctff::at_server<std::int32_t>>,
                           ctff::arg<"beta", ctff::at_clients<float>>,
                           ctff::arg<"gamma", std::int32_t>>([unused](auto alpha, auto beta, auto gamma) {
    static_cast<void>(unused);
    return ctff::make_struct<"total", "first", "last">(ctff::federated_mean(beta), alpha, gamma);
  });
}
inline auto rt_zip_unnamed(int unused) {
  return ctff::computation<"zip_unnamed", ctff::arg<"a", ctff::at_clients<std::int32_t>>,
                           ctff::arg<"b", ctff::at_clients<float>>>([unused](auto a, auto b) {
    static_cast<void>(unused);
    return ctff::federated_zip(ctff::make_struct(a, b));
  });
}
inline auto rt_federated_values(std::int32_t ten, float two_and_a_half) {
  return ctff::computation<"federated_values">([ten, two_and_a_half] {
    return std::tuple(ctff::federated_value(ten, ctff::SERVER),
                      ctff::federated_value(two_and_a_half, ctff::CLIENTS));
  });
}

}  // namespace programs
