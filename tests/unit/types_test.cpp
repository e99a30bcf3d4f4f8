// Static TFF types: their type strings (compact and formatted, checked at compile time) and the
// assignability / equivalence relations of federated_language (reference §3.5, §4.2).
#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <string>
#include <string_view>

#include "ctff/reflect/scalar.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/type_string.hpp"

namespace {

using ctff::abstract_t;
using ctff::all_equal;
using ctff::at_clients;
using ctff::at_server;
using ctff::dtype;
using ctff::federated;
using ctff::field;
using ctff::function;
using ctff::placement_kind;
using ctff::placement_t;
using ctff::sequence;
using ctff::struct_;
using ctff::tensor;
using ctff::type_string;
using ctff::formatted_type_string;
using ctff::unknown_dim;
using ctff::unknown_rank;
using ctff::is_assignable_v;
using ctff::is_equivalent_v;

// Both directions of assignability in one go: {to <- from, from <- to}.
template <class To, class From>
constexpr bool assignable = is_assignable_v<ctff::tff_t<To>, ctff::tff_t<From>>;

}  // namespace

TEST_CASE("type strings: the 16 dtypes", "[types][type_string]") {
  STATIC_REQUIRE(type_string<tensor<dtype::float32>>() == "float32");
  STATIC_REQUIRE(type_string<tensor<dtype::float64>>() == "float64");
  STATIC_REQUIRE(type_string<tensor<dtype::int32>>() == "int32");
  STATIC_REQUIRE(type_string<tensor<dtype::uint8>>() == "uint8");
  STATIC_REQUIRE(type_string<tensor<dtype::int16>>() == "int16");
  STATIC_REQUIRE(type_string<tensor<dtype::int8>>() == "int8");
  STATIC_REQUIRE(type_string<tensor<dtype::str>>() == "str");
  STATIC_REQUIRE(type_string<tensor<dtype::complex64>>() == "complex64");
  STATIC_REQUIRE(type_string<tensor<dtype::int64>>() == "int64");
  STATIC_REQUIRE(type_string<tensor<dtype::bool_>>() == "bool");
  STATIC_REQUIRE(type_string<tensor<dtype::bfloat16>>() == "bfloat16");
  STATIC_REQUIRE(type_string<tensor<dtype::uint16>>() == "uint16");
  STATIC_REQUIRE(type_string<tensor<dtype::complex128>>() == "complex128");
  STATIC_REQUIRE(type_string<tensor<dtype::float16>>() == "float16");
  STATIC_REQUIRE(type_string<tensor<dtype::uint32>>() == "uint32");
  STATIC_REQUIRE(type_string<tensor<dtype::uint64>>() == "uint64");

  // The wire numbers of data_type.proto.
  STATIC_REQUIRE(static_cast<int>(dtype::float32) == 1);
  STATIC_REQUIRE(static_cast<int>(dtype::str) == 7);
  STATIC_REQUIRE(static_cast<int>(dtype::bool_) == 10);
  STATIC_REQUIRE(static_cast<int>(dtype::bfloat16) == 14);
  STATIC_REQUIRE(static_cast<int>(dtype::float16) == 19);
  STATIC_REQUIRE(static_cast<int>(dtype::uint64) == 23);
  STATIC_REQUIRE(ctff::is_valid_dtype(14));
  STATIC_REQUIRE_FALSE(ctff::is_valid_dtype(0));
  STATIC_REQUIRE_FALSE(ctff::is_valid_dtype(11));
  STATIC_REQUIRE_FALSE(ctff::is_valid_dtype(20));
  STATIC_REQUIRE_FALSE(ctff::is_valid_dtype(24));
}

