// ctff::run_in_subrounds on a ctff::remote_executor: a ctff-made MergeableCompForm run on
// in-process workers in subrounds of K clients gives the round's result (computed by hand, and the
// round run whole), whatever K; each subround's per-client work runs on the workers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/forms.hpp>
#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>

namespace subrounds_test {

using i32 = std::int32_t;
constexpr auto cube = ctff::computation<"cube", i32>([](auto v) { return v * v * v; });
constexpr auto plus = ctff::computation<"plus", i32, i32>([](auto a, auto b) { return a + b; });
// <state + sum(v^3), sum(v^3)>: the cubes computed on the workers.
constexpr auto cube_round = ctff::computation<"cube_round", ctff::at_server<i32>, ctff::at_clients<i32>>(
    [](auto state, auto values) {
      auto total = ctff::federated_sum(ctff::federated_map(cube, values));
      return ctff::make_struct(ctff::federated_map(plus, ctff::federated_zip(ctff::make_struct(state, total))), total);
    });

ctff::dynamic_value int32_at(ctff::placement_kind p, const std::vector<i32>& xs) {
  std::vector<ctff::dynamic_value> m;
  for (i32 x : xs) m.push_back(ctff::make_scalar<ctff::dtype::int32>(x));
  return ctff::make_federated(p, p == ctff::placement_kind::server, std::move(m));
}
std::string address_of(const ctff::worker& w) { return "127.0.0.1:" + std::to_string(w.port()); }

}  // namespace subrounds_test

TEST_CASE("subrounds on the workers: a ctff-made MergeableCompForm gives the round's result for any K",
          "[remote][subrounds]") {
  using namespace subrounds_test;
  const ctff::computation_tree round = ctff::read_computation(cube_round.bytes().str());
  const ctff::mergeable_comp_form f = ctff::to_mergeable_comp_form(round);
  std::vector<std::unique_ptr<ctff::worker>> ws;
  for (int k = 0; k != 3; ++k) ws.push_back(ctff::serve());
  ctff::remote_executor r({.workers = {address_of(*ws[0]), address_of(*ws[1]), address_of(*ws[2])}});
  REQUIRE(r.left_out().empty());
  std::vector<i32> v;
  i32 total = 0;
  for (i32 i = 0; i != 11; ++i) {
    v.push_back(i - 4);
    total += (i - 4) * (i - 4) * (i - 4);
  }
  const ctff::dynamic_value arg = ctff::make_struct_value(
      {int32_at(ctff::placement_kind::server, {7}), int32_at(ctff::placement_kind::clients, v)});
  const ctff::dynamic_value expected = ctff::make_struct_value(
      {int32_at(ctff::placement_kind::server, {7 + total}), int32_at(ctff::placement_kind::server, {total})});
  ctff::executor local;
  CHECK(local.run(round, arg) == expected);
  for (std::size_t k : {1, 2, 4, 11, 20}) {
    INFO("K = " << k);
    CHECK(ctff::run_in_subrounds(r, f, arg, k) == expected);
  }
  // The maps ran on the workers: each worker made executors for the subrounds' runs.
  for (auto& w : ws) CHECK(w->service().executors() >= 1);
}
