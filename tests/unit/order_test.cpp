// Binding order equals Python's left-to-right order whatever order the compiler evaluates
// function arguments in (g++'s generated code goes right to left): compile-time traces, run-time
// traces, the hand-derived Python output and Python's own (federated_language 0.5.3 on the twins in
// tests/goldens/python/order.py, outputs in tests/goldens/python/order/) must agree.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <tuple>

#include <ctff/ctff.hpp>

#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

using clients_i32 = ctff::at_clients<std::int32_t>;

constexpr auto inc = ctff::computation<"inc", std::int32_t>([](auto x) { return x + 1; });
constexpr auto dbl = ctff::computation<"dbl", std::int32_t>([](auto x) { return x * 2; });

// Bodies shared by the compile-time and the run-time trace.
constexpr auto zip_of_sums = [](auto a, auto b) {
  return ctff::federated_zip(ctff::federated_sum(a), ctff::federated_sum(b));
};
constexpr auto struct_of_calls = [](auto x, auto y) { return ctff::make_struct(inc(x), dbl(y)); };
constexpr auto nested_groups = [](auto a, auto b) {
  return ctff::federated_zip(ctff::federated_zip(ctff::federated_sum(a), ctff::federated_sum(b)),
                             ctff::federated_zip(ctff::federated_max(b), ctff::federated_sum(a)));
};
constexpr auto paren_tuple = [](auto x, auto y) {
  return std::tuple(ctff::federated_value(x + 1, ctff::SERVER), ctff::federated_value(y * 2, ctff::CLIENTS));
};
constexpr auto named_first = [](auto a, auto b) {
  auto s = ctff::federated_sum(b);  // a statement: bound first, never moved
  return ctff::federated_zip(ctff::federated_sum(a), s);
};

template <ctff::fixed_string N, class Body>
constexpr auto static_two(Body) {
  return ctff::computation<N, ctff::arg<"a", clients_i32>, ctff::arg<"b", clients_i32>>(Body{});
}
template <ctff::fixed_string N, class Body>
auto runtime_two(Body body, int k) {
  return ctff::computation<N, ctff::arg<"a", clients_i32>, ctff::arg<"b", clients_i32>>(
      [body, k](auto a, auto b) {
        static_cast<void>(k);
        return body(a, b);
      });
}
template <ctff::fixed_string N, class Body>
constexpr auto static_scalars(Body) {
  return ctff::computation<N, std::int32_t, std::int32_t>(Body{});
}
template <ctff::fixed_string N, class Body>
auto runtime_scalars(Body body, int k) {
  return ctff::computation<N, std::int32_t, std::int32_t>([body, k](auto x, auto y) {
    static_cast<void>(k);
    return body(x, y);
  });
}

}  // namespace

TEST_CASE("zip of two sums binds left to right", "[order]") {
  constexpr auto c = static_two<"o">(zip_of_sums);
  constexpr std::string_view python =
      "(o_arg -> (let fc_o_symbol_0=federated_sum(o_arg[0]),fc_o_symbol_1=federated_sum(o_arg[1]),"
      "fc_o_symbol_2=federated_zip_at_server(<fc_o_symbol_0,fc_o_symbol_1>) in fc_o_symbol_2))";
  STATIC_REQUIRE(c.compact() == python);
  auto r = runtime_two<"o">(zip_of_sums, 1);
  CHECK(r.compact() == python);
  CHECK(r.bytes() == c.bytes());
  ctff_test::check_python("order", "zip_of_sums", c);
  ctff_test::check_python("order", "zip_of_sums", r);
}

TEST_CASE("struct of two computation calls binds left to right", "[order]") {
  constexpr auto c = static_scalars<"s">(struct_of_calls);
  constexpr std::string_view python =
      "(s_arg -> (let fc_s_symbol_0=(inc_arg -> (let fc_inc_symbol_0=generic_plus(<inc_arg,1>) in "
      "fc_inc_symbol_0))(s_arg[0]),fc_s_symbol_1=(dbl_arg -> (let fc_dbl_symbol_0=generic_multiply("
      "<dbl_arg,2>) in fc_dbl_symbol_0))(s_arg[1]) in <fc_s_symbol_0,fc_s_symbol_1>))";
  STATIC_REQUIRE(c.compact() == python);
  auto r = runtime_scalars<"s">(struct_of_calls, 1);
  CHECK(r.compact() == python);
  CHECK(r.bytes() == c.bytes());
  ctff_test::check_python("order", "struct_of_calls", c);
  ctff_test::check_python("order", "struct_of_calls", r);
}

TEST_CASE("nested sibling groups keep Python's order", "[order]") {
  constexpr auto c = static_two<"n">(nested_groups);
  constexpr std::string_view python =
      "(n_arg -> (let fc_n_symbol_0=federated_sum(n_arg[0]),fc_n_symbol_1=federated_sum(n_arg[1]),"
      "fc_n_symbol_2=federated_zip_at_server(<fc_n_symbol_0,fc_n_symbol_1>),"
      "fc_n_symbol_3=federated_max(n_arg[1]),fc_n_symbol_4=federated_sum(n_arg[0]),"
      "fc_n_symbol_5=federated_zip_at_server(<fc_n_symbol_3,fc_n_symbol_4>),"
      "fc_n_symbol_6=federated_zip_at_server(<fc_n_symbol_2,fc_n_symbol_5>) in fc_n_symbol_6))";
  STATIC_REQUIRE(c.compact() == python);
  auto r = runtime_two<"n">(nested_groups, 1);
  CHECK(r.compact() == python);
  CHECK(r.bytes() == c.bytes());
  ctff_test::check_python("order", "nested_groups", c);
  ctff_test::check_python("order", "nested_groups", r);
}

TEST_CASE("a parenthesised std::tuple result binds left to right", "[order]") {
  constexpr auto c = static_scalars<"t">(paren_tuple);
  constexpr std::string_view python =
      "(t_arg -> (let fc_t_symbol_0=generic_plus(<t_arg[0],1>),"
      "fc_t_symbol_1=federated_value_at_server(fc_t_symbol_0),"
      "fc_t_symbol_2=generic_multiply(<t_arg[1],2>),"
      "fc_t_symbol_3=federated_value_at_clients(fc_t_symbol_2) in <fc_t_symbol_1,fc_t_symbol_3>))";
  STATIC_REQUIRE(c.compact() == python);
  auto r = runtime_scalars<"t">(paren_tuple, 1);
  CHECK(r.compact() == python);
  CHECK(r.bytes() == c.bytes());
  ctff_test::check_python("order", "paren_tuple", c);
  ctff_test::check_python("order", "paren_tuple", r);
}

TEST_CASE("named values are never moved", "[order]") {
  constexpr auto c = static_two<"m">(named_first);
  constexpr std::string_view python =
      "(m_arg -> (let fc_m_symbol_0=federated_sum(m_arg[1]),fc_m_symbol_1=federated_sum(m_arg[0]),"
      "fc_m_symbol_2=federated_zip_at_server(<fc_m_symbol_1,fc_m_symbol_0>) in fc_m_symbol_2))";
  STATIC_REQUIRE(c.compact() == python);
  auto r = runtime_two<"m">(named_first, 1);
  CHECK(r.compact() == python);
  CHECK(r.bytes() == c.bytes());
  ctff_test::check_python("order", "named_first", c);
  ctff_test::check_python("order", "named_first", r);
}
