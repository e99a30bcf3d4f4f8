// structural(): Python's structural_representation(), the ASCII drawing of the building-block
// tree, at compile time and for run-time traces. The goldens (goldens_test.cpp) pin the common
// shapes; the drawings below cover the rest of the layout rules (federated_language's
// building_blocks._structural_representation): nested computations several levels deep (their
// drawing may reach left of the list that holds them), inline maps of selection lambdas, nested
// selections, a literal whose text breaks lines, calls without an argument, parameterless
// lambdas, empty structs, polymorphic instances and opaque computations. Each expected drawing was
// derived by hand from those rules, starting from the program's compact form; every program but
// the opaque ones also has a Python twin (tests/goldens/python/structural.py) and is held to
// federated_language 0.5.3's outputs for it (tests/goldens/python/structural/).
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <ctff/ctff.hpp>

#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

// A node added to a graph built by hand (a trace adds its nodes with trace_ctx::add).
constexpr std::uint32_t add_node(ctff::detail::graph& g, const ctff::detail::node& n) {
  g.nodes.push_back(n);
  return static_cast<std::uint32_t>(g.nodes.size() - 1);
}

using namespace ctff;
using namespace ctff::literals;
using i32 = std::int32_t;

// The drawings below start on the line after R"d(.
constexpr std::string_view drawing(std::string_view s) { return s.substr(1); }

// --- federated attribute access: federated_map(<(x -> x[1]),fa_arg>), inline -------------------
constexpr auto fa =
    computation<"fa", at_clients<struct_<i32, float>>>([](auto v) { return v[1_c]; });
constexpr std::string_view fa_drawing = drawing(R"d(
              Lambda(fa_arg)
              |
              Call
             /    \
federated_map      Struct
                   |
                   [Lambda(x), Ref(fa_arg)]
                    |
                    Sel(1)
                    |
                    Ref(x))d");

// --- nested computations: outer calls mid, which maps inner -----------------------------------
constexpr auto inner = computation<"inner", i32>([](auto x) { return x * 2; });
constexpr auto mid =
    computation<"mid", at_clients<i32>>([](auto v) { return federated_map(inner, v); });
constexpr auto outer = computation<"outer", at_server<i32>>(
    [](auto s) { return federated_sum(mid(federated_broadcast(s))); });
// The called Lambda's drawing reaches one column left of the list of locals.
constexpr std::string_view outer_drawing = drawing(R"d(
                                                                                                              Lambda(outer_arg)
                                                                                                              |
                                                                                                              Block
                                                                                                             /     \
 [fc_outer_symbol_0=Call,                fc_outer_symbol_1=Call,                      fc_outer_symbol_2=Call]       Ref(fc_outer_symbol_2)
                   /    \                                 /    \                                       /    \
federated_broadcast      Ref(outer_arg)    Lambda(mid_arg)      Ref(fc_outer_symbol_0)    federated_sum      Ref(fc_outer_symbol_1)
                                           |
                                           Block
                                          /     \
                    [fc_mid_symbol_0=Call]       Ref(fc_mid_symbol_0)
                                    /    \
                       federated_map      Struct
                                          |
                                          [Lambda(inner_arg), Ref(mid_arg)]
                                           |
                                           Block
                                          /     \
                  [fc_inner_symbol_0=Call]       Ref(fc_inner_symbol_0)
                                    /    \
                    generic_multiply      Struct
                                          |
                                          [Ref(inner_arg), Lit(2)])d");

// --- a literal printed on two lines: one label for the layout, whose line break stays ----------
using grid_t = std::array<std::array<i32, 2>, 2>;
constexpr auto grid = computation<"grid", i32>(
    [](auto x) { return std::tuple{x, grid_t{{{1, 2}, {3, 4}}}}; });
constexpr std::string_view grid_drawing = drawing(R"d(
Lambda(grid_arg)
|
Struct
|
[Ref(grid_arg), Lit([[1 2]
 [3 4]])])d");
constexpr auto use_grid =
    computation<"use_grid", i32>([](auto x) { return grid(x); });
