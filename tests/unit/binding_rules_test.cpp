// Python's binding rules (reference §3.2-3.3), pinned with hand-derived expected output: every
// call is bound once, where it is made, in left-to-right order, whatever order C++ evaluated the
// arguments in; values made from constants only too. Each program is traced at compile time and
// at run time (a capturing lambda); both must give the expected text and the same bytes, which
// protobuf must parse. Where C++ cannot know Python's order, the trace fails with a ctff: error.
// Every program that traces has a Python twin (tests/goldens/python/binding_rules.py): both traces
// must also equal federated_language 0.5.3's outputs for it (tests/goldens/python/binding_rules/,
// named by the first argument of check_both). The ctff: errors are C++ only and have no golden.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>

#include "at_run_time.hpp"
#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

using namespace ctff;
using ci = at_clients<std::int32_t>;

using ctff_test::at_run_time;

// Traces `Body` at compile time and at run time under the name N with parameters Ps; both must
// equal Python's golden `golden` and the hand-derived `expected`.
template <fixed_string N, class... Ps, class Body>
void check_both(std::string_view golden, Body, std::string_view expected) {
  constexpr auto ct = computation<N, Ps...>(Body{});
  const auto rt = computation<N, Ps...>(at_run_time<Body>{});
  ctff_test::check_python("binding_rules", golden, ct);
  ctff_test::check_python("binding_rules", golden, rt);
  CHECK(ct.compact() == expected);
  CHECK(rt.compact() == expected);
}

// Runs the run-time trace of Body and returns the ctff: message it failed with ("" if none).
template <fixed_string N, class... Ps, class Body>
std::string runtime_failure(Body) {
  try {
    (void)computation<N, Ps...>(at_run_time<Body>{});
  } catch (const trace_failure& e) {
    return e.what();
  }
  return "";
}

constexpr auto helper = [](auto v) {
  auto s = federated_sum(v);
  auto t = federated_broadcast(s);
  return t;
};

TEST_CASE("a helper keeping results in locals binds them in argument order (defect 5)", "[binding]") {
  // g++'s generated code evaluates helper(b) first; the trace puts helper(a)'s calls first.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals",
      [](auto a, auto b) { return federated_zip(helper(a), helper(b)); },
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg[0]),fc_c_symbol_1=federated_broadcast("
      "fc_c_symbol_0),fc_c_symbol_2=federated_sum(c_arg[1]),fc_c_symbol_3=federated_broadcast("
      "fc_c_symbol_2),fc_c_symbol_4=federated_zip_at_clients(<fc_c_symbol_1,fc_c_symbol_3>) in "
      "fc_c_symbol_4))");
  // Nested: the helpers' windows move inside the outer zip's window.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals_nested",
      [](auto a, auto b) {
        return make_struct(federated_zip(helper(a), helper(b)), federated_sum(helper(b)));
      },
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg[0]),fc_c_symbol_1=federated_broadcast("
      "fc_c_symbol_0),fc_c_symbol_2=federated_sum(c_arg[1]),fc_c_symbol_3=federated_broadcast("
      "fc_c_symbol_2),fc_c_symbol_4=federated_zip_at_clients(<fc_c_symbol_1,fc_c_symbol_3>),"
      "fc_c_symbol_5=federated_sum(c_arg[1]),fc_c_symbol_6=federated_broadcast(fc_c_symbol_5),"
      "fc_c_symbol_7=federated_sum(fc_c_symbol_6) in <fc_c_symbol_4,fc_c_symbol_7>))");
  // A variable of the enclosing body is not moved with the helper that uses it.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals_body_variable",
      [](auto a, auto b) {
        auto m = federated_max(a);
        return federated_zip(federated_broadcast(m), helper(b));
      },
      "(c_arg -> (let fc_c_symbol_0=federated_max(c_arg[0]),fc_c_symbol_1=federated_broadcast("
      "fc_c_symbol_0),fc_c_symbol_2=federated_sum(c_arg[1]),fc_c_symbol_3=federated_broadcast("
      "fc_c_symbol_2),fc_c_symbol_4=federated_zip_at_clients(<fc_c_symbol_1,fc_c_symbol_3>) in "
      "fc_c_symbol_4))");
}

