// ctff's `Type` wire bytes against protobuf's own parser and serializer, and the Type reader
// (ctff::read_type / ctff::parse_type) with its errors.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include "ctff/proto/errors.hpp"
#include "ctff/proto/type_message.hpp"
#include "ctff/proto/type_reader.hpp"
#include "ctff/reflect/scalar.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/type_string.hpp"
#include "parse_back.hpp"
#include "same_desc.hpp"

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
using ctff::unknown_dim;
using ctff::unknown_rank;
using i32 = std::int32_t;

using ctff_test::hex;

std::string hex(ctff::byte_view b) {
  return hex(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
}

std::string serialize_deterministic(const google::protobuf::MessageLite& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

std::string text_format(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(m, &out);
  return out;
}

federated_language::Type from_text(const std::string& text) {
  federated_language::Type t;
  INFO("text: " << text);
  REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &t));
  return t;
}

// Everything that must hold for one static type T.
template <class T>
void round_trip() {
  using U = ctff::tff_t<T>;
  const std::string_view compact = ctff::type_string<T>();
  const std::string_view formatted = ctff::formatted_type_string<T>();
  INFO("type " << compact);
  const ctff::byte_view bytes = ctff::type_bytes<T>();
  const std::string wire = bytes.str();

  // protobuf parses the bytes, knows every field in them, and writes them back unchanged.
  federated_language::Type m;
  REQUIRE(m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  CHECK(m.GetReflection()->GetUnknownFields(m).empty());
  CHECK(hex(serialize_deterministic(m)) == hex(bytes));
  CHECK(hex(m.SerializeAsString()) == hex(bytes));
  CHECK(m.ByteSizeLong() == bytes.size());

  // Read back, the message is the same type: same strings, same bytes, same description.
  const ctff::type_desc d = ctff::read_type(m);
  CHECK(ctff::to_string(d) == compact);
  CHECK(ctff::to_string(d, true) == formatted);
  CHECK(hex(ctff::serialize(d)) == hex(bytes));
  CHECK(same_desc(d, ctff::describe<U>()));
  CHECK(ctff::is_equivalent(d, ctff::describe<U>()));
  CHECK(same_desc(ctff::parse_type(bytes), d));
  CHECK(same_desc(ctff::parse_type(std::string_view(wire)), d));

  // The messages ctff builds: parsed from the constant bytes, and built through the protobuf API.
  const federated_language::Type from_bytes = ctff::type_proto<T>();
  const federated_language::Type built = ctff::to_proto(d);
  CHECK(google::protobuf::util::MessageDifferencer::Equals(from_bytes, m));
  CHECK(google::protobuf::util::MessageDifferencer::Equals(built, m));
  CHECK(hex(serialize_deterministic(built)) == hex(bytes));
  CHECK(text_format(built) == text_format(m));
}

template <class... T>
void round_trips() {
  (round_trip<T>(), ...);
}

// Expects read_type(t) and parse_type(bytes of t) to throw a type_error at `path` whose problem
// mentions `problem`.
void expect_error(const federated_language::Type& t, const std::string& path,
                  const std::string& problem) {
  INFO("message: " << t.ShortDebugString());
  for (int how = 0; how != 2; ++how) {
    INFO((how == 0 ? "read_type" : "parse_type"));
    try {
      if (how == 0) {
        (void)ctff::read_type(t);
      } else {
        (void)ctff::parse_type(t.SerializeAsString());
      }
      FAIL("no ctff::type_error thrown");
    } catch (const ctff::type_error& e) {
      CHECK(e.path() == path);
      CHECK_THAT(e.problem(), Catch::Contains(problem));
      const std::string what = e.what();
      CHECK_THAT(what, Catch::StartsWith("ctff: invalid federated_language.Type at "));
      CHECK_THAT(what, Catch::Contains(path.empty() ? std::string("(top level)") : path + ": "));
      CHECK_THAT(what, Catch::Contains(problem));
    }
  }
}

void expect_error(const std::string& text, const std::string& path, const std::string& problem) {
  expect_error(from_text(text), path, problem);
}

constexpr const char* int32_member = "member { tensor { dtype: DT_INT32 } }";

}  // namespace

