// The executor's typed calls, bindings of opaque computations, bad arguments, execution errors
// and limits: std::array, ranges of aggregates for {T}@CLIENTS (N inferred), tuples and named
// aggregates in and out; C++ callables bound to ctff's TensorFlow computations and Data; the
// argument_error path of each bad-input class; the building block an execution_error names; every
// run_limits bound met with an error instead of a crash.
#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"
#include "error_of.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;
using ivec = std::vector<i32>;

executor make_executor(std::optional<std::size_t> clients, unsigned threads, run_limits limits = {}) {
  run_options o;
  o.clients = clients;
  o.threads = threads;
  o.limits = limits;
  return executor(o);
}

struct point {
  float x;
  i32 y;
  friend bool operator==(const point&, const point&) = default;
};
struct model {
  std::array<float, 2> w;
  float b;
};
struct scored {
  float loss;
  i32 examples;
  friend bool operator==(const scored&, const scored&) = default;
};

constexpr auto add_one = computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto five = computation<"five">([] { return 5; });
constexpr auto sum = computation<"sum", at_clients<i32>>([](auto v) { return federated_sum(v); });
constexpr auto sum_two = computation<"sum_two", at_clients<i32>, at_clients<i32>>(
    [](auto a, auto b) { return std::tuple{federated_sum(a), federated_sum(b)}; });
constexpr auto calls_add_one = computation<"outer", i32>([](auto x) { return add_one(x); });

// A TensorFlow computation the executor cannot run by itself: (<w=float32[2],b=float32> -> <loss=float32,examples=int32>).
constexpr auto evaluate = tensorflow_computation<function<model, scored>>(
    "\x0a\x04\x0a\x02ev", tf_struct(tf_tensor("w:0"), tf_tensor("b:0")), tf_struct(tf_tensor("loss:0"), tf_tensor("n:0")));
constexpr auto evaluate_all = computation<"evaluate_all", at_server<model>>(
    [](auto m) { return federated_map(evaluate, federated_broadcast(m)); });
constexpr auto evaluate_once = computation<"evaluate_once", at_server<model>>(
    [](auto m) { return federated_map_all_equal(evaluate, federated_broadcast(m)); });
// A no-parameter one, evaluated once per client.
constexpr auto draw = tensorflow_computation<function<void, i32>>("\x0a\x04\x0a\x02dr", tf_tensor("d:0"));
constexpr auto draw_everywhere = computation<"draw_everywhere">([] { return federated_eval(draw, CLIENTS); });
constexpr auto draw_once = computation<"draw_once">([] { return federated_eval(draw, SERVER); });
// Data: every client's sequence.
constexpr auto dataset = data<at_clients<sequence<float>>>("type.googleapis.com/my.Dataset", "\x01\x02");
constexpr auto totals = computation<"totals">([] {
  constexpr auto total = computation<"total", sequence<float>>([](auto s) { return sequence_sum(s); });
  return federated_map(total, dataset);
});

}  // namespace

// ---- typed calls -------------------------------------------------------------------------------