TEST_CASE("type strings: C++ scalars", "[types][type_string]") {
  STATIC_REQUIRE(type_string<bool>() == "bool");
  STATIC_REQUIRE(type_string<std::int8_t>() == "int8");
  STATIC_REQUIRE(type_string<std::int16_t>() == "int16");
  STATIC_REQUIRE(type_string<std::int32_t>() == "int32");
  STATIC_REQUIRE(type_string<int>() == "int32");
  STATIC_REQUIRE(type_string<std::int64_t>() == "int64");
  STATIC_REQUIRE(type_string<std::uint8_t>() == "uint8");
  STATIC_REQUIRE(type_string<std::uint16_t>() == "uint16");
  STATIC_REQUIRE(type_string<std::uint32_t>() == "uint32");
  STATIC_REQUIRE(type_string<std::uint64_t>() == "uint64");
  STATIC_REQUIRE(type_string<float>() == "float32");
  STATIC_REQUIRE(type_string<double>() == "float64");
  STATIC_REQUIRE(type_string<std::complex<float>>() == "complex64");
  STATIC_REQUIRE(type_string<std::complex<double>>() == "complex128");
  STATIC_REQUIRE(type_string<std::string>() == "str");
}

TEST_CASE("type strings: tensor shapes", "[types][type_string]") {
  STATIC_REQUIRE(type_string<tensor<dtype::int32, 5>>() == "int32[5]");
  STATIC_REQUIRE(type_string<tensor<dtype::int32, 2, 3>>() == "int32[2,3]");
  STATIC_REQUIRE(type_string<tensor<dtype::float32, 1, 2, 3, 4>>() == "float32[1,2,3,4]");
  STATIC_REQUIRE(type_string<tensor<dtype::int64, 1000000, 3>>() == "int64[1000000,3]");
  STATIC_REQUIRE(type_string<tensor<dtype::float32, unknown_dim, 4>>() == "float32[?,4]");
  STATIC_REQUIRE(type_string<tensor<dtype::int32, 2, unknown_dim>>() == "int32[2,?]");
  STATIC_REQUIRE(type_string<tensor<dtype::int32, unknown_dim>>() == "int32[?]");
  STATIC_REQUIRE(type_string<tensor<dtype::int32, 2, 0>>() == "int32[2,0]");
  STATIC_REQUIRE(type_string<tensor<dtype::int32, 0>>() == "int32[0]");
  STATIC_REQUIRE(type_string<tensor<dtype::int64, unknown_rank>>() == "'int64'(shape=None)");
  STATIC_REQUIRE(type_string<tensor<dtype::str, unknown_rank>>() == "'str'(shape=None)");
  STATIC_REQUIRE(type_string<tensor<dtype::bool_, unknown_rank>>() == "'bool'(shape=None)");
  // Tensors print the same formatted.
  STATIC_REQUIRE(formatted_type_string<tensor<dtype::float32, unknown_dim, 4>>() == "float32[?,4]");
  STATIC_REQUIRE(formatted_type_string<tensor<dtype::int64, unknown_rank>>() ==
                 "'int64'(shape=None)");
}

TEST_CASE("type strings: structs, sequences, functions, placement", "[types][type_string]") {
  STATIC_REQUIRE(type_string<struct_<>>() == "<>");
  STATIC_REQUIRE(type_string<struct_<int>>() == "<int32>");
  STATIC_REQUIRE(type_string<struct_<field<"a", int>, float>>() == "<a=int32,float32>");
  STATIC_REQUIRE(type_string<struct_<int, field<"b", float>>>() == "<int32,b=float32>");
  STATIC_REQUIRE(type_string<struct_<struct_<>, struct_<int, struct_<bool>>>>() ==
                 "<<>,<int32,<bool>>>");

  STATIC_REQUIRE(type_string<sequence<int>>() == "int32*");
  STATIC_REQUIRE(type_string<sequence<struct_<int, float>>>() == "<int32,float32>*");
  STATIC_REQUIRE(type_string<sequence<struct_<field<"x", tensor<dtype::float32, unknown_dim>>>>>() ==
                 "<x=float32[?]>*");

  STATIC_REQUIRE(type_string<function<void, int>>() == "( -> int32)");
  STATIC_REQUIRE(type_string<function<int, float>>() == "(int32 -> float32)");
  STATIC_REQUIRE(type_string<function<struct_<int, float>, double>>() ==
                 "(<int32,float32> -> float64)");
  STATIC_REQUIRE(type_string<function<void, struct_<>>>() == "( -> <>)");
  STATIC_REQUIRE(type_string<function<struct_<>, struct_<>>>() == "(<> -> <>)");

  STATIC_REQUIRE(type_string<placement_t>() == "placement");
  STATIC_REQUIRE(type_string<struct_<placement_t, field<"p", placement_t>>>() ==
                 "<placement,p=placement>");
  STATIC_REQUIRE(type_string<abstract_t<"T">>() == "T");
  STATIC_REQUIRE(type_string<function<struct_<abstract_t<"T">, abstract_t<"U">>, abstract_t<"T">>>() ==
                 "(<T,U> -> T)");
}