TEST_CASE("Type bytes round-trip through protobuf: tensors", "[proto][types]") {
  round_trips<tensor<dtype::float32>, tensor<dtype::float64>, tensor<dtype::int32>,
              tensor<dtype::uint8>, tensor<dtype::int16>, tensor<dtype::int8>, tensor<dtype::str>,
              tensor<dtype::complex64>, tensor<dtype::int64>, tensor<dtype::bool_>,
              tensor<dtype::bfloat16>, tensor<dtype::uint16>, tensor<dtype::complex128>,
              tensor<dtype::float16>, tensor<dtype::uint32>, tensor<dtype::uint64>>();
  round_trips<bool, std::int8_t, std::uint64_t, float, double, std::string>();
  round_trips<tensor<dtype::int32, 5>, tensor<dtype::int32, 2, 3>,
              tensor<dtype::float32, unknown_dim, 4>, tensor<dtype::int32, 2, unknown_dim>,
              tensor<dtype::float32, unknown_dim, unknown_dim, unknown_dim>,
              tensor<dtype::int32, 2, 0>, tensor<dtype::int32, 0>,
              tensor<dtype::int64, unknown_rank>, tensor<dtype::str, unknown_rank>,
              tensor<dtype::bool_, unknown_rank>,
              // Multi-byte varints in the packed dims.
              tensor<dtype::int64, 127, 128, 16383, 16384, 1099511627776>,
              tensor<dtype::uint8, 9223372036854775807>>();
}

TEST_CASE("Type bytes round-trip through protobuf: structs and sequences", "[proto][types]") {
  round_trips<struct_<>, struct_<i32>, struct_<field<"a", i32>, float>,
              struct_<i32, field<"b", float>>, struct_<struct_<>, struct_<i32, struct_<bool>>>,
              struct_<field<"x", struct_<field<"y", struct_<field<"z", tensor<dtype::float32, 3>>>>>>>,
              struct_<placement_t, field<"p", placement_t>>>();
  // A long name and a long struct: multi-byte lengths.
  round_trips<struct_<field<"a_rather_long_field_name_0123456789_0123456789_0123456789_"
                            "0123456789_0123456789_0123456789_0123456789_0123456789_0123456789",
                            i32>>,
              struct_<i32, float, double, bool, std::int8_t, std::int16_t, std::int64_t,
                      std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::string,
                      field<"f0", tensor<dtype::float32, 1, 2, 3>>,
                      field<"f1", tensor<dtype::float32, unknown_dim>>,
                      field<"f2", tensor<dtype::float32, unknown_rank>>,
                      field<"f3", struct_<i32, i32, i32, i32, i32, i32, i32, i32>>,
                      field<"f4", struct_<i32, i32, i32, i32, i32, i32, i32, i32>>,
                      field<"f5", struct_<i32, i32, i32, i32, i32, i32, i32, i32>>,
                      field<"f6", struct_<i32, i32, i32, i32, i32, i32, i32, i32>>>>();
  round_trips<sequence<i32>, sequence<struct_<i32, float>>,
              sequence<struct_<field<"x", tensor<dtype::float32, unknown_dim>>>>,
              sequence<tensor<dtype::str, unknown_rank>>, sequence<struct_<>>>();
}

TEST_CASE("Type bytes round-trip through protobuf: functions, federated, placement",
          "[proto][types]") {
  round_trips<function<void, i32>, function<i32, float>, function<struct_<i32, float>, double>,
              function<void, struct_<>>, function<struct_<>, struct_<>>,
              function<function<i32, float>, function<void, struct_<>>>,
              function<i32, function<i32, function<void, i32>>>,
              struct_<field<"f", function<struct_<i32>, struct_<bool>>>>>();
  round_trips<at_clients<i32>, at_clients<i32, all_equal>, at_server<i32>,
              federated<i32, placement_kind::server, false>,
              at_server<struct_<field<"a", i32>, field<"b", float>>>,
              at_clients<struct_<field<"a", i32>>>, at_clients<sequence<float>>,
              at_clients<tensor<dtype::float32, unknown_dim, 4>>,
              at_server<tensor<dtype::int64, unknown_rank>>, at_clients<struct_<>>,
              at_server<placement_t>, placement_t>();
  // Intrinsic-shaped and golden-shaped types.
  using agg = function<struct_<at_clients<i32>, i32, function<struct_<i32, i32>, i32>,
                               function<struct_<i32, i32>, i32>, function<i32, float>>,
                       at_server<float>>;
  using select = function<struct_<at_clients<sequence<i32>>, at_server<i32>, at_server<float>,
                                  function<struct_<float, i32>, struct_<field<"v", double>>>>,
                          at_clients<sequence<struct_<field<"v", double>>>>>;
  using named = function<struct_<field<"alpha", at_server<i32>>, field<"beta", at_clients<float>>,
                                 field<"gamma", i32>>,
                         struct_<field<"total", at_server<float>>, field<"first", at_server<i32>>,
                                 field<"last", i32>>>;
  round_trips<agg, select, named>();
}

