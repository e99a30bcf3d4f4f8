// Printing values (ctff/run/value_print.hpp): to_string, the typed overload, operator<< and
// std::format. Expected texts are written by hand: numpy 1.24's str() for tensors, TFF's Struct
// str() for structs, Python lists for CLIENTS values and sequences.
#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>
#include <ctff/types/desc.hpp>
#include <ctff/types/type.hpp>

#if defined(__cpp_lib_format)
#include <format>
#endif

namespace {

using ctff::dtype;
using ctff::dynamic_value;
using ctff::field;
using ctff::make_scalar;
using ctff::make_tensor;
using ctff::placement_kind;
using ctff::struct_t;
using ctff::tensor;
using ctff::to_string;

template <dtype D>
std::string scalar(ctff::element_t<D> x) {
  return to_string(make_scalar<D>(x));
}
template <dtype D>
std::string array(ctff::stored_t<D> e, std::vector<std::int64_t> shape) {
  return to_string(make_tensor<D>(std::move(e), std::move(shape)));
}

dynamic_value i32(std::int32_t x) { return make_scalar<dtype::int32>(x); }

constexpr double qnan = std::numeric_limits<double>::quiet_NaN();
constexpr double pinf = std::numeric_limits<double>::infinity();

class named_function : public ctff::function_impl {
 public:
  dynamic_value call(const dynamic_value*, ctff::run_context&) const override { return {}; }
  std::string describe() const override { return "comp#1a2b3c4d"; }
};

}  // namespace