TEST_CASE("type strings: federated types", "[types][type_string]") {
  STATIC_REQUIRE(type_string<at_clients<int>>() == "{int32}@CLIENTS");
  STATIC_REQUIRE(type_string<at_clients<int, all_equal>>() == "int32@CLIENTS");
  STATIC_REQUIRE(type_string<at_server<int>>() == "int32@SERVER");
  STATIC_REQUIRE(type_string<federated<int, placement_kind::server, false>>() == "{int32}@SERVER");
  STATIC_REQUIRE(type_string<federated<int, placement_kind::server>>() == "int32@SERVER");
  STATIC_REQUIRE(type_string<federated<int, placement_kind::clients>>() == "{int32}@CLIENTS");
  STATIC_REQUIRE(type_string<at_server<struct_<field<"a", int>, field<"b", float>>>>() ==
                 "<a=int32,b=float32>@SERVER");
  STATIC_REQUIRE(type_string<at_clients<struct_<field<"a", int>>>>() == "{<a=int32>}@CLIENTS");
  STATIC_REQUIRE(type_string<at_clients<sequence<float>>>() == "{float32*}@CLIENTS");
  STATIC_REQUIRE(type_string<at_clients<tensor<dtype::float32, unknown_dim, 4>>>() ==
                 "{float32[?,4]}@CLIENTS");
  STATIC_REQUIRE(type_string<at_server<tensor<dtype::int64, unknown_rank>>>() ==
                 "'int64'(shape=None)@SERVER");
  STATIC_REQUIRE(type_string<at_clients<struct_<>>>() == "{<>}@CLIENTS");
  STATIC_REQUIRE(type_string<at_server<placement_t>>() == "placement@SERVER");
}

TEST_CASE("type strings: nested function types", "[types][type_string]") {
  STATIC_REQUIRE(type_string<function<function<int, float>, function<void, struct_<>>>>() ==
                 "((int32 -> float32) -> ( -> <>))");
  STATIC_REQUIRE(type_string<function<function<void, int>, at_clients<int>>>() ==
                 "(( -> int32) -> {int32}@CLIENTS)");
  STATIC_REQUIRE(type_string<function<int, function<int, function<void, int>>>>() ==
                 "(int32 -> (int32 -> ( -> int32)))");
  // federated_aggregate's concrete shape.
  using agg = function<struct_<at_clients<int>, int, function<struct_<int, int>, int>,
                               function<struct_<int, int>, int>, function<int, float>>,
                       at_server<float>>;
  STATIC_REQUIRE(type_string<agg>() ==
                 "(<{int32}@CLIENTS,int32,(<int32,int32> -> int32),(<int32,int32> -> int32),"
                 "(int32 -> float32)> -> float32@SERVER)");
  // federated_map over named structs.
  using map = function<struct_<function<struct_<field<"x", int>>, float>,
                               at_clients<struct_<field<"x", int>>>>,
                       at_clients<float>>;
  STATIC_REQUIRE(type_string<map>() ==
                 "(<(<x=int32> -> float32),{<x=int32>}@CLIENTS> -> {float32}@CLIENTS)");
}

