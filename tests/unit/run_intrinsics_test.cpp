// The executor's intrinsics (reference/execution.md §3), one TEST_CASE per URI, with results
// computed by hand and written as literals, and the edge cases of the reference page: no clients,
// empty sequences, NaN and ±inf, integer wrap and division, secure-sum bounds, zero select keys,
// shadowing in blocks, a lambda that reads its enclosing computation's values inside
// federated_map, all_equal values meeting non-all_equal types. Computations are traced by ctff
// where it can trace them; the rest are hand-written wire bytes (run_wire.hpp).
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"
#include "error_of.hpp"
#include "run_wire.hpp"

namespace {

namespace w = run_wire;
using namespace ctff;
using i32 = std::int32_t;
using i64 = std::int64_t;
using ivec = std::vector<i32>;
using fvec = std::vector<float>;
constexpr i32 int_max = std::numeric_limits<i32>::max();
constexpr i32 int_min = std::numeric_limits<i32>::min();
constexpr float inf = std::numeric_limits<float>::infinity();
const float nan_f = std::numeric_limits<float>::quiet_NaN();

executor with_clients(std::size_t n, unsigned threads = 2) {
  run_options o;
  o.clients = n;
  o.threads = threads;
  return executor(o);
}
executor on_threads(unsigned threads) {
  run_options o;
  o.threads = threads;
  return executor(o);
}

dynamic_value i32s(std::vector<i32> v) {
  std::vector<dynamic_value> m;
  for (i32 x : v) m.push_back(make_scalar<dtype::int32>(x));
  return make_federated(placement_kind::clients, false, std::move(m));
}

static constexpr auto add_one = computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto twice_plus_one = computation<"tpo", i32>([](auto x) { return x * 2 + 1; });
constexpr auto five = computation<"five">([] { return 5; });

}  // namespace

// ---- placement ---------------------------------------------------------------------------------

TEST_CASE("run federated_broadcast: the server member, all_equal at CLIENTS", "[run]") {
  static constexpr auto bc = computation<"bc", at_server<i32>>([](auto x) { return federated_broadcast(x); });
  auto ex = with_clients(3);
  CHECK(ex.call(bc, 7) == make_federated(placement_kind::clients, true, {make_scalar<dtype::int32>(7)}));
  // Met by federated_map's non-all_equal parameter: replicated, then mapped once per client.
  static constexpr auto bmap = computation<"bmap", at_server<i32>>(
      [](auto x) { return federated_map(add_one, federated_broadcast(x)); });
  CHECK(ex.call<ivec>(bmap, 7) == ivec{8, 8, 8});
  CHECK(ex.call(bmap, 7) == i32s({8, 8, 8}));
  static constexpr auto bsum = computation<"bsum", at_server<i32>>(
      [](auto x) { return federated_sum(federated_broadcast(x)); });
  CHECK(ex.call<i32>(bsum, 7) == 21);
  CHECK(with_clients(0).call<i32>(bsum, 7) == 0);
}

TEST_CASE("run federated_apply: fn of the server member at SERVER", "[run]") {
  static constexpr auto ap = computation<"ap", at_server<i32>>([](auto x) { return federated_map(twice_plus_one, x); });
  auto ex = with_clients(4);
  CHECK(ex.call(ap, 5) == make_federated(placement_kind::server, true, {make_scalar<dtype::int32>(11)}));
  CHECK(with_clients(0).call<i32>(ap, -3) == -5);
}

TEST_CASE("run federated_eval_at_clients and federated_eval_at_server", "[run]") {
  static constexpr auto ec = computation<"ec">([] { return federated_eval(five, CLIENTS); });
  static constexpr auto es = computation<"es">([] { return federated_eval(five, SERVER); });
  CHECK(with_clients(3).call(ec) == i32s({5, 5, 5}));
  CHECK(with_clients(0).call(ec) == i32s({}));
  CHECK(with_clients(3).call<i32>(es) == 5);
  CHECK(with_clients(0).call<i32>(es) == 5);
}

TEST_CASE("run federated_value_at_clients and federated_value_at_server", "[run]") {
  static constexpr auto vc = computation<"vc", i32>([](auto x) { return federated_value(x, CLIENTS); });
  static constexpr auto vs = computation<"vs", i32>([](auto x) { return federated_value(std::tuple{x, 2.5f}, SERVER); });
  auto ex = with_clients(5);
  const dynamic_value r = ex.call(vc, 9);
  CHECK(r == make_federated(placement_kind::clients, true, {make_scalar<dtype::int32>(9)}));
  CHECK(r.federated().members.size() == 1);  // all_equal: one member, not five
  CHECK(ex.call<std::tuple<i32, float>>(vs, 9) == std::tuple<i32, float>{9, 2.5f});
}

// ---- maps --------------------------------------------------------------------------------------

TEST_CASE("run federated_map: fn per client, in order", "[run]") {
  static constexpr auto m = computation<"m", at_clients<i32>>([](auto v) { return federated_map(twice_plus_one, v); });
  for (unsigned threads : {1u, 2u, 4u}) {
    auto ex = on_threads(threads);
    CHECK(ex.call<ivec>(m, ivec{1, 2, 3, -4}) == ivec{3, 5, 7, -7});
    CHECK(ex.call<ivec>(m, ivec{}).empty());
  }
  // An all_equal argument is mapped N times; the result is not all_equal.
  static constexpr auto m_eq = computation<"m_eq", at_clients<i32, all_equal>>(
      [](auto v) { return federated_map(twice_plus_one, v); });
  const dynamic_value r = with_clients(3).call(m_eq, 10);
  CHECK(r == i32s({21, 21, 21}));
  CHECK_FALSE(r.federated().all_equal);
  CHECK(with_clients(0).call(m_eq, 10) == i32s({}));
}

TEST_CASE("run federated_map_all_equal: fn once, result all_equal", "[run]") {
  static constexpr auto m = computation<"mae", at_clients<i32, all_equal>>(
      [](auto v) { return federated_map_all_equal(twice_plus_one, v); });
  const dynamic_value r = with_clients(6).call(m, 4);
  CHECK(r == make_federated(placement_kind::clients, true, {make_scalar<dtype::int32>(9)}));
}

// ---- aggregations ------------------------------------------------------------------------------