TEST_CASE("a value made from constants is bound once, where it is made (defect 4)", "[binding]") {
  check_both<"c", ci>("constant_where_made",
      [](auto x) {
        auto b = federated_value(2, SERVER);
        return std::tuple{b, federated_broadcast(b), x};
      },
      "(c_arg -> (let fc_c_symbol_0=federated_value_at_server(2),fc_c_symbol_1="
      "federated_broadcast(fc_c_symbol_0) in <fc_c_symbol_0,fc_c_symbol_1,c_arg>))");
  check_both<"c">("constant_where_made_no_parameter",
      [] {
        auto b = federated_value(2, SERVER);
        return std::tuple{b, federated_broadcast(b)};
      },
      "( -> (let fc_c_symbol_0=federated_value_at_server(2),fc_c_symbol_1=federated_broadcast("
      "fc_c_symbol_0) in <fc_c_symbol_0,fc_c_symbol_1>))");
  // Made before the parameter's call in the same expression: bound before it.
  check_both<"c", ci>("constant_before_call",
      [](auto x) { return std::tuple{federated_value(100.0f, SERVER), federated_sum(x)}; },
      "(c_arg -> (let fc_c_symbol_0=federated_value_at_server(100.0),fc_c_symbol_1="
      "federated_sum(c_arg) in <fc_c_symbol_0,fc_c_symbol_1>))");
  // Made and consumed after an earlier statement's call: bound after it.
  check_both<"c", ci>("constant_after_statement",
      [](auto x) {
        auto s = federated_sum(x);
        return std::tuple{s, federated_broadcast(federated_value(1, SERVER))};
      },
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg),fc_c_symbol_1=federated_value_at_server("
      "1),fc_c_symbol_2=federated_broadcast(fc_c_symbol_1) in <fc_c_symbol_0,fc_c_symbol_2>))");
  // Parenthesised (run time: right to left on g++) and braced.
  check_both<"c">("constants_only",
      [] { return std::tuple(federated_value(10, SERVER), federated_value(2.5f, CLIENTS)); },
      "( -> (let fc_c_symbol_0=federated_value_at_server(10),fc_c_symbol_1="
      "federated_value_at_clients(2.5) in <fc_c_symbol_0,fc_c_symbol_1>))");
}

TEST_CASE("where C++ cannot know Python's order, the trace fails with a ctff: error", "[binding]") {
  // Kept in a variable, then used after a call of the parameter: Python binds v0 first, but C++
  // cannot see when v0 was made.
  CHECK(runtime_failure<"c", ci>([](auto x) {
          auto v0 = federated_value(100.0f, SERVER);
          auto z = federated_sum(x);
          return std::tuple{z, v0};
        }).starts_with("ctff: a value made from constants only"));
  CHECK(runtime_failure<"c", ci>([](auto x) {
          auto v0 = federated_value(100.0f, SERVER);
          auto z = federated_sum(x);
          (void)z;
          return v0;
        }).starts_with("ctff: a value made from constants only"));
  // Never used: Python binds it, C++ cannot tell where.
  CHECK(runtime_failure<"c", ci>([](auto x) {
          federated_value(2, SERVER);
          return federated_sum(x);
        }).starts_with("ctff: a value made from constants only"));
  // The programs above that succeed do not fail.
  CHECK(runtime_failure<"c", ci>([](auto x) {
          return std::tuple{federated_value(100.0f, SERVER), federated_sum(x)};
        }) == "");
}

constexpr auto inner_f = computation<"f", at_server<std::int32_t>>([](auto x) { return federated_broadcast(x); });

TEST_CASE("a nested computation named like the enclosing trace is renamed name_1 (defect 7)", "[binding]") {
  check_both<"f", struct_<at_server<std::int32_t>, std::int32_t>>("nested_same_name",
      [](auto a) { return inner_f(get<0>(a)); },
      "(f_arg -> (let fc_f_symbol_0=(f_1_arg -> (let fc_f_1_symbol_0=federated_broadcast(f_1_arg) "
      "in fc_f_1_symbol_0))(f_arg[0]) in fc_f_symbol_0))");
  // Another name: embedded as it is.
  check_both<"g", struct_<at_server<std::int32_t>, std::int32_t>>("nested_other_name",
      [](auto a) { return inner_f(get<0>(a)); },
      "(g_arg -> (let fc_g_symbol_0=(f_arg -> (let fc_f_symbol_0=federated_broadcast(f_arg) in "
      "fc_f_symbol_0))(g_arg[0]) in fc_g_symbol_0))");

  // The Python twins define f inside the body that uses it. Defined at module level, as inner_f
  // is in C++, Python keeps its name (f_arg inside f_arg): ctff cannot tell a ctff::computation's
  // place of definition and renames it (docs/design.md, "Name clashes"). A known difference, pinned.
  constexpr auto same_name = computation<"f", struct_<at_server<std::int32_t>, std::int32_t>>(
      [](auto a) { return inner_f(get<0>(a)); });
  CHECK(std::string(same_name.compact()) !=
        ctff_test::python_golden("binding_rules", "module_level_same_name", "compact.txt"));
  CHECK(std::string(same_name.compact()).find("(f_1_arg -> ") != std::string::npos);

  // A run-time computation (a capturing lambda) used in a trace of its name is traced anew too,
  // from both kinds of caller; also inside a floating context (called on a constant). (Found by
  // the differential test: it was copied as it was, named f.)
  const int k = 1;
  const auto rt_f = computation<"f", at_server<std::int32_t>>([k](auto x) {
    return k == 1 ? federated_broadcast(x) : federated_broadcast(x);
  });
  const std::string renamed =
      "(f_arg -> (let fc_f_symbol_0=(f_1_arg -> (let fc_f_1_symbol_0=federated_broadcast(f_1_arg) "
      "in fc_f_1_symbol_0))(f_arg[0]) in fc_f_symbol_0))";
  const auto outer_rt = computation<"f", struct_<at_server<std::int32_t>, std::int32_t>>(
      [&rt_f](auto a) { return rt_f(get<0>(a)); });
  ctff_test::check_python("binding_rules", "nested_same_name", outer_rt);
  CHECK(outer_rt.compact() == renamed);
  const auto g_rt = computation<"g", struct_<at_server<std::int32_t>, std::int32_t>>(
      [&rt_f](auto a) { return rt_f(get<0>(a)); });
  ctff_test::check_python("binding_rules", "nested_other_name", g_rt);
  CHECK(g_rt.compact() ==
        "(g_arg -> (let fc_g_symbol_0=(f_arg -> (let fc_f_symbol_0=federated_broadcast(f_arg) in "
        "fc_f_symbol_0))(g_arg[0]) in fc_g_symbol_0))");
  const auto floating = computation<"f", std::int32_t>(
      [&rt_f](auto) { return rt_f(federated_value(3, SERVER)); });
  ctff_test::check_python("binding_rules", "nested_same_name_on_constant", floating);
  CHECK(floating.compact() ==
        "(f_arg -> (let fc_f_symbol_0=federated_value_at_server(3),fc_f_symbol_1=(f_1_arg -> (let "
        "fc_f_1_symbol_0=federated_broadcast(f_1_arg) in fc_f_1_symbol_0))(fc_f_symbol_0) in "
        "fc_f_symbol_1))");
  ctff_test::require_parses(floating.bytes());
}

