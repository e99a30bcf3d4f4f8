// Errors from inside a run carry their context: a binding by key is checked against the opaque
// computation's type (what it returns, and what it is given), naming the key, the client and the
// place in the value; what a binding throws arrives wrapped with the client, the key and the
// building block's path, the original nested; a secure-sum violation names the client, the place
// and the value, and a negative bound is an error of its own.
#include <catch2/catch.hpp>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"
#include "error_of.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

struct scored {
  float loss;
  i32 examples;
};

// (float32 -> float32) and (float32 -> <loss=float32,examples=int32>), run over the clients, read
// back from bytes as a computation Python wrote would be: bound by key only.
constexpr auto scale = tensorflow_computation<function<float, float>>("\x0a\x02sc", tf_tensor("x:0"), tf_tensor("y:0"));
constexpr auto score = tensorflow_computation<function<float, scored>>(
    "\x0a\x02so", tf_tensor("x:0"), tf_struct(tf_tensor("loss:0"), tf_tensor("n:0")));
constexpr auto scale_all = computation<"scale_all", at_clients<float>>(
    [](auto v) { return federated_sum(federated_map(scale, v)); });
constexpr auto score_all = computation<"score_all", at_clients<float>>(
    [](auto v) { return federated_map(score, v); });
// A no-parameter one at SERVER, and Data.
constexpr auto draw = tensorflow_computation<function<void, i32>>("\x0a\x02dr", tf_tensor("d:0"));
constexpr auto draw_once = computation<"draw_once">([] { return federated_eval(draw, SERVER); });
constexpr auto dataset = data<at_server<sequence<float>>>("type.googleapis.com/my.Dataset", "\x07");
constexpr auto first_total = computation<"first_total">([] {
  constexpr auto total = computation<"total", sequence<float>>([](auto s) { return sequence_sum(s); });
  return federated_map(total, dataset);
});

dynamic_value floats_at_clients(std::vector<float> xs) {
  std::vector<dynamic_value> m;
  for (float x : xs) m.push_back(make_scalar<dtype::float32>(x));
  return make_federated(placement_kind::clients, false, std::move(m));
}

// The original exception an execution_error nests, rethrown (nothing: none).
void rethrow_nested_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const execution_error& e) {
    std::rethrow_if_nested(e);
    return;
  }
  FAIL("no execution_error");
}

// What a binding returns on client i (its argument is i + 0.5): `odd` on client 1, `right` on the
// others, so that the lowest failing client is 1 whatever the thread count.
template <class Odd, class Right>
opaque_binding odd_on_client_1(Odd odd, Right right) {
  return [odd, right](const dynamic_value* arg) {
    const float x = arg->tensor().get<dtype::float32>()[0];
    return x == 1.5f ? odd() : right(x);
  };
}
dynamic_value same(float x) { return make_scalar<dtype::float32>(x); }

}  // namespace

TEST_CASE("run binding by key: what it returns is checked against the result type", "[run][errors]") {
  const computation_tree tree = read_computation(scale_all.bytes());
  const std::string key(scale.compact());
  const dynamic_value arg = floats_at_clients({0.5f, 1.5f, 2.5f, 3.5f});
  struct bad_result {
    const char* what;
    std::function<dynamic_value()> make;
    const char* problem;  // after "client 1: the binding of KEY: "
  };
  const std::vector<bad_result> cases = {
      {"int32 for float32", [] { return make_scalar<dtype::int32>(2); },
       "its result is not of its result type float32: at result: expected float32, got int32"},
      {"int64 for float32", [] { return make_scalar<dtype::int64>(2); },
       "its result is not of its result type float32: at result: expected float32, got int64"},
      {"float32[2] for float32", [] { return make_tensor<dtype::float32>({1.0f, 2.0f}, {2}); },
       "its result is not of its result type float32: at result: expected rank 0, got 1"},
      {"a struct for float32",
       [] { return make_struct_value({make_scalar<dtype::float32>(1.0f)}, {}); },
       "its result is not of its result type float32: at result: expected a tensor"},
      {"a string for float32", [] { return make_scalar<dtype::str>(std::string("x")); },
       "its result is not of its result type float32: at result: expected float32, got str"},
      {"no value", [] { return dynamic_value(); }, "returned no value"},
  };
  for (unsigned threads : {1u, 3u}) {
    for (const bad_result& c : cases) {
      INFO(c.what << ", " << threads << " thread(s)");
      executor ex({.threads = threads});
      ex.bind(key, odd_on_client_1(c.make, same));
      const execution_error e = error_of<execution_error>([&] { ex.run(tree, arg); });
      CHECK(e.problem() == "client 1: the binding of " + key + (c.problem[0] == 'r' ? " " : ": ") + c.problem);
      // The federated_map whose client failed, a local of the block Python's tracing makes.
      CHECK(e.path() == "lambda.result.block.local[0](fc_scale_all_symbol_0)");
    }
    // Right: each client's value comes back, summed at SERVER (0.5 + 1.5 + 2.5 + 3.5).
    executor ex({.threads = threads});
    ex.bind(key, odd_on_client_1([] { return make_scalar<dtype::float32>(1.5f); }, same));
    CHECK(ex.run(tree, arg) == make_federated(placement_kind::server, true, {make_scalar<dtype::float32>(8.0f)}));
  }
}