namespace {
// Types nested N levels deep (sizes of nested messages must be computed without blowing up).
template <int N>
struct deep_struct {
  using type = struct_<field<"x", typename deep_struct<N - 1>::type>, i32>;
};
template <>
struct deep_struct<0> {
  using type = tensor<dtype::float32, unknown_dim, 300>;
};
template <int N>
struct deep_function {
  using type = function<typename deep_function<N - 1>::type, struct_<typename deep_function<N - 1>::type>>;
};
template <>
struct deep_function<0> {
  using type = at_clients<struct_<i32>>;
};
}  // namespace

TEST_CASE("Type bytes round-trip through protobuf: deep nesting", "[proto][types]") {
  round_trips<deep_struct<24>::type, deep_function<6>::type,
              sequence<deep_struct<12>::type>, at_server<deep_struct<12>::type>>();
  STATIC_REQUIRE(ctff::type_bytes<deep_struct<40>::type>().size() > 40 * 6);
}

TEST_CASE("Type bytes: known byte sequences", "[proto][types]") {
  // ( -> int32), reference §1.8: type{function{result{tensor{dtype:3}}}}.
  CHECK(hex(ctff::type_bytes<function<void, i32>>()) == "0a06120422020803");
  // Type{placement{}}: the explicitly set empty message is kept.
  CHECK(hex(ctff::type_bytes<placement_t>()) == "3200");
  // An empty struct likewise.
  CHECK(hex(ctff::type_bytes<struct_<>>()) == "1200");
  // dims [2,-1]: packed, -1 as a ten-byte varint (reference §1.3).
  CHECK(hex(ctff::type_bytes<tensor<dtype::float32, 2, unknown_dim>>()) ==
        "220f0801120b02ffffffffffffffffff01");
  // Unknown rank: unknown_rank = true, no dims.
  CHECK(hex(ctff::type_bytes<tensor<dtype::int64, unknown_rank>>()) == "220408091801");
  // {int32}@CLIENTS: all_equal = false is not written; int32@SERVER writes all_equal = true.
  CHECK(hex(ctff::type_bytes<at_clients<i32>>()) == "3a130a0b12090a07636c69656e74731a0422020803");
  CHECK(hex(ctff::type_bytes<at_server<i32>>()) == "3a140a0a12080a0673657276657210011a0422020803");
}