TEST_CASE("print: integer scalars in every integer dtype", "[run][print]") {
  CHECK(scalar<dtype::int8>(-128) == "-128");
  CHECK(scalar<dtype::int16>(-32768) == "-32768");
  CHECK(scalar<dtype::int32>(5) == "5");
  CHECK(scalar<dtype::int32>(-7) == "-7");
  CHECK(scalar<dtype::int64>(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
  CHECK(scalar<dtype::uint8>(255) == "255");
  CHECK(scalar<dtype::uint16>(65535) == "65535");
  CHECK(scalar<dtype::uint32>(4294967295u) == "4294967295");
  CHECK(scalar<dtype::uint64>(std::numeric_limits<std::uint64_t>::max()) == "18446744073709551615");
  CHECK(scalar<dtype::bool_>(true) == "True");
  CHECK(scalar<dtype::bool_>(false) == "False");
}

TEST_CASE("print: float scalars as numpy's str, shortest digits in their own width", "[run][print]") {
  CHECK(scalar<dtype::float32>(0.1f) == "0.1");
  CHECK(scalar<dtype::float64>(0.1) == "0.1");
  CHECK(scalar<dtype::float64>(1.0) == "1.0");
  CHECK(scalar<dtype::float64>(-0.0) == "-0.0");
  CHECK(scalar<dtype::float64>(2.5) == "2.5");
  CHECK(scalar<dtype::float64>(123456789.0) == "123456789.0");
  CHECK(scalar<dtype::float64>(1e16) == "1e+16");
  CHECK(scalar<dtype::float64>(1e-5) == "1e-05");
  CHECK(scalar<dtype::float64>(0.0001) == "0.0001");
  CHECK(scalar<dtype::float32>(1e20f) == "1e+20");
  CHECK(scalar<dtype::float64>(qnan) == "nan");
  CHECK(scalar<dtype::float64>(pinf) == "inf");
  CHECK(scalar<dtype::float32>(-std::numeric_limits<float>::infinity()) == "-inf");
  // float16: 0x2e66 is 0.0999755859375, 0x7bff is 65504 (five digits tell it apart), 0x3c00 is 1.
  CHECK(scalar<dtype::float16>({0x2e66}) == "0.1");
  CHECK(scalar<dtype::float16>({0x7bff}) == "65500.0");
  CHECK(scalar<dtype::float16>({0x3c00}) == "1.0");
  CHECK(scalar<dtype::float16>({0x8000}) == "-0.0");
  CHECK(scalar<dtype::float16>({0x7e00}) == "nan");
  // bfloat16 prints as ml_dtypes does (six significant digits): 0x3dcd is 0.10009765625.
  CHECK(scalar<dtype::bfloat16>({0x3dcd}) == "0.100098");
  CHECK(scalar<dtype::bfloat16>({0x3fc0}) == "1.5");
}

TEST_CASE("print: complex scalars as Python's complex str", "[run][print]") {
  CHECK(scalar<dtype::complex64>({1.0f, 2.0f}) == "(1+2j)");
  CHECK(scalar<dtype::complex64>({0.0f, 2.0f}) == "2j");
  CHECK(scalar<dtype::complex128>({1.5, -0.5}) == "(1.5-0.5j)");
  CHECK(scalar<dtype::complex128>({qnan, pinf}) == "(nan+infj)");
}

TEST_CASE("print: strings as Python bytes, quoted and escaped", "[run][print]") {
  CHECK(scalar<dtype::str>("hi") == "b'hi'");
  CHECK(scalar<dtype::str>("") == "b''");
  CHECK(scalar<dtype::str>("it's") == "b\"it's\"");
  CHECK(scalar<dtype::str>("a'b\"c") == "b'a\\'b\"c'");
  CHECK(scalar<dtype::str>("a\nb\tc\\") == "b'a\\nb\\tc\\\\'");
  CHECK(scalar<dtype::str>("\xff\x01") == "b'\\xff\\x01'");
}

TEST_CASE("print: arrays of rank 1 to 3 as numpy's array2string", "[run][print]") {
  CHECK(array<dtype::int32>({1, 2, 3}, {3}) == "[1 2 3]");
  CHECK(array<dtype::int32>({1, -10, 100}, {3}) == "[  1 -10 100]");
  CHECK(array<dtype::int32>({1, 2, 3, 4}, {2, 2}) == "[[1 2]\n [3 4]]");
  CHECK(array<dtype::int64>({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2}) == "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
  CHECK(array<dtype::int32>({}, {0}) == "[]");
  CHECK(array<dtype::int32>({}, {2, 0}) == "[]");
  CHECK(array<dtype::float64>({1.0, 2.5}, {2}) == "[1.  2.5]");
  CHECK(array<dtype::float32>({0.1f, 0.2f}, {2}) == "[0.1 0.2]");
  CHECK(array<dtype::float64>({qnan, pinf, -pinf}, {3}) == "[ nan  inf -inf]");
  CHECK(array<dtype::float64>({-0.0, 1.0}, {2}) == "[-0.  1.]");
  CHECK(array<dtype::bool_>({1, 0}, {2}) == "[ True False]");
  CHECK(array<dtype::str>({"a", "bc"}, {2}) == "[b'a' b'bc']");
  CHECK(array<dtype::complex128>({{1.0, 2.0}, {3.0, -4.0}}, {2}) == "[1.+2.j 3.-4.j]");
  CHECK(array<dtype::uint8>({0, 255}, {1, 2}) == "[[  0 255]]");
  // A shape of rank 1 holding one element is an array, not a scalar.
  CHECK(array<dtype::int32>({7}, {1}) == "[7]");
}

TEST_CASE("print: long arrays wrap at 75 columns and summarise past 1000 elements", "[run][print]") {
  std::vector<std::int32_t> v30;
  for (std::int32_t i = 0; i != 30; ++i) v30.push_back(i);
  CHECK(array<dtype::int32>(v30, {30}) ==
        "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
        " 24 25 26 27 28 29]");
  std::vector<std::int32_t> v1001;
  for (std::int32_t i = 0; i != 1001; ++i) v1001.push_back(i);
  CHECK(array<dtype::int32>(v1001, {1001}) == "[   0    1    2 ...  998  999 1000]");
}

TEST_CASE("print: structs as TFF's Struct str", "[run][print]") {
  using ctff::make_struct_value;
  CHECK(to_string(make_struct_value({i32(1), make_scalar<dtype::float32>(2.5f)}, {"a", "b"})) == "<a=1,b=2.5>");
  CHECK(to_string(make_struct_value({i32(1), i32(2)})) == "<1,2>");
  CHECK(to_string(make_struct_value({i32(1), i32(2)}, {"a", ""})) == "<a=1,2>");
  CHECK(to_string(make_struct_value({})) == "<>");
  const dynamic_value inner = make_struct_value({i32(1), i32(2)});
  CHECK(to_string(make_struct_value({inner, make_tensor<dtype::int32>({1, 2}, {2})}, {"x", "y"})) ==
        "<x=<1,2>,y=[1 2]>");
}

TEST_CASE("print: federated values, sequences, functions, placements, no value", "[run][print]") {
  using ctff::make_federated;
  CHECK(to_string(make_federated(placement_kind::clients, false, {i32(1), i32(2), i32(3)})) == "[1, 2, 3]");
  CHECK(to_string(make_federated(placement_kind::clients, false, {})) == "[]");
  CHECK(to_string(make_federated(placement_kind::server, true, {i32(5)})) == "5");
  CHECK(to_string(make_federated(placement_kind::clients, true, {i32(5)})) == "5");
  const dynamic_value a1 = ctff::make_struct_value({i32(1)}, {"a"});
  const dynamic_value a2 = ctff::make_struct_value({i32(2)}, {"a"});
  CHECK(to_string(make_federated(placement_kind::clients, false, {a1, a2})) == "[<a=1>, <a=2>]");
  CHECK(to_string(ctff::make_sequence({i32(1), i32(2), i32(3)})) == "[1, 2, 3]");
  CHECK(to_string(ctff::make_sequence({})) == "[]");
  CHECK(to_string(ctff::make_sequence({make_tensor<dtype::int32>({1, 2}, {2})})) == "[[1 2]]");
  const dynamic_value f(ctff::function_data{std::make_shared<named_function>()});
  CHECK(to_string(f) == "<function comp#1a2b3c4d>");
  CHECK(to_string(dynamic_value(ctff::placement_data{placement_kind::clients})) == "CLIENTS");
  CHECK(to_string(dynamic_value(ctff::placement_data{placement_kind::server})) == "SERVER");
  CHECK(to_string(dynamic_value()) == "None");
}

TEST_CASE("print: a malformed tensor is an execution error", "[run][print]") {
  CHECK_THROWS_AS(to_string(make_tensor<dtype::int32>({1, 2, 3}, {2})), ctff::execution_error);
  CHECK_THROWS_AS(to_string(make_tensor<dtype::int32>({}, {-1})), ctff::execution_error);
  CHECK_THROWS_AS(to_string(dynamic_value(ctff::tensor_data{dtype::float32, {}, std::vector<std::int32_t>{1}})),
                  ctff::execution_error);
}

TEST_CASE("print: read by its type, a value takes the type's names and federated form", "[run][print]") {
  using pair_t = struct_t<field<"a", tensor<dtype::int32>>, field<"b", tensor<dtype::int32>>>;
  const auto d = ctff::describe<pair_t>();
  const dynamic_value unnamed = ctff::make_struct_value({i32(1), i32(2)});
  CHECK(to_string(unnamed) == "<1,2>");
  CHECK(to_string(unnamed, d, d.root) == "<a=1,b=2>");

  using mixed_t = struct_t<field<"a", tensor<dtype::int32>>, tensor<dtype::int32>>;
  const auto m = ctff::describe<mixed_t>();
  CHECK(to_string(unnamed, m, m.root) == "<a=1,2>");

  using clients_t = ctff::federated_t<tensor<dtype::int32>, placement_kind::clients, false>;
  const auto c = ctff::describe<clients_t>();
  const dynamic_value broadcast = ctff::make_federated(placement_kind::clients, true, {i32(4)});
  CHECK(to_string(broadcast) == "4");
  CHECK(to_string(broadcast, c, c.root, 3) == "[4, 4, 4]");
  CHECK(to_string(broadcast, c, c.root) == "[4]");

  using nested_t = ctff::federated_t<pair_t, placement_kind::server, true>;
  const auto n = ctff::describe<nested_t>();
  CHECK(to_string(ctff::make_federated(placement_kind::server, true, {unnamed}), n, n.root) == "<a=1,b=2>");

  // A value that does not match the type.
  CHECK_THROWS_AS(to_string(i32(1), d, d.root), ctff::execution_error);
  CHECK_THROWS_AS(to_string(ctff::make_struct_value({i32(1)}), d, d.root), ctff::execution_error);
  CHECK_THROWS_AS(to_string(broadcast, n, n.root), ctff::execution_error);
}

constexpr auto sum_clients = ctff::computation<"sum_clients", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_sum(v); });

TEST_CASE("print: a run's result, untyped and by the computation's result type", "[run][print]") {
  const ctff::computation_tree tree = ctff::read_computation(sum_clients.bytes().str());
  ctff::executor ex({.clients = {}, .threads = 1});
  const dynamic_value r =
      ex.run(tree, ctff::make_federated(placement_kind::clients, false, {i32(1), i32(2), i32(4)}));
  CHECK(to_string(r) == "7");
  CHECK(to_string(r, tree.types, ctff::signature_of(tree).result) == "7");
  CHECK(ctff::to_string(tree.type_of(tree.root)) == "({int32}@CLIENTS -> int32@SERVER)");
}

TEST_CASE("print: operator<< writes to_string", "[run][print]") {
  std::ostringstream os;
  os << ctff::make_struct_value({i32(1), make_tensor<dtype::float32>({0.5f, 1.0f}, {2})}, {"w", ""}) << ';'
     << dynamic_value();
  CHECK(os.str() == "<w=1,[0.5 1. ]>;None");
}

#if defined(__cpp_lib_format)
TEST_CASE("print: std::format uses to_string, with a string's width and alignment", "[run][print]") {
  const dynamic_value v = ctff::make_federated(placement_kind::clients, false, {i32(1), i32(2)});
  CHECK(std::format("{}", v) == "[1, 2]");
  CHECK(std::format("<{:>8}>", v) == "<  [1, 2]>");
  CHECK(std::format("{:*<7}", i32(3)) == "3******");
}
#endif