TEST_CASE("run typed calls: std::array, tuples, ranges of aggregates, named aggregates", "[run]") {
  // std::array in, std::array out.
  static constexpr auto twice = computation<"twice", std::array<std::array<float, 2>, 2>>([](auto m) { return m + m; });
  using M = std::array<std::array<float, 2>, 2>;
  CHECK(run<M>(twice, M{{{1.0f, 2.0f}, {-3.0f, 0.5f}}}) == M{{{2.0f, 4.0f}, {-6.0f, 1.0f}}});
  // A vector for a tensor of an unknown dimension.
  static constexpr auto vsum = computation<"vsum", tensor<dtype::int32, unknown_dim>>([](auto v) { return v + v; });
  CHECK(run<ivec>(vsum, ivec{1, 2, 3}) == ivec{2, 4, 6});
  CHECK(run<ivec>(vsum, ivec{}).empty());
  // Several arguments packed into the parameter struct; a tuple result.
  static constexpr auto pair = computation<"pair", i32, float>(
      [](auto a, auto b) { return std::tuple{a + 1, b * 2.0f}; });
  CHECK(run<std::tuple<i32, float>>(pair, 4, 0.25f) == std::tuple<i32, float>{5, 0.5f});
  // A named aggregate per client: the number of clients is the range's length.
  static constexpr auto points = computation<"points", at_clients<point>>([](auto v) { return federated_sum(v); });
  CHECK(run<point>(points, std::vector<point>{{0.5f, 1}, {1.5f, 2}, {-1.0f, 3}}) == point{1.0f, 6});
  CHECK(run<point>(points, std::vector<point>{}) == point{0.0f, 0});
  // A {T}@CLIENTS result as a vector of named aggregates.
  static constexpr auto moved = computation<"moved", at_clients<point>>([](auto v) {
    constexpr auto step = computation<"step", point>([](auto p) {
      return make_struct<"x", "y">(get<"x">(p) * 2.0f, get<"y">(p) + 1);
    });
    return federated_map(step, v);
  });
  CHECK(run<std::vector<point>>(moved, std::vector<point>{{0.5f, 1}, {-2.0f, -1}}) ==
        std::vector<point>{{1.0f, 2}, {-4.0f, 0}});
  // A tuple argument for an unnamed struct parameter; an aggregate with names for a named one.
  static constexpr auto swap = computation<"swap", std::tuple<i32, float>>([](auto t) {
    auto [a, b] = t;
    return std::tuple{b, a};
  });
  CHECK(run<std::tuple<float, i32>>(swap, std::tuple<i32, float>{3, 1.5f}) == std::tuple<float, i32>{1.5f, 3});
  CHECK(run<std::tuple<float, i32>>(points, std::vector<point>{{2.0f, 1}}) == std::tuple<float, i32>{2.0f, 1});
  // A dynamic value as the argument and as the result.
  const dynamic_value r = run(sum, make_federated(placement_kind::clients, false,
                                                  {make_scalar<dtype::int32>(2), make_scalar<dtype::int32>(5)}));
  CHECK(r == make_federated(placement_kind::server, true, {make_scalar<dtype::int32>(7)}));
  // Two lists of clients agree on N.
  CHECK(run<std::tuple<i32, i32>>(sum_two, ivec{1, 2}, ivec{3, 4}) == std::tuple<i32, i32>{3, 7});
  // The executor's N, and the inferred N, agree.
  CHECK(make_executor(2, 1).call<i32>(sum, ivec{1, 2}) == 3);
}

TEST_CASE("run bindings: a C++ callable for a TensorFlow computation inside federated_map", "[run]") {
  for (unsigned threads : {1u, 4u}) {
    executor ex = make_executor(3, threads);
    std::atomic<int> calls{0};
    ex.bind(evaluate, [&calls](const model& m) {
      ++calls;
      return scored{m.w[0] * m.w[0] + m.w[1] * m.w[1] + m.b, 32};
    });
    CHECK(ex.bound(std::string(evaluate.compact())));
    // 1 + 4 + 0.5 on every client.
    CHECK(ex.call<std::vector<scored>>(evaluate_all, model{{1.0f, -2.0f}, 0.5f}) ==
          std::vector<scored>{{5.5f, 32}, {5.5f, 32}, {5.5f, 32}});
    CHECK(calls == 3);  // federated_map of the broadcast model: once per client
    CHECK(ex.call<scored>(evaluate_once, model{{1.0f, -2.0f}, 0.5f}) == scored{5.5f, 32});
    CHECK(calls == 4);  // federated_map_all_equal: once
    CHECK(ex.call<std::vector<std::tuple<float, i32>>>(evaluate_all, model{{0.0f, 0.0f}, 1.0f}) ==
          std::vector<std::tuple<float, i32>>{{1.0f, 32}, {1.0f, 32}, {1.0f, 32}});
    // The same binding serves the computation read from its bytes.
    const computation_tree tree = read_computation(evaluate_all.bytes());
    const dynamic_value m = to_value<tff_t<at_server<model>>>(model{{1.0f, 1.0f}, 0.0f});
    CHECK(from_value<std::vector<scored>, std::remove_cvref_t<decltype(evaluate_all)>::result_type>(ex.run(tree, m)) ==
          std::vector<scored>{{2.0f, 32}, {2.0f, 32}, {2.0f, 32}});
  }
}