constexpr auto pairsum =
    computation<"pairsum", at_clients<struct_<std::int32_t, std::int32_t>>>([](auto p) { return federated_sum(p); });

TEST_CASE("calls zip a struct of federated values implicitly; generic intrinsics on one struct (defect 6)",
          "[binding]") {
  constexpr std::string_view pairsum_text =
      "(pairsum_arg -> (let fc_pairsum_symbol_0=federated_sum(pairsum_arg) in fc_pairsum_symbol_0))";
  check_both<"autozip", ci, ci>("implicit_zip",
      [](auto a, auto b) { return pairsum(make_struct(a, b)); },
      std::string("(autozip_arg -> (let fc_autozip_symbol_0=") + std::string(pairsum_text) +
          "(federated_zip_at_clients(<autozip_arg[0],autozip_arg[1]>)) in fc_autozip_symbol_0))");
  // Two arguments for one federated parameter: C++ only (Python's pack_args refuses them); held
  // to the golden of the struct form.
  check_both<"autozip", ci, ci>("implicit_zip",
      [](auto a, auto b) { return pairsum(a, b); },
      std::string("(autozip_arg -> (let fc_autozip_symbol_0=") + std::string(pairsum_text) +
          "(federated_zip_at_clients(<autozip_arg[0],autozip_arg[1]>)) in fc_autozip_symbol_0))");
  check_both<"add", struct_<std::int32_t, std::int32_t>>("generic_plus_struct",
      [](auto add_arg) { return generic_plus(add_arg); },
      "(add_arg -> (let fc_add_symbol_0=generic_plus(add_arg) in fc_add_symbol_0))");
  check_both<"mul", std::int32_t>("generic_multiply",
      [](auto x) { return generic_multiply(x, 3); },
      "(mul_arg -> (let fc_mul_symbol_0=generic_multiply(<mul_arg,3>) in fc_mul_symbol_0))");
}

}  // namespace

namespace {

constexpr auto two = ctff::computation<"two", ctff::arg<"a", std::int32_t>, ctff::arg<"b", std::int32_t>>(
    [](auto a, auto b) { return a + b; });

// Packing several arguments into a named struct parameter made g++'s -fsanitize=undefined reject
// the constant evaluation (defect 9); the sanitizer build compiles this file.
TEST_CASE("a two-parameter computation called on another call's result", "[binding]") {
  constexpr std::string_view two_text =
      "(two_arg -> (let fc_two_symbol_0=generic_plus(<two_arg[0],two_arg[1]>) in fc_two_symbol_0))";
  check_both<"outer", std::int32_t>("two_parameters",
      [](auto x) {
        auto y = two(x, 1);
        return two(y, x);
      },
      std::string("(outer_arg -> (let fc_outer_symbol_0=") + std::string(two_text) +
          "(<a=outer_arg,b=1>),fc_outer_symbol_1=" + std::string(two_text) +
          "(<a=fc_outer_symbol_0,b=outer_arg>) in fc_outer_symbol_1))");
}

}  // namespace

namespace {

TEST_CASE("unused calls stay bound, in creation order; variables never move", "[binding]") {
  // g++ at run time evaluates federated_broadcast(m) before federated_sum(b); the binding before
  // them is the variable m, so the order is recoverable.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_calls",
      [](auto a, auto b) {
        federated_sum(a);
        auto m = federated_max(b);
        return make_struct(federated_sum(b), federated_broadcast(m));
      },
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg[0]),fc_c_symbol_1=federated_max(c_arg[1]),"
      "fc_c_symbol_2=federated_sum(c_arg[1]),fc_c_symbol_3=federated_broadcast(fc_c_symbol_1) in "
      "<fc_c_symbol_2,fc_c_symbol_3>))");
}

}  // namespace