TEST_CASE("type strings: formatted forms", "[types][type_string]") {
  STATIC_REQUIRE(formatted_type_string<function<struct_<int, float>, double>>() ==
                 "(<\n  int32,\n  float32\n> -> float64)");
  STATIC_REQUIRE(formatted_type_string<at_clients<struct_<field<"a", int>>>>() ==
                 "{<\n  a=int32\n>}@CLIENTS");
  STATIC_REQUIRE(formatted_type_string<at_server<struct_<field<"a", int>, field<"b", float>>>>() ==
                 "<\n  a=int32,\n  b=float32\n>@SERVER");
  STATIC_REQUIRE(formatted_type_string<struct_<field<"x", struct_<int, struct_<field<"y", float>>>>,
                                               bool>>() ==
                 "<\n"
                 "  x=<\n"
                 "    int32,\n"
                 "    <\n"
                 "      y=float32\n"
                 "    >\n"
                 "  >,\n"
                 "  bool\n"
                 ">");
  STATIC_REQUIRE(formatted_type_string<struct_<>>() == "<>");
  STATIC_REQUIRE(formatted_type_string<struct_<struct_<>>>() == "<\n  <>\n>");
  STATIC_REQUIRE(formatted_type_string<sequence<struct_<int>>>() == "<\n  int32\n>*");
  STATIC_REQUIRE(formatted_type_string<function<void, struct_<int>>>() == "( -> <\n  int32\n>)");
  STATIC_REQUIRE(formatted_type_string<function<int, float>>() == "(int32 -> float32)");
  STATIC_REQUIRE(formatted_type_string<at_clients<int>>() == "{int32}@CLIENTS");
  // A struct of functions of structs: each struct indents relative to the line it starts on.
  STATIC_REQUIRE(formatted_type_string<struct_<field<"f", function<struct_<int>, struct_<bool>>>>>() ==
                 "<\n"
                 "  f=(<\n"
                 "    int32\n"
                 "  > -> <\n"
                 "    bool\n"
                 "  >)\n"
                 ">");
}

TEST_CASE("type strings: run-time printing of descriptions", "[types][type_string]") {
  using T = function<struct_<field<"a", at_clients<tensor<dtype::float32, unknown_dim, 4>>>,
                             sequence<struct_<int, tensor<dtype::int64, unknown_rank>>>>,
                     at_server<struct_<>>>;
  const auto d = ctff::describe<ctff::tff_t<T>>();
  CHECK(ctff::to_string(d) == type_string<T>());
  CHECK(ctff::to_string(d, true) == formatted_type_string<T>());
  CHECK(ctff::to_string(d) ==
        "(<a={float32[?,4]}@CLIENTS,<int32,'int64'(shape=None)>*> -> <>@SERVER)");
}

TEST_CASE("type_desc layout", "[types][desc]") {
  // Children before parents; struct element names after the elements; kids in order.
  constexpr auto d = [] {
    auto x = ctff::describe<ctff::tff_t<struct_<field<"a", int>, tensor<dtype::float32, 2, unknown_dim>>>>();
    return x.nodes.size() == 3 && x.root == 2 && x.nodes[2].kind == ctff::type_kind::struct_ &&
           x.kid(2, 0) == 0 && x.kid(2, 1) == 1 && x.name(0) == "a" && x.name(1).empty() &&
           x.nodes[1].dim_count == 2 && x.dims[1] == -1;
  }();
  STATIC_REQUIRE(d);
}

// describe<T>() reserves what detail::desc_sizes_v<T> counts; a count that is off only costs
// speed, so it is checked here, and so is detail::wire_bound_v<T>, the capacity of type_bytes<T>().
template <class T>
constexpr bool sizes_exact() {
  auto d = ctff::describe<T>();
  constexpr auto n = ctff::detail::desc_sizes_v<T>;
  return d.nodes.size() == n.nodes && d.kids.size() == n.kids && d.dims.size() == n.dims &&
         d.chars.size() == n.chars && ctff::type_bytes<T>().size() <= ctff::detail::wire_bound_v<T>;
}