TEST_CASE("run bindings: by key, of no-parameter computations and of Data; calls counted", "[run]") {
  std::atomic<int> calls{0};
  executor ex = make_executor(5, 4);
  ex.bind(draw, [&calls] { return ++calls; });
  // federated_eval at CLIENTS calls it once per client; at SERVER once.
  const std::vector<i32> drawn = ex.call<std::vector<i32>>(draw_everywhere);
  CHECK(drawn.size() == 5);
  CHECK(calls == 5);
  std::vector<i32> sorted = drawn;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == ivec{1, 2, 3, 4, 5});
  CHECK(ex.call<i32>(draw_once) == 6);
  CHECK(calls == 6);
  // Data bound to the clients' sequences: N is the executor's.
  executor three = make_executor(3, 2);
  three.bind(dataset, [] { return std::vector<std::vector<float>>{{1.0f, 2.0f}, {}, {0.5f}}; });
  CHECK(three.call<std::vector<float>>(totals) == std::vector<float>{3.0f, 0.0f, 0.5f});
  // A binding by its printed key, for a computation read from bytes.
  executor by_key = make_executor(2, 2);
  by_key.bind(std::string(draw.compact()), [](const dynamic_value*) { return make_scalar<dtype::int32>(9); });
  CHECK(by_key.run(read_computation(draw_everywhere.bytes())) ==
        make_federated(placement_kind::clients, false, {make_scalar<dtype::int32>(9), make_scalar<dtype::int32>(9)}));
}

// ---- aggregates with std::vector members; the forms of a binding's callable ---------------------

namespace {

// Aggregates whose vector members have no TFF type of their own: they convert against the
// computation's types.
struct client_data {
  std::vector<std::array<float, 2>> x;
  std::vector<float> y;
  friend bool operator==(const client_data&, const client_data&) = default;
};
struct summary {
  std::vector<float> scaled;
  float mean;
  friend bool operator==(const summary&, const summary&) = default;
};
struct batch {
  client_data data;
  ivec ids;
  friend bool operator==(const batch&, const batch&) = default;
};
struct short_summary {  // one element where the type allows any number
  std::array<float, 1> scaled;
  float mean;
};
using client_data_t = struct_<field<"x", tensor<dtype::float32, unknown_dim, 2>>,
                              field<"y", tensor<dtype::float32, unknown_dim>>>;
using summary_t = struct_<field<"scaled", tensor<dtype::float32, unknown_dim>>, field<"mean", float>>;
constexpr auto doubled = computation<"doubled", client_data_t>(
    [](auto d) { return make_struct<"x", "y">(get<"x">(d) + get<"x">(d), get<"y">(d) + get<"y">(d)); });
constexpr auto renumbered = computation<"renumbered", arg<"data", client_data_t>, arg<"ids", tensor<dtype::int32, unknown_dim>>>(
    [](auto d, auto ids) { return make_struct<"data", "ids">(d, ids + ids); });
constexpr auto summarize = tensorflow_computation<function<client_data_t, summary_t>>(
    "\x0a\x04\x0a\x02su", tf_struct(tf_tensor("x:0"), tf_tensor("y:0")), tf_struct(tf_tensor("s:0"), tf_tensor("m:0")));
constexpr auto summarize_all = computation<"summarize_all", at_clients<client_data_t>>(
    [](auto d) { return federated_map(summarize, d); });
constexpr auto evaluate_here = computation<"evaluate_here", model>([](auto m) { return evaluate(m); });

}  // namespace

TEST_CASE("run typed calls: aggregates with std::vector members, in and out, nested, bound", "[run]") {
  // In and out: x doubled, y doubled.
  const client_data d{{{1.0f, 2.0f}, {-3.0f, 0.5f}}, {0.25f, 4.0f, -1.0f}};
  CHECK(run<client_data>(doubled, d) == client_data{{{2.0f, 4.0f}, {-6.0f, 1.0f}}, {0.5f, 8.0f, -2.0f}});
  // Empty: x is float32[0,2] (the type's 2), not [0,0].
  CHECK(run<client_data>(doubled, client_data{}) == client_data{});
  // Nested in an aggregate; the same as two arguments.
  const batch b{d, {3, -1}};
  CHECK(run<batch>(renumbered, b) == batch{d, {6, -2}});
  CHECK(run<batch>(renumbered, d, ivec{7}) == batch{d, {14}});
  // A binding taking and returning them, one call per client.
  executor ex = make_executor(std::nullopt, 2);
  ex.bind(summarize, [](const client_data& c) {
    summary s{{}, 0.0f};
    for (float y : c.y) s.scaled.push_back(y * static_cast<float>(c.x.size()));
    for (float y : c.y) s.mean += y / static_cast<float>(c.y.size());
    return s;
  });
  const std::vector<client_data> clients{d, {{{0.0f, 0.0f}}, {5.0f, 7.0f}}};
  // Client 0: 3 rows of x scale y by 2, mean (0.25 + 4 - 1) / 3; client 1: by 1, mean 6.
  CHECK(ex.call<std::vector<summary>>(summarize_all, clients) ==
        std::vector<summary>{{{0.5f, 8.0f, -2.0f}, 3.25f / 3.0f}, {{5.0f, 7.0f}, 6.0f}});
  // A result that does not fit names the member.
  const auto e = error_of<execution_error>([&] { ex.call<std::vector<short_summary>>(summarize_all, clients); });
  CHECK(e.path() == "result[0].scaled");
  CHECK(e.problem() == "the result does not convert: the tensor's shape does not fit the array");
}

