// Literals of every dtype on the wire, traced at compile time and at run time, as scalars and as
// std::array. Each expected `Array` message is written out by hand below from the wire rules
// (reference §1.6: typed list per dtype, packed values, shape always set; §1.8: field order,
// empty set submessages kept) — field numbers from 16 up take a two-byte tag: complex128_list
// (16) `82 01`, string_list (17) `8a 01`, bfloat16_list (19) `9a 01`. The whole Computation is
// compared with protobuf's serialization of a message built from those Array bytes.
#include <google/protobuf/text_format.h>

#include <array>
#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "parse_back.hpp"

namespace {

using ctff::dtype;

std::string unhex(std::string_view h) {
  std::string out;
  int hi = -1;
  for (char c : h) {
    if (c == ' ') continue;
    const int d = c <= '9' ? c - '0' : c - 'a' + 10;
    if (hi < 0) {
      hi = d;
    } else {
      out += static_cast<char>(hi * 16 + d);
      hi = -1;
    }
  }
  REQUIRE(hi < 0);
  return out;
}

// `( -> literal)`: Computation{type: (-> tensor), lambda{result{type: tensor, literal{array}}}},
// serialized by protobuf, must be ctff's bytes; the array inside must be `array_hex` exactly.
template <class Bytes>
void check_result_literal(const Bytes& bytes, dtype dt, std::vector<std::int64_t> dims,
                          std::string_view array_hex) {
  const std::string array = unhex(array_hex);
  federated_language::Computation expected;
  auto* t = expected.mutable_type()->mutable_function()->mutable_result()->mutable_tensor();
  t->set_dtype(static_cast<federated_language::DataType>(dt));
  for (auto d : dims) t->add_dims(d);
  auto* r = expected.mutable_lambda()->mutable_result();
  *r->mutable_type() = expected.type().function().result();
  REQUIRE(r->mutable_literal()->mutable_value()->ParseFromString(array));

  const federated_language::Computation actual = ctff_test::require_parses(bytes);
  CHECK(ctff_test::hex(actual.lambda().result().literal().value().SerializeAsString()) ==
        ctff_test::hex(array));
  CHECK(ctff_test::hex(ctff_test::byte_string(bytes)) ==
        ctff_test::hex(expected.SerializeAsString()));
}

// Traces `[] { return value; }` at compile time and `[v] { return v; }` at run time.
#define CHECK_LITERAL(value, dt, dims, array_hex)                       \
  do {                                                                  \
    constexpr auto ct = ctff::computation<"l">([] { return (value); }); \
    check_result_literal(ct.bytes(), dt, dims, array_hex);              \
    auto v = (value); /* not const: a run-time value */                 \
    const auto rt = ctff::computation<"l">([v] { return v; });          \
    check_result_literal(rt.bytes(), dt, dims, array_hex);              \
  } while (false)

using dims_t = std::vector<std::int64_t>;
const dims_t scalar{};
const dims_t two{2};

template <class T>
using pair = std::array<T, 2>;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

}  // namespace

TEST_CASE("literal wire: the whole message of ( -> 'hi'), by hand", "[literal][wire]") {
  // type{function{result{tensor{dtype: DT_STRING}}}}
  // lambda{result{type{tensor{dtype: DT_STRING}} literal{value{dtype: DT_STRING shape{}
  //   string_list{value: "hi"}}}}}: the string_list tag is 8a 01 (field 17).
  const std::string expected = unhex(
      "0a08 0a06 1204 2202 0807"
      "2217 1215 0a04 2202 0807 720d 0a0b 0807 1200 8a01 04 0a02 6869");
  constexpr auto ct = ctff::computation<"s">([] { return std::string_view("hi"); });
  STATIC_REQUIRE(ct.bytes().size() == 35);
  CHECK(ctff_test::hex(ct.bytes().str()) == ctff_test::hex(expected));
  const std::string s = "hi";
  const auto rt = ctff::computation<"s">([s] { return s; });
  CHECK(ctff_test::hex(rt.bytes().str()) == ctff_test::hex(expected));
  ctff_test::require_parses(rt.bytes());
}