TEST_CASE("run binding by key: a struct result is checked element by element", "[run][errors]") {
  const computation_tree tree = read_computation(score_all.bytes());
  const std::string key(score.compact());
  const dynamic_value arg = floats_at_clients({0.5f, 1.5f});
  auto result = [](dynamic_value examples, std::vector<std::string> names) {
    return [examples, names] {
      return make_struct_value({make_scalar<dtype::float32>(1.0f), examples}, names);
    };
  };
  auto right = [](float) {
    return make_struct_value({make_scalar<dtype::float32>(1.0f), make_scalar<dtype::int32>(3)}, {});
  };
  executor ex({.threads = 2});
  ex.bind(key, odd_on_client_1(result(make_scalar<dtype::float32>(3.0f), {"loss", "examples"}), right));
  CHECK(error_of<execution_error>([&] { ex.run(tree, arg); }).problem() ==
        "client 1: the binding of " + key +
            ": its result is not of its result type <loss=float32,examples=int32>: at result.examples: "
            "expected int32, got float32");
  ex.bind(key, odd_on_client_1(result(make_scalar<dtype::int32>(3), {"loss", "count"}), right));
  CHECK(error_of<execution_error>([&] { ex.run(tree, arg); }).problem() ==
        "client 1: the binding of " + key +
            ": its result is not of its result type <loss=float32,examples=int32>: at result: element 1 is "
            "named 'count', expected 'examples'");
  // Without names, the type names it: the run goes on, and the result has the type's names.
  ex.bind(key, [](const dynamic_value*) {
    return make_struct_value({make_scalar<dtype::float32>(1.0f), make_scalar<dtype::int32>(3)}, {});
  });
  const dynamic_value one = make_struct_value({make_scalar<dtype::float32>(1.0f), make_scalar<dtype::int32>(3)},
                                              {"loss", "examples"});
  CHECK(ex.run(tree, arg) == make_federated(placement_kind::clients, false, {one, one}));
}

TEST_CASE("run binding by key: no-parameter computations and Data, outside any client", "[run][errors]") {
  executor ex({.threads = 1});
  ex.bind(std::string(draw.compact()), [](const dynamic_value*) { return make_scalar<dtype::float32>(1.0f); });
  CHECK(error_of<execution_error>([&] { ex.run(read_computation(draw_once.bytes())); }).problem() ==
        "the binding of " + std::string(draw.compact()) +
            ": its result is not of its result type int32: at result: expected int32, got float32");
  ex.bind(std::string(dataset.compact()), [](const dynamic_value*) {
    return make_federated(placement_kind::server, true,
                          {make_sequence({make_scalar<dtype::float32>(1.0f), make_scalar<dtype::float64>(2.0)})});
  });
  CHECK(error_of<execution_error>([&] { ex.run(read_computation(first_total.bytes())); }).problem() ==
        "the binding of " + std::string(dataset.compact()) +
            ": its result is not of its result type float32*@SERVER: at result[1]: expected float32, got float64");
}