TEST_CASE("run bindings: one argument per element of a struct parameter; generic callables", "[run]") {
  executor ex = make_executor(std::nullopt, 1);
  const model m{{2.0f, -3.0f}, 0.5f};
  using result = std::tuple<float, i32>;
  // One parameter per element of <w=float32[2],b=float32>.
  ex.bind(evaluate, [](const std::array<float, 2>& w, float bias) { return scored{w[0] * w[1] + bias, 1}; });
  CHECK(ex.call<result>(evaluate_here, m) == result{-5.5f, 1});
  // Generic: the parameter as a std::tuple, or its elements.
  ex.bind(evaluate, [](const auto& whole) {
    const auto& [w, bias] = whole;
    return std::tuple{w[0] + w[1] + bias, i32{2}};
  });
  CHECK(ex.call<result>(evaluate_here, m) == result{-0.5f, 2});
  ex.bind(evaluate, [](const auto& w, auto bias) { return scored{w[0] - w[1] - bias, 3}; });
  CHECK(ex.call<result>(evaluate_here, m) == result{4.5f, 3});
  // Generic, with std::vector for a `?` dimension.
  ex.bind(summarize, [](const auto& c) {
    const auto& [x, y] = c;
    return std::tuple{y, static_cast<float>(x.size())};
  });
  CHECK(ex.call<std::vector<summary>>(summarize_all, std::vector<client_data>{{{{1.0f, 1.0f}}, {2.0f}}}) ==
        std::vector<summary>{{{2.0f}, 1.0f}});
}

// ---- bad arguments -----------------------------------------------------------------------------

TEST_CASE("run bad arguments: argument_error names the place in the value", "[run]") {
  executor ex = make_executor(std::nullopt, 2);
  const computation_tree add_tree = read_computation(add_one.bytes());
  // Wrong dtype.
  auto e = error_of<argument_error>([&] { ex.run(add_tree, make_scalar<dtype::float32>(1.0f)); });
  CHECK(e.path() == "arg");
  CHECK(e.problem() == "expected int32, got float32");
  // Wrong dims, deep in a struct.
  static constexpr auto m = computation<"m", arg<"model", model>, arg<"n", at_clients<i32>>>(
      [](auto mm, auto n) { return std::tuple{mm, federated_sum(n)}; });
  const computation_tree m_tree = read_computation(m.bytes());
  auto model_value = [](dynamic_value w) {
    return make_struct_value({std::move(w), make_scalar<dtype::float32>(0.0f)}, {"w", "b"});
  };
  const dynamic_value clients2 = make_federated(placement_kind::clients, false,
                                                {make_scalar<dtype::int32>(1), make_scalar<dtype::int32>(2)});
  e = error_of<argument_error>([&] {
    ex.run(m_tree, make_struct_value({model_value(make_tensor<dtype::float32>({1.0f, 2.0f, 3.0f}, {3})), clients2},
                                     {"model", "n"}));
  });
  CHECK(e.path() == "arg.model.w");
  CHECK(e.problem() == "dimension 0 is 3, expected 2");
  // The same through a typed call: a vector of the wrong length for float32[2] is caught while
  // converting (std::array's length is checked at compile time).
  static constexpr auto norm = computation<"norm", tensor<dtype::float32, 2>>([](auto v) { return v * v; });
  auto e2 = error_of<argument_error>([&] { ex.call(norm, std::vector<float>{1.0f, 2.0f, 3.0f}); });
  CHECK(e2.path() == "arg");
  // A ragged tensor.
  static constexpr auto grid = computation<"grid", tensor<dtype::int32, unknown_dim, unknown_dim>>([](auto v) { return v; });
  e2 = error_of<argument_error>([&] { ex.call(grid, std::vector<ivec>{{1, 2}, {3}}); });
  CHECK(e2.path() == "arg[1]");
  // Wrong struct arity.
  e = error_of<argument_error>([&] { ex.run(m_tree, make_struct_value({clients2})); });
  CHECK(e.path() == "arg");
  CHECK(e.problem() == "expected 2 elements, got 1");
  // A wrong name.
  e = error_of<argument_error>([&] {
    ex.run(m_tree, make_struct_value({model_value(make_tensor<dtype::float32>({1.0f, 2.0f}, {2})), clients2},
                                     {"model", "count"}));
  });
  CHECK(e.path() == "arg");
  CHECK(e.problem().find("'count'") != std::string::npos);
  // A federated value where a tensor is expected, and the wrong placement.
  e = error_of<argument_error>([&] { ex.run(add_tree, clients2); });
  CHECK(e.problem() == "expected a tensor");
  e = error_of<argument_error>([&] {
    ex.run(read_computation(sum.bytes()), make_federated(placement_kind::server, true, {make_scalar<dtype::int32>(1)}));
  });
  CHECK(e.problem() == "placed at SERVER, expected CLIENTS");
  // A wrong member, named by its client.
  e = error_of<argument_error>([&] {
    ex.run(read_computation(sum.bytes()),
           make_federated(placement_kind::clients, false, {make_scalar<dtype::int32>(1), make_scalar<dtype::int64>(2)}));
  });
  CHECK(e.path() == "arg[1]");
  // Client counts that disagree between two arguments, or with the executor's N.
  e = error_of<argument_error>([&] { ex.call(sum_two, ivec{1, 2}, ivec{1, 2, 3}); });
  CHECK(e.path() == "arg[1]");
  CHECK(e.problem() == "3 clients, but the run has 2");
  e = error_of<argument_error>([&] { make_executor(4, 1).call(sum, ivec{1, 2, 3}); });
  CHECK(e.path() == "arg");
  CHECK(e.problem() == "3 clients, but the run has 4");
  // An argument for a computation without parameter, and none for one with.
  e = error_of<argument_error>([&] { ex.run(read_computation(five.bytes()), make_scalar<dtype::int32>(1)); });
  CHECK(e.path() == "arg");
  CHECK(e.problem() == "the computation takes no argument");
  e = error_of<argument_error>([&] { ex.run(add_tree); });
  CHECK(e.path() == "arg");
  // A non-all_equal value for an all_equal parameter with more than one member.
  static constexpr auto eq = computation<"eq", at_clients<i32, all_equal>>([](auto v) { return federated_sum(v); });
  e = error_of<argument_error>([&] { ex.run(read_computation(eq.bytes()), clients2); });
  CHECK(e.path() == "arg");
}