TEST_CASE("type_desc sizes and the Type bytes' bound", "[types][desc]") {
  STATIC_REQUIRE(sizes_exact<ctff::tff_t<int>>());
  STATIC_REQUIRE(sizes_exact<placement_t>());
  STATIC_REQUIRE(sizes_exact<tensor<dtype::int64, unknown_dim, 3, unknown_dim>>());
  STATIC_REQUIRE(sizes_exact<tensor<dtype::float32, unknown_rank>>());
  STATIC_REQUIRE(sizes_exact<ctff::tff_t<struct_<field<"alpha", int>, float, field<"b", sequence<int>>>>>());
  STATIC_REQUIRE(sizes_exact<ctff::tff_t<function<void, at_server<int>>>>());
  STATIC_REQUIRE(sizes_exact<ctff::tff_t<
                     function<struct_<field<"x", at_clients<float, all_equal>>, placement_t>,
                              struct_<>>>>());
  STATIC_REQUIRE(ctff::detail::desc_sizes_v<abstract_t<"T">>.chars == 1);
}

// is_assignable_v<T, T> answers without describing T; it must agree with the relation itself
// (true, unless T has an abstract part).
template <class T>
constexpr bool self_assignable_agrees() {
  return ctff::is_assignable_v<T, T> == ctff::is_assignable(ctff::describe<T>(), ctff::describe<T>());
}

TEST_CASE("a type is assignable to itself unless abstract", "[types][relations]") {
  STATIC_REQUIRE(self_assignable_agrees<ctff::tff_t<struct_<field<"a", int>, at_clients<float, all_equal>>>>());
  STATIC_REQUIRE(self_assignable_agrees<tensor<dtype::float32, unknown_rank>>());
  STATIC_REQUIRE(self_assignable_agrees<ctff::tff_t<function<void, sequence<int>>>>());
  STATIC_REQUIRE(self_assignable_agrees<abstract_t<"T">>());
  STATIC_REQUIRE(self_assignable_agrees<ctff::tff_t<function<abstract_t<"T">, int>>>());
  STATIC_REQUIRE(!ctff::is_assignable_v<abstract_t<"T">, abstract_t<"T">>);
  STATIC_REQUIRE(ctff::is_assignable_v<placement_t, placement_t>);
}

// describe<T>() points element names at T's own (static) text; a copy of the description keeps
// them, at compile time and at run time.
TEST_CASE("describe: element names survive a copy", "[types][desc]") {
  using S = ctff::tff_t<struct_<field<"alpha", int>, float, field<"b", sequence<int>>>>;
  constexpr auto names_of_copy = [] {
    const ctff::type_desc d = ctff::describe<S>();
    ctff::type_desc c = d;
    return c.name(c.kid(c.root, 0)) == "alpha" && c.name(c.kid(c.root, 1)).empty() &&
           c.name(c.kid(c.root, 2)) == "b";
  };
  STATIC_REQUIRE(names_of_copy());
  CHECK(names_of_copy());
}

