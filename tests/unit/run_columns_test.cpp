// CLIENTS values held as one column and per-client tensor work run once over it (issue 45:
// run/client_column.hpp, run/batched_eval.hpp). What the executor gives is what it gave client by
// client: every expected value below is computed by a plain loop in the test, in the same
// arithmetic (float32 rounded at every operation, integers wrapping), never by the executor.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"
#include "error_of.hpp"
#include "parse_back.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

executor on(std::size_t clients, unsigned threads = 1) {
  run_options o;
  o.clients = clients;
  o.threads = threads;
  return executor(o);
}

dynamic_value i32_members(const std::vector<i32>& v) {
  std::vector<dynamic_value> m;
  for (i32 x : v) m.push_back(make_scalar<dtype::int32>(x));
  return make_federated(placement_kind::clients, false, std::move(m));
}

std::vector<i32> distinct(std::size_t n) {
  std::vector<i32> v(n);
  for (std::size_t i = 0; i != n; ++i) v[i] = static_cast<i32>(i * 7919 % 100003) - 50000;
  return v;
}

constexpr auto add_one = computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto map_sum = computation<"map_sum", at_clients<i32>>(
    [](auto v) { return federated_sum(federated_map(add_one, v)); });
constexpr auto map_only = computation<"map_only", at_clients<i32>>([](auto v) { return federated_map(add_one, v); });

// float32: x * 3 / 7 + 0.25, each step rounded to float32.
constexpr auto affine = computation<"affine", float>([](auto x) { return x * 3.0f / 7.0f + 0.25f; });
constexpr auto affine_mean = computation<"affine_mean", at_clients<float>>(
    [](auto v) { return federated_mean(federated_map(affine, v)); });

// A struct per client from one tensor: <x + 1, x * x>.
constexpr auto pair_of = computation<"pair_of", i32>([](auto x) { return make_struct<"inc", "sq">(x + 1, x * x); });
constexpr auto map_pairs = computation<"map_pairs", at_clients<i32>>([](auto v) { return federated_map(pair_of, v); });

// Rows of a tensor: float32[3] per client, scaled and shifted by another client tensor.
constexpr auto row_op = computation<"row_op", tensor<dtype::float32, 3>>([](auto x) { return x * x + x; });
constexpr auto rows_sum = computation<"rows_sum", at_clients<tensor<dtype::float32, 3>>>(
    [](auto v) { return federated_sum(federated_map(row_op, v)); });

}  // namespace

TEST_CASE("columns: map then sum over typed client lists gives the hand loop's result", "[run][columns]") {
  for (std::size_t n : {1u, 2u, 7u, 1000u}) {
    const std::vector<i32> v = distinct(n);
    std::uint32_t expect = 0;
    for (i32 x : v) expect += static_cast<std::uint32_t>(x) + 1u;
    for (unsigned threads : {1u, 3u}) {
      auto ex = on(n, threads);
      CHECK(ex.call<i32>(map_sum, v) == static_cast<i32>(expect));
      // The same clients given as members (not a column): stacked, the same result.
      CHECK(ex.call<i32>(map_sum, i32_members(v)) == static_cast<i32>(expect));
    }
  }
}

TEST_CASE("columns: integers wrap in the batched map as per client", "[run][columns]") {
  const std::vector<i32> v{std::numeric_limits<i32>::max(), std::numeric_limits<i32>::min(), -1};
  auto ex = on(3);
  const std::vector<i32> r = ex.call<std::vector<i32>>(map_only, v);
  CHECK(r == std::vector<i32>{std::numeric_limits<i32>::min(), std::numeric_limits<i32>::min() + 1, 0});
}

TEST_CASE("columns: a map's result returned from a run has one member per client", "[run][columns]") {
  const std::vector<i32> v{4, -2, 9};
  auto ex = on(3);
  const dynamic_value r = ex.call(map_only, v);
  REQUIRE(r.is(value_kind::federated));
  CHECK(r.federated().column == nullptr);
  CHECK(r == i32_members({5, -1, 10}));
}