TEST_CASE("run federated_sum: per leaf, zeros for no clients, integer wrap, NaN and inf", "[run]") {
  static constexpr auto s = computation<"s", at_clients<i32>>([](auto v) { return federated_sum(v); });
  auto ex = on_threads(2);
  CHECK(ex.call<i32>(s, ivec{1, 2, 3}) == 6);
  CHECK(ex.call<i32>(s, ivec{}) == 0);
  CHECK(ex.call<i32>(s, ivec{int_max, 1}) == int_min);              // wraps
  CHECK(ex.call<i32>(s, ivec{int_min, -1, 5}) == int_min + 4);  // MIN - 1 wraps to MAX, + 5 wraps again
  static constexpr auto sf = computation<"sf", at_clients<float>>([](auto v) { return federated_sum(v); });
  CHECK(ex.call<float>(sf, fvec{0.5f, 0.25f, 2.0f}) == 2.75f);
  CHECK(ex.call<float>(sf, fvec{inf, 1.0f}) == inf);
  CHECK(ex.call<float>(sf, fvec{-inf, 1.0f}) == -inf);
  CHECK(std::isnan(ex.call<float>(sf, fvec{inf, -inf})));
  CHECK(std::isnan(ex.call<float>(sf, fvec{1.0f, nan_f, 2.0f})));
  // A struct with an array leaf: leaf by leaf.
  struct member {
    i32 a;
    std::array<float, 2> b;
  };
  static constexpr auto st = computation<"st", at_clients<member>>([](auto v) { return federated_sum(v); });
  using R = std::tuple<i32, std::array<float, 2>>;
  CHECK(ex.call<R>(st, std::vector<member>{{1, {0.5f, 1.0f}}, {2, {0.25f, -3.0f}}}) ==
        R{3, {0.75f, -2.0f}});
  CHECK(ex.call<R>(st, std::vector<member>{}) == R{0, {0.0f, 0.0f}});
}

TEST_CASE("run federated_mean: sum / N in the leaf's dtype, NaN for no clients", "[run]") {
  static constexpr auto m = computation<"m", at_clients<float>>([](auto v) { return federated_mean(v); });
  auto ex = on_threads(2);
  CHECK(ex.call<float>(m, fvec{1.0f, 2.0f, 4.0f, 5.0f}) == 3.0f);
  CHECK(ex.call<float>(m, fvec{1.0f, 2.0f}) == 1.5f);
  CHECK(std::isnan(ex.call<float>(m, fvec{})));
  CHECK(ex.call<float>(m, fvec{inf, 1.0f}) == inf);
  CHECK(std::isnan(ex.call<float>(m, fvec{nan_f, 1.0f})));
  // float32 stays float32: (1 + 2^-24 + 2^-24) in float32 is 1 (each addition rounds), / 3.
  CHECK(ex.call<float>(m, fvec{1.0f, 0x1p-24f, 0x1p-24f}) == 1.0f / 3.0f);
  static constexpr auto md = computation<"md", at_clients<std::tuple<double, std::array<float, 2>>>>(
      [](auto v) { return federated_mean(v); });
  using R = std::tuple<double, std::array<float, 2>>;
  CHECK(ex.call<R>(md, std::vector<R>{{1.0, {2.0f, -1.0f}}, {2.0, {4.0f, 0.0f}}}) == R{1.5, {3.0f, -0.5f}});
  const R empty = ex.call<R>(md, std::vector<R>{});
  CHECK(std::isnan(std::get<0>(empty)));
  CHECK(std::isnan(std::get<1>(empty)[0]));
  CHECK(std::isnan(std::get<1>(empty)[1]));
}

TEST_CASE("run federated_weighted_mean: sum(x*w) / sum(w), NaN for no clients", "[run]") {
  static constexpr auto wm = computation<"wm", at_clients<float>, at_clients<float>>(
      [](auto x, auto w) { return federated_mean(x, w); });
  auto ex = on_threads(2);
  CHECK(ex.call<float>(wm, fvec{1.0f, 3.0f}, fvec{1.0f, 3.0f}) == 2.5f);  // (1 + 9) / 4
  CHECK(ex.call<float>(wm, fvec{2.0f, 4.0f, 8.0f}, fvec{0.0f, 1.0f, 1.0f}) == 6.0f);
  CHECK(std::isnan(ex.call<float>(wm, fvec{}, fvec{})));
  // Weights are not checked: they may sum to zero. (1*1 + 2*(-1)) / 0 = -1 / 0.
  CHECK(ex.call<float>(wm, fvec{1.0f, 2.0f}, fvec{1.0f, -1.0f}) == -inf);
  // Integer weights: cast to the member's dtype; sum of weights in int32.
  static constexpr auto wi = computation<"wi", at_clients<float>, at_clients<i32>>(
      [](auto x, auto w) { return federated_mean(x, w); });
  CHECK(ex.call<float>(wi, fvec{1.0f, 3.0f}, ivec{1, 3}) == 2.5f);
  CHECK(std::isnan(ex.call<float>(wi, fvec{}, ivec{})));
  // A struct member: every leaf weighted.
  static constexpr auto ws = computation<"ws", at_clients<std::tuple<float, double>>, at_clients<float>>(
      [](auto x, auto w) { return federated_mean(x, w); });
  using R = std::tuple<float, double>;
  CHECK(ex.call<R>(ws, std::vector<R>{{1.0f, 10.0}, {4.0f, 40.0}}, fvec{3.0f, 1.0f}) == R{1.75f, 17.5});
}

TEST_CASE("run federated_min and federated_max: pointwise, finite identities, NaN propagates", "[run]") {
  static constexpr auto mn = computation<"mn", at_clients<i32>>([](auto v) { return federated_min(v); });
  static constexpr auto mx = computation<"mx", at_clients<i32>>([](auto v) { return federated_max(v); });
  auto ex = on_threads(2);
  CHECK(ex.call<i32>(mn, ivec{3, -1, 2}) == -1);
  CHECK(ex.call<i32>(mx, ivec{3, -1, 2}) == 3);
  CHECK(ex.call<i32>(mn, ivec{}) == 2147483647);
  CHECK(ex.call<i32>(mx, ivec{}) == -2147483647 - 1);

  static constexpr auto fmn = computation<"fmn", at_clients<std::array<float, 3>>>([](auto v) { return federated_min(v); });
  static constexpr auto fmx = computation<"fmx", at_clients<std::array<float, 3>>>([](auto v) { return federated_max(v); });
  using A = std::array<float, 3>;
  const std::vector<A> v{{1.0f, -2.0f, 0.5f}, {0.0f, 4.0f, 0.25f}};
  CHECK(ex.call<A>(fmn, v) == A{0.0f, -2.0f, 0.25f});
  CHECK(ex.call<A>(fmx, v) == A{1.0f, 4.0f, 0.5f});
  // No clients: the largest / lowest finite float32, not ±inf.
  CHECK(ex.call<A>(fmn, std::vector<A>{}) == A{3.40282347e+38f, 3.40282347e+38f, 3.40282347e+38f});
  CHECK(ex.call<A>(fmx, std::vector<A>{}) == A{-3.40282347e+38f, -3.40282347e+38f, -3.40282347e+38f});
  // ±inf members: folded from the finite identity, so min(+inf alone) is the largest finite.
  CHECK(ex.call<A>(fmn, std::vector<A>{{inf, -inf, 1.0f}}) == A{3.40282347e+38f, -inf, 1.0f});
  CHECK(ex.call<A>(fmx, std::vector<A>{{inf, -inf, 1.0f}}) == A{inf, -3.40282347e+38f, 1.0f});
  // NaN propagates, wherever it is in client order.
  const A a = ex.call<A>(fmn, std::vector<A>{{nan_f, 1.0f, 1.0f}, {0.0f, nan_f, 1.0f}});
  CHECK(std::isnan(a[0]));
  CHECK(std::isnan(a[1]));
  CHECK(a[2] == 1.0f);
  const A b = ex.call<A>(fmx, std::vector<A>{{nan_f, 1.0f, 1.0f}, {0.0f, nan_f, 1.0f}});
  CHECK(std::isnan(b[0]));
  CHECK(std::isnan(b[1]));
  CHECK(b[2] == 1.0f);
  // float64 and int64 identities.
  static constexpr auto dmn = computation<"dmn", at_clients<double>>([](auto v) { return federated_min(v); });
  static constexpr auto lmx = computation<"lmx", at_clients<i64>>([](auto v) { return federated_max(v); });
  CHECK(ex.call<double>(dmn, std::vector<double>{}) == 1.7976931348623157e308);
  CHECK(ex.call<i64>(lmx, std::vector<i64>{}) == -9223372036854775807LL - 1);
}

