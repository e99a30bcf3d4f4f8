// ctff::from_proto: computations read from bytes or messages, used inside traces (called, passed
// to federated_map, embedded in a struct) give exactly what the same trace gives with the
// computation written in ctff (whose bytes equal Python's goldens), and both equal Python's
// outputs for the same trace (twins in tests/goldens/python/import.py, outputs in
// tests/goldens/python/import/); a wrong declared type or an invalid computation is an exception
// that says so.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <tuple>

#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>
#include <ctff/proto/import.hpp>

#include "golden_programs.hpp"
#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

std::string golden_bytes(const std::string& name) {
  std::ifstream f(std::string(CTFF_GOLDENS_DIR) + "/" + name + ".binpb", std::ios::binary);
  REQUIRE(f.good());
  return {std::istreambuf_iterator<char>(f), {}};
}

using i32 = std::int32_t;

template <class A, class B>
void same_outputs(std::string_view golden, const A& imported_use, const B& traced_use) {
  ctff_test::check_python("import", golden, imported_use);
  CHECK(ctff_test::hex(imported_use.bytes().str()) == ctff_test::hex(traced_use.bytes().str()));
  CHECK(std::string(imported_use.type_string()) == std::string(traced_use.type_string()));
  CHECK(std::string(imported_use.compact()) == std::string(traced_use.compact()));
  CHECK(std::string(imported_use.formatted()) == std::string(traced_use.formatted()));
  CHECK(std::string(imported_use.structural()) == std::string(traced_use.structural()));
}

}  // namespace

TEST_CASE("import: a golden read back has the golden's bytes and texts", "[import]") {
  const auto f = ctff::from_proto<ctff::function<i32, i32>>(golden_bytes("add_one_local"));
  CHECK(f.bytes().str() == golden_bytes("add_one_local"));
  CHECK(f.type_string() == "(int32 -> int32)");
  CHECK(std::string(f.compact()) == std::string(programs::add_one.compact()));
  CHECK(std::string(f.structural()) == std::string(programs::add_one.structural()));
}

TEST_CASE("import: called, mapped and embedded inside traces", "[import]") {
  const auto add_one = ctff::from_proto<ctff::function<i32, i32>>(golden_bytes("add_one_local"));
  SECTION("called") {
    const auto a = ctff::computation<"twice", i32>([add_one](auto x) { return add_one(add_one(x)); });
    constexpr auto b = ctff::computation<"twice", i32>([](auto x) { return programs::add_one(programs::add_one(x)); });
    same_outputs("called", a, b);
  }
  SECTION("passed to federated_map") {
    const auto a = ctff::computation<"m", ctff::at_clients<i32>>(
        [add_one](auto v) { return ctff::federated_map(add_one, v); });
    constexpr auto b = ctff::computation<"m", ctff::at_clients<i32>>(
        [](auto v) { return ctff::federated_map(programs::add_one, v); });
    same_outputs("mapped", a, b);
  }
  SECTION("embedded in a struct") {
    const auto a = ctff::computation<"e">([add_one] { return std::tuple(add_one, 3); });
    constexpr auto b = ctff::computation<"e">([] { return std::tuple(programs::add_one, 3); });
    same_outputs("embedded", a, b);
  }
  SECTION("a multi-line literal keeps its lines when embedded") {
    using m2 = std::array<std::array<i32, 2>, 2>;
    static constexpr auto lit = ctff::computation<"lit">([] { return m2{{{1, 2}, {3, 4}}}; });
    const auto f = ctff::from_proto<ctff::function<void, m2>>(lit.bytes());
    const auto a = ctff::computation<"e", i32>([f](auto x) { return std::tuple(x, std::tuple(f, x)); });
    constexpr auto b = ctff::computation<"e", i32>([](auto x) { return std::tuple(x, std::tuple(lit, x)); });
    same_outputs("embedded_literal", a, b);
    CHECK(std::string(a.formatted()).find("( -> [[1 2]\n [3 4]])") != std::string::npos);
  }
  SECTION("a federated computation from a message, called on a server value") {
    federated_language::Computation m;
    REQUIRE(m.ParseFromString(golden_bytes("simple_broadcast_map_sum")));
    const auto simple =
        ctff::from_proto<ctff::function<ctff::at_server<i32>, ctff::at_server<i32>>>(m);
    const auto a = ctff::computation<"outer", ctff::at_server<i32>>([simple](auto s) { return simple(simple(s)); });
    constexpr auto b = ctff::computation<"outer", ctff::at_server<i32>>(
        [](auto s) { return programs::simple(programs::simple(s)); });
    same_outputs("federated_called", a, b);
  }
}

TEST_CASE("import: a type mismatch prints both types", "[import]") {
  using float_fn = ctff::function<float, float>;
  using wrong_fn = ctff::function<ctff::at_clients<i32>, ctff::at_server<i32>>;
  CHECK_THROWS_WITH(
      ctff::from_proto<float_fn>(golden_bytes("add_one_local")),
      "ctff: from_proto: the computation has type (int32 -> int32), not the declared type (float32 -> float32)");
  CHECK_THROWS_AS(ctff::from_proto<wrong_fn>(golden_bytes("simple_broadcast_map_sum")),
                  ctff::import_error);
  CHECK_THROWS_WITH(
      ctff::from_proto<wrong_fn>(golden_bytes("simple_broadcast_map_sum")),
      "ctff: from_proto: the computation has type (int32@SERVER -> int32@SERVER), not the declared type ({int32}@CLIENTS -> int32@SERVER)");
}

TEST_CASE("import: invalid or unreadable computations are refused", "[import]") {
  federated_language::Computation m;
  REQUIRE(m.ParseFromString(golden_bytes("simple_broadcast_map_sum")));
  m.mutable_lambda()->mutable_result()->mutable_block()->mutable_local(0)->mutable_value()->mutable_call()->mutable_argument()->mutable_reference()->set_name("nope");
  using server_fn = ctff::function<ctff::at_server<i32>, ctff::at_server<i32>>;
  using i32_fn = ctff::function<i32, i32>;
  CHECK_THROWS_WITH(ctff::from_proto<server_fn>(m),
      Catch::Contains("ctff: from_proto: the computation is not valid:\n  lambda.result.block.local[0](fc_simple_symbol_0).call.argument: Reference `nope` does not name"));
  CHECK_THROWS_AS(ctff::from_proto<i32_fn>(std::string_view("\x22\xff", 2)), ctff::read_error);
}