namespace {

constexpr auto three = ctff::computation<"three">([] { return 3; });

// A computation without parameter called inside a trace: the call has no argument (`f()`) and,
// made from constants only, is bound where it is made. (Found by the differential test: such a
// call did not compile.)
TEST_CASE("a computation without parameter is called with no argument", "[binding]") {
  check_both<"m", std::int32_t>("no_parameter_call",
      [](auto x) { return make_struct(x, three()); },
      "(m_arg -> (let fc_m_symbol_0=( -> 3)() in <m_arg,fc_m_symbol_0>))");
  check_both<"m", ci>("no_parameter_call_between",
      [](auto x) { return make_struct(federated_sum(x), three(), federated_sum(x)); },
      "(m_arg -> (let fc_m_symbol_0=federated_sum(m_arg),fc_m_symbol_1=( -> 3)(),"
      "fc_m_symbol_2=federated_sum(m_arg) in <fc_m_symbol_0,fc_m_symbol_1,fc_m_symbol_2>))");
  constexpr auto none = computation<"none">([] { return three(); });
  STATIC_REQUIRE(none.compact() == "( -> (let fc_none_symbol_0=( -> 3)() in fc_none_symbol_0))");
  ctff_test::check_python("binding_rules", "no_parameter_call_only", none);
}

}  // namespace

namespace {

using namespace ctff::literals;

constexpr auto pair = computation<"pair", std::int32_t>([](auto x) { return std::tuple{x, x}; });

// Selecting from a variable makes no binding: the variable's calls belong to the statement that
// made it, not to the argument that selects. (Found by the differential test: the selection
// carried the variable's bindings, and a later argument's call looked out of order.)
TEST_CASE("a selection from a variable brings no bindings into its argument", "[binding]") {
  constexpr std::string_view pair_text = "(pair_arg -> <pair_arg,pair_arg>)";
  check_both<"m", std::int32_t>("selection_from_variable",
      [](auto x) {
        auto p = pair(x);
        return make_struct(pair(x), get<1>(p), p[0_c]);
      },
      std::string("(m_arg -> (let fc_m_symbol_0=") + std::string(pair_text) +
          "(m_arg),fc_m_symbol_1=" + std::string(pair_text) +
          "(m_arg) in <fc_m_symbol_1,fc_m_symbol_0[1],fc_m_symbol_0[0]>))");
  check_both<"f", ci>("selection_from_federated_variable",
      [](auto x) {
        auto v = federated_map(pair, x);
        return make_struct(federated_sum(x), get<0>(v));
      },
      std::string("(f_arg -> (let fc_f_symbol_0=federated_map(<") + std::string(pair_text) +
          ",f_arg>),fc_f_symbol_1=federated_sum(f_arg) in "
          "<fc_f_symbol_1,federated_map(<(x -> x[0]),fc_f_symbol_0>)>))");
  // A selection from a temporary keeps the temporary's calls in its argument's window.
  check_both<"t", std::int32_t>("selection_from_temporary",
      [](auto x) { return make_struct(get<0>(pair(x)), pair(x)); },
      std::string("(t_arg -> (let fc_t_symbol_0=") + std::string(pair_text) +
          "(t_arg),fc_t_symbol_1=" + std::string(pair_text) +
          "(t_arg) in <fc_t_symbol_0[0],fc_t_symbol_1>))");
}

}  // namespace

namespace {

// g++ at run time evaluates federated_zip(s) before federated_min(x); the binding before them
// (federated_max) is held inline by the live struct s, so it visibly belongs to an earlier
// statement and the order is restored. (Found by the differential test: the trace failed.)
TEST_CASE("a call held by a struct variable is known to precede reordered arguments", "[binding]") {
  check_both<"h", ci>("struct_variable",
      [](auto x) {
        auto s = make_struct(federated_sum(x), federated_max(x));
        return make_struct(federated_min(x), federated_zip(s));
      },
      "(h_arg -> (let fc_h_symbol_0=federated_sum(h_arg),fc_h_symbol_1=federated_max(h_arg),"
      "fc_h_symbol_2=federated_min(h_arg),fc_h_symbol_3=federated_zip_at_server(<fc_h_symbol_0,"
      "fc_h_symbol_1>) in <fc_h_symbol_2,fc_h_symbol_3>))");
}

}  // namespace

namespace {

// The body's locals die before its result is converted. g++ at run time evaluates
// federated_max(v) before federated_sum(v); v, used by both arguments, was made before either of
// them (not a helper's local of the first-evaluated one), and the unused u before it does not
// make the order unknowable. (Found by the differential test: the trace failed.)
TEST_CASE("a variable used by several reordered arguments precedes them all", "[binding]") {
  check_both<"r", at_server<std::int32_t>>("variable_used_twice",
      [](auto x) {
        auto u = federated_broadcast(x);
        auto v = federated_broadcast(x);
        return std::tuple(federated_sum(v), federated_max(v));
      },
      "(r_arg -> (let fc_r_symbol_0=federated_broadcast(r_arg),fc_r_symbol_1=federated_broadcast("
      "r_arg),fc_r_symbol_2=federated_sum(fc_r_symbol_1),fc_r_symbol_3=federated_max("
      "fc_r_symbol_1) in <fc_r_symbol_2,fc_r_symbol_3>))");
}

}  // namespace