TEST_CASE("run federated_aggregate: accumulate folded in client order, report(zero) for none", "[run]") {
  static constexpr auto acc = computation<"acc", i32, i32>([](auto a, auto x) { return a * 10 + x; });
  static constexpr auto merge = computation<"merge", i32, i32>([](auto a, auto b) { return a + b; });
  static constexpr auto report = computation<"report", i32>([](auto a) { return a * 2; });
  static constexpr auto agg = computation<"agg", at_clients<i32>>(
      [](auto v) { return federated_aggregate(v, 7, acc, merge, report); });
  for (unsigned threads : {1u, 4u}) {
    auto ex = on_threads(threads);
    CHECK(ex.call<i32>(agg, ivec{1, 2, 3}) == 14246);  // ((7*10+1)*10+2)*10+3 = 7123, * 2
    CHECK(ex.call<i32>(agg, ivec{}) == 14);            // report(zero)
    CHECK(ex.call<i32>(agg, ivec{0}) == 140);
  }
}

TEST_CASE("run federated_secure_sum: a sum, every element in [0, bound]", "[run]") {
  static constexpr auto ss = computation<"ss", at_clients<i32>>([](auto v) { return federated_secure_sum(v, 5); });
  auto ex = on_threads(2);
  CHECK(ex.call<i32>(ss, ivec{0, 5, 3}) == 8);  // 0 and the bound itself pass
  CHECK(ex.call<i32>(ss, ivec{}) == 0);
  const execution_error below = error_of<execution_error>([&] { ex.call<i32>(ss, ivec{1, -1}); });
  // The building block: the call bound to the block's first local.
  CHECK(below.path() == "lambda.result.block.local[0](fc_ss_symbol_0)");
  CHECK(below.problem() == "federated_secure_sum: client 1: value = -1 lies outside [0, 5]");
  CHECK_THROWS_AS(ex.call<i32>(ss, ivec{6}), execution_error);
  CHECK_THROWS_AS(ex.call<i32>(ss, ivec{0, 0, int_max}), execution_error);
  // A struct member with a scalar bound (applies to every leaf) and an array leaf.
  static constexpr auto sst = computation<"sst", at_clients<std::tuple<i32, std::array<i64, 2>>>>(
      [](auto v) { return federated_secure_sum(v, 5); });
  using M = std::tuple<i32, std::array<i64, 2>>;
  CHECK(ex.call<M>(sst, std::vector<M>{{1, {5, 0}}, {5, {0, 5}}}) == M{6, {5, 5}});
  CHECK_THROWS_AS(ex.call<M>(sst, std::vector<M>{{1, {5, 6}}}), execution_error);
  CHECK_THROWS_AS(ex.call<M>(sst, std::vector<M>{{1, {-1, 0}}}), execution_error);
  // A struct bound, leaf by leaf.
  static constexpr auto ssb = computation<"ssb", at_clients<std::tuple<i32, i32>>>(
      [](auto v) { return federated_secure_sum(v, std::tuple{1, 100}); });
  using P = std::tuple<i32, i32>;
  CHECK(ex.call<P>(ssb, std::vector<P>{{1, 100}, {0, 50}}) == P{1, 150});
  CHECK_THROWS_AS(ex.call<P>(ssb, std::vector<P>{{2, 0}}), execution_error);
}

TEST_CASE("run federated_secure_sum_bitwidth: bound 2^b - 1", "[run]") {
  static constexpr auto sb = computation<"sb", at_clients<i32>>(
      [](auto v) { return federated_secure_sum_bitwidth(v, 3); });
  auto ex = on_threads(2);
  CHECK(ex.call<i32>(sb, ivec{7, 0, 7}) == 14);
  CHECK(ex.call<i32>(sb, ivec{}) == 0);
  CHECK_THROWS_AS(ex.call<i32>(sb, ivec{8}), execution_error);
  CHECK_THROWS_AS(ex.call<i32>(sb, ivec{3, -1}), execution_error);
  static constexpr auto sb1 = computation<"sb1", at_clients<i64>>(
      [](auto v) { return federated_secure_sum_bitwidth(v, 1); });
  CHECK(ex.call<i64>(sb1, std::vector<i64>{1, 1, 0}) == 2);
  CHECK_THROWS_AS(ex.call<i64>(sb1, std::vector<i64>{2}), execution_error);
}