TEST_CASE("assignability: tensors", "[types][relations]") {
  using f32_2_4 = tensor<dtype::float32, 2, 4>;
  using f32_q_4 = tensor<dtype::float32, unknown_dim, 4>;
  using f32_q_q = tensor<dtype::float32, unknown_dim, unknown_dim>;
  using f32_any = tensor<dtype::float32, unknown_rank>;
  using f32 = tensor<dtype::float32>;
  using f32_2 = tensor<dtype::float32, 2>;
  using f32_2_1 = tensor<dtype::float32, 2, 1>;
  using f32_0 = tensor<dtype::float32, 0>;

  // Same type.
  STATIC_REQUIRE(assignable<f32_2_4, f32_2_4>);
  STATIC_REQUIRE(assignable<f32, f32>);
  STATIC_REQUIRE(assignable<f32_any, f32_any>);
  STATIC_REQUIRE(assignable<f32_q_4, f32_q_4>);
  // An unknown target dimension accepts any size; not the reverse.
  STATIC_REQUIRE(assignable<f32_q_4, f32_2_4>);
  STATIC_REQUIRE_FALSE(assignable<f32_2_4, f32_q_4>);
  STATIC_REQUIRE(assignable<f32_q_q, f32_2_4>);
  STATIC_REQUIRE(assignable<f32_q_q, f32_q_4>);
  STATIC_REQUIRE_FALSE(assignable<f32_q_4, f32_q_q>);
  // Unknown rank accepts every shape, including scalars; not the reverse.
  STATIC_REQUIRE(assignable<f32_any, f32_2_4>);
  STATIC_REQUIRE_FALSE(assignable<f32_2_4, f32_any>);
  STATIC_REQUIRE(assignable<f32_any, f32>);
  STATIC_REQUIRE_FALSE(assignable<f32, f32_any>);
  STATIC_REQUIRE(assignable<f32_any, f32_q_4>);
  STATIC_REQUIRE_FALSE(assignable<f32_q_4, f32_any>);
  // Rank must match.
  STATIC_REQUIRE_FALSE(assignable<f32_2, f32_2_1>);
  STATIC_REQUIRE_FALSE(assignable<f32_2_1, f32_2>);
  STATIC_REQUIRE_FALSE(assignable<f32, f32_2>);
  STATIC_REQUIRE_FALSE(assignable<f32_2, f32>);
  // Sizes must match (zero is a size like any other).
  STATIC_REQUIRE_FALSE(assignable<f32_2, f32_0>);
  STATIC_REQUIRE_FALSE(assignable<f32_0, f32_2>);
  STATIC_REQUIRE(assignable<tensor<dtype::float32, unknown_dim>, f32_0>);
  // dtype must match.
  STATIC_REQUIRE_FALSE(assignable<tensor<dtype::int32>, tensor<dtype::int64>>);
  STATIC_REQUIRE_FALSE(assignable<tensor<dtype::int64>, tensor<dtype::int32>>);
  STATIC_REQUIRE_FALSE(assignable<tensor<dtype::int32, unknown_rank>, tensor<dtype::float32>>);
  STATIC_REQUIRE_FALSE(assignable<tensor<dtype::float32>, tensor<dtype::float32, unknown_rank>>);
  // Different kinds.
  STATIC_REQUIRE_FALSE(assignable<f32, struct_<float>>);
  STATIC_REQUIRE_FALSE(assignable<struct_<float>, f32>);
}

TEST_CASE("assignability: structs", "[types][relations]") {
  using named = struct_<field<"a", int>, field<"b", float>>;
  using unnamed = struct_<int, float>;
  using half = struct_<field<"a", int>, float>;
  // An unnamed source element goes anywhere; a named one only to the same name.
  STATIC_REQUIRE(assignable<named, unnamed>);
  STATIC_REQUIRE_FALSE(assignable<unnamed, named>);
  STATIC_REQUIRE(assignable<named, half>);
  STATIC_REQUIRE_FALSE(assignable<half, named>);
  STATIC_REQUIRE(assignable<half, unnamed>);
  STATIC_REQUIRE_FALSE(assignable<unnamed, half>);
  STATIC_REQUIRE(assignable<named, named>);
  // Different names, either way.
  STATIC_REQUIRE_FALSE(assignable<struct_<field<"a", int>>, struct_<field<"b", int>>>);
  STATIC_REQUIRE_FALSE(assignable<struct_<field<"b", int>>, struct_<field<"a", int>>>);
  // Same names in another order: positions decide.
  STATIC_REQUIRE_FALSE(assignable<named, struct_<field<"b", float>, field<"a", int>>>);
  // Length.
  STATIC_REQUIRE_FALSE(assignable<struct_<int>, struct_<int, int>>);
  STATIC_REQUIRE_FALSE(assignable<struct_<int, int>, struct_<int>>);
  STATIC_REQUIRE_FALSE(assignable<struct_<>, struct_<int>>);
  STATIC_REQUIRE(assignable<struct_<>, struct_<>>);
  // Elements are compared with assignability.
  using q = struct_<tensor<dtype::int32, unknown_dim>>;
  using three = struct_<tensor<dtype::int32, 3>>;
  STATIC_REQUIRE(assignable<q, three>);
  STATIC_REQUIRE_FALSE(assignable<three, q>);
  STATIC_REQUIRE_FALSE(assignable<struct_<int>, struct_<float>>);
}