namespace {

// A helper that returns a struct of its named locals: the struct binds nothing itself but holds
// the helper's call, which belongs to the helper's argument. g++ at run time evaluates the second
// argument first. (Found by the differential long run, seed 100166.)
constexpr auto pair_helper = [](auto v) {
  auto s = federated_sum(v);
  return make_struct(v, s);
};

TEST_CASE("a struct a helper returns carries the helper's calls into argument order", "[binding]") {
  check_both<"p", arg<"a", ci>, arg<"b", ci>>("helper_struct",
      [](auto a, auto b) { return make_struct(federated_max(a), pair_helper(b)); },
      "(p_arg -> (let fc_p_symbol_0=federated_max(p_arg[0]),fc_p_symbol_1=federated_sum("
      "p_arg[1]) in <fc_p_symbol_0,<p_arg[1],fc_p_symbol_1>>))");
  // An element of it (Python takes a Struct's element itself, no Selection).
  check_both<"p", arg<"a", ci>, arg<"b", ci>>("helper_struct_element",
      [](auto a, auto b) { return make_struct(federated_max(a), get<1>(pair_helper(b))); },
      "(p_arg -> (let fc_p_symbol_0=federated_max(p_arg[0]),fc_p_symbol_1=federated_sum("
      "p_arg[1]) in <fc_p_symbol_0,fc_p_symbol_1>))");
  // Made by an earlier statement and kept in a variable: not moved.
  check_both<"p", arg<"a", ci>, arg<"b", ci>>("helper_struct_kept",
      [](auto a, auto b) {
        auto kept = pair_helper(b);
        return make_struct(federated_max(a), kept);
      },
      "(p_arg -> (let fc_p_symbol_0=federated_sum(p_arg[1]),fc_p_symbol_1=federated_max("
      "p_arg[0]) in <fc_p_symbol_1,<p_arg[1],fc_p_symbol_0>>))");
  // An element of that variable used by a call: the variable still holds the helper's call, which
  // stays before a value made from constants in an earlier argument. (Differential test, seed
  // 223: taken for the element's own, the trace failed.)
  check_both<"p", arg<"a", ci>, arg<"b", ci>>("helper_struct_kept_element_call",
      [](auto a, auto b) {
        auto kept = pair_helper(b);
        return make_struct(federated_max(a), federated_broadcast(get<1>(kept)));
      },
      "(p_arg -> (let fc_p_symbol_0=federated_sum(p_arg[1]),fc_p_symbol_1=federated_max("
      "p_arg[0]),fc_p_symbol_2=federated_broadcast(fc_p_symbol_0) in <fc_p_symbol_1,"
      "fc_p_symbol_2>))");
  check_both<"p", arg<"a", ci>, arg<"b", ci>>("helper_struct_kept_then_constant",
      [](auto, auto b) {
        auto kept = pair_helper(b);
        return make_struct(federated_value(2, SERVER), federated_broadcast(get<1>(kept)));
      },
      "(p_arg -> (let fc_p_symbol_0=federated_sum(p_arg[1]),fc_p_symbol_1="
      "federated_value_at_server(2),fc_p_symbol_2=federated_broadcast(fc_p_symbol_0) in "
      "<fc_p_symbol_1,fc_p_symbol_2>))");
  // The variable inside a new struct passed to a call: still the variable's (long run, seed
  // 100928: g++'s run-time order was kept).
  check_both<"p", arg<"a", ci>, arg<"b", ci>>("helper_struct_kept_in_struct",
      [](auto a, auto b) {
        auto kept = pair_helper(b);
        return make_struct(federated_max(a), make_struct(kept, b));
      },
      "(p_arg -> (let fc_p_symbol_0=federated_sum(p_arg[1]),fc_p_symbol_1=federated_max("
      "p_arg[0]) in <fc_p_symbol_1,<<p_arg[1],fc_p_symbol_0>,p_arg[1]>>))");
}

}  // namespace

namespace {

// The traced function's locals die before its result is read, a helper's before the call that
// uses its result: v, made by the body and used by the last element only, is not that element's
// helper local. (g++ at run time evaluates the elements right to left; the trace put v after
// federated_max. Found by the differential long run, seed 100439, where it threw instead.)
TEST_CASE("a local of the traced function used by one element of its result stays first", "[binding]") {
  check_both<"q", ci>("body_local_last_element",
      [](auto x) {
        auto v = federated_sum(x);
        return std::tuple(federated_max(x), federated_broadcast(v));
      },
      "(q_arg -> (let fc_q_symbol_0=federated_sum(q_arg),fc_q_symbol_1=federated_max(q_arg),"
      "fc_q_symbol_2=federated_broadcast(fc_q_symbol_0) in <fc_q_symbol_1,fc_q_symbol_2>))");
  // A helper's local in the same place is the helper's (defect 5's rule, in a result).
  check_both<"q", arg<"a", ci>, arg<"b", ci>>("helper_local_last_element",
      [](auto a, auto b) { return std::tuple(federated_max(a), helper(b)); },
      "(q_arg -> (let fc_q_symbol_0=federated_max(q_arg[0]),fc_q_symbol_1=federated_sum("
      "q_arg[1]),fc_q_symbol_2=federated_broadcast(fc_q_symbol_1) in <fc_q_symbol_0,"
      "fc_q_symbol_2>))");
}

}  // namespace