TEST_CASE("run federated_secure_modular_sum: per leaf, each value mod M, the sum mod M (hand-written)", "[run]") {
  // TFF's backend intrinsic (no tracing): (a -> federated_secure_modular_sum(a)) of type
  // (<{V}@CLIENTS,M> -> V@SERVER). int32 3, int64 9.
  auto modular_sum = [](const std::string& v, const std::string& m) {
    return read_computation(w::apply_intrinsic(w::struct_type({{"", w::at_clients(v)}, {"", m}}), w::at_server(v),
                                               "federated_secure_modular_sum"));
  };
  auto ex = on_threads(2);
  auto arg = [](dynamic_value v, dynamic_value m) { return make_struct_value({std::move(v), std::move(m)}); };
  auto at_server_i32 = [](i32 x) { return make_federated(placement_kind::server, true, {make_scalar<dtype::int32>(x)}); };
  auto m32 = [](i32 x) { return make_scalar<dtype::int32>(x); };
  const computation_tree scalar = modular_sum(w::tensor(3), w::tensor(3));
  // 5 + 2 + 4 = 11 = 4 (mod 7); so is 5 + 9 + 200 = 214 = 30 * 7 + 4.
  CHECK(ex.run(scalar, arg(i32s({5, 9, 200}), m32(7))) == at_server_i32(4));
  // A floor modulo: -1 = 6, -15 = 6 (mod 7); 12 = 5 (mod 7), as -16 = -3 * 7 + 5.
  CHECK(ex.run(scalar, arg(i32s({-1, -15}), m32(7))) == at_server_i32(5));
  // No int32 overflow: 2147483647 = 647 (mod 1000), 3 * 647 = 1941 = 941; int32's wrapping sum
  // 2147483645 would give 645.
  CHECK(ex.run(scalar, arg(i32s({int_max, int_max, int_max}), m32(1000))) == at_server_i32(941));
  CHECK(ex.run(scalar, arg(i32s({int_min}), m32(3))) == at_server_i32(1));  // -2147483648 = -715827883 * 3 + 1
  CHECK(ex.run(scalar, arg(i32s({}), m32(7))) == at_server_i32(0));
  CHECK(ex.run(scalar, arg(i32s({6, 6}), m32(1))) == at_server_i32(0));
  for (i32 bad : {0, -3}) {
    const execution_error e = error_of<execution_error>([&] { ex.run(scalar, arg(i32s({1}), m32(bad))); });
    CHECK(e.problem() == "federated_secure_modular_sum: the modulus " + std::to_string(bad) +
                             " lies outside [1, 2147483647] (the int32 values' range)");
  }
  // An int64 modulus larger than int32's values can hold.
  const computation_tree wide = modular_sum(w::tensor(3), w::tensor(9));
  CHECK_THROWS_AS(ex.run(wide, arg(i32s({1}), make_scalar<dtype::int64>(i64{1} << 40))), execution_error);
  CHECK(ex.run(wide, arg(i32s({3, 4}), make_scalar<dtype::int64>(5))) == at_server_i32(2));
  // Floats are not summed modulo anything.
  const computation_tree floats = modular_sum(w::tensor(1), w::tensor(3));
  const dynamic_value f = make_federated(placement_kind::clients, false, {make_scalar<dtype::float32>(1.0f)});
  CHECK(error_of<execution_error>([&] { ex.run(floats, arg(f, m32(7))); }).problem() ==
        "federated_secure_modular_sum: a modular sum of float32 members (integers only)");

  // A struct member: a struct modulus leaf by leaf, or one scalar for every leaf (TFF's
  // execution_contexts_test: values [1,2], [3,4], [10,15] and modulus [5,7] give [4,0]).
  const std::string pair = w::struct_type({{"", w::tensor(3)}, {"", w::tensor(3)}});
  auto pairs = [](std::vector<std::pair<i32, i32>> v) {
    std::vector<dynamic_value> m;
    for (auto [a, b] : v) m.push_back(make_struct_value({make_scalar<dtype::int32>(a), make_scalar<dtype::int32>(b)}));
    return make_federated(placement_kind::clients, false, std::move(m));
  };
  auto at_server_pair = [](i32 a, i32 b) {
    return make_federated(placement_kind::server, true,
                          {make_struct_value({make_scalar<dtype::int32>(a), make_scalar<dtype::int32>(b)})});
  };
  const computation_tree by_leaf = modular_sum(pair, pair);
  CHECK(ex.run(by_leaf, arg(pairs({{1, 2}, {3, 4}, {10, 15}}), make_struct_value({m32(5), m32(7)}))) ==
        at_server_pair(4, 0));  // 14 = 4 (mod 5), 21 = 0 (mod 7)
  const computation_tree one = modular_sum(pair, w::tensor(3));
  CHECK(ex.run(one, arg(pairs({{1, 2}, {3, 4}}), m32(5))) == at_server_pair(4, 1));  // 4, 6 = 1 (mod 5)
}

// ---- select ------------------------------------------------------------------------------------

namespace {
constexpr auto pick = computation<"pick", arg<"s", i32>, arg<"k", i32>>([](auto s, auto k) { return s + k * 10; });
constexpr auto sel2 = computation<"sel2", at_clients<std::array<i32, 2>>, at_server<i32>, at_server<i32>>(
    [](auto k, auto m, auto s) { return federated_select(k, m, s, pick); });
constexpr auto ssel2 = computation<"ssel2", at_clients<std::array<i32, 2>>, at_server<i32>, at_server<i32>>(
    [](auto k, auto m, auto s) { return federated_secure_select(k, m, s, pick); });
constexpr auto sel0 = computation<"sel0", at_clients<std::array<i32, 0>>, at_server<i32>, at_server<i32>>(
    [](auto k, auto m, auto s) { return federated_select(k, m, s, pick); });
constexpr auto ssel0 = computation<"ssel0", at_clients<std::array<i32, 0>>, at_server<i32>, at_server<i32>>(
    [](auto k, auto m, auto s) { return federated_secure_select(k, m, s, pick); });
using keys2 = std::vector<std::array<i32, 2>>;
using seqs = std::vector<ivec>;
}  // namespace

TEST_CASE("run federated_select: fn(<server value, k>) per key, in key order", "[run]") {
  auto ex = on_threads(2);
  // max_key is not checked (keys 7 and 9 are above it).
  CHECK(ex.call<seqs>(sel2, keys2{{2, 1}, {7, 9}, {0, 0}}, 3, 1000) == seqs{{1020, 1010}, {1070, 1090}, {1000, 1000}});
  CHECK(ex.call<seqs>(sel2, keys2{}, 3, 1000).empty());
  // A client with zero keys is an execution error (with N = 0 no client has zero keys).
  const execution_error e = error_of<execution_error>([&] {
    ex.call<seqs>(sel0, std::vector<std::array<i32, 0>>{{}, {}}, 3, 1000);
  });
  CHECK(e.problem().find("no keys") != std::string::npos);
  CHECK(ex.call<seqs>(sel0, std::vector<std::array<i32, 0>>{}, 3, 1000).empty());
}

TEST_CASE("run struct names come from the static type (a select_fn returning its named parameter)", "[run]") {
  // select_fn of type (<s=int32,k=int32> -> <s=int32,k=int32>), called by federated_select with
  // the pair <server value, key> it makes itself: the result's elements are named s and k.
  static constexpr auto whole = computation<"whole", struct_<field<"s", i32>, field<"k", i32>>>([](auto p) { return p; });
  static constexpr auto sel_whole = computation<"sel_whole", at_clients<std::array<i32, 1>>, at_server<i32>, at_server<i32>>(
      [](auto k, auto m, auto s) { return federated_select(k, m, s, whole); });
  auto pair = [](i32 s, i32 k) {
    return make_struct_value({make_scalar<dtype::int32>(s), make_scalar<dtype::int32>(k)}, {"s", "k"});
  };
  CHECK(with_clients(2).call(sel_whole, std::vector<std::array<i32, 1>>{{4}, {6}}, 9, 100) ==
        make_federated(placement_kind::clients, false, {make_sequence({pair(100, 4)}), make_sequence({pair(100, 6)})}));
}

TEST_CASE("run federated_secure_select: as federated_select", "[run]") {
  auto ex = on_threads(2);
  CHECK(ex.call<seqs>(ssel2, keys2{{-1, 4}, {5, 5}}, 0, 1) == seqs{{-9, 41}, {51, 51}});
  CHECK_THROWS_AS(ex.call<seqs>(ssel0, std::vector<std::array<i32, 0>>{{}}, 0, 1), execution_error);
}

// ---- zips --------------------------------------------------------------------------------------

TEST_CASE("run federated_zip_at_clients: client i gets every leaf's i-th member, names from the type", "[run]") {
  static constexpr auto z = computation<"z", arg<"a", at_clients<i32>>, arg<"b", at_clients<float>>,
                                 arg<"c", at_clients<i32, all_equal>>>([](auto a, auto b, auto c) {
    return federated_zip(make_struct<"x", "y">(a, make_struct(b, c)));
  });
  auto ex = with_clients(2);
  const dynamic_value r = ex.call(z, ivec{1, 2}, fvec{0.5f, 1.5f}, 9);
  auto member = [](i32 a, float b, i32 c) {
    return make_struct_value({make_scalar<dtype::int32>(a),
                              make_struct_value({make_scalar<dtype::float32>(b), make_scalar<dtype::int32>(c)})},
                             {"x", "y"});
  };
  CHECK(r == make_federated(placement_kind::clients, false, {member(1, 0.5f, 9), member(2, 1.5f, 9)}));
  using R = std::vector<std::tuple<i32, std::tuple<float, i32>>>;
  CHECK(ex.call<R>(z, ivec{1, 2}, fvec{0.5f, 1.5f}, 9) == R{{1, {0.5f, 9}}, {2, {1.5f, 9}}});
  CHECK(with_clients(0).call<R>(z, ivec{}, fvec{}, 9).empty());
}