constexpr std::string_view use_grid_drawing = drawing(R"d(
                            Lambda(use_grid_arg)
                            |
                            Block
                           /     \
[fc_use_grid_symbol_0=Call]       Ref(fc_use_grid_symbol_0)
                     /    \
     Lambda(grid_arg)      Ref(use_grid_arg)
     |
     Struct
     |
     [Ref(grid_arg), Lit([[1 2]
 [3 4]])])d");

// --- parameterless lambda ---------------------------------------------------------------------
constexpr auto five = computation<"five">([] { return 5; });
constexpr std::string_view five_drawing = drawing(R"d(
Lambda(None)
|
Lit(5))d");

// --- empty structs ----------------------------------------------------------------------------
constexpr auto empty = computation<"empty", i32>(
    [](auto x) { return std::tuple{make_struct(), x, make_struct()}; });
constexpr std::string_view empty_drawing = drawing(R"d(
Lambda(empty_arg)
|
Struct
|
[Struct, Ref(empty_arg), Struct]
 |                       |
 []                      [])d");

// --- nested selections ------------------------------------------------------------------------
constexpr auto nested_sel = computation<"ns", struct_<struct_<i32, float>, i32>>(
    [](auto p) { return p[0_c][1_c]; });
constexpr std::string_view nested_sel_drawing = drawing(R"d(
Lambda(ns_arg)
|
Sel(1)
|
Sel(0)
|
Ref(ns_arg))d");

// --- a polymorphic computation, traced where it is mapped -------------------------------------
constexpr auto twice = polymorphic<"twice">([](auto x) { return x + x; });
constexpr auto poly =
    computation<"poly", at_clients<i32>>([](auto v) { return federated_map(twice, v); });
constexpr std::string_view poly_drawing = drawing(R"d(
                         Lambda(poly_arg)
                         |
                         Block
                        /     \
 [fc_poly_symbol_0=Call]       Ref(fc_poly_symbol_0)
                  /    \
     federated_map      Struct
                        |
                        [Lambda(twice_arg), Ref(poly_arg)]
                         |
                         Block
                        /     \
[fc_twice_symbol_0=Call]       Ref(fc_twice_symbol_0)
                  /    \
      generic_plus      Struct
                        |
                        [Ref(twice_arg), Ref(twice_arg)])d");

// --- an opaque TensorFlow computation: Compiled(<adler32 hex>) --------------------------------
// The graph and bindings of opaque_test.cpp's `scale`; adler32 of its bytes is 381e1394.
constexpr auto scale = tensorflow_computation<function<float, float>>(
    "\x0a\x03\x0a\x01x", tf_tensor("x:0"), tf_tensor("y:0"));
constexpr auto called = computation<"c", float>([](auto x) { return scale(x); });
constexpr std::string_view called_drawing = drawing(R"d(
                         Lambda(c_arg)
                         |
                         Block
                        /     \
    [fc_c_symbol_0=Call]       Ref(fc_c_symbol_0)
                  /    \
Compiled(381e1394)      Ref(c_arg))d");

// --- a wide drawing: 30 calls (broadcast, map, sum) x 10, each map embedding add_one -------------
constexpr auto add_one = computation<"add_one", i32>([](auto x) { return x + 1; });
template <class F, class V, std::size_t... R>
constexpr auto rounds(const F& f, V v, std::index_sequence<R...>) {
  const int done[] = {
      0, (static_cast<void>(v = federated_sum(federated_map(f, federated_broadcast(v)))),
          static_cast<int>(R))...};
  static_cast<void>(done);
  return v;
}
constexpr auto chain = computation<"chain", at_server<i32>>(
    [](auto s) { return rounds(add_one, s, std::make_index_sequence<10>{}); });