TEST_CASE("literal wire: scalars of every dtype", "[literal][wire]") {
  CHECK_LITERAL(true, dtype::bool_, scalar, "080a 1200 1a03 0a01 01");
  CHECK_LITERAL(std::int8_t{-5}, dtype::int8, scalar, "0806 1200 220c 0a0a fbffffffffffffffff01");
  CHECK_LITERAL(std::int16_t{300}, dtype::int16, scalar, "0805 1200 2a04 0a02 ac02");
  CHECK_LITERAL(std::int32_t{7}, dtype::int32, scalar, "0803 1200 3203 0a01 07");
  CHECK_LITERAL(std::int64_t{-1}, dtype::int64, scalar, "0809 1200 3a0c 0a0a ffffffffffffffffff01");
  CHECK_LITERAL(std::uint8_t{200}, dtype::uint8, scalar, "0804 1200 4204 0a02 c801");
  CHECK_LITERAL(std::uint16_t{65535}, dtype::uint16, scalar, "0811 1200 4a05 0a03 ffff03");
  CHECK_LITERAL(std::uint32_t{4000000000u}, dtype::uint32, scalar,
                "0816 1200 5207 0a05 80d0acf30e");
  CHECK_LITERAL(std::numeric_limits<std::uint64_t>::max(), dtype::uint64, scalar,
                "0817 1200 5a0c 0a0a ffffffffffffffffff01");
  CHECK_LITERAL(1.5f, dtype::float32, scalar, "0801 1200 6a06 0a04 0000c03f");
  CHECK_LITERAL(-2.0, dtype::float64, scalar, "0802 1200 720a 0a08 00000000000000c0");
  CHECK_LITERAL(c64(1.0f, -1.0f), dtype::complex64, scalar,
                "0808 1200 7a0a 0a08 0000803f 000080bf");
  CHECK_LITERAL(c128(0.5, 2.0), dtype::complex128, scalar,
                "0812 1200 8201 12 0a10 000000000000e03f 0000000000000040");
  CHECK_LITERAL(std::string_view("hi"), dtype::str, scalar, "0807 1200 8a01 04 0a02 6869");
  CHECK_LITERAL(std::string_view(""), dtype::str, scalar, "0807 1200 8a01 02 0a00");
}

TEST_CASE("literal wire: arrays of every dtype", "[literal][wire]") {
  // shape{dim: 2} is 12 03 0a 01 02.
  CHECK_LITERAL((pair<bool>{true, false}), dtype::bool_, two, "080a 1203 0a0102 1a04 0a02 0100");
  CHECK_LITERAL((pair<std::int8_t>{-1, 2}), dtype::int8, two,
                "0806 1203 0a0102 220d 0a0b ffffffffffffffffff01 02");
  CHECK_LITERAL((pair<std::int16_t>{-32768, 32767}), dtype::int16, two,
                "0805 1203 0a0102 2a0f 0a0d 8080feffffffffffff01 ffff01");
  CHECK_LITERAL((pair<std::int32_t>{1, 2}), dtype::int32, two, "0803 1203 0a0102 3204 0a02 0102");
  CHECK_LITERAL((pair<std::int64_t>{std::numeric_limits<std::int64_t>::min(),
                                    std::numeric_limits<std::int64_t>::max()}),
                dtype::int64, two,
                "0809 1203 0a0102 3a15 0a13 80808080808080808001 ffffffffffffffff7f");
  CHECK_LITERAL((pair<std::uint8_t>{0, 255}), dtype::uint8, two,
                "0804 1203 0a0102 4205 0a03 00ff01");
  CHECK_LITERAL((pair<std::uint16_t>{1, 2}), dtype::uint16, two, "0811 1203 0a0102 4a04 0a02 0102");
  CHECK_LITERAL((pair<std::uint32_t>{0, 4000000000u}), dtype::uint32, two,
                "0816 1203 0a0102 5208 0a06 00 80d0acf30e");
  CHECK_LITERAL((pair<std::uint64_t>{1, std::numeric_limits<std::uint64_t>::max()}), dtype::uint64,
                two, "0817 1203 0a0102 5a0d 0a0b 01 ffffffffffffffffff01");
  CHECK_LITERAL((pair<float>{1.5f, 0.1f}), dtype::float32, two,
                "0801 1203 0a0102 6a0a 0a08 0000c03f cdcccc3d");
  CHECK_LITERAL((pair<double>{0.5, 2.0}), dtype::float64, two,
                "0802 1203 0a0102 7212 0a10 000000000000e03f 0000000000000040");
  CHECK_LITERAL((pair<c64>{c64(1.0f, -1.0f), c64(1.5f, 0.1f)}), dtype::complex64, two,
                "0808 1203 0a0102 7a12 0a10 0000803f 000080bf 0000c03f cdcccc3d");
  CHECK_LITERAL((pair<c128>{c128(0.5, 2.0), c128(2.0, 0.5)}), dtype::complex128, two,
                "0812 1203 0a0102 8201 22 0a20 000000000000e03f 0000000000000040"
                "0000000000000040 000000000000e03f");
  CHECK_LITERAL((pair<std::string_view>{"a", "bc"}), dtype::str, two,
                "0807 1203 0a0102 8a01 07 0a0161 0a026263");
  // Two dimensions, row-major values.
  CHECK_LITERAL((std::array<std::array<std::int32_t, 3>, 2>{{{1, 2, 3}, {4, 5, 6}}}), dtype::int32,
                (dims_t{2, 3}), "0803 1204 0a02 0203 3208 0a06 010203040506");
}