TEST_CASE("run federated_zip_at_clients of all_equal values stays all_equal (hand-written)", "[run]") {
  // (a -> federated_zip_at_clients(a)) of type (<int32@CLIENTS,float32@CLIENTS> -> <int32,float32>@CLIENTS).
  const std::string i = w::tensor(3), f = w::tensor(1);
  const std::string p = w::struct_type({{"", w::federated(i, "clients", true)}, {"", w::federated(f, "clients", true)}});
  const std::string r = w::federated(w::struct_type({{"", i}, {"", f}}), "clients", true);
  const computation_tree tree = read_computation(w::apply_intrinsic(p, r, "federated_zip_at_clients"));
  auto eq = [](dynamic_value m) { return make_federated(placement_kind::clients, true, {std::move(m)}); };
  const dynamic_value z = with_clients(4).run(
      tree, make_struct_value({eq(make_scalar<dtype::int32>(2)), eq(make_scalar<dtype::float32>(0.5f))}));
  CHECK(z == eq(make_struct_value({make_scalar<dtype::int32>(2), make_scalar<dtype::float32>(0.5f)})));
  CHECK(z.federated().members.size() == 1);
}

TEST_CASE("run federated_zip_at_server", "[run]") {
  static constexpr auto z = computation<"zs", at_server<i32>, at_server<float>>(
      [](auto a, auto b) { return federated_zip(a, b); });
  const dynamic_value r = with_clients(3).call(z, 4, 0.25f);
  CHECK(r == make_federated(placement_kind::server, true,
                            {make_struct_value({make_scalar<dtype::int32>(4), make_scalar<dtype::float32>(0.25f)})}));
}

// ---- generic operators -------------------------------------------------------------------------

TEST_CASE("run generic_plus: pointwise over structs, integer wrap, inf and NaN", "[run]") {
  static constexpr auto p = computation<"p", i32, i32>([](auto a, auto b) { return a + b; });
  CHECK(run<i32>(p, 2, 3) == 5);
  CHECK(run<i32>(p, int_max, 1) == int_min);
  CHECK(run<i32>(p, int_min, -1) == int_max);
  static constexpr auto pf = computation<"pf", float, float>([](auto a, auto b) { return a + b; });
  CHECK(run<float>(pf, inf, 1.0f) == inf);
  CHECK(std::isnan(run<float>(pf, inf, -inf)));
  CHECK(std::isnan(run<float>(pf, nan_f, 0.0f)));
  using S = std::tuple<i32, std::array<float, 2>>;
  static constexpr auto ps = computation<"ps", S, S>([](auto a, auto b) { return a + b; });
  CHECK(run<S>(ps, S{1, {0.5f, 1.0f}}, S{-3, {0.25f, -1.0f}}) == S{-2, {0.75f, 0.0f}});
  static constexpr auto pu = computation<"pu", std::uint8_t, std::uint8_t>([](auto a, auto b) { return a + b; });
  CHECK(run<std::uint8_t>(pu, std::uint8_t{250}, std::uint8_t{10}) == 4);
}

TEST_CASE("run generic_multiply: integer wrap, inf times zero", "[run]") {
  static constexpr auto m = computation<"m", i32, i32>([](auto a, auto b) { return a * b; });
  CHECK(run<i32>(m, 6, -7) == -42);
  CHECK(run<i32>(m, 65536, 65536) == 0);
  CHECK(run<i32>(m, 65537, 65537) == 131073);  // 2^32 + 2^17 + 1 mod 2^32
  CHECK(run<i32>(m, int_min, -1) == int_min);
  static constexpr auto mf = computation<"mf", double, double>([](auto a, auto b) { return a * b; });
  CHECK(run<double>(mf, 1.5, -4.0) == -6.0);
  CHECK(std::isnan(run<double>(mf, std::numeric_limits<double>::infinity(), 0.0)));
  static constexpr auto ma = computation<"ma", std::array<i64, 3>, std::array<i64, 3>>([](auto a, auto b) { return a * b; });
  using A = std::array<i64, 3>;
  CHECK(run<A>(ma, A{1, -2, 3}, A{4, 5, -6}) == A{4, -10, -18});
}

TEST_CASE("run generic_divide: integers truncate toward zero and wrap, floats follow IEEE", "[run]") {
  static constexpr auto d = computation<"d", i32, i32>([](auto a, auto b) { return a / b; });
  CHECK(run<i32>(d, 7, 2) == 3);
  CHECK(run<i32>(d, -7, 2) == -3);
  CHECK(run<i32>(d, 7, -2) == -3);
  CHECK(run<i32>(d, -7, -2) == 3);
  CHECK(run<i32>(d, int_min, -1) == int_min);
  const execution_error e = error_of<execution_error>([&] { run<i32>(d, 1, 0); });
  CHECK(e.problem().find("division by zero") != std::string::npos);
  CHECK(e.path() == "lambda.result.block.local[0](fc_d_symbol_0)");
  CHECK_THROWS_AS(run<i32>(d, 0, 0), execution_error);
  static constexpr auto du = computation<"du", std::uint32_t, std::uint32_t>([](auto a, auto b) { return a / b; });
  CHECK(run<std::uint32_t>(du, 4294967295u, 2u) == 2147483647u);
  static constexpr auto df = computation<"df", float, float>([](auto a, auto b) { return a / b; });
  CHECK(run<float>(df, 1.0f, 4.0f) == 0.25f);
  CHECK(run<float>(df, 1.0f, 0.0f) == inf);
  CHECK(run<float>(df, -1.0f, 0.0f) == -inf);
  CHECK(std::isnan(run<float>(df, 0.0f, 0.0f)));
  CHECK(run<float>(df, 1.0f, 3.0f) == 0.333333343f);  // rounded in float32
}

