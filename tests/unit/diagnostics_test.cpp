// The rules behind compile-time diagnostics (issue 10): Python's name rules, the aggregate shapes
// ctff reports before Boost.PFR sees them, and how diagnostic text is cut into pieces. The
// diagnostics themselves are tested by tests/compile_fail.
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include <ctff/ctff.hpp>

namespace {

using namespace ctff::detail;

// Python: `def f():` needs an identifier that is not a keyword; a lambda is named "<lambda>".
TEST_CASE("computation names follow Python's function names", "[diagnostics]") {
  STATIC_REQUIRE(is_valid_computation_name("add_one"));
  STATIC_REQUIRE(is_valid_computation_name("_x1"));
  STATIC_REQUIRE(is_valid_computation_name("match"));  // a soft keyword is a valid name
  STATIC_REQUIRE(is_valid_computation_name("<lambda>"));
  STATIC_REQUIRE(is_valid_computation_name("items"));  // not an element name
  STATIC_REQUIRE(!is_valid_computation_name(""));
  STATIC_REQUIRE(!is_valid_computation_name("my comp"));
  STATIC_REQUIRE(!is_valid_computation_name("1x"));
  STATIC_REQUIRE(!is_valid_computation_name("add-one"));
  STATIC_REQUIRE(!is_valid_computation_name("lambda"));
  STATIC_REQUIRE(!is_valid_computation_name("None"));
  STATIC_REQUIRE(!is_valid_computation_name("yield"));
}

// A parameter name is an identifier and becomes an element name of the parameter struct.
TEST_CASE("parameter names are identifiers and element names", "[diagnostics]") {
  STATIC_REQUIRE(is_valid_parameter_name("alpha"));
  STATIC_REQUIRE(!is_valid_parameter_name("items"));
  STATIC_REQUIRE(!is_valid_parameter_name("__init__"));
  STATIC_REQUIRE(!is_valid_parameter_name("from"));
  STATIC_REQUIRE(!is_valid_parameter_name("2b"));
}

// StructType([(name, T)]) accepts any name but dir(StructType)'s; the empty name reads back as
// unnamed.
TEST_CASE("element names: anything but empty and StructType's attributes", "[diagnostics]") {
  STATIC_REQUIRE(is_valid_element_name("loss"));
  STATIC_REQUIRE(is_valid_element_name("from"));      // a dict key may be a keyword
  STATIC_REQUIRE(is_valid_element_name("my field"));  // or any other string
  STATIC_REQUIRE(is_valid_element_name("_x"));
  STATIC_REQUIRE(is_valid_element_name("__x"));
  STATIC_REQUIRE(!is_valid_element_name(""));
  STATIC_REQUIRE(!is_valid_element_name("items"));
  STATIC_REQUIRE(!is_valid_element_name("named"));
  STATIC_REQUIRE(!is_valid_element_name("check_identical_to"));
  STATIC_REQUIRE(!is_valid_element_name("_asdict"));
  STATIC_REQUIRE(!is_valid_element_name("_name_to_index"));
  STATIC_REQUIRE(!is_valid_element_name("__len__"));
  STATIC_REQUIRE(!is_valid_element_name("__x__"));
  STATIC_REQUIRE(ctff::type_string<ctff::struct_<ctff::field<"from", int>>>() == "<from=int32>");
}

struct plain {
  float x;
  std::int32_t y;
};
struct with_strings {
  std::string s;
  std::array<float, 3> a;
  plain p;
};
struct base {
  float x;
};
struct derived : base {
  float y;
};
struct empty_base {};
struct derived_from_empty : empty_base {
  float y;
};
struct arrays {
  std::string name;
  std::int32_t k;
  float w[4];
  double v[2];
};
struct first_array {
  float w[3];
};

template <class T>
constexpr std::size_t c_array_index() {
  constexpr std::size_t e = boost::pfr::tuple_size_v<T>;
  return c_array_member_index<T, e>(std::make_index_sequence<e>{});
}

TEST_CASE("aggregate shapes found before Boost.PFR", "[diagnostics]") {
  STATIC_REQUIRE(!aggregate_with_base<plain>);
  STATIC_REQUIRE(!aggregate_with_base<with_strings>);
  STATIC_REQUIRE(aggregate_with_base<derived>);
  STATIC_REQUIRE(aggregate_with_base<derived_from_empty>);
  // No C array: the index is the slot count.
  STATIC_REQUIRE(c_array_index<plain>() == 2);
  STATIC_REQUIRE(c_array_index<with_strings>() == 3);
  // The first C array member's index (members before it take one slot each).
  STATIC_REQUIRE(c_array_index<arrays>() == 2);
  STATIC_REQUIRE(c_array_index<first_array>() == 0);
  // Its name, read with the member count (arrays counted once).
  STATIC_REQUIRE(member_count<arrays, 8>(std::make_index_sequence<8>{}) == 4);
  STATIC_REQUIRE(counted_member_name_v<arrays, 4, 2> == "w");
  STATIC_REQUIRE(counted_member_name_v<arrays, 4, 3> == "v");
}

struct text_36_and_label {
  constexpr void operator()(text_sink& s) const {
    s.put("value: {<loss=float32,count=int32>}@CLIENTS;\nzero: int32[10]");
  }
};
struct long_type {
  constexpr void operator()(text_sink& s) const {
    s.put("value: {<loss=float32,count=int32,weights=float32[4],learning_rate=float64>}@CLIENTS");
  }
};

template <class W>
constexpr std::size_t piece_count() {
  return split_pieces<W>(nullptr, 0);
}
template <class W, std::size_t K>
constexpr bool piece_is(std::string_view expected) {
  const auto p = diagnostic_piece<W, K>();
  return std::string_view(p.text, pieces_v<W>[K].size) == expected && p.text[expected.size()] == 0;
}

TEST_CASE("diagnostic text pieces", "[diagnostics]") {
#if !defined(__clang__)  // g++: one piece, '\n' shown as a space
  STATIC_REQUIRE(diagnostic_piece_max == 0);
  STATIC_REQUIRE(piece_count<text_36_and_label>() == 1);
  STATIC_REQUIRE(piece_is<text_36_and_label, 0>(
      "value: {<loss=float32,count=int32>}@CLIENTS; zero: int32[10]"));
#else  // clang: at most 36 characters a piece; labels apart; a type of 36 whole; no ';'
  STATIC_REQUIRE(diagnostic_piece_max == 36);
  STATIC_REQUIRE(piece_count<text_36_and_label>() == 3);
  STATIC_REQUIRE(piece_is<text_36_and_label, 0>("value:"));
  STATIC_REQUIRE(piece_is<text_36_and_label, 1>("{<loss=float32,count=int32>}@CLIENTS"));
  STATIC_REQUIRE(piece_is<text_36_and_label, 2>("zero: int32[10]"));
  STATIC_REQUIRE(piece_count<long_type>() == 4);
  STATIC_REQUIRE(piece_is<long_type, 1>("{<loss=float32,count=int32,"));
  STATIC_REQUIRE(piece_is<long_type, 2>("weights=float32[4],"));
  STATIC_REQUIRE(piece_is<long_type, 3>("learning_rate=float64>}@CLIENTS"));
#endif
}

// Where the compiler takes a computed static_assert message, the text follows the rule whole.
TEST_CASE("diagnostic text in a computed message", "[diagnostics]") {
#if CTFF_COMPUTED_DIAGNOSTICS
  constexpr auto whole = diagnostic_message(diagnostic_for<long_type>::shown, "ctff: op: rule");
  STATIC_REQUIRE(std::string_view(whole.data(), whole.size()) ==
                 "ctff: op: rule; value: {<loss=float32,count=int32,weights=float32[4],"
                 "learning_rate=float64>}@CLIENTS");
  constexpr auto two = diagnostic_message(diagnostic_for<text_36_and_label>::shown, "r");
  STATIC_REQUIRE(std::string_view(two.data(), two.size()) ==
                 "r; value: {<loss=float32,count=int32>}@CLIENTS; zero: int32[10]");
  STATIC_REQUIRE(!static_cast<bool>(diagnostic_for<long_type>::shown));
#else
  STATIC_REQUIRE(!diagnostic_for<long_type>::shown);
#endif
}

}  // namespace
