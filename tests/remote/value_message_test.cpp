// Values on TFF's remote-execution wire: every dtype both ways, raw `content` as TFF's C++ writes
// it, structs, federated values and sequences; malformed Values are remote_errors naming where.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <variant>

#include <google/protobuf/text_format.h>

#include <ctff/remote/value_message.hpp>

namespace {

tensorflow_federated::v0::Value parse(const std::string& text) {
  tensorflow_federated::v0::Value v;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &v));
  return v;
}

std::string error_of(const tensorflow_federated::v0::Value& v) {
  try {
    (void)ctff::from_message(v);
  } catch (const ctff::remote_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("typed lists: every dtype reads as written by hand, and writes back the same", "[remote][value]") {
  using ctff::dtype;
  struct row {
    const char* text;
    ctff::dynamic_value want;
  };
  const row rows[] = {
      {"array { dtype: DT_BOOL shape { dim: 2 } bool_list { value: true value: false } }",
       ctff::make_tensor<dtype::bool_>({1, 0}, {2})},
      {"array { dtype: DT_INT8 shape { } int8_list { value: -128 } }", ctff::make_scalar<dtype::int8>(-128)},
      {"array { dtype: DT_INT16 shape { } int16_list { value: 300 } }", ctff::make_scalar<dtype::int16>(300)},
      {"array { dtype: DT_INT32 shape { dim: 3 } int32_list { value: 1 value: -2 value: 3 } }",
       ctff::make_tensor<dtype::int32>({1, -2, 3}, {3})},
      {"array { dtype: DT_INT64 shape { } int64_list { value: -9000000000 } }",
       ctff::make_scalar<dtype::int64>(-9000000000)},
      {"array { dtype: DT_UINT8 shape { } uint8_list { value: 255 } }", ctff::make_scalar<dtype::uint8>(255)},
      {"array { dtype: DT_UINT16 shape { } uint16_list { value: 65535 } }", ctff::make_scalar<dtype::uint16>(65535)},
      {"array { dtype: DT_UINT32 shape { } uint32_list { value: 4000000000 } }",
       ctff::make_scalar<dtype::uint32>(4000000000u)},
      {"array { dtype: DT_UINT64 shape { } uint64_list { value: 18000000000000000000 } }",
       ctff::make_scalar<dtype::uint64>(18000000000000000000ull)},
      {"array { dtype: DT_HALF shape { } float16_list { value: 15360 } }",  // 0x3c00: 1.0
       ctff::make_scalar<dtype::float16>(ctff::half_bits{0x3c00})},
      {"array { dtype: DT_BFLOAT16 shape { } bfloat16_list { value: 16256 } }",  // 0x3f80: 1.0
       ctff::make_scalar<dtype::bfloat16>(ctff::bfloat16_bits{0x3f80})},
      {"array { dtype: DT_FLOAT shape { dim: 2 } float32_list { value: 0.5 value: -1.25 } }",
       ctff::make_tensor<dtype::float32>({0.5f, -1.25f}, {2})},
      {"array { dtype: DT_DOUBLE shape { } float64_list { value: 0.1 } }", ctff::make_scalar<dtype::float64>(0.1)},
      {"array { dtype: DT_COMPLEX64 shape { } complex64_list { value: 1 value: -2 } }",
       ctff::make_scalar<dtype::complex64>({1.0f, -2.0f})},
      {"array { dtype: DT_COMPLEX128 shape { } complex128_list { value: 3 value: 4 } }",
       ctff::make_scalar<dtype::complex128>({3.0, 4.0})},
      {"array { dtype: DT_STRING shape { dim: 2 } string_list { value: \"a\" value: \"\\000b\" } }",
       ctff::make_tensor<dtype::str>({"a", std::string("\0b", 2)}, {2})},
  };
  for (const row& r : rows) {
    INFO(r.text);
    const auto m = parse(r.text);
    const ctff::dynamic_value v = ctff::from_message(m);
    CHECK(v == r.want);
    // Written back as TFF's C++ writes it: scalars and strings in the list, others as content.
    const auto back = ctff::to_message(v);
    CHECK(ctff::from_message(back) == r.want);
    if (m.array().shape().dim_size() == 0 || m.array().dtype() == federated_language::DT_STRING)
      CHECK(back.SerializeAsString() == m.SerializeAsString());
    else
      CHECK((back.array().has_content() && back.array().kind_case() == federated_language::Array::KIND_NOT_SET));
  }
}

TEST_CASE("NaN and infinities in float lists read as themselves (no range check on floats)", "[remote][value]") {
  for (const char* text : {"array { dtype: DT_FLOAT shape { dim: 3 } float32_list { value: nan value: inf value: -0.0 } }",
                           "array { dtype: DT_DOUBLE shape { dim: 3 } float64_list { value: nan value: -inf value: -0.0 } }",
                           "array { dtype: DT_COMPLEX64 shape { } complex64_list { value: nan value: inf } }"}) {
    INFO(text);
    const auto m = parse(text);
    const ctff::dynamic_value v = ctff::from_message(m);
    // The same bits back (compared as bytes: NaN is unequal to itself), whatever the encoding.
    const ctff::dynamic_value back = ctff::from_message(ctff::to_message(v));
    CHECK(std::visit(
        [](const auto& a, const auto& b) {
          if constexpr (std::is_same_v<decltype(a), decltype(b)>)
            return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]) == 0;
          else
            return false;
        },
        back.tensor().elements, v.tensor().elements));
    const auto& want = m.array();
    if (want.shape().dim_size() == 1) {
      const ctff::tensor_data& t = v.tensor();
      const std::string raw = ctff::to_message(v).array().content();
      CHECK(raw.size() == 3 * (t.dt == ctff::dtype::float32 ? 4 : 8));
    }
  }
}