namespace {

// Unused results inside a helper (issue 23). One argument's bindings are consecutive, so an
// unused result between a helper's named locals and its result belongs to that argument; g++ at
// run time evaluates the helper first. (Refused before: the unused result ended the helper's
// window, and it sat before the reordered arguments; with a struct result the order was kept.)
constexpr auto gap_helper = [](auto v) {
  auto s = federated_sum(v);
  federated_max(v);
  return federated_broadcast(s);
};
constexpr auto gap_helper_2 = [](auto v) {
  auto s = federated_sum(v);
  federated_min(v);
  federated_broadcast(federated_max(v));  // an unused result whose operand is another's
  return federated_broadcast(s);
};
constexpr auto gap_pair = [](auto v) {
  auto s = federated_sum(v);
  federated_max(v);
  return make_struct(v, s);
};

TEST_CASE("an unused result between a helper's locals is bound with the helper (issue 23)", "[binding]") {
  constexpr std::string_view one =
      "(c_arg -> (let fc_c_symbol_0=federated_min(c_arg[0]),fc_c_symbol_1=federated_sum(c_arg[1]),"
      "fc_c_symbol_2=federated_max(c_arg[1]),fc_c_symbol_3=federated_broadcast(fc_c_symbol_1) in "
      "<fc_c_symbol_0,fc_c_symbol_3>))";
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_in_helper",
      [](auto a, auto b) { return make_struct(federated_min(a), gap_helper(b)); }, one);
  // In the traced function's result (a parenthesised tuple: right to left on g++).
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_in_helper",
      [](auto a, auto b) { return std::tuple(federated_min(a), gap_helper(b)); }, one);
  // Both arguments helpers.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_in_both_helpers",
      [](auto a, auto b) { return federated_zip(gap_helper(a), gap_helper(b)); },
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg[0]),fc_c_symbol_1=federated_max(c_arg[0]),"
      "fc_c_symbol_2=federated_broadcast(fc_c_symbol_0),fc_c_symbol_3=federated_sum(c_arg[1]),"
      "fc_c_symbol_4=federated_max(c_arg[1]),fc_c_symbol_5=federated_broadcast(fc_c_symbol_3),"
      "fc_c_symbol_6=federated_zip_at_clients(<fc_c_symbol_2,fc_c_symbol_5>) in fc_c_symbol_6))");
  // Several unused results, one the operand of another.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_operand_of_unused",
      [](auto a, auto b) { return make_struct(federated_max(a), gap_helper_2(b)); },
      "(c_arg -> (let fc_c_symbol_0=federated_max(c_arg[0]),fc_c_symbol_1=federated_sum(c_arg[1]),"
      "fc_c_symbol_2=federated_min(c_arg[1]),fc_c_symbol_3=federated_max(c_arg[1]),"
      "fc_c_symbol_4=federated_broadcast(fc_c_symbol_3),fc_c_symbol_5=federated_broadcast("
      "fc_c_symbol_1) in <fc_c_symbol_0,fc_c_symbol_5>))");
  // A struct of the helper's locals, and elements selected from it. (Before, g++'s run-time order
  // was kept: a wrong order, not a refusal.)
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_in_helper_struct",
      [](auto a, auto b) { return make_struct(federated_min(a), gap_pair(b)); },
      "(c_arg -> (let fc_c_symbol_0=federated_min(c_arg[0]),fc_c_symbol_1=federated_sum(c_arg[1]),"
      "fc_c_symbol_2=federated_max(c_arg[1]) in <fc_c_symbol_0,<c_arg[1],fc_c_symbol_1>>))");
  constexpr std::string_view element =
      "(c_arg -> (let fc_c_symbol_0=federated_min(c_arg[0]),fc_c_symbol_1=federated_sum(c_arg[1]),"
      "fc_c_symbol_2=federated_max(c_arg[1]) in <fc_c_symbol_0,fc_c_symbol_1>))";
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_in_helper_struct_element",
      [](auto a, auto b) { return make_struct(federated_min(a), get<1>(gap_pair(b))); }, element);
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_in_helper_struct_element",
      [](auto a, auto b) { return make_struct(federated_min(a), gap_pair(b)[1_c]); }, element);
}

// Traces Body at compile time (must give `expected`) and at run time, which must give `expected`
// too or fail with the out-of-order error: never another order.
template <fixed_string N, class... Ps, class Body>
void check_or_refused(std::string_view golden, Body, std::string_view expected) {
  constexpr auto ct = computation<N, Ps...>(Body{});
  ctff_test::check_python("binding_rules", golden, ct);
  CHECK(ct.compact() == expected);
  std::string failure;
  try {
    const auto rt = computation<N, Ps...>(at_run_time<Body>{});
    ctff_test::check_python("binding_rules", golden, rt);
    CHECK(rt.compact() == expected);
  } catch (const trace_failure& e) {
    failure = e.what();
  }
  if (!failure.empty())
    CHECK(failure.starts_with("ctff: C++ evaluated these arguments out of order"));
}

constexpr auto add_one = computation<"add_one", std::int32_t>([](auto x) { return x + 1; });
constexpr std::string_view add_one_text =
    "(add_one_arg -> (let fc_add_one_symbol_0=generic_plus(<add_one_arg,1>) in fc_add_one_symbol_0))";
using p1_t = at_server<struct_<float, float>>;
using p2_t = at_server<struct_<field<"a", std::int32_t>, field<"b", float>>>;
constexpr auto lead_helper = [](auto v) {
  federated_max(v);
  return federated_sum(v);
};