TEST_CASE("assignability: functions and sequences", "[types][relations]") {
  using q = tensor<dtype::int32, unknown_dim>;
  using three = tensor<dtype::int32, 3>;
  // Parameters are contravariant: a function accepting int32[?] may stand in for one accepting
  // int32[3]; not the reverse.
  STATIC_REQUIRE(assignable<function<three, int>, function<q, int>>);
  STATIC_REQUIRE_FALSE(assignable<function<q, int>, function<three, int>>);
  // Results are covariant.
  STATIC_REQUIRE(assignable<function<int, q>, function<int, three>>);
  STATIC_REQUIRE_FALSE(assignable<function<int, three>, function<int, q>>);
  // Both at once.
  STATIC_REQUIRE(assignable<function<three, q>, function<q, three>>);
  STATIC_REQUIRE_FALSE(assignable<function<q, three>, function<three, q>>);
  // Parameter presence must match.
  STATIC_REQUIRE_FALSE(assignable<function<void, int>, function<int, int>>);
  STATIC_REQUIRE_FALSE(assignable<function<int, int>, function<void, int>>);
  STATIC_REQUIRE(assignable<function<void, int>, function<void, int>>);
  STATIC_REQUIRE_FALSE(assignable<function<void, int>, function<void, float>>);
  // Parameter names, contravariantly: <a=int32,b=int32> accepts <int32,int32> values, so a
  // function taking the named struct may stand in for one taking the unnamed struct.
  using named = struct_<field<"a", int>, field<"b", int>>;
  using unnamed = struct_<int, int>;
  STATIC_REQUIRE(assignable<function<unnamed, int>, function<named, int>>);
  STATIC_REQUIRE_FALSE(assignable<function<named, int>, function<unnamed, int>>);
  // Sequences are covariant in their element.
  STATIC_REQUIRE(assignable<sequence<q>, sequence<three>>);
  STATIC_REQUIRE_FALSE(assignable<sequence<three>, sequence<q>>);
  STATIC_REQUIRE_FALSE(assignable<sequence<int>, int>);
  STATIC_REQUIRE_FALSE(assignable<int, sequence<int>>);
}