TEST_CASE("raw content, row-major little-endian as TFF's C++ writes it, reads as the typed list", "[remote][value]") {
  // Written by hand: float32[2,2] {1, 2, 3, -4.5} is 0x3f800000 0x40000000 0x40400000 0xc0900000.
  const ctff::dynamic_value m22 = ctff::make_tensor<ctff::dtype::float32>({1.0f, 2.0f, 3.0f, -4.5f}, {2, 2});
  CHECK(ctff::to_message(m22).array().content() ==
        std::string("\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x90\xc0", 16));
  tensorflow_federated::v0::Value m;
  auto* a = m.mutable_array();
  a->set_dtype(federated_language::DT_FLOAT);
  a->mutable_shape()->add_dim(2);
  a->mutable_shape()->add_dim(2);
  const float x[4] = {1.0f, 2.0f, 3.0f, -4.5f};
  a->set_content(std::string(reinterpret_cast<const char*>(x), sizeof x));
  CHECK(ctff::from_message(m) == ctff::make_tensor<ctff::dtype::float32>({1.0f, 2.0f, 3.0f, -4.5f}, {2, 2}));
  const bool b[3] = {true, false, true};
  tensorflow_federated::v0::Value mb;
  mb.mutable_array()->set_dtype(federated_language::DT_BOOL);
  mb.mutable_array()->mutable_shape()->add_dim(3);
  mb.mutable_array()->set_content(std::string(reinterpret_cast<const char*>(b), sizeof b));
  CHECK(ctff::from_message(mb) == ctff::make_tensor<ctff::dtype::bool_>({1, 0, 1}, {3}));
}

TEST_CASE("structs, federated values and sequences", "[remote][value]") {
  using ctff::dtype;
  const auto s = parse(
      "struct { element { name: \"a\" value { array { dtype: DT_INT32 shape { } int32_list { value: 1 } } } } "
      "element { name: \"b\" value { array { dtype: DT_FLOAT shape { } float32_list { value: 2 } } } } }");
  const ctff::dynamic_value sv = ctff::from_message(s);
  CHECK(sv == ctff::make_struct_value({ctff::make_scalar<dtype::int32>(1), ctff::make_scalar<dtype::float32>(2.0f)},
                                      {"a", "b"}));
  CHECK(ctff::to_message(sv).SerializeAsString() == s.SerializeAsString());

  // Member type absent (TFF's C++ sends all-equal client values so): read all the same.
  const auto f = parse(
      "federated { type { placement { value { uri: \"clients\" } } all_equal: true } "
      "value { array { dtype: DT_INT32 shape { } int32_list { value: 5 } } } }");
  CHECK(ctff::from_message(f) ==
        ctff::make_federated(ctff::placement_kind::clients, true, {ctff::make_scalar<dtype::int32>(5)}));
  // Written with the member type.
  const auto fm = ctff::to_message(ctff::from_message(f));
  CHECK(fm.federated().type().member().tensor().dtype() == federated_language::DT_INT32);

  const auto q = parse(
      "sequence { element_type { struct { element { name: \"x\" value { tensor { dtype: DT_INT32 } } } "
      "element { name: \"y\" value { tensor { dtype: DT_FLOAT } } } } } "
      "element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 1 } } "
      "flat_value { dtype: DT_FLOAT shape { } float32_list { value: 0.5 } } } "
      "element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 2 } } "
      "flat_value { dtype: DT_FLOAT shape { } float32_list { value: 1.5 } } } }");
  const ctff::dynamic_value qv = ctff::from_message(q);
  auto el = [](int x, float y) {
    return ctff::make_struct_value({ctff::make_scalar<dtype::int32>(x), ctff::make_scalar<dtype::float32>(y)}, {"x", "y"});
  };
  CHECK(qv == ctff::make_sequence({el(1, 0.5f), el(2, 1.5f)}));
  CHECK(ctff::to_message(qv).SerializeAsString() == q.SerializeAsString());
}

