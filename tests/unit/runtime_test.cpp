// Run-time tracing: lambdas that capture run-time values trace through the same code as
// compile-time ones, and run-time computations may be temporaries inside another trace.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <ctff/ctff.hpp>

#include "parse_back.hpp"

namespace {

constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });

constexpr auto mapped = ctff::computation<"mapped", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_map(add_one, v); });

auto runtime_mapped(std::int32_t one) {
  return ctff::computation<"mapped", ctff::at_clients<std::int32_t>>([one](auto v) {
    // The mapped computation is a temporary: it dies before the outer trace is written.
    return ctff::federated_map(
        ctff::computation<"add_one", std::int32_t>([one](auto x) { return x + one; }), v);
  });
}

}  // namespace

TEST_CASE("a temporary run-time computation can be mapped", "[runtime]") {
  auto r = runtime_mapped(1);
  ctff_test::require_parses(r.bytes());
  ctff_test::require_parses(runtime_mapped(7).bytes());
  CHECK(r.bytes() == mapped.bytes());
  CHECK(r.compact() == mapped.compact());
  CHECK(r.formatted() == mapped.formatted());
  CHECK(runtime_mapped(7).compact() ==
        "(mapped_arg -> (let fc_mapped_symbol_0=federated_map(<(add_one_arg -> (let "
        "fc_add_one_symbol_0=generic_plus(<add_one_arg,7>) in fc_add_one_symbol_0)),mapped_arg>) "
        "in fc_mapped_symbol_0))");
}

TEST_CASE("run-time literals of every scalar kind", "[runtime][literal]") {
  auto lit = [](auto value) {
    const auto c =
        ctff::computation<"lit">([value] { return ctff::federated_value(value, ctff::SERVER); });
    ctff_test::require_parses(c.bytes());
    return std::string(c.compact());
  };
  CHECK(lit(std::int64_t{-5}) == "( -> (let fc_lit_symbol_0=federated_value_at_server(-5) in fc_lit_symbol_0))");
  CHECK(lit(true) == "( -> (let fc_lit_symbol_0=federated_value_at_server(True) in fc_lit_symbol_0))");
  CHECK(lit(0.1f) == "( -> (let fc_lit_symbol_0=federated_value_at_server(0.1) in fc_lit_symbol_0))");
  CHECK(lit(1.0) == "( -> (let fc_lit_symbol_0=federated_value_at_server(1.0) in fc_lit_symbol_0))");
  CHECK(lit(1e-5) == "( -> (let fc_lit_symbol_0=federated_value_at_server(1e-05) in fc_lit_symbol_0))");
  CHECK(lit(std::string("hi")) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(b'hi') in fc_lit_symbol_0))");
}