auto rt_chain(i32 one) {
  return computation<"chain", at_server<i32>>([one](auto s) {
    return rounds(computation<"add_one", i32>([one](auto x) { return x + one; }), s,
                  std::make_index_sequence<10>{});
  });
}

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Run-time variants: the same programs, traced when constructed (the capture makes them so).
auto rt_fa(int unused) {
  return computation<"fa", at_clients<struct_<i32, float>>>([unused](auto v) {
    static_cast<void>(unused);
    return v[1_c];
  });
}
auto rt_inner(i32 two) {
  return computation<"inner", i32>([two](auto x) { return x * two; });
}
auto rt_mid(i32 two) {
  return computation<"mid", at_clients<i32>>(
      [in = rt_inner(two)](auto v) { return federated_map(in, v); });
}
auto rt_outer(i32 two) {
  return computation<"outer", at_server<i32>>(
      [m = rt_mid(two)](auto s) { return federated_sum(m(federated_broadcast(s))); });
}
auto rt_grid(i32 one) {
  return computation<"grid", i32>(
      [one](auto x) { return std::tuple{x, grid_t{{{one, 2}, {3, 4}}}}; });
}
auto rt_use_grid(i32 one) {
  return computation<"use_grid", i32>([g = rt_grid(one)](auto x) { return g(x); });
}
auto rt_poly(int unused) {
  return computation<"poly", at_clients<i32>>([unused](auto v) {
    static_cast<void>(unused);
    return federated_map(twice, v);
  });
}
auto rt_called(int unused) {
  return computation<"c", float>([unused](auto x) {
    static_cast<void>(unused);
    // An owning copy of the opaque computation, embedded from a run-time trace.
    return tensorflow_computation<function<float, float>>(std::string("\x0a\x03\x0a\x01x"),
                                                          tf_tensor("x:0"), tf_tensor("y:0"))(x);
  });
}

// --- a call without argument -----------------------------------------------------------------
// (call_five_arg -> (let fc_call_five_symbol_0=( -> 5)() in <call_five_arg,fc_call_five_symbol_0>)),
// recorded by hand into a graph (the tracing of a call without argument is not exercised here).
constexpr std::string_view call_five_drawing = drawing(R"d(
                             Lambda(call_five_arg)
                             |
                             Block
                            /     \
[fc_call_five_symbol_0=Call]       Struct
                      /            |
          Lambda(None)             [Ref(call_five_arg), Ref(fc_call_five_symbol_0)]
          |
          Lit(5))d");

// The same program traced.
constexpr auto call_five = computation<"call_five", i32>([](auto x) { return make_struct(x, five()); });

constexpr bool call_five_drawn_right() {
  using namespace ctff::detail;
  graph g;
  g.name = "call_five";
  g.lits.push_back(lit{dtype::int32, 0, 0, 0, 1});
  g.vals.push_back(5);
  const std::uint32_t five_lit = add_node(g, node{node_kind::literal, 0, 0});
  const std::uint32_t five_fn = add_node(g, node{node_kind::lambda, five_lit, 0});  // no parameter
  const std::uint32_t call = add_node(g, node{node_kind::call, five_fn, no_node});
  g.bind(call);
  const std::uint32_t arg = add_node(g, node{node_kind::param_ref});
  const std::uint32_t sym = add_node(g, node{node_kind::symbol_ref, call});
  g.elems.push_back(struct_elem{arg});
  g.elems.push_back(struct_elem{sym});
  const std::uint32_t tuple = add_node(g, node{node_kind::struct_, 0, 2});
  const std::uint32_t block = add_node(g, node{node_kind::block, tuple});
  const std::uint32_t root = add_node(g, node{node_kind::lambda, block, 1});
  const structural_writer w(g, root, false);
  std::vector<char> out;
  out.assign(w.size(), ' ');
  w.write(out.data());
  return std::string_view(out.data(), out.size()) == call_five_drawing;
}

}  // namespace

TEST_CASE("structural: an inline map of a selection lambda", "[structural]") {
  STATIC_REQUIRE(fa.structural() == fa_drawing);
  CHECK(rt_fa(0).structural() == fa_drawing);
  ctff_test::check_python("structural", "federated_selection", fa);
  ctff_test::check_python("structural", "federated_selection", rt_fa(0));
}

TEST_CASE("structural: computations nested three deep, one of them called", "[structural]") {
  STATIC_REQUIRE(outer.structural() == outer_drawing);
  CHECK(rt_outer(2).structural() == outer_drawing);
  CHECK(rt_outer(3).structural() != outer_drawing);  // the literal is the captured value
  ctff_test::check_python("structural", "nested_computations", outer);
  ctff_test::check_python("structural", "nested_computations", rt_outer(2));
}