TEST_CASE("malformed Values are errors naming where, before any allocation they ask for", "[remote][value]") {
  CHECK(error_of(parse("array { dtype: DT_INT32 shape { dim: 2 } int32_list { value: 1 } }")) ==
        "value: the Array holds 1 values; its shape [2] needs 2");
  CHECK(error_of(parse("array { dtype: DT_INT32 shape { dim: -1 } }")) == "value: a dimension of -1 (Array.shape)");
  CHECK(error_of(parse("array { dtype: DT_INT32 shape { dim: 100000000 dim: 100000000 dim: 100000000 } }")) ==
        "value: the shape has more than 2^48 elements");
  CHECK(error_of(parse("array { dtype: DT_INT32 shape { dim: 1000000000 } content: \"abcd\" }")) ==
        "value: Array.content has 4 bytes; the shape needs 4000000000");
  CHECK(error_of(parse("array { dtype: DT_INT8 shape { } int8_list { value: 300 } }")) ==
        "value: the value 300 is out of range of int8");
  CHECK(error_of(parse("array { dtype: DT_INT32 shape { } float32_list { value: 1 } }")) ==
        "value: the Array's value list is not the one of its dtype int32");
  CHECK(error_of(parse("array { dtype: DT_INVALID }")) == "value: Array.dtype 0 is not a dtype");
  CHECK(error_of(parse("struct { element { name: \"a\" value { } } }")) ==
        "value.a: a Value with none of array, computation, struct, sequence, federated set");
  CHECK(error_of(parse("federated { type { placement { value { uri: \"moon\" } } } }")) ==
        "value: the placement `moon` (clients and server only)");
  CHECK(error_of(parse("federated { type { placement { value { uri: \"server\" } } } }")) ==
        "value: an all_equal federated value with 0 members");
  CHECK(error_of(parse("computation { }")) == "value: a computation where only data is accepted");
  CHECK(error_of(parse("sequence { element_type { tensor { dtype: DT_INT32 } } element { } }")) ==
        "value[0]: a sequence element with fewer tensors than its type");
}

TEST_CASE("NaN in a float list is a value, not out of range", "[remote][value]") {
  // (Found by ctff_fuzz_value: the integer range check compared x with itself converted.)
  const ctff::dynamic_value f = ctff::from_message(parse("array { dtype: DT_FLOAT shape { } float32_list { value: nan } }"));
  CHECK(std::isnan(f.tensor().get<ctff::dtype::float32>()[0]));
  const ctff::dynamic_value d = ctff::from_message(parse("array { dtype: DT_DOUBLE shape { } float64_list { value: nan } }"));
  CHECK(std::isnan(d.tensor().get<ctff::dtype::float64>()[0]));
}

TEST_CASE("a sequence makes at most one value per byte on the wire", "[remote][value]") {
  // An element type of 200 empty structs and 100 empty elements: 20,100 values from ~1 KB (on a
  // 1 GiB gRPC message, billions).
  tensorflow_federated::v0::Value m;
  auto* s = m.mutable_sequence();
  for (int k = 0; k != 200; ++k) s->mutable_element_type()->mutable_struct_()->add_element()->mutable_value()->mutable_struct_();
  for (int k = 0; k != 100; ++k) s->add_element();
  CHECK_THAT(error_of(m), Catch::StartsWith("value: a sequence of 100 elements of 201 values each in"));
  // An element of one tensor per type node is well within the bound.
  CHECK_NOTHROW(ctff::from_message(parse(
      "sequence { element_type { struct { element { value { struct { element { value { tensor { dtype: DT_INT32 } } } } } } } } "
      "element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 1 } } } "
      "element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 2 } } } }")));
}

TEST_CASE("the path of an error is built only for the error: a long name above many elements is linear", "[remote][value]") {
  // Before: every element below a 1 MiB name copied it (50,000 x 1 MiB, minutes); now milliseconds.
  tensorflow_federated::v0::Value m;
  auto* top = m.mutable_struct_()->add_element();
  top->set_name(std::string(1 << 20, 'a'));
  auto* inner = top->mutable_value()->mutable_struct_();
  for (int k = 0; k != 50000; ++k) inner->add_element()->mutable_value()->mutable_struct_();
  const ctff::dynamic_value v = ctff::from_message(m);
  CHECK(v.structure().elements[0].structure().elements.size() == 50000);
  CHECK(ctff::to_message(v).SerializeAsString() == m.SerializeAsString());
  // The path still names the place when something is wrong.
  CHECK(error_of(parse("struct { element { name: \"a\" value { struct { element { value { struct { } } } element { name: \"b\" value { "
                       "federated { value { array { dtype: DT_INT32 shape { dim: 2 } } } } } } } } } }")) ==
        "value.a.b: a federated value without placement");
  CHECK(error_of(parse("sequence { element_type { struct { element { value { tensor { dtype: DT_INT32 } } } } } "
                       "element { flat_value { dtype: DT_INT32 shape { } int32_list { value: 1 } } } "
                       "element { flat_value { dtype: DT_FLOAT shape { } float32_list { value: 1 } } } }")) ==
        "value[1]: a sequence element's tensor whose dtype is not its type's");
}