// ---- execution errors and limits ---------------------------------------------------------------

TEST_CASE("run execution errors name the building block", "[run]") {
  // Division by zero inside the function federated_map calls on the workers.
  static constexpr auto inv = computation<"inv", i32>([](auto x) { return 100 / x; });
  static constexpr auto inv_all = computation<"inv_all", at_clients<i32>>([](auto v) { return federated_map(inv, v); });
  for (unsigned threads : {1u, 4u}) {
    executor ex = make_executor(std::nullopt, threads);
    CHECK(ex.call<ivec>(inv_all, ivec{1, 3, -7}) == ivec{100, 33, -14});
    const auto e = error_of<execution_error>([&] { ex.call(inv_all, ivec{1, 2, 0, 5}); });
    // The generic_divide bound in the mapped lambda, inside federated_map's call argument.
    CHECK(e.path() ==
          "lambda.result.block.local[0](fc_inv_all_symbol_0).call.argument.struct[0].lambda.result.block.local[0]"
          "(fc_inv_symbol_0)");
    CHECK(e.problem() == "integer division by zero");
    CHECK(std::string(e.what()).find(e.path()) != std::string::npos);
  }
  // An unbound opaque computation: named by its checksum.
  const auto u = error_of<execution_error>([&] { make_executor(2, 2).call(evaluate_all, model{{1.0f, 1.0f}, 1.0f}); });
  CHECK(u.problem().find(std::string(evaluate.compact()) + " has no binding") != std::string::npos);
  CHECK(std::string(evaluate.compact()).starts_with("comp#"));
  CHECK(u.path() == "lambda.result.block.local[1](fc_evaluate_all_symbol_1).call.argument.struct[0]");
  // Unbound Data: named by the key ctff prints for it.
  const auto ud = error_of<execution_error>([&] { make_executor(2, 1).call(totals); });
  CHECK(ud.problem().find(std::string(dataset.compact()) + " has no binding") != std::string::npos);
  // A run-time error inside a binding is the binding's to report; ctff's own checks still apply to
  // what it returns (Data of the wrong number of clients).
  executor ex = make_executor(2, 2);
  ex.bind(dataset, [] { return std::vector<std::vector<float>>{{1.0f}}; });
  CHECK_THROWS_AS(ex.call<std::vector<float>>(totals), execution_error);
}