TEST_CASE("run bindings that throw: wrapped with the client, the key and the path, the original nested",
          "[run][errors]") {
  const computation_tree tree = read_computation(scale_all.bytes());
  const std::string key(scale.compact());
  const dynamic_value arg = floats_at_clients({0.5f, 1.5f, 2.5f, 3.5f});
  for (unsigned threads : {1u, 4u}) {
    executor ex({.threads = threads});
    ex.bind(key, [](const dynamic_value* a) -> dynamic_value {
      if (a->tensor().get<dtype::float32>()[0] > 2.0f) throw std::out_of_range("no model for this input");
      return *a;
    });
    const execution_error e = error_of<execution_error>([&] { ex.run(tree, arg); });
    CHECK(e.problem() == "client 2: the binding of " + key + " threw: no model for this input");
    CHECK(e.path() == "lambda.result.block.local[0](fc_scale_all_symbol_0)");
    bool nested = false;
    try {
      rethrow_nested_of([&] { ex.run(tree, arg); });
    } catch (const std::out_of_range& original) {
      nested = std::string(original.what()) == "no model for this input";
    }
    CHECK(nested);
  }
  // Not a std::exception: still wrapped, still nested.
  executor ex({.threads = 1});
  ex.bind(key, [](const dynamic_value*) -> dynamic_value { throw 42; });
  const execution_error e = error_of<execution_error>([&] { ex.run(tree, arg); });
  CHECK(e.problem() == "client 0: the binding of " + key + " threw an exception that is not a std::exception");
  int thrown = 0;
  try {
    rethrow_nested_of([&] { ex.run(tree, arg); });
  } catch (int x) {
    thrown = x;
  }
  CHECK(thrown == 42);
  // A typed binding's own exception too, with the C++ types in between.
  ex.bind(scale, [](float x) -> float {
    if (x > 3.0f) throw std::domain_error("too large");
    return x;
  });
  CHECK(error_of<execution_error>([&] { ex.call<float>(scale_all, std::vector<float>{1.0f, 4.0f}); }).problem() ==
        "client 1: the binding of " + key + " threw: too large");
}

TEST_CASE("run secure sums: a violation names the client, the place and the value; a negative bound is an error",
          "[run][errors]") {
  static constexpr auto ss = computation<"ss", at_clients<std::array<i32, 3>>>(
      [](auto v) { return federated_secure_sum(v, 10); });
  using row = std::array<i32, 3>;
  executor ex({.threads = 2});
  auto e = error_of<execution_error>([&] { ex.call<row>(ss, std::vector<row>{{1, 2, 3}, {4, 5, 6}, {0, 11, 0}, {-1, 0, 0}}); });
  CHECK(e.problem() == "federated_secure_sum: client 2: value[1] = 11 lies outside [0, 10]");
  e = error_of<execution_error>([&] { ex.call<row>(ss, std::vector<row>{{1, 2, 3}, {0, 0, -7}}); });
  CHECK(e.problem() == "federated_secure_sum: client 1: value[2] = -7 lies outside [0, 10]");
  CHECK(ex.call<row>(ss, std::vector<row>{{1, 2, 3}, {10, 0, 0}}) == row{11, 2, 3});
  // A struct member, by name; the bound per leaf.
  struct counts {
    i32 a;
    std::int64_t b;
  };
  static constexpr auto named = computation<"named", at_clients<counts>>(
      [](auto v) { return federated_secure_sum(v, 1000); });
  e = error_of<execution_error>([&] { ex.call<counts>(named, std::vector<counts>{{3, 1000}, {1, 1001}}); });
  CHECK(e.problem() == "federated_secure_sum: client 1: value.b = 1001 lies outside [0, 1000]");
  // A negative bound: an error of its own whatever the clients hold; with no clients, the zero
  // (reference/execution.md: no element lies outside it).
  static constexpr auto negative = computation<"negative", at_clients<i32>>(
      [](auto v) { return federated_secure_sum(v, -1); });
  e = error_of<execution_error>([&] { ex.call<i32>(negative, std::vector<i32>{0, 0}); });
  CHECK(e.problem() == "federated_secure_sum: the bound -1 is negative or NaN");
  CHECK(ex.call<i32>(negative, std::vector<i32>{}) == 0);
}