TEST_CASE("columns: float32 arithmetic is rounded at every step, as per client", "[run][columns]") {
  const std::size_t n = 501;
  std::vector<float> v(n);
  for (std::size_t i = 0; i != n; ++i) v[i] = static_cast<float>(i) * 0.37f - 41.5f;
  float sum = 0.0f;
  for (float x : v) {
    const float y = x * 3.0f / 7.0f + 0.25f;
    sum = sum + y;
  }
  const float expect = sum / static_cast<float>(n);
  auto ex = on(n);
  const float got = ex.call<float>(affine_mean, v);
  CHECK(std::memcmp(&got, &expect, sizeof got) == 0);
}

TEST_CASE("columns: a struct per client from a batched body", "[run][columns]") {
  const std::vector<i32> v{3, -4, 0};
  auto ex = on(3);
  const dynamic_value r = ex.call(map_pairs, v);
  REQUIRE(r.federated().members.size() == 3);
  for (std::size_t i = 0; i != 3; ++i) {
    const struct_data& s = r.federated().members[i].structure();
    CHECK(s.names == std::vector<std::string>{"inc", "sq"});
    CHECK(s.elements[0] == make_scalar<dtype::int32>(v[i] + 1));
    CHECK(s.elements[1] == make_scalar<dtype::int32>(v[i] * v[i]));
  }
}

TEST_CASE("columns: tensors per client, summed in client order", "[run][columns]") {
  const std::size_t n = 9;
  std::vector<std::array<float, 3>> v(n);
  for (std::size_t i = 0; i != n; ++i) v[i] = {static_cast<float>(i) * 0.5f, -1.25f * static_cast<float>(i), 3.0f};
  std::array<float, 3> expect{};
  for (const auto& x : v)
    for (std::size_t k = 0; k != 3; ++k) expect[k] = expect[k] + (x[k] * x[k] + x[k]);
  auto ex = on(n);
  const auto got = ex.call<std::array<float, 3>>(rows_sum, v);
  CHECK(std::memcmp(got.data(), expect.data(), sizeof got) == 0);
}

namespace {
constexpr auto min_of = computation<"min_of", at_clients<tensor<dtype::float32, 2>>>([](auto v) { return federated_min(v); });
constexpr auto max_of = computation<"max_of", at_clients<i32>>([](auto v) { return federated_max(v); });
constexpr auto wmean = computation<"wmean", at_clients<tensor<dtype::float32, 2>>, at_clients<float>>(
    [](auto v, auto w) { return federated_mean(v, w); });

dynamic_value f32x2_members(const std::vector<std::array<float, 2>>& v) {
  std::vector<dynamic_value> m;
  for (const auto& x : v) m.push_back(make_tensor<dtype::float32>(std::vector<float>(x.begin(), x.end()), {2}));
  return make_federated(placement_kind::clients, false, std::move(m));
}
dynamic_value f32_members(const std::vector<float>& v) {
  std::vector<dynamic_value> m;
  for (float x : v) m.push_back(make_scalar<dtype::float32>(x));
  return make_federated(placement_kind::clients, false, std::move(m));
}
// A run whose value budget holds a column of n clients but not its n members: what runs within
// it read the column as it is.
executor tight(std::size_t n) {
  run_options o;
  o.clients = n;
  o.threads = 1;
  o.limits.max_value_bytes = n * 24;
  return executor(o);
}
}  // namespace