TEST_CASE("run generic_divide with a float result type from integer operands (hand-written)", "[run]") {
  // (arg -> <generic_divide(<arg[0],arg[1]>), generic_divide(<arg[2],arg[3]>)>) typed
  // (<int32,int32,int16,int16> -> <float64,float64>): true division, int16 via float32, int32 via
  // float64, each cast to float64.
  const std::string i32t = w::tensor(3), i16t = w::tensor(5), f64t = w::tensor(2);
  const std::string p_type = w::struct_type({{"", i32t}, {"", i32t}, {"", i16t}, {"", i16t}});
  const std::string r_type = w::struct_type({{"", f64t}, {"", f64t}});
  const std::string p = w::ref(p_type, "arg");
  auto divide = [&](const std::string& operand, int i) {
    const std::string pair = w::struct_type({{"", operand}, {"", operand}});
    return w::call(f64t, w::intrinsic(w::function(pair, f64t), "generic_divide"),
                w::strct(pair, {{"", w::sel(operand, p, i)}, {"", w::sel(operand, p, i + 1)}}));
  };
  const std::string bytes =
      w::lambda(w::function(p_type, r_type), "arg", w::strct(r_type, {{"", divide(i32t, 0)}, {"", divide(i16t, 2)}}));
  const computation_tree tree = read_computation(bytes);
  auto ex = on_threads(1);
  auto args = [](i32 a, i32 b, std::int16_t c, std::int16_t e) {
    return make_struct_value({make_scalar<dtype::int32>(a), make_scalar<dtype::int32>(b),
                              make_scalar<dtype::int16>(c), make_scalar<dtype::int16>(e)});
  };
  auto f64 = [](double x) { return make_scalar<dtype::float64>(x); };
  // 16777217 is exact in float64, not in float32; 7 / 10 in float32 is 0.699999988079071044921875.
  CHECK(ex.run(tree, args(16777217, 1, 7, 10)) == make_struct_value({f64(16777217.0), f64(0.699999988079071044921875)}));
  CHECK(ex.run(tree, args(-7, 2, -1, 4)) == make_struct_value({f64(-3.5), f64(-0.25)}));
  // Division by zero is true division here: ±inf and NaN, no error.
  const dynamic_value z = ex.run(tree, args(1, 0, 0, 0));
  CHECK(z.structure().elements[0] == f64(std::numeric_limits<double>::infinity()));
  CHECK(std::isnan(z.structure().elements[1].tensor().get<dtype::float64>()[0]));
}

TEST_CASE("run generic_zero: zeros of T; N zeros of {T}@CLIENTS, one of T@SERVER", "[run]") {
  static constexpr auto z = computation<"z">([] { return generic_zero<std::tuple<i32, std::array<float, 2>, double>>(); });
  using R = std::tuple<i32, std::array<float, 2>, double>;
  CHECK(run<R>(z) == R{0, {0.0f, 0.0f}, 0.0});
  const std::string ci = w::at_clients(w::tensor(3)), si = w::at_server(w::tensor(3));
  const std::string both = w::struct_type({{"c", ci}, {"s", si}});
  const std::string bytes =
      w::lambda(w::function0(both), "", w::strct(both, {{"c", w::intrinsic(ci, "generic_zero")}, {"s", w::intrinsic(si, "generic_zero")}}));
  const computation_tree tree = read_computation(bytes);
  const dynamic_value zero = make_scalar<dtype::int32>(0);
  CHECK(with_clients(3).run(tree) ==
        make_struct_value({i32s({0, 0, 0}), make_federated(placement_kind::server, true, {zero})}, {"c", "s"}));
  CHECK(with_clients(0).run(tree) ==
        make_struct_value({i32s({}), make_federated(placement_kind::server, true, {zero})}, {"c", "s"}));
}

// ---- sequences ---------------------------------------------------------------------------------

TEST_CASE("run sequence_map: fn per element, in order; empty stays empty", "[run]") {
  static constexpr auto sm = computation<"sm", sequence<i32>>([](auto s) { return sequence_map(twice_plus_one, s); });
  CHECK(run<ivec>(sm, ivec{1, -2, 3}) == ivec{3, -3, 7});
  CHECK(run<ivec>(sm, ivec{}).empty());
  // On a federated sequence (federated_map of the curried sequence_map).
  static constexpr auto fsm = computation<"fsm", at_clients<sequence<i32>>>([](auto s) { return sequence_map(add_one, s); });
  CHECK(run<seqs>(fsm, seqs{{1, 2}, {}, {5}}) == seqs{{2, 3}, {}, {6}});
}

TEST_CASE("run sequence_reduce: left fold from zero, in order; empty: zero", "[run]") {
  static constexpr auto op = computation<"op", i32, i32>([](auto a, auto x) { return a * 10 + x; });
  static constexpr auto sr = computation<"sr", sequence<i32>>([](auto s) { return sequence_reduce(s, 4, op); });
  CHECK(run<i32>(sr, ivec{1, 2, 3}) == 4123);
  CHECK(run<i32>(sr, ivec{}) == 4);
  static constexpr auto fsr = computation<"fsr", at_clients<sequence<i32>>>(
      [](auto s) { return sequence_reduce(s, federated_value(4, CLIENTS), op); });
  CHECK(run<ivec>(fsr, seqs{{1, 2}, {}, {9}}) == ivec{412, 4, 49});
}

TEST_CASE("run sequence_sum: 0 + e_1 + ...; empty: zeros; NaN and wrap", "[run]") {
  static constexpr auto ss = computation<"ss", sequence<i32>>([](auto s) { return sequence_sum(s); });
  CHECK(run<i32>(ss, ivec{1, 2, 3}) == 6);
  CHECK(run<i32>(ss, ivec{}) == 0);
  CHECK(run<i32>(ss, ivec{int_max, int_max}) == -2);
  static constexpr auto sa = computation<"sa", sequence<std::array<float, 2>>>([](auto s) { return sequence_sum(s); });
  using A = std::array<float, 2>;
  CHECK(run<A>(sa, std::vector<A>{{1.0f, inf}, {0.5f, 2.0f}}) == A{1.5f, inf});
  CHECK(run<A>(sa, std::vector<A>{}) == A{0.0f, 0.0f});
  const A n = run<A>(sa, std::vector<A>{{nan_f, 1.0f}});
  CHECK(std::isnan(n[0]));
  CHECK(n[1] == 1.0f);
  static constexpr auto fss = computation<"fss", at_clients<sequence<i32>>>([](auto s) { return sequence_sum(s); });
  CHECK(run<ivec>(fss, seqs{{1, 2}, {}, {3}}) == ivec{3, 0, 3});
}

// ---- N = 0 for every aggregation, together ---------------------------------------------------

TEST_CASE("run every aggregation with no clients", "[run]") {
  static constexpr auto acc = computation<"acc", float, float>([](auto a, auto x) { return a + x; });
  static constexpr auto report = computation<"report", float>([](auto a) { return a * 2.0f; });
  static constexpr auto all = computation<"all", at_clients<float>, at_clients<i32>>([](auto x, auto k) {
    return std::tuple{federated_sum(x),
                      federated_mean(x),
                      federated_mean(x, x),
                      federated_min(x),
                      federated_max(k),
                      federated_aggregate(x, 1.5f, acc, acc, report),
                      federated_secure_sum(k, 3),
                      federated_secure_sum_bitwidth(k, 2)};
  });
  using R = std::tuple<float, float, float, float, i32, float, i32, i32>;
  for (unsigned threads : {1u, 3u}) {
    const R r = on_threads(threads).call<R>(all, fvec{}, ivec{});
    CHECK(std::get<0>(r) == 0.0f);
    CHECK(std::isnan(std::get<1>(r)));
    CHECK(std::isnan(std::get<2>(r)));
    CHECK(std::get<3>(r) == 3.40282347e+38f);
    CHECK(std::get<4>(r) == -2147483647 - 1);
    CHECK(std::get<5>(r) == 3.0f);
    CHECK(std::get<6>(r) == 0);
    CHECK(std::get<7>(r) == 0);
    // And with clients, for contrast: x = {1, 3}, k = {3, 2}.
    const R s = on_threads(threads).call<R>(all, fvec{1.0f, 3.0f}, ivec{3, 2});
    CHECK(s == R{4.0f, 2.0f, 2.5f, 1.0f, 3, 11.0f, 5, 5});  // (1+9)/4; (1.5+1+3)*2
  }
}