TEST_CASE("assignability: federated types and placements", "[types][relations]") {
  // T@CLIENTS is assignable to {T}@CLIENTS, not the reverse.
  STATIC_REQUIRE(assignable<at_clients<int>, at_clients<int, all_equal>>);
  STATIC_REQUIRE_FALSE(assignable<at_clients<int, all_equal>, at_clients<int>>);
  using srv_any = federated<int, placement_kind::server, false>;
  STATIC_REQUIRE(assignable<srv_any, at_server<int>>);
  STATIC_REQUIRE_FALSE(assignable<at_server<int>, srv_any>);
  STATIC_REQUIRE(assignable<at_server<int>, at_server<int>>);
  STATIC_REQUIRE(assignable<at_clients<int>, at_clients<int>>);
  // Placement must match, whatever all_equal says.
  STATIC_REQUIRE_FALSE(assignable<at_server<int>, at_clients<int, all_equal>>);
  STATIC_REQUIRE_FALSE(assignable<at_clients<int, all_equal>, at_server<int>>);
  STATIC_REQUIRE_FALSE(assignable<at_clients<int>, at_server<int>>);
  STATIC_REQUIRE_FALSE(assignable<srv_any, at_clients<int>>);
  // Members are compared with assignability.
  using q = tensor<dtype::int32, unknown_dim>;
  using two = tensor<dtype::int32, 2>;
  STATIC_REQUIRE(assignable<at_clients<q>, at_clients<two>>);
  STATIC_REQUIRE_FALSE(assignable<at_clients<two>, at_clients<q>>);
  STATIC_REQUIRE(assignable<at_clients<q>, at_clients<two, all_equal>>);
  STATIC_REQUIRE_FALSE(assignable<at_clients<int>, at_clients<float>>);
  STATIC_REQUIRE(assignable<at_server<struct_<field<"a", int>>>, at_server<struct_<int>>>);
  STATIC_REQUIRE_FALSE(assignable<at_server<struct_<int>>, at_server<struct_<field<"a", int>>>>);
  // Placed and unplaced never mix.
  STATIC_REQUIRE_FALSE(assignable<int, at_server<int>>);
  STATIC_REQUIRE_FALSE(assignable<at_server<int>, int>);
  // The placement type.
  STATIC_REQUIRE(assignable<placement_t, placement_t>);
  STATIC_REQUIRE_FALSE(assignable<placement_t, int>);
  STATIC_REQUIRE_FALSE(assignable<int, placement_t>);
  // Abstract types are not comparable: never assignable here.
  STATIC_REQUIRE_FALSE(assignable<abstract_t<"T">, abstract_t<"T">>);
  STATIC_REQUIRE_FALSE(assignable<abstract_t<"T">, int>);
}

TEST_CASE("equivalence", "[types][relations]") {
  STATIC_REQUIRE(is_equivalent_v<tensor<dtype::int32>, tensor<dtype::int32>>);
  STATIC_REQUIRE(is_equivalent_v<tensor<dtype::int32, unknown_dim>, tensor<dtype::int32, unknown_dim>>);
  STATIC_REQUIRE(is_equivalent_v<tensor<dtype::int32, unknown_rank>, tensor<dtype::int32, unknown_rank>>);
  STATIC_REQUIRE_FALSE(is_equivalent_v<tensor<dtype::int32, unknown_dim>, tensor<dtype::int32, 3>>);
  STATIC_REQUIRE_FALSE(is_equivalent_v<tensor<dtype::int32, unknown_rank>, tensor<dtype::int32>>);
  using named = ctff::tff_t<struct_<field<"a", int>, field<"b", float>>>;
  using unnamed = ctff::tff_t<struct_<int, float>>;
  STATIC_REQUIRE(is_equivalent_v<named, named>);
  STATIC_REQUIRE_FALSE(is_equivalent_v<named, unnamed>);
  STATIC_REQUIRE_FALSE(is_equivalent_v<unnamed, named>);
  using fc = ctff::tff_t<at_clients<int>>;
  using fc_eq = ctff::tff_t<at_clients<int, all_equal>>;
  STATIC_REQUIRE(is_equivalent_v<fc, fc>);
  STATIC_REQUIRE_FALSE(is_equivalent_v<fc, fc_eq>);
  using fn = ctff::tff_t<function<struct_<at_clients<int>, float>, at_server<double>>>;
  STATIC_REQUIRE(is_equivalent_v<fn, fn>);
  STATIC_REQUIRE(is_equivalent_v<placement_t, placement_t>);
  STATIC_REQUIRE_FALSE(is_equivalent_v<abstract_t<"T">, abstract_t<"T">>);

  // The run-time forms agree.
  const auto a = ctff::describe<named>();
  const auto b = ctff::describe<unnamed>();
  CHECK(ctff::is_assignable(a, b));
  CHECK_FALSE(ctff::is_assignable(b, a));
  CHECK_FALSE(ctff::is_equivalent(a, b));
  CHECK(ctff::is_equivalent(a, a));
}