TEST_CASE("run limits: steps, value bytes, clients and depth end the run with an error", "[run]") {
  // max_steps: 50 clients each evaluate several building blocks.
  run_limits steps;
  steps.max_steps = 40;  // about 7 per client, 8 for the rest
  static constexpr auto mapped = computation<"mapped", at_clients<i32>>([](auto v) { return federated_map(add_one, v); });
  const auto s = error_of<execution_error>([&] { make_executor(std::nullopt, 2, steps).call(mapped, ivec(50, 1)); });
  CHECK(s.problem().find("max_steps") != std::string::npos);
  CHECK(make_executor(std::nullopt, 2, steps).call<ivec>(mapped, ivec{1, 2}) == ivec{2, 3});
  // max_value_bytes: a big generic_zero.
  static constexpr auto big = computation<"big">([] { return generic_zero<tensor<dtype::float32, 1000, 1000>>(); });
  run_limits bytes;
  bytes.max_value_bytes = std::uint64_t{1} << 20;
  const auto b = error_of<execution_error>([&] { make_executor(0, 1, bytes).call(big); });
  CHECK(b.problem().find("max_value_bytes") != std::string::npos);
  // Far beyond memory with the default limits: an error before anything is allocated.
  static constexpr auto huge = computation<"huge">(
      [] { return generic_zero<tensor<dtype::float64, 1 << 20, 1 << 20, 1 << 20>>(); });
  CHECK_THROWS_AS(make_executor(0, 1).call(huge), execution_error);
  // ... and what every client makes adds up (the argument, made by the caller, does not count;
  // a sum accumulates in place: only the per-client results of the map count here).
  static constexpr auto twice = computation<"twice", tensor<dtype::float32, 1000>>([](auto x) { return x + x; });
  static constexpr auto map_big = computation<"map_big", at_clients<tensor<dtype::float32, 1000>>>(
      [](auto v) { return federated_sum(federated_map(twice, v)); });
  run_limits small;
  small.max_value_bytes = 100000;  // 50 clients x 4,000 bytes made by `twice`
  const std::vector<std::vector<float>> clients(50, std::vector<float>(1000, 1.0f));
  const auto m = error_of<execution_error>([&] { make_executor(std::nullopt, 2, small).call(map_big, clients); });
  CHECK(m.problem().find("max_value_bytes") != std::string::npos);
  CHECK(make_executor(std::nullopt, 2, small).call<std::vector<float>>(
            map_big, std::vector<std::vector<float>>(3, std::vector<float>(1000, 1.0f))) ==
        std::vector<float>(1000, 6.0f));
  // max_clients: given or inferred.
  run_limits few;
  few.max_clients = 10;
  auto c = error_of<argument_error>([&] { make_executor(11, 1, few).call(five); });
  CHECK(c.path() == "clients");
  c = error_of<argument_error>([&] { make_executor(std::nullopt, 1, few).call(sum, ivec(11, 1)); });
  CHECK(c.path() == "clients");
  CHECK(make_executor(std::nullopt, 1, few).call<i32>(sum, ivec(10, 1)) == 10);
  // max_depth: a computation calling a computation is two calls deep.
  run_limits shallow;
  shallow.max_depth = 1;
  const auto d = error_of<execution_error>([&] { make_executor(0, 1, shallow).call(calls_add_one, 1); });
  CHECK(d.problem().find("max_depth") != std::string::npos);
  shallow.max_depth = 2;
  CHECK(make_executor(0, 1, shallow).call<i32>(calls_add_one, 1) == 2);
  // Calls on the workers count from the depth of the run that made them: the root, the mapped
  // function and the computation it calls are three deep on every thread.
  static constexpr auto map_calls = computation<"map_calls", at_clients<i32>>(
      [](auto v) { return federated_map(calls_add_one, v); });
  for (unsigned threads : {1u, 2u, 8u}) {
    const auto m = error_of<execution_error>([&] { make_executor(std::nullopt, threads, shallow).call(map_calls, ivec(64, 1)); });
    CHECK(m.problem().find("max_depth") != std::string::npos);
    shallow.max_depth = 3;
    CHECK(make_executor(std::nullopt, threads, shallow).call<ivec>(map_calls, ivec(3, 1)) == ivec{2, 2, 2});
    shallow.max_depth = 2;
  }
}