// An unused result before arguments g++ evaluates right to left, and the same program with the
// unused result leading a helper (an immediately invoked lambda) in the last argument: Python
// binds the unused result first in one, after the first argument's calls in the other, and the
// two leave the same run-time trace on g++ (the same bindings in the same order, the same handle
// events). So the order cannot be known and that run-time trace fails; clang's and the
// compile-time traces are Python's. (Issue 23 item 2 asked to accept the first; that would
// silently give the second the first's order.)
TEST_CASE("an unused result before out-of-order arguments: an earlier statement's or a helper's", "[binding]") {
  using namespace std::string_literals;
  check_or_refused<"c", at_server<std::int32_t>, p1_t, p2_t, std::int32_t>("unused_before_arguments",
      [](auto p0, auto p1, auto p2, auto) {
        auto v0 = federated_map(add_one, p0);
        (void)federated_broadcast(p2);
        return make_struct<"r0", "r1">(federated_sum(federated_broadcast(v0)), federated_zip(p2, p1, v0));
      },
      "(c_arg -> (let fc_c_symbol_0=federated_apply(<"s + std::string(add_one_text) +
          ",c_arg[0]>),fc_c_symbol_1=federated_broadcast(c_arg[2]),fc_c_symbol_2=federated_broadcast("
          "fc_c_symbol_0),fc_c_symbol_3=federated_sum(fc_c_symbol_2),fc_c_symbol_4="
          "federated_zip_at_server(<c_arg[2],c_arg[1],fc_c_symbol_0>) in <r0=fc_c_symbol_3,"
          "r1=fc_c_symbol_4>))");
  check_or_refused<"c", at_server<std::int32_t>, p1_t, p2_t, std::int32_t>("unused_leading_lambda",
      [](auto p0, auto p1, auto p2, auto) {
        auto v0 = federated_map(add_one, p0);
        return make_struct<"r0", "r1">(federated_sum(federated_broadcast(v0)), [&] {
          (void)federated_broadcast(p2);
          return federated_zip(p2, p1, v0);
        }());
      },
      "(c_arg -> (let fc_c_symbol_0=federated_apply(<"s + std::string(add_one_text) +
          ",c_arg[0]>),fc_c_symbol_1=federated_broadcast(fc_c_symbol_0),fc_c_symbol_2="
          "federated_sum(fc_c_symbol_1),fc_c_symbol_3=federated_broadcast(c_arg[2]),fc_c_symbol_4="
          "federated_zip_at_server(<c_arg[2],c_arg[1],fc_c_symbol_0>) in <r0=fc_c_symbol_2,"
          "r1=fc_c_symbol_4>))");
  // The same pair with a named helper; and an unused statement at the start of the body.
  check_or_refused<"c", arg<"a", ci>, arg<"b", ci>>("unused_leading_helper",
      [](auto a, auto b) { return make_struct(federated_min(a), lead_helper(b)); },
      "(c_arg -> (let fc_c_symbol_0=federated_min(c_arg[0]),fc_c_symbol_1=federated_max(c_arg[1]),"
      "fc_c_symbol_2=federated_sum(c_arg[1]) in <fc_c_symbol_0,fc_c_symbol_2>))");
  check_or_refused<"c", arg<"a", ci>, arg<"b", ci>>("unused_statement_first",
      [](auto a, auto b) {
        federated_max(b);
        return make_struct(federated_min(a), federated_sum(b));
      },
      "(c_arg -> (let fc_c_symbol_0=federated_max(c_arg[1]),fc_c_symbol_1=federated_min(c_arg[0]),"
      "fc_c_symbol_2=federated_sum(c_arg[1]) in <fc_c_symbol_1,fc_c_symbol_2>))");
  // Named first (the generator's rule 5), the order is known on every compiler.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("unused_statement_then_named",
      [](auto a, auto b) {
        federated_max(b);
        auto m = federated_min(a);
        return make_struct(m, federated_sum(b));
      },
      "(c_arg -> (let fc_c_symbol_0=federated_max(c_arg[1]),fc_c_symbol_1=federated_min(c_arg[0]),"
      "fc_c_symbol_2=federated_sum(c_arg[1]) in <fc_c_symbol_1,fc_c_symbol_2>))");
}

}  // namespace

// The idioms docs/porting_from_python.md gives for values made from constants only. Expected
// texts: federated_language 0.5.3's compact_representation() of the Python twins quoted above
// each program (read back from its proto).
TEST_CASE("values made from constants only: the porting guide's idioms bind like Python",
          "[binding]") {
  using cf = at_clients<float>;
  // total, n = federated_sum(h), federated_sum(federated_value(1, CLIENTS)); return total, n
  check_both<"c", cf>("idiom_sum_of_constant",
      [](auto h) {
        auto [total, n] = make_struct(federated_sum(h), federated_sum(federated_value(1, CLIENTS)));
        return std::tuple{total, n};
      },
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg),fc_c_symbol_1=federated_value_at_clients(1),"
      "fc_c_symbol_2=federated_sum(fc_c_symbol_1) in <fc_c_symbol_0,fc_c_symbol_2>))");
  // lr = federated_value(0.1, SERVER); s = federated_sum(h); b = federated_broadcast(lr)
  // return s, b
  check_both<"c", cf>("idiom_constant_then_call",
      [](auto h) {
        auto [lr, s] = make_struct(federated_value(0.1f, SERVER), federated_sum(h));
        auto b = federated_broadcast(lr);
        return std::tuple{s, b};
      },
      "(c_arg -> (let fc_c_symbol_0=federated_value_at_server(0.1),fc_c_symbol_1=federated_sum(c_arg),"
      "fc_c_symbol_2=federated_broadcast(fc_c_symbol_0) in <fc_c_symbol_1,fc_c_symbol_2>))");
  // return federated_sum(h), federated_value(2.0, SERVER)
  check_both<"d", cf>("idiom_constant_last",
      [](auto h) { return std::tuple{federated_sum(h), federated_value(2.0f, SERVER)}; },
      "(d_arg -> (let fc_d_symbol_0=federated_sum(d_arg),fc_d_symbol_1=federated_value_at_server(2.0) "
      "in <fc_d_symbol_0,fc_d_symbol_1>))");
  // The refused form: kept in a variable, met after another call (a run-time trace_failure).
  const std::string kept = runtime_failure<"c", cf>([](auto h) {
    auto n = federated_sum(federated_value(1, CLIENTS));
    auto s = federated_sum(h);
    return std::tuple{s, n};
  });
  CHECK(kept.find("is kept in a variable and meets calls traced elsewhere") != std::string::npos);
  // Never used: refused too (at compile time: tests/compile_fail/trace_constant_value_unused.cpp,
  // whose diagnostic names the line that made the value; at run time, the same rule).
  const std::string unused = runtime_failure<"c", cf>([](auto h) {
    (void)federated_value(2, SERVER);
    return federated_sum(h);
  });
  CHECK(unused.find("is never used: Python binds it where it is made") != std::string::npos);
}