namespace {
constexpr std::array<char, 200> x200_chars = [] {
  std::array<char, 200> a{};
  for (auto& c : a) c = 'x';
  return a;
}();
}  // namespace

TEST_CASE("literal wire: lengths of two bytes", "[literal][wire]") {
  // 130 int32 ones: dims 82 01; packed payload 130 bytes (0a 82 01 ...), list 133 = 85 01.
  std::array<std::int32_t, 130> ones{};
  for (auto& x : ones) x = 1;
  const std::string ones_hex = "0803 1204 0a02 8201 3285 01 0a8201" + std::string(260, '0');
  std::string expected_ones = ones_hex;
  for (std::size_t i = 0; i != 130; ++i) expected_ones[expected_ones.size() - 2 * i - 1] = '1';
  const auto rt = ctff::computation<"l">([ones] { return ones; });
  check_result_literal(rt.bytes(), dtype::int32, dims_t{130}, expected_ones);
  constexpr auto ct = ctff::computation<"l">([] {
    std::array<std::int32_t, 130> a{};
    for (auto& x : a) x = 1;
    return a;
  });
  check_result_literal(ct.bytes(), dtype::int32, dims_t{130}, expected_ones);

  // A string of 200 bytes: value 0a c8 01 <200>, list 203 = cb 01.
  const std::string x200(200, 'x');
  std::string expected_str = "0807 1200 8a01 cb01 0ac801";
  for (int i = 0; i != 200; ++i) expected_str += "78";
  const auto rs = ctff::computation<"l">([x200] { return x200; });
  check_result_literal(rs.bytes(), dtype::str, scalar, expected_str);
  constexpr auto cs =
      ctff::computation<"l">([] { return std::string_view(x200_chars.data(), 200); });
  check_result_literal(cs.bytes(), dtype::str, scalar, expected_str);
}

namespace {
constexpr auto with_string =
    ctff::computation<"s", std::int32_t>([](auto x) { return ctff::make_struct(x, "hi"); });
}  // namespace