// ---- building blocks: shadowing, closures, all_equal -------------------------------------------

TEST_CASE("run blocks: a later local shadows an earlier one and the parameter; lambdas close over their defining scope", "[run]") {
  // (x -> (let x=generic_plus(<x,x>), y=x, f=(z -> generic_plus(<z,x>)), x=generic_multiply(<x,x>)
  //        in <x, y, (x -> generic_plus(<x,x>))(y), f(x), x>))
  const std::string i = w::tensor(3), pair = w::struct_type({{"", i}, {"", i}}), op = w::function(pair, i);
  auto twice = [&](const std::string& uri, const std::string& a, const std::string& b) {
    return w::call(i, w::intrinsic(op, uri), w::strct(pair, {{"", a}, {"", b}}));
  };
  const std::string x = w::ref(i, "x"), y = w::ref(i, "y");
  const std::string result_type = w::struct_type({{"", i}, {"", i}, {"", i}, {"", i}, {"", i}});
  const std::string ii = w::function(i, i);
  const std::string body = w::block(
      result_type,
      {{"x", twice("generic_plus", x, x)},
       {"y", x},
       {"f", w::lambda(ii, "z", twice("generic_plus", w::ref(i, "z"), x))},
       {"x", twice("generic_multiply", x, x)}},
      w::strct(result_type, {{"", x},
                          {"", y},
                          {"", w::call(i, w::lambda(ii, "x", twice("generic_plus", x, x)), y)},
                          {"", w::call(i, w::ref(ii, "f"), x)},
                          {"", x}}));
  const computation_tree tree = read_computation(w::lambda(w::function(i, result_type), "x", body));
  // x = 3: x = 6, y = 6, f adds the x of its definition (6), x = 36; the inner lambda's x is its
  // parameter (y = 6), and after it the block's x (36) is seen again.
  auto s = [](i32 v) { return make_scalar<dtype::int32>(v); };
  CHECK(on_threads(1).run(tree, s(3)) == make_struct_value({s(36), s(6), s(12), s(42), s(36)}));
}

TEST_CASE("run a Block of 100,000 locals: each reference is found in constant time", "[run]") {
  // (p -> (let l0=p, l1=l0, l2=l0, ..., l99999=l0 in <l0, l99999, p>)), as wire bytes.
  const std::string i = w::tensor(3), ii = w::struct_type({{"", i}, {"", i}, {"", i}});
  const std::string l0 = w::ref(i, "l0");
  std::vector<w::named> locals{{"l0", w::ref(i, "p")}};
  for (int k = 1; k != 100000; ++k) {
    std::string name = "l";
    name += std::to_string(k);
    locals.emplace_back(std::move(name), l0);
  }
  const std::string body = w::block(
      ii, locals, w::strct(ii, {{"", w::ref(i, "l0")}, {"", w::ref(i, "l99999")}, {"", w::ref(i, "p")}}));
  const computation_tree tree = read_computation(w::lambda(w::function(i, ii), "p", body));
  auto s = [](i32 v) { return make_scalar<dtype::int32>(v); };
  CHECK(on_threads(1).run(tree, s(7)) == make_struct_value({s(7), s(7), s(7)}));
}

TEST_CASE("run a reference to a name nothing binds: an execution error at the reference", "[run]") {
  // (x -> <x, (let y=x in y), y>): the last y is outside the Block that binds it.
  const std::string i = w::tensor(3), pair = w::struct_type({{"", i}, {"", i}, {"", i}});
  const std::string body = w::strct(
      pair, {{"", w::ref(i, "x")}, {"", w::block(i, {{"y", w::ref(i, "x")}}, w::ref(i, "y"))}, {"", w::ref(i, "y")}});
  const computation_tree tree = read_computation(w::lambda(w::function(i, pair), "x", body));
  const execution_error e =
      error_of<execution_error>([&] { on_threads(1).run(tree, make_scalar<dtype::int32>(1)); });
  CHECK(std::string(e.what()).find("the reference y is not bound") != std::string::npos);
  CHECK(e.path() == "lambda.result.struct[2]");
}

TEST_CASE("run a lambda inside federated_map that uses its enclosing computation's values", "[run]") {
  // (arg -> (let k=generic_plus(<arg[1],arg[1]>)
  //          in federated_map(<(x -> generic_plus(<generic_multiply(<x,arg[1]>),k>)),arg[0]>)))
  // of type (<{int32}@CLIENTS,int32> -> {int32}@CLIENTS): the mapped lambda reads the enclosing
  // lambda's parameter and block local on the workers.
  const std::string i = w::tensor(3), ci = w::at_clients(i), pair = w::struct_type({{"", i}, {"", i}}), op = w::function(pair, i);
  auto binary = [&](const std::string& uri, const std::string& a, const std::string& b) {
    return w::call(i, w::intrinsic(op, uri), w::strct(pair, {{"", a}, {"", b}}));
  };
  const std::string p_type = w::struct_type({{"", ci}, {"", i}});
  const std::string p = w::ref(p_type, "arg");
  const std::string k = w::sel(i, p, 1);
  const std::string fn = w::lambda(w::function(i, i), "x",
                                binary("generic_plus", binary("generic_multiply", w::ref(i, "x"), k), w::ref(i, "k")));
  const std::string map_arg = w::struct_type({{"", w::function(i, i)}, {"", ci}});
  const std::string body =
      w::block(ci, {{"k", binary("generic_plus", k, k)}},
            w::call(ci, w::intrinsic(w::function(map_arg, ci), "federated_map"), w::strct(map_arg, {{"", fn}, {"", w::sel(ci, p, 0)}})));
  const computation_tree tree = read_computation(w::lambda(w::function(p_type, ci), "arg", body));
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    auto ex = on_threads(threads);
    // k0 = 10: k = 20, x -> 10x + 20.
    CHECK(ex.run(tree, make_struct_value({i32s({1, 2, 3, -1, 0}), make_scalar<dtype::int32>(10)})) ==
          i32s({30, 40, 50, 10, 20}));
    CHECK(ex.run(tree, make_struct_value({i32s({}), make_scalar<dtype::int32>(10)})) == i32s({}));
  }
}