TEST_CASE("Type messages in protobuf text format", "[proto][types]") {
  CHECK(text_format(ctff::type_proto<placement_t>()) == "placement {\n}\n");
  CHECK(text_format(ctff::type_proto<struct_<>>()) == "struct {\n}\n");
  CHECK(text_format(ctff::type_proto<tensor<dtype::float32, 2, unknown_dim>>()) ==
        "tensor {\n"
        "  dtype: DT_FLOAT\n"
        "  dims: 2\n"
        "  dims: -1\n"
        "}\n");
  CHECK(text_format(ctff::type_proto<tensor<dtype::int64, unknown_rank>>()) ==
        "tensor {\n"
        "  dtype: DT_INT64\n"
        "  unknown_rank: true\n"
        "}\n");
  CHECK(text_format(ctff::type_proto<function<void, i32>>()) ==
        "function {\n"
        "  result {\n"
        "    tensor {\n"
        "      dtype: DT_INT32\n"
        "    }\n"
        "  }\n"
        "}\n");
  CHECK(text_format(ctff::type_proto<at_clients<struct_<field<"a", i32>, bool>>>()) ==
        "federated {\n"
        "  placement {\n"
        "    value {\n"
        "      uri: \"clients\"\n"
        "    }\n"
        "  }\n"
        "  member {\n"
        "    struct {\n"
        "      element {\n"
        "        name: \"a\"\n"
        "        value {\n"
        "          tensor {\n"
        "            dtype: DT_INT32\n"
        "          }\n"
        "        }\n"
        "      }\n"
        "      element {\n"
        "        value {\n"
        "          tensor {\n"
        "            dtype: DT_BOOL\n"
        "          }\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n");
  CHECK(text_format(ctff::type_proto<function<at_server<float>, placement_t>>()) ==
        "function {\n"
        "  parameter {\n"
        "    federated {\n"
        "      placement {\n"
        "        value {\n"
        "          uri: \"server\"\n"
        "        }\n"
        "      }\n"
        "      all_equal: true\n"
        "      member {\n"
        "        tensor {\n"
        "          dtype: DT_FLOAT\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "  result {\n"
        "    placement {\n"
        "    }\n"
        "  }\n"
        "}\n");
}

TEST_CASE("Reading Type messages written by hand", "[proto][types]") {
  // Explicit defaults on the wire (all_equal: false, empty names) read like absent ones.
  const auto t = from_text(
      "struct { element { name: \"\" value { federated { placement { value { uri: \"clients\" } }"
      " all_equal: false member { tensor { dtype: DT_INT32 dims: [] unknown_rank: false } } } } } }");
  const auto d = ctff::read_type(t);
  CHECK(ctff::to_string(d) == "<{int32}@CLIENTS>");
  CHECK(same_desc(d, ctff::describe<ctff::tff_t<struct_<at_clients<i32>>>>()));

  // PlacementType.instance_label is ignored, as federated_language does.
  CHECK(ctff::to_string(ctff::read_type(from_text("placement { instance_label { label: \"x\" } }"))) ==
        "placement");

  // A placement at SERVER that is not all_equal.
  CHECK(ctff::to_string(ctff::read_type(from_text(
            "federated { placement { value { uri: \"server\" } } member { tensor { dtype: DT_HALF } } }"))) ==
        "{float16}@SERVER");

  // Abstract types read back (they are representable, though never emitted by ctff).
  const auto abs = ctff::read_type(from_text(
      "function { parameter { abstract { label: \"T\" } } result { federated { placement { value {"
      " uri: \"server\" } } all_equal: true member { abstract { label: \"T\" } } } } }"));
  CHECK(ctff::to_string(abs) == "(T -> T@SERVER)");
  using abs_t = function<abstract_t<"T">, at_server<abstract_t<"T">>>;
  CHECK(same_desc(abs, ctff::describe<ctff::tff_t<abs_t>>()));
  CHECK(ctff::to_proto(abs).SerializeAsString() == ctff::serialize(abs));
  CHECK(google::protobuf::util::MessageDifferencer::Equals(
      ctff::to_proto(ctff::describe<ctff::tff_t<abs_t>>()), ctff::to_proto(abs)));

  // An abstract type with an empty label (which the reader rejects) still serializes consistently.
  const auto empty_label = ctff::describe<abstract_t<"">>();
  CHECK(hex(ctff::serialize(empty_label)) == "2a00");
  CHECK(hex(ctff::to_proto(empty_label).SerializeAsString()) == "2a00");

  // Every dtype number federated_language knows reads back with its name.
  for (int n = -1; n != 30; ++n) {
    federated_language::Type x;
    x.mutable_tensor()->set_dtype(static_cast<federated_language::DataType>(n));
    if (ctff::is_valid_dtype(static_cast<std::uint64_t>(n < 0 ? 0 : n))) {
      const auto dd = ctff::read_type(x);
      CHECK(ctff::to_string(dd) == ctff::dtype_name(static_cast<dtype>(n)));
      CHECK(federated_language::DataType_IsValid(n));
    } else {
      CHECK_THROWS_AS(ctff::read_type(x), ctff::type_error);
    }
  }
}

TEST_CASE("Type reader errors", "[proto][types][errors]") {
  SECTION("no kind") {
    expect_error(federated_language::Type{}, "", "no kind");
    expect_error("function { parameter { } result { tensor { dtype: DT_INT32 } } }",
                 "function.parameter", "no kind");
    expect_error("sequence { element { } }", "sequence.element", "no kind");
  }
  SECTION("missing fields") {
    expect_error("function { parameter { tensor { dtype: DT_INT32 } } }", "function.result",
                 "FunctionType.result is missing");
    expect_error("function { }", "function.result", "FunctionType.result is missing");
    expect_error("struct { element { name: \"a\" } }", "struct[0](a)",
                 "StructType.Element.value is missing");
    expect_error("sequence { }", "sequence.element", "SequenceType.element is missing");
    expect_error(std::string("federated { ") + int32_member + " }", "federated.placement",
                 "FederatedType.placement is missing");
    expect_error("federated { placement { value { uri: \"server\" } } }", "federated.member",
                 "FederatedType.member is missing");
  }
  SECTION("tensors") {
    expect_error("tensor { }", "tensor.dtype", "unknown dtype number 0 (DT_INVALID)");
    expect_error("tensor { dims: 3 }", "tensor.dtype", "unknown dtype number 0");
    for (int n : {11, 12, 13, 15, 16, 20, 21, 24, 100, -3}) {
      federated_language::Type t;
      t.mutable_tensor()->set_dtype(static_cast<federated_language::DataType>(n));
      expect_error(t, "tensor.dtype", "unknown dtype number " + std::to_string(n));
    }
    expect_error("tensor { dtype: DT_FLOAT dims: 2 dims: -2 }", "tensor.dims[1]",
                 "dimension -2 is invalid");
    expect_error("tensor { dtype: DT_FLOAT dims: -9223372036854775808 }", "tensor.dims[0]",
                 "dimension -9223372036854775808 is invalid");
    expect_error("tensor { dtype: DT_FLOAT dims: 2 unknown_rank: true }", "tensor",
                 "unknown_rank is set together with 1 dims");
  }
  SECTION("placements") {
    expect_error(std::string("federated { placement { label { label: \"P\" } } ") + int32_member + " }",
                 "federated.placement.label", "placement is given by a label (`P`)");
    expect_error(std::string("federated { placement { } ") + int32_member + " }",
                 "federated.placement", "PlacementSpec is empty");
    expect_error(std::string("federated { placement { value { uri: \"CLIENTS\" } } ") + int32_member + " }",
                 "federated.placement.value.uri", "unknown placement URI `CLIENTS`");
    expect_error(std::string("federated { placement { value { } } ") + int32_member + " }",
                 "federated.placement.value.uri", "unknown placement URI ``");
    expect_error(std::string("federated { placement { value { uri: \"tee\" } } ") + int32_member + " }",
                 "federated.placement.value.uri", "unknown placement URI `tee`");
  }
  SECTION("nesting") {
    const std::string fed_int = std::string("federated { placement { value { uri: \"clients\" } } ") +
                                int32_member + " }";
    // Federated inside federated, directly and through a struct.
    expect_error("federated { placement { value { uri: \"server\" } } all_equal: true member { " +
                     fed_int + " } }",
                 "federated.member", "a federated type inside the federated type at (top level)");
    expect_error("federated { placement { value { uri: \"server\" } } member { struct { element {"
                 " value { tensor { dtype: DT_INT32 } } } element { name: \"x\" value { " +
                     fed_int + " } } } } }",
                 "federated.member.struct[1](x)", "a federated member cannot contain");
    // Function inside federated.
    expect_error("federated { placement { value { uri: \"server\" } } member { struct { element {"
                 " name: \"f\" value { function { result { tensor { dtype: DT_INT32 } } } } } } } }",
                 "federated.member.struct[0](f)",
                 "a function type inside the federated type at (top level)");
    // Sequence inside sequence, directly and through structs.
    expect_error("sequence { element { sequence { element { tensor { dtype: DT_INT32 } } } } }",
                 "sequence.element", "a sequence type inside the sequence type at (top level)");
    expect_error("struct { element { name: \"s\" value { sequence { element { struct { element {"
                 " value { struct { element { value { sequence { element { tensor { dtype: DT_INT32"
                 " } } } } } } } } } } } } } }",
                 "struct[0](s).sequence.element.struct[0].struct[0]",
                 "a sequence type inside the sequence type at struct[0](s)");
    // Federated and function inside sequence.
    expect_error("sequence { element { struct { element { value { tensor { dtype: DT_INT32 } } }"
                 " element { value { " +
                     fed_int + " } } } } }",
                 "sequence.element.struct[1]",
                 "a federated type inside the sequence type at (top level)");
    expect_error("sequence { element { function { result { tensor { dtype: DT_INT32 } } } } }",
                 "sequence.element", "a function type inside the sequence type");
    // Sequence inside federated is fine, and so is placement inside federated.
    CHECK(ctff::to_string(ctff::read_type(from_text(
              "federated { placement { value { uri: \"clients\" } } member { sequence { element {"
              " placement { } } } } }"))) == "{placement*}@CLIENTS");
  }
  SECTION("struct names") {
    expect_error("struct { element { name: \"a\" value { tensor { dtype: DT_INT32 } } }"
                 " element { name: \"a\" value { tensor { dtype: DT_FLOAT } } } }",
                 "struct[1](a)", "duplicate struct element name `a` (element 0 has the same name)");
    expect_error("struct { element { name: \"a\" value { tensor { dtype: DT_INT32 } } }"
                 " element { value { tensor { dtype: DT_INT32 } } }"
                 " element { name: \"b\" value { tensor { dtype: DT_INT32 } } }"
                 " element { name: \"a\" value { tensor { dtype: DT_FLOAT } } } }",
                 "struct[3](a)", "duplicate struct element name `a`");
    // Unnamed elements may repeat (an empty name means unnamed).
    CHECK(ctff::to_string(ctff::read_type(from_text(
              "struct { element { value { tensor { dtype: DT_INT32 } } } element { name: \"\""
              " value { tensor { dtype: DT_INT32 } } } }"))) == "<int32,int32>");
  }
  SECTION("abstract") {
    expect_error("abstract { }", "abstract.label", "empty label");
  }
  SECTION("a deep path") {
    const std::string head =
        "function { parameter { struct { element { name: \"a\" value { tensor { dtype: DT_INT32 } } }"
        " element { name: \"b\" value { federated { placement { value { uri: \"clients\" } } ";
    const std::string tail = " } } } } } result { tensor { dtype: DT_INT32 } } }";
    expect_error(head + "member { " +
                     "federated { placement { value { uri: \"clients\" } } " + int32_member + " }" +
                     " }" + tail,
                 "function.parameter.struct[1](b).federated.member",
                 "a federated type inside the federated type at function.parameter.struct[1](b)");
    expect_error(head + "member { }" + tail, "function.parameter.struct[1](b).federated.member",
                 "no kind");
    expect_error(head + "member { tensor { dtype: DT_FLOAT dims: [1, -7] } }" + tail,
                 "function.parameter.struct[1](b).federated.member.tensor.dims[1]",
                 "dimension -7 is invalid");
    // The same message is fine once the inner error is repaired.
    CHECK(ctff::to_string(ctff::read_type(from_text(head + int32_member + tail))) ==
          "(<a=int32,b={int32}@CLIENTS> -> int32)");
  }
}

TEST_CASE("Type reader: bytes", "[proto][types][errors]") {
  // Bytes protobuf cannot parse.
  for (const std::string& bad : {std::string("\xff\xff", 2), std::string("\x0a\x05\x12", 3),
                                std::string("\x22\x02\x08", 3)}) {
    INFO("bytes " << hex(bad));
    try {
      (void)ctff::parse_type(bad);
      FAIL("no ctff::type_error thrown");
    } catch (const ctff::type_error& e) {
      CHECK(e.path().empty());
      CHECK_THAT(e.problem(), Catch::Contains("do not parse as a federated_language.Type"));
    }
  }
  // Truncated ctff bytes.
  const std::string good = ctff::type_bytes<at_clients<struct_<field<"a", i32>>>>().str();
  CHECK_THROWS_AS(ctff::parse_type(std::string_view(good).substr(0, good.size() - 1)),
                  ctff::type_error);
  // No bytes at all are an empty Type: no kind.
  CHECK_THROWS_WITH(ctff::parse_type(std::string_view{}),
                    Catch::Contains("at (top level): the Type has no kind"));
  // A path prefix locates a Type inside a larger message.
  try {
    federated_language::Type t;
    t.mutable_sequence()->mutable_element()->mutable_tensor()->set_dtype(
        static_cast<federated_language::DataType>(12));
    (void)ctff::parse_type(t.SerializeAsString(), "lambda.result.type");
    FAIL("no ctff::type_error thrown");
  } catch (const ctff::type_error& e) {
    CHECK(e.path() == "lambda.result.type.sequence.element.tensor.dtype");
  }
  // type_error is a std::runtime_error.
  CHECK_THROWS_AS(ctff::parse_type(std::string("\xff", 1)), std::runtime_error);
  CHECK_THROWS_AS(ctff::read_type(federated_language::Type{}), std::runtime_error);
}
