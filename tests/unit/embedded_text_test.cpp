// The printed forms of a computation used inside another: its own line breaks take the indent of
// the place it is used, a multi-line literal's lines stay as they are (Python's formatted printer
// indents the lines it makes, never the inside of one literal's str()). Expected texts are
// derived by hand from federated_language's _string_representation rules, and each program is also
// held to Python's outputs for its twin (tests/goldens/python/embedded_text.py and
// tests/goldens/python/embedded_text/).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string_view>

#include <ctff/ctff.hpp>

#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

using grid = std::array<std::array<std::int32_t, 2>, 2>;
constexpr grid g{{{1, 2}, {3, 4}}};

constexpr std::string_view inner_compact = "(inner_arg -> <inner_arg,[[1 2]\n [3 4]]>)";
constexpr std::string_view inner_formatted =
    "(inner_arg -> <\n"
    "  inner_arg,\n"
    "  [[1 2]\n"
    " [3 4]]\n"
    ">)";
constexpr std::string_view outer_compact =
    "(outer_arg -> (let fc_outer_symbol_0=(inner_arg -> <inner_arg,[[1 2]\n [3 4]]>)(outer_arg) "
    "in <outer_arg,fc_outer_symbol_0>))";
constexpr std::string_view outer_formatted =
    "(outer_arg -> (let\n"
    "  fc_outer_symbol_0=(inner_arg -> <\n"
    "    inner_arg,\n"
    "    [[1 2]\n"
    " [3 4]]\n"
    "  >)(outer_arg)\n"
    " in <\n"
    "  outer_arg,\n"
    "  fc_outer_symbol_0\n"
    ">))";

constexpr auto inner = ctff::computation<"inner", std::int32_t>(
    [](auto x) { return ctff::make_struct(x, g); });
constexpr auto outer = ctff::computation<"outer", std::int32_t>(
    [](auto x) { return ctff::make_struct(x, inner(x)); });

constexpr auto poly = ctff::polymorphic<"inner">([](auto x) { return ctff::make_struct(x, g); });
constexpr auto outer_poly = ctff::computation<"outer", std::int32_t>(
    [](auto x) { return ctff::make_struct(x, poly(x)); });
constexpr auto top = ctff::computation<"top", std::int32_t>([](auto x) { return outer(x); });

}  // namespace

TEST_CASE("a multi-line literal inside an embedded computation keeps its lines",
          "[embed][print]") {
  STATIC_REQUIRE(inner.compact() == inner_compact);
  STATIC_REQUIRE(inner.formatted() == inner_formatted);
  STATIC_REQUIRE(outer.compact() == outer_compact);
  STATIC_REQUIRE(outer.formatted() == outer_formatted);
  ctff_test::check_python("embedded_text", "inner", inner);
  ctff_test::check_python("embedded_text", "outer", outer);

  // Run-time traces: a run-time callee, and a compile-time callee in a run-time caller.
  int k = 1;
  auto rt_inner = ctff::computation<"inner", std::int32_t>(
      [k](auto x) { return ctff::make_struct(x, k == 1 ? g : grid{}); });
  CHECK(rt_inner.formatted() == inner_formatted);
  auto rt_outer = ctff::computation<"outer", std::int32_t>(
      [&rt_inner](auto x) { return ctff::make_struct(x, rt_inner(x)); });
  CHECK(rt_outer.compact() == outer_compact);
  CHECK(rt_outer.formatted() == outer_formatted);
  CHECK(rt_outer.bytes() == outer.bytes());
  auto rt_outer_static_inner = ctff::computation<"outer", std::int32_t>(
      [k](auto x) { return ctff::make_struct(x, k == 1 ? inner(x) : inner(x)); });
  CHECK(rt_outer_static_inner.formatted() == outer_formatted);
  ctff_test::check_python("embedded_text", "inner", rt_inner);
  ctff_test::check_python("embedded_text", "outer", rt_outer);
  ctff_test::check_python("embedded_text", "outer", rt_outer_static_inner);

  // Traced anew inside the caller (a polymorphic callee): the owned text is encoded the same way.
  // (A polymorphic computation called with one argument takes it as a one-element struct.)
  STATIC_REQUIRE(outer_poly.formatted() ==
                 "(outer_arg -> (let\n"
                 "  fc_outer_symbol_0=(inner_arg -> <\n"
                 "    inner_arg[0],\n"
                 "    [[1 2]\n"
                 " [3 4]]\n"
                 "  >)(<\n"
                 "    outer_arg\n"
                 "  >)\n"
                 " in <\n"
                 "  outer_arg,\n"
                 "  fc_outer_symbol_0\n"
                 ">))");
  ctff_test::check_python("embedded_text", "outer_polymorphic", outer_poly);

  // Deeper: the caller used inside a third computation (two levels of re-indentation).
  STATIC_REQUIRE(top.formatted() ==
                 "(top_arg -> (let\n"
                 "  fc_top_symbol_0=(outer_arg -> (let\n"
                 "    fc_outer_symbol_0=(inner_arg -> <\n"
                 "      inner_arg,\n"
                 "      [[1 2]\n"
                 " [3 4]]\n"
                 "    >)(outer_arg)\n"
                 "   in <\n"
                 "    outer_arg,\n"
                 "    fc_outer_symbol_0\n"
                 "  >))(top_arg)\n"
                 " in fc_top_symbol_0))");
  ctff_test::check_python("embedded_text", "top", top);
}