TEST_CASE("columns: federated_min and federated_max read a column in client order", "[run][columns]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::size_t n = 2000;
  std::vector<std::array<float, 2>> v(n);
  for (std::size_t i = 0; i != n; ++i) v[i] = {static_cast<float>(i % 37) - 11.5f, static_cast<float>(i * 7 % 101)};
  v[1500][1] = nan;  // NaN propagates in its element only
  std::array<float, 2> expect{std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
  for (const auto& x : v)
    for (std::size_t k = 0; k != 2; ++k)
      if (!std::isnan(expect[k]) && (std::isnan(x[k]) || x[k] < expect[k])) expect[k] = x[k];
  REQUIRE(std::isnan(expect[1]));
  const auto col = tight(n).call<std::array<float, 2>>(min_of, v);
  CHECK(std::memcmp(col.data(), expect.data(), sizeof col) == 0);
  const auto mem = on(n).call<std::array<float, 2>>(min_of, f32x2_members(v));
  CHECK(std::memcmp(mem.data(), expect.data(), sizeof mem) == 0);
  // The column's n members do not fit the tight budget: min_of read the column as it is.
  static constexpr auto secure_of = computation<"secure_of", at_clients<i32>>(
      [](auto x) { return federated_secure_sum_bitwidth(x, 31); });
  const auto e = error_of<execution_error>([&] { (void)tight(n).call(secure_of, std::vector<i32>(n, 1)); });
  CHECK(std::string(e.what()).find("max_value_bytes") != std::string::npos);

  const std::vector<i32> w = distinct(n);
  i32 most = std::numeric_limits<i32>::lowest();
  for (i32 x : w) most = x > most ? x : most;
  CHECK(tight(n).call<i32>(max_of, w) == most);
  CHECK(on(n).call<i32>(max_of, i32_members(w)) == most);
  CHECK(on(0).call<i32>(max_of, std::vector<i32>{}) == std::numeric_limits<i32>::lowest());
}

TEST_CASE("columns: federated_weighted_mean reads columns, rounding as per client", "[run][columns]") {
  const std::size_t n = 999;
  std::vector<std::array<float, 2>> v(n);
  std::vector<float> w(n);
  for (std::size_t i = 0; i != n; ++i) {
    v[i] = {static_cast<float>(i) * 0.31f - 7.0f, 1.0f / static_cast<float>(i + 1)};
    w[i] = static_cast<float>(i % 5) * 0.5f + 0.125f;
  }
  // Each client's value times its weight, rounded to float32, added in client order.
  std::array<float, 2> num{};
  float den = 0.0f;
  for (std::size_t i = 0; i != n; ++i) {
    for (std::size_t k = 0; k != 2; ++k) {
      const float p = v[i][k] * w[i];
      num[k] = num[k] + p;
    }
    den = den + w[i];
  }
  const std::array<float, 2> expect{num[0] / den, num[1] / den};
  const auto col = tight(n).call<std::array<float, 2>>(wmean, v, w);
  CHECK(std::memcmp(col.data(), expect.data(), sizeof col) == 0);
  const auto mem = on(n).call<std::array<float, 2>>(wmean, f32x2_members(v), f32_members(w));
  CHECK(std::memcmp(mem.data(), expect.data(), sizeof mem) == 0);
  // A column of values with weights as members: the members' way, the same result.
  const auto mixed = on(n).call<std::array<float, 2>>(wmean, v, f32_members(w));
  CHECK(std::memcmp(mixed.data(), expect.data(), sizeof mixed) == 0);
}

TEST_CASE("columns: a fault in a batched body is reported per client, as before", "[run][columns]") {
  static constexpr auto div_by = computation<"div_by", i32>([](auto x) { return x / 0; });
  static constexpr auto map_div = computation<"map_div", at_clients<i32>>([](auto v) { return federated_map(div_by, v); });
  auto ex = on(3);
  const auto e = error_of<execution_error>([&] { (void)ex.call(map_div, std::vector<i32>{1, 2, 3}); });
  CHECK(std::string(e.what()).find("integer division by zero") != std::string::npos);
}

TEST_CASE("columns: max_steps counts every client's building blocks", "[run][columns]") {
  run_options o;
  o.clients = 1000;
  o.threads = 1;
  o.limits.max_steps = 2000;  // the map's body alone is several blocks per client
  executor ex(o);
  const auto e = error_of<execution_error>([&] { (void)ex.call(map_sum, distinct(1000)); });
  CHECK(std::string(e.what()).find("max_steps") != std::string::npos);
  o.limits.max_steps = 100000;
  CHECK_NOTHROW(executor(o).call(map_sum, distinct(1000)));
}

TEST_CASE("columns: a column given as an argument is checked as its members would be", "[run][columns]") {
  // A column of float32 rows for an {int32}@CLIENTS parameter: the error names the first client.
  const dynamic_value wrong(federated_data{placement_kind::clients, false, {},
                                           std::make_shared<const tensor_data>(tensor_data{
                                               dtype::float32, {2}, tensor_elements(std::vector<float>{1, 2})})});
  auto ex = on(2);
  const auto e = error_of<argument_error>([&] { (void)ex.call(map_sum, wrong); });
  CHECK(e.path() == "arg[0]");
  // One that fits runs, and equals the members it stands for.
  const dynamic_value right(federated_data{placement_kind::clients, false, {},
                                           std::make_shared<const tensor_data>(tensor_data{
                                               dtype::int32, {2}, tensor_elements(std::vector<i32>{5, 6})})});
  CHECK(right == i32_members({5, 6}));
  CHECK(ex.call<i32>(map_sum, right) == 13);
}

TEST_CASE("progress: per-client work reports every hundredth of the clients, in order", "[run][columns]") {
  // A bound (opaque) function runs per client: its map reports progress.
  static constexpr auto twice = tensorflow_computation<function<i32, i32>>("\x0a\x04\x0a\x02tw", tf_tensor("x:0"), tf_tensor("y:0"));
  static constexpr auto map_twice = computation<"map_twice", at_clients<i32>>([](auto v) { return federated_map(twice, v); });
  for (unsigned threads : {1u, 2u}) {
    std::vector<run_progress> seen;
    std::vector<std::string> paths;  // (run_progress's views last as long as the call)
    run_options o;
    o.clients = 1000;
    o.threads = threads;
    o.progress = [&](const run_progress& p) {  // (one call at a time)
      seen.push_back(p);
      paths.emplace_back(p.path);
    };
    executor ex(o);
    ex.bind(twice, [](i32 x) { return 2 * x; });
    const std::vector<i32> r = ex.call<std::vector<i32>>(map_twice, distinct(1000));
    CHECK(r[999] == 2 * distinct(1000)[999]);
    REQUIRE(!seen.empty());
    if (threads == 1) CHECK(seen.size() == 100);
    for (std::size_t k = 0; k != seen.size(); ++k) {
      CHECK(seen[k].intrinsic == "federated_map");
      CHECK(paths[k] == "lambda.result.block.local[0](fc_map_twice_symbol_0)");
      CHECK((seen[k].call == 1 && seen[k].calls == 1));
      CHECK(seen[k].total == 1000);
      CHECK(seen[k].done % 10 == 0);
      if (k) CHECK(seen[k].done > seen[k - 1].done);
    }
    CHECK(seen.back().done == 1000);
  }
  // No callback, no reports; a batched map reports nothing (it is one step).
  CHECK(on(10).call<i32>(map_sum, distinct(10)) != 0);
}

TEST_CASE("progress: each report names its call, and which of the computation's per-client calls", "[run][columns]") {
  // Two maps of a bound function and one of a batched lambda in one round: the two report, each
  // naming its own Call building block (the formatted form's locals 0 and 2), call 1 and 2 of 3.
  static constexpr auto twice = tensorflow_computation<function<i32, i32>>("\x0a\x04\x0a\x02tw", tf_tensor("x:0"), tf_tensor("y:0"));
  static constexpr auto two_maps = computation<"two_maps", at_clients<i32>>([](auto v) {
    return federated_sum(federated_map(twice, federated_map(add_one, federated_map(twice, v))));
  });
  ctff_test::require_parses(two_maps.bytes());
  std::vector<std::pair<std::string, std::size_t>> seen;  // path, call (of 3)
  run_options o;
  o.clients = 200;
  o.threads = 1;
  o.progress = [&seen](const run_progress& p) {
    CHECK(p.calls == 3);
    if (seen.empty() || seen.back().first != p.path) seen.emplace_back(std::string(p.path), p.call);
  };
  executor ex(o);
  ex.bind(twice, [](i32 x) { return 2 * x; });
  std::vector<i32> in = distinct(200);
  i32 want = 0;
  for (i32 x : in) want += 2 * (2 * x + 1);
  CHECK(ex.call<i32>(two_maps, in) == want);
  CHECK(seen == std::vector<std::pair<std::string, std::size_t>>{
                    {"lambda.result.block.local[0](fc_two_maps_symbol_0)", 1},
                    {"lambda.result.block.local[2](fc_two_maps_symbol_2)", 2}});
}