TEST_CASE("run all_equal values meeting non-all_equal types are replicated", "[run]") {
  static constexpr auto s = computation<"s", at_clients<i32>>([](auto v) { return federated_sum(v); });
  static constexpr auto m = computation<"m", at_clients<i32>>([](auto v) { return federated_map(add_one, v); });
  const dynamic_value eq = make_federated(placement_kind::clients, true, {make_scalar<dtype::int32>(4)});
  // An all_equal argument for a {int32}@CLIENTS parameter: one member for every client.
  auto ex = with_clients(3);
  CHECK(ex.call<i32>(s, eq) == 12);
  CHECK(ex.call(m, eq) == i32s({5, 5, 5}));
  // Through a computation read from bytes.
  const computation_tree tree = read_computation(m.bytes());
  const dynamic_value r = ex.run(tree, eq);
  CHECK(r == i32s({5, 5, 5}));
  CHECK_FALSE(r.federated().all_equal);
  // The result type {int32}@CLIENTS met by an all_equal value (federated_value at CLIENTS of a
  // computation typed to return {int32}@CLIENTS is not traceable; a broadcast into map is):
  static constexpr auto bm = computation<"bm", at_server<i32>>(
      [](auto x) { return federated_sum(federated_map(add_one, federated_broadcast(x))); });
  CHECK(with_clients(4).call<i32>(bm, 1) == 8);
  // The reverse, a non-all_equal value where the type says all_equal, is an error: as an argument,
  // bad input.
  static constexpr auto eq_param = computation<"e", at_clients<i32, all_equal>>([](auto v) { return federated_sum(v); });
  CHECK_THROWS_AS(with_clients(1).call(eq_param, i32s({4})), argument_error);
  CHECK(with_clients(2).call<i32>(eq_param, eq) == 8);
}

TEST_CASE("run generic_plus and generic_multiply on federated values: member by member (hand-written)", "[run]") {
  // (a -> generic_plus(a)) of type (<{int32}@CLIENTS,int32@CLIENTS> -> {int32}@CLIENTS).
  const std::string i = w::tensor(3), ci = w::at_clients(i), eq = w::federated(i, "clients", true);
  const computation_tree plus = read_computation(
      w::apply_intrinsic(w::struct_type({{"", ci}, {"", eq}}), ci, "generic_plus"));
  const dynamic_value ten = make_federated(placement_kind::clients, true, {make_scalar<dtype::int32>(10)});
  CHECK(with_clients(3).run(plus, make_struct_value({i32s({1, 2, 3}), ten})) == i32s({11, 12, 13}));
  CHECK(with_clients(0).run(plus, make_struct_value({i32s({}), ten})) == i32s({}));
  // At SERVER, of a struct member.
  const std::string pair = w::struct_type({{"a", i}, {"b", w::tensor(1)}}), sp = w::at_server(pair);
  const computation_tree times = read_computation(
      w::apply_intrinsic(w::struct_type({{"", sp}, {"", sp}}), sp, "generic_multiply"));
  auto server_pair = [](i32 a, float b) {
    return make_federated(placement_kind::server, true,
                          {make_struct_value({make_scalar<dtype::int32>(a), make_scalar<dtype::float32>(b)}, {"a", "b"})});
  };
  CHECK(with_clients(2).run(times, make_struct_value({server_pair(3, 0.5f), server_pair(-4, 6.0f)})) ==
        server_pair(-12, 3.0f));
}

TEST_CASE("run execution errors of the reference's rules (hand-written programs)", "[run]") {
  // federated_sum of members whose shape is not fully known: no zero.
  const std::string fq = w::tensor(1, {-1});
  const computation_tree sum_q = read_computation(w::apply_intrinsic(w::at_clients(fq), w::at_server(fq), "federated_sum"));
  const dynamic_value m = make_tensor<dtype::float32>({1.0f, 2.0f}, {2});
  const execution_error e = error_of<execution_error>([&] {
    with_clients(2).run(sum_q, make_federated(placement_kind::clients, false, {m, m}));
  });
  CHECK(e.path() == "lambda.result");
  CHECK(e.problem().find("unknown dimension") != std::string::npos);
  // federated_mean of integers: float or complex members only.
  const std::string i = w::tensor(3);
  const computation_tree mean_i = read_computation(w::apply_intrinsic(w::at_clients(i), w::at_server(i), "federated_mean"));
  CHECK_THROWS_AS(with_clients(2).run(mean_i, i32s({1, 2})), execution_error);
  // Arithmetic on bools (as in TF).
  const std::string b = w::tensor(10), bb = w::struct_type({{"", b}, {"", b}});
  const computation_tree plus_b = read_computation(w::apply_intrinsic(bb, b, "generic_plus"));
  const dynamic_value t = make_scalar<dtype::bool_>(true);
  const execution_error eb = error_of<execution_error>([&] { with_clients(0).run(plus_b, make_struct_value({t, t})); });
  CHECK(eb.problem().find("bool") != std::string::npos);
}

TEST_CASE("run references and selections: unbound or out of range is an error (hand-written)", "[run]") {
  const std::string i = w::tensor(3), one = w::struct_type({{"", i}});
  // (x -> y)
  const computation_tree unbound = read_computation(w::lambda(w::function(i, i), "x", w::ref(i, "y")));
  const execution_error e = error_of<execution_error>([&] { with_clients(0).run(unbound, make_scalar<dtype::int32>(1)); });
  CHECK(e.path() == "lambda.result");
  CHECK(e.problem().find("not bound") != std::string::npos);
  // (x -> x[1]) of a one-element struct.
  const computation_tree out = read_computation(w::lambda(w::function(one, i), "x", w::sel(i, w::ref(one, "x"), 1)));
  const execution_error o = error_of<execution_error>([&] {
    with_clients(0).run(out, make_struct_value({make_scalar<dtype::int32>(1)}));
  });
  CHECK(o.path() == "lambda.result");
  // And in range, by index.
  const computation_tree in = read_computation(w::lambda(w::function(one, i), "x", w::sel(i, w::ref(one, "x"), 0)));
  CHECK(with_clients(0).run(in, make_struct_value({make_scalar<dtype::int32>(7)})) == make_scalar<dtype::int32>(7));
}

TEST_CASE("run federated_secure_sum_bitwidth: a bitwidth outside [1, 62] is an error", "[run]") {
  static constexpr auto b0 = computation<"b0", at_clients<i32>>([](auto v) { return federated_secure_sum_bitwidth(v, 0); });
  static constexpr auto b63 = computation<"b63", at_clients<i64>>([](auto v) { return federated_secure_sum_bitwidth(v, 63); });
  static constexpr auto b62 = computation<"b62", at_clients<i64>>([](auto v) { return federated_secure_sum_bitwidth(v, 62); });
  auto ex = on_threads(1);
  CHECK_THROWS_AS(ex.call<i32>(b0, ivec{0}), execution_error);
  CHECK_THROWS_AS(ex.call<i64>(b63, std::vector<i64>{0}), execution_error);
  CHECK(ex.call<i64>(b62, std::vector<i64>{4611686018427387903LL, 1}) == 4611686018427387904LL);  // 2^62 - 1, + 1
  CHECK_THROWS_AS(ex.call<i64>(b62, std::vector<i64>{4611686018427387904LL}), execution_error);
}

TEST_CASE("run errors of clients: the lowest failing client is reported, whatever the threads", "[run]") {
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    const execution_error e = error_of<execution_error>([&] {
      on_threads(threads).call(sel0, std::vector<std::array<i32, 0>>(16), 3, 1000);
    });
    CHECK(e.problem() == "federated_select: client 0 has no keys");
  }
}