TEST_CASE("structural: a literal's line break stays inside its label", "[structural]") {
  STATIC_REQUIRE(grid.structural() == grid_drawing);
  STATIC_REQUIRE(use_grid.structural() == use_grid_drawing);
  CHECK(rt_grid(1).structural() == grid_drawing);
  CHECK(rt_use_grid(1).structural() == use_grid_drawing);
  ctff_test::check_python("structural", "grid", grid);
  ctff_test::check_python("structural", "use_grid", use_grid);
  ctff_test::check_python("structural", "grid", rt_grid(1));
  ctff_test::check_python("structural", "use_grid", rt_use_grid(1));
  // Embedded, the drawing is kept with that break marked, so its rows can be told apart.
  STATIC_REQUIRE(ctff::detail::structural_info_v<decltype(grid)>.breaks);
  STATIC_REQUIRE(!ctff::detail::structural_info_v<decltype(fa)>.breaks);
  constexpr std::string_view encoded{ctff::detail::structural_v<decltype(grid), true>.data,
                                     grid_drawing.size()};
  STATIC_REQUIRE(encoded == "Lambda(grid_arg)\n|\nStruct\n|\n[Ref(grid_arg), Lit([[1 2]\x01 [3 4]])]");
}

TEST_CASE("structural: parameterless lambda, empty structs, nested selections", "[structural]") {
  STATIC_REQUIRE(five.structural() == five_drawing);
  STATIC_REQUIRE(empty.structural() == empty_drawing);
  STATIC_REQUIRE(nested_sel.structural() == nested_sel_drawing);
  ctff_test::check_python("structural", "parameterless", five);
  ctff_test::check_python("structural", "empty_structs", empty);
  ctff_test::check_python("structural", "nested_selections", nested_sel);
}

TEST_CASE("structural: a call without argument", "[structural]") {
  STATIC_REQUIRE(call_five_drawn_right());
  CHECK(call_five_drawn_right());
  STATIC_REQUIRE(call_five.structural() == call_five_drawing);
  ctff_test::check_python("structural", "call_without_argument", call_five);
}

TEST_CASE("structural: polymorphic instances", "[structural]") {
  STATIC_REQUIRE(poly.structural() == poly_drawing);
  CHECK(rt_poly(0).structural() == poly_drawing);
  ctff_test::check_python("structural", "polymorphic", poly);
  ctff_test::check_python("structural", "polymorphic", rt_poly(0));
}

TEST_CASE("structural: opaque computations", "[structural]") {
  STATIC_REQUIRE(scale.structural() == "Compiled(381e1394)");
  STATIC_REQUIRE(called.structural() == called_drawing);
  CHECK(rt_called(0).structural() == called_drawing);
  // Data: ctff's stand-in for Python's id(content) is the decimal adler32 (its compact form).
  constexpr auto d = data<at_clients<sequence<float>>>("type.googleapis.com/my.Dataset", "\x01\x02");
  CHECK(std::string(d.structural()) == "Data(" + std::string(d.compact()) + ")");
}

TEST_CASE("structural: a wide drawing, at compile time and at run time", "[structural]") {
  const std::string_view d = chain.structural();
  // Seventeen rows, as the simple_broadcast_map_sum golden (the same three calls, once): the
  // lambda, `|`, the block, its edges, the locals, their edges, the calls' children, the maps'
  // `|`, their struct elements, then the ten add_one drawings (eight rows).
  CHECK(count(d, "\n") == 16);
  const std::size_t col = d.find_first_not_of(' ');
  CHECK(d.substr(col, 18) == "Lambda(chain_arg)\n");
  CHECK(d.substr(col + 18 + col, 2) == "|\n");
  CHECK(count(d, "Lambda(add_one_arg)") == 10);
  CHECK(count(d, "[fc_add_one_symbol_0=Call]") == 10);
  CHECK(count(d, "=Call") == 30 + 10);
  CHECK(d.find("fc_chain_symbol_29=Call]       Ref(fc_chain_symbol_29)") != std::string_view::npos);
  CHECK(rt_chain(1).structural() == d);
  CHECK(rt_chain(1).bytes() == chain.bytes());
  ctff_test::check_python("structural", "wide", chain);
  ctff_test::check_python("structural", "wide", rt_chain(1));
}