// g++'s run-time traces refuse two calls written on one line right to left that no ctff operation
// put back (trace/written_order.hpp; tests/unit/evaluation_order_test.cpp). Calls on one line that
// C++ made right to left for another reason are not refused. Each program below stands on one
// line on purpose (clang and constant evaluation make them left to right: nothing is refused
// there either).
// clang-format off
constexpr auto nest = [](auto v) { return federated_broadcast(federated_sum(v)); };
constexpr auto kept_pair = polymorphic<"kept_pair">([](auto a, auto b) { auto t = std::tuple(federated_sum(a), federated_max(b)); return make_struct(std::get<0>(t), std::get<1>(t)); });
TEST_CASE("calls on one line made right to left for a reason of their own are not refused (issue 43 item 12)", "[binding]") {
  const std::string helper_locals =
      "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg[0]),fc_c_symbol_1=federated_broadcast("
      "fc_c_symbol_0),fc_c_symbol_2=federated_sum(c_arg[1]),fc_c_symbol_3=federated_broadcast("
      "fc_c_symbol_2),fc_c_symbol_4=federated_zip_at_clients(<fc_c_symbol_1,fc_c_symbol_3>) in "
      "fc_c_symbol_4))";
  // Nested calls: the outer call stands left of the inner one and uses its result.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals", [](auto a, auto b) { return federated_zip(federated_broadcast(federated_sum(a)), federated_broadcast(federated_sum(b))); }, helper_locals);
  // A one-line helper called twice: its second run begins again at the left of its line.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals", [](auto a, auto b) { return federated_zip(nest(a), nest(b)); }, helper_locals);
  // A loop written on one line: each run begins again at the left.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals", [](auto a, auto b) { std::vector<decltype(nest(a))> r; for (const auto& v : {a, b}) r.push_back(federated_broadcast(federated_sum(v))); return federated_zip(r[0], r[1]); }, helper_locals);
  // A lambda written on the line, called after a call that stands to its right: another function.
  check_both<"c", arg<"a", ci>, arg<"b", ci>>("helper_locals_body_variable", [](auto a, auto b) { const auto h = [](auto v) { return federated_broadcast(federated_sum(v)); }; auto m = federated_max(a); return federated_zip(federated_broadcast(m), h(b)); },
      "(c_arg -> (let fc_c_symbol_0=federated_max(c_arg[0]),fc_c_symbol_1=federated_broadcast("
      "fc_c_symbol_0),fc_c_symbol_2=federated_sum(c_arg[1]),fc_c_symbol_3=federated_broadcast("
      "fc_c_symbol_2),fc_c_symbol_4=federated_zip_at_clients(<fc_c_symbol_1,fc_c_symbol_3>) in "
      "fc_c_symbol_4))");
  // Refused on g++ only: the calls of a helper's std::tuple(...) read separately, in a helper
  // called twice (each run is refused; the first is reported).
  const std::string refused = runtime_failure<"c", arg<"a", ci>, arg<"b", ci>>([](auto a, auto b) { const auto pair = [](auto v) { return std::tuple(federated_sum(v), federated_max(v)); }; auto x = pair(a); auto y = pair(b); return make_struct(std::get<0>(x), std::get<1>(x), std::get<0>(y), std::get<1>(y)); });
  // The same in a polymorphic computation, traced at its use inside the run-time trace (its own
  // trace, checked through the enclosing one).
  const std::string nested = runtime_failure<"c", arg<"a", ci>, arg<"b", ci>>([](auto a, auto b) { return kept_pair(a, b); });
#if defined(__clang__)
  CHECK(refused == "");
  CHECK(nested == "");
#else
  CHECK(refused.starts_with(CTFF_WRITTEN_ORDER_MESSAGE));
  CHECK(refused.find("federated_sum at column") != std::string::npos);
  CHECK(nested.starts_with(CTFF_WRITTEN_ORDER_MESSAGE));
#endif
}
// clang-format on