TEST_CASE("literal wire: a string literal beside a parameter", "[literal][wire]") {
  // Every string in a trace goes through the same Array writer; check a whole message by hand.
  const char* text = R"pb(
    type {
      function {
        parameter { tensor { dtype: DT_INT32 } }
        result {
          struct {
            element { value { tensor { dtype: DT_INT32 } } }
            element { value { tensor { dtype: DT_STRING } } }
          }
        }
      }
    }
    lambda {
      parameter_name: "s_arg"
      result {
        type {
          struct {
            element { value { tensor { dtype: DT_INT32 } } }
            element { value { tensor { dtype: DT_STRING } } }
          }
        }
        struct {
          element {
            value {
              type { tensor { dtype: DT_INT32 } }
              reference { name: "s_arg" }
            }
          }
          element {
            value {
              type { tensor { dtype: DT_STRING } }
              literal {
                value {
                  dtype: DT_STRING
                  shape {}
                  string_list { value: "hi" }
                }
              }
            }
          }
        }
      }
    })pb";
  federated_language::Computation expected;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &expected));
  CHECK(ctff_test::hex(with_string.bytes().str()) == ctff_test::hex(expected.SerializeAsString()));
  const std::string hi = "hi";
  const auto rt = ctff::computation<"s", std::int32_t>(
      [hi](auto x) { return ctff::make_struct(x, std::string_view(hi)); });
  CHECK(ctff_test::hex(rt.bytes().str()) == ctff_test::hex(expected.SerializeAsString()));
  ctff_test::require_parses(rt.bytes());
}

namespace {
// float16 and bfloat16 have no C++ type a trace accepts as a literal; their Array goes through
// the same writer, checked here on a literal recorded by hand (bit patterns as IntList values).
struct array_bytes {
  std::array<unsigned char, 64> buf{};
  std::size_t size = 0;
  std::string str() const {
    return std::string(reinterpret_cast<const char*>(buf.data()) + (buf.size() - size), size);
  }
};

constexpr array_bytes write_half(dtype dt, std::uint16_t a, std::uint16_t b, bool vector) {
  ctff::detail::graph g;
  ctff::detail::lit l{};
  l.dt = dt;
  if (vector) {
    g.dims.push_back(2);
    l.dim_count = 1;
  }
  g.vals.push_back(a);
  if (vector) g.vals.push_back(b);
  l.val_count = static_cast<std::uint32_t>(g.vals.size());
  array_bytes out;
  ctff::detail::back_sink s{out.buf.data(), static_cast<std::ptrdiff_t>(out.buf.size())};
  ctff::detail::write_array(g, l, s);
  out.size = out.buf.size() - static_cast<std::size_t>(s.pos);
  return out;
}
}  // namespace

TEST_CASE("literal wire: float16 and bfloat16 (field 12, field 19)", "[literal][wire]") {
  // 1.0 is 0x3c00 in float16 (varint 80 78) and 0x3f80 in bfloat16 (varint 80 7f); -2.0 is
  // 0xc000 (80 80 03) in both.
  constexpr auto f16 = write_half(dtype::float16, 0x3c00, 0, false);
  constexpr auto bf16 = write_half(dtype::bfloat16, 0x3f80, 0, false);
  constexpr auto f16v = write_half(dtype::float16, 0x3c00, 0xc000, true);
  constexpr auto bf16v = write_half(dtype::bfloat16, 0x3f80, 0xc000, true);
  STATIC_REQUIRE(f16.size == 10);
  STATIC_REQUIRE(bf16.size == 11);
  CHECK(ctff_test::hex(f16.str()) == ctff_test::hex(unhex("0813 1200 6204 0a02 8078")));
  CHECK(ctff_test::hex(bf16.str()) == ctff_test::hex(unhex("080e 1200 9a01 04 0a02 807f")));
  CHECK(ctff_test::hex(f16v.str()) ==
        ctff_test::hex(unhex("0813 1203 0a0102 6207 0a05 8078 808003")));
  CHECK(ctff_test::hex(bf16v.str()) ==
        ctff_test::hex(unhex("080e 1203 0a0102 9a01 07 0a05 807f 808003")));
  // The same at run time, and protobuf reads them as the Array Python would write.
  for (const auto& [dt, field] : {std::pair{dtype::float16, 12}, std::pair{dtype::bfloat16, 19}}) {
    const auto rt = write_half(dt, 0x3c00, 0xc000, true);
    federated_language::Array a;
    REQUIRE(a.ParseFromString(rt.str()));
    CHECK(a.SerializeAsString() == rt.str());
    const auto& list = field == 12 ? a.float16_list() : a.bfloat16_list();
    CHECK(a.kind_case() == field);
    REQUIRE(list.value_size() == 2);
    CHECK(list.value(0) == 0x3c00);
    CHECK(list.value(1) == 0xc000);
  }
}
