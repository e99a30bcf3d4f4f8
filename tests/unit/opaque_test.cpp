// Opaque local computations: TensorFlow (Computation.tensorflow), XLA (Computation.xla) and Data.
// Expected messages are written by hand from the reference (tff-language.md §1.2, §1.4, §1.5,
// §1.9); printed forms follow §4.1 (`comp#<adler32 hex>`; Data: ctff's stand-in, see
// docs/opaque_computations.md).
#include "ctff/trace/opaque.hpp"

#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/proto.hpp"
#include "ctff/trace/polymorphic.hpp"
#include "parse_back.hpp"

namespace {

using ctff::at_clients;
using ctff::tf_struct;
using ctff::tf_tensor;
using i32 = std::int32_t;

federated_language::Computation parse_text(const std::string& text) {
  federated_language::Computation c;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &c));
  return c;
}

// MessageDifferencer::Equals; the payload Anys (GraphDef, HloModuleProto, ...) are not linked in,
// so it compares them field by field (type_url, value), and protobuf's notes about that are
// silenced.
bool same_message(const federated_language::Computation& expected,
                  const federated_language::Computation& actual) {
  const google::protobuf::LogSilencer quiet;
  const bool equal = google::protobuf::util::MessageDifferencer::Equals(expected, actual);
  if (!equal) {
    UNSCOPED_INFO("expected:\n" << expected.DebugString() << "actual:\n" << actual.DebugString());
  }
  return equal;
}

template <class C>
void require_proto(const C& c, const std::string& expected_text) {
  // Our bytes are the canonical serialization of the message (what Python's SerializeToString()
  // gives, and so what its adler32 is computed over): require_parses checks the round trip.
  const federated_language::Computation actual = ctff_test::require_parses(c.bytes());
  CHECK(same_message(parse_text(expected_text), actual));
}

// adler32 written independently of ctff's (RFC 1950).
std::uint32_t reference_adler32(const std::vector<unsigned char>& bytes) {
  std::uint32_t s1 = 1, s2 = 0;
  for (unsigned char b : bytes) {
    s1 = (s1 + b) % 65521;
    s2 = (s2 + s1) % 65521;
  }
  return s2 * 65536 + s1;
}
std::string hex_name(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "comp#%x", static_cast<unsigned>(v));
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Opaque computations made from literals: constant expressions.

constexpr auto scale = ctff::tensorflow_computation<ctff::function<float, float>>(
    "\x0a\x03\x0a\x01x", tf_tensor("x:0"), tf_tensor("y:0"));

using float_rows = ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 3>;
using source_result =
    ctff::struct_<float_rows, ctff::sequence<i32>, ctff::sequence<float>, ctff::struct_<>>;
constexpr auto source = ctff::tensorflow_computation<ctff::function<void, source_result>>(
    "GD",
    tf_struct(tf_tensor("a:0"), ctff::tf_sequence("ds:0"), ctff::tf_sequence_graph_def("g:0"),
              tf_struct()),
    ctff::tf_options{.initialize_op = "init",
                     .cache_key = 42,
                     .session_token_tensor_name = "session_token_tensor:0"});

constexpr unsigned char hlo_bytes[] = {0x0a, 0x00, 0x48};
constexpr auto pick =
    ctff::xla_computation<ctff::function<ctff::struct_<float, i32>, ctff::struct_<float>>>(
        hlo_bytes, ctff::xla_struct(ctff::xla_index(0), ctff::xla_index(1)),
        ctff::xla_struct(ctff::xla_index(0)));

constexpr auto dataset =
    ctff::data<at_clients<ctff::sequence<float>>>("type.googleapis.com/my.Dataset", "\x01\x02");

// Used in traces.
constexpr auto mapped =
    ctff::computation<"m", at_clients<float>>([](auto v) { return ctff::federated_map(scale, v); });
constexpr auto called = ctff::computation<"c", float>([](auto x) { return scale(x); });
constexpr auto applied = ctff::computation<"a", ctff::at_server<ctff::struct_<float, i32>>>(
    [](auto v) { return ctff::federated_map(pick, v); });
constexpr auto over_data = ctff::computation<"d">(
    [] { return ctff::federated_map(ctff::polymorphic<"len">([](auto) { return 1; }), dataset); });

constexpr std::string_view tf_text = R"pb(
  type {
    function {
      parameter { tensor { dtype: DT_FLOAT } }
      result { tensor { dtype: DT_FLOAT } }
    }
  }
  tensorflow {
    graph_def { type_url: "type.googleapis.com/tensorflow.GraphDef" value: "\n\003\n\001x" }
    parameter { tensor { tensor_name: "x:0" } }
    result { tensor { tensor_name: "y:0" } }
  }
)pb";

}  // namespace

TEST_CASE("opaque: a TensorFlow computation", "[opaque]") {
  STATIC_REQUIRE(scale.type_string() == "(float32 -> float32)");
  // Python: '{:x}'.format(zlib.adler32(bytes)) of these bytes is 381e1394 (checked with zlib).
  STATIC_REQUIRE(scale.checksum() == 0x381e1394u);
  STATIC_REQUIRE(scale.compact() == "comp#381e1394");
  STATIC_REQUIRE(scale.formatted() == "comp#381e1394");
  require_proto(scale, std::string(tf_text));
}

TEST_CASE("opaque: the message comparison sees into the Any payload", "[opaque]") {
  federated_language::Computation other = parse_text(std::string(tf_text));
  other.mutable_tensorflow()->mutable_graph_def()->set_value("\x0a\x03\x0a\x01y");
  CHECK_FALSE(same_message(ctff::to_proto(scale), other));
  other = parse_text(std::string(tf_text));
  other.mutable_tensorflow()->mutable_graph_def()->set_type_url("type.googleapis.com/other");
  CHECK_FALSE(same_message(ctff::to_proto(scale), other));
}

TEST_CASE("opaque: TensorFlow bindings and options", "[opaque]") {
  STATIC_REQUIRE(source.type_string() == "( -> <float32[?,3],int32*,float32*,<>>)");
  require_proto(source, R"pb(
    type {
      function {
        result {
          struct {
            element { value { tensor { dtype: DT_FLOAT dims: -1 dims: 3 } } }
            element { value { sequence { element { tensor { dtype: DT_INT32 } } } } }
            element { value { sequence { element { tensor { dtype: DT_FLOAT } } } } }
            element { value { struct {} } }
          }
        }
      }
    }
    tensorflow {
      graph_def { type_url: "type.googleapis.com/tensorflow.GraphDef" value: "GD" }
      result {
        struct {
          element { tensor { tensor_name: "a:0" } }
          element { sequence { variant_tensor_name: "ds:0" } }
          element { sequence { graph_def_tensor_name: "g:0" } }
          element { struct {} }
        }
      }
      initialize_op: "init"
      cache_key { id: 42 }
      session_token_tensor_name: "session_token_tensor:0"
    }
  )pb");
  // No parameter binding, no options: only what is set is written.
  constexpr auto bare = ctff::tensorflow_computation<ctff::function<void, i32>>("", tf_tensor(""));
  require_proto(bare, R"pb(
    type { function { result { tensor { dtype: DT_INT32 } } } }
    tensorflow {
      graph_def { type_url: "type.googleapis.com/tensorflow.GraphDef" }
      result { tensor { tensor_name: "" } }
    }
  )pb");
}

TEST_CASE("opaque: an XLA computation", "[opaque]") {
  STATIC_REQUIRE(pick.type_string() == "(<float32,int32> -> <float32>)");
  require_proto(pick, R"pb(
    type {
      function {
        parameter {
          struct {
            element { value { tensor { dtype: DT_FLOAT } } }
            element { value { tensor { dtype: DT_INT32 } } }
          }
        }
        result { struct { element { value { tensor { dtype: DT_FLOAT } } } } }
      }
    }
    xla {
      hlo_module { type_url: "type.googleapis.com/xla.HloModuleProto" value: "\n\000H" }
      parameter {
        struct {
          element { tensor { index: 0 } }
          element { tensor { index: 1 } }
        }
      }
      result { struct { element { tensor { index: 0 } } } }
    }
  )pb");
  // Index 0 is a set oneof member: Binding{tensor{index: 0}} is written as 12 02 08 00.
  const std::vector<unsigned char> b = pick.bytes();
  const std::vector<unsigned char> index0 = {0x12, 0x02, 0x08, 0x00};
  CHECK(std::search(b.begin(), b.end(), index0.begin(), index0.end()) != b.end());
  CHECK(pick.compact() == hex_name(reference_adler32(b)));
}

TEST_CASE("opaque: Data", "[opaque]") {
  STATIC_REQUIRE(dataset.type_string() == "{float32*}@CLIENTS");
  require_proto(dataset, R"pb(
    type {
      federated {
        placement { value { uri: "clients" } }
        member { sequence { element { tensor { dtype: DT_FLOAT } } } }
      }
    }
    data { content { type_url: "type.googleapis.com/my.Dataset" value: "\001\002" } }
  )pb");
  // Python prints id(content); ctff prints the decimal adler32 of the serialized message.
  CHECK(dataset.compact() == std::to_string(reference_adler32(dataset.bytes())));
  CHECK(dataset.formatted() == dataset.compact());
}

TEST_CASE("opaque: adler32 names", "[opaque]") {
  constexpr unsigned char wikipedia[] = {'W', 'i', 'k', 'i', 'p', 'e', 'd', 'i', 'a'};
  STATIC_REQUIRE(ctff::detail::adler32(wikipedia, 0) == 1u);
  STATIC_REQUIRE(ctff::detail::adler32(wikipedia, 9) == 0x11e60398u);
  CHECK(scale.compact() == hex_name(reference_adler32(scale.bytes())));
  CHECK(source.compact() == hex_name(reference_adler32(source.bytes())));
  // No zero padding: a checksum below 0x10000000 has fewer than 8 digits.
  bool found_short = false;
  for (int n = 0; n < 64 && !found_short; ++n) {
    const auto c = ctff::tensorflow_computation<ctff::function<float, float>>(
        std::string(static_cast<std::size_t>(n), 'a'), tf_tensor("x:0"), tf_tensor("y:0"));
    CHECK(c.compact() == hex_name(reference_adler32(c.bytes())));
    found_short = c.checksum() < 0x10000000u;
    if (found_short) CHECK(c.compact().size() < 13);
  }
}

TEST_CASE("opaque: use in federated_map, apply and calls", "[opaque]") {
  STATIC_REQUIRE(
      mapped.compact() ==
      "(m_arg -> (let fc_m_symbol_0=federated_map(<comp#381e1394,m_arg>) in fc_m_symbol_0))");
  STATIC_REQUIRE(mapped.formatted() ==
                 "(m_arg -> (let\n"
                 "  fc_m_symbol_0=federated_map(<\n"
                 "    comp#381e1394,\n"
                 "    m_arg\n"
                 "  >)\n"
                 " in fc_m_symbol_0))");
  STATIC_REQUIRE(called.compact() ==
                 "(c_arg -> (let fc_c_symbol_0=comp#381e1394(c_arg) in fc_c_symbol_0))");
  STATIC_REQUIRE(applied.type_string() == "(<float32,int32>@SERVER -> <float32>@SERVER)");

  // The embedded message is the opaque computation's, unchanged.
  const federated_language::Computation m = ctff_test::require_parses(mapped.bytes());
  const auto& map_arg = m.lambda().result().block().local(0).value().call().argument();
  REQUIRE(map_arg.struct_().element_size() == 2);
  CHECK(same_message(ctff::to_proto(scale), map_arg.struct_().element(0).value()));
  const federated_language::Computation a = ctff_test::require_parses(applied.bytes());
  const auto& apply = a.lambda().result().block().local(0).value().call();
  CHECK(apply.function().intrinsic().uri() == "federated_apply");
  CHECK(same_message(ctff::to_proto(pick), apply.argument().struct_().element(0).value()));
  const federated_language::Computation c = ctff_test::require_parses(called.bytes());
  CHECK(same_message(ctff::to_proto(scale),
                     c.lambda().result().block().local(0).value().call().function()));

  // Data as a value.
  const federated_language::Computation d = ctff_test::require_parses(over_data.bytes());
  const auto& data_arg = d.lambda().result().block().local(0).value().call().argument();
  CHECK(same_message(ctff::to_proto(dataset), data_arg.struct_().element(1).value()));
  CHECK(over_data.compact() == "( -> (let fc_d_symbol_0=federated_map(<(len_arg -> 1)," +
                                   std::string(dataset.compact()) + ">) in fc_d_symbol_0))");
}

TEST_CASE("opaque: run-time construction owns its strings", "[opaque]") {
  auto make = [] {
    std::string graph_def = "\x0a\x03\x0a\x01x";
    std::string x = "x:0", y = "y:0";
    return ctff::tensorflow_computation<ctff::function<float, float>>(graph_def, tf_tensor(x),
                                                                      tf_tensor(y));
  };
  const auto owned = make();  // every string it was made from is gone
  CHECK(owned.bytes() == scale.bytes());
  CHECK(owned.compact() == scale.compact());
  require_proto(owned, std::string(tf_text));

  const auto owned_copy = owned;
  CHECK(owned_copy.bytes() == scale.bytes());

  const auto xla = [] {
    std::vector<unsigned char> hlo(std::begin(hlo_bytes), std::end(hlo_bytes));
    return ctff::xla_computation<ctff::function<ctff::struct_<float, i32>, ctff::struct_<float>>>(
        hlo, ctff::xla_struct(ctff::xla_index(0), ctff::xla_index(1)),
        ctff::xla_struct(ctff::xla_index(0)));
  }();
  CHECK(xla.bytes() == pick.bytes());

  const auto data = [] {
    std::string url = "type.googleapis.com/my.Dataset";
    return ctff::data<at_clients<ctff::sequence<float>>>(url, "\x01\x02");
  }();
  CHECK(data.bytes() == dataset.bytes());
  CHECK(data.compact() == dataset.compact());

  // A run-time trace using it: the same bytes as the compile-time one.
  const auto rt_mapped = ctff::computation<"m", at_clients<float>>(
      [&owned](auto v) { return ctff::federated_map(owned, v); });
  ctff_test::require_parses(rt_mapped.bytes());
  CHECK(rt_mapped.bytes() == mapped.bytes());
  CHECK(rt_mapped.compact() == mapped.compact());
  CHECK(rt_mapped.formatted() == mapped.formatted());
  const auto rt_called = ctff::computation<"c", float>([&owned](auto x) { return owned(x); });
  CHECK(rt_called.bytes() == called.bytes());
}

TEST_CASE("opaque: bindings must mirror the type", "[opaque]") {
  // The builders' shapes are checked at compile time (compile_fail/opaque_binding_shape.cpp);
  // a binding whose shape was forgotten (tf_binding<N>) is checked when the computation is made.
  const std::string gd = "GD";
  using F = ctff::function<ctff::struct_<float, float>, float>;
  using two_floats = ctff::tff_t<ctff::struct_<float, float>>;
  STATIC_REQUIRE(ctff::detail::binding_fits_v<
                 two_floats, decltype(tf_struct(tf_tensor(""), tf_tensor("")))::shape>);
  STATIC_REQUIRE(!ctff::detail::binding_fits_v<two_floats, decltype(tf_tensor(""))::shape>);
  STATIC_REQUIRE(!ctff::detail::binding_fits_v<
                 two_floats, decltype(tf_struct(tf_tensor(""), ctff::tf_sequence("")))::shape>);
  const ctff::tf_binding<1> x = tf_tensor("x:0");
  const ctff::tf_binding<1> y = tf_tensor("y:0");
  const ctff::tf_binding<2> a = tf_struct(tf_tensor("a:0"));
  const ctff::tf_binding<3> a_seq = tf_struct(tf_tensor("a:0"), ctff::tf_sequence("b:0"));
  const ctff::tf_binding<3> ab = tf_struct(tf_tensor("a:0"), tf_tensor("b:0"));
  CHECK_THROWS_AS(ctff::tensorflow_computation<F>(gd, x, y), std::invalid_argument);
  CHECK_THROWS_AS(ctff::tensorflow_computation<F>(gd, a, y), std::invalid_argument);
  CHECK_THROWS_AS(ctff::tensorflow_computation<F>(gd, a_seq, y), std::invalid_argument);
  CHECK_NOTHROW(ctff::tensorflow_computation<F>(gd, ab, y));
  using G = ctff::function<float, float>;
  const ctff::xla_binding<1> empty_struct = ctff::xla_struct();
  CHECK_THROWS_AS(ctff::xla_computation<G>(std::vector<unsigned char>{}, empty_struct,
                                           ctff::xla_index(0)),
                  std::invalid_argument);
}

namespace {
// A graph_def that is `Any()`: no type_url, no value (TFF's test helpers build such protos).
constexpr auto empty_graph = ctff::tensorflow_computation<ctff::function<float, float>>(
    ctff::empty_any, tf_tensor("x:0"), tf_tensor("y:0"));
constexpr auto empty_hlo = ctff::xla_computation<ctff::function<float, float>>(
    ctff::empty_any, ctff::xla_index(0), ctff::xla_index(0));
constexpr auto mapped_empty = ctff::computation<"m", at_clients<float>>(
    [](auto v) { return ctff::federated_map(empty_graph, v); });

// (float32 -> float32) with the payload field set to an empty message, built with protobuf.
federated_language::Computation empty_payload_message(bool xla) {
  federated_language::Computation c;
  auto* f = c.mutable_type()->mutable_function();
  f->mutable_parameter()->mutable_tensor()->set_dtype(federated_language::DT_FLOAT);
  f->mutable_result()->mutable_tensor()->set_dtype(federated_language::DT_FLOAT);
  if (xla) {
    auto* x = c.mutable_xla();
    x->mutable_hlo_module();  // set, empty
    x->mutable_parameter()->mutable_tensor()->set_index(0);
    x->mutable_result()->mutable_tensor()->set_index(0);
  } else {
    auto* tf = c.mutable_tensorflow();
    tf->mutable_graph_def();  // set, empty
    tf->mutable_parameter()->mutable_tensor()->set_tensor_name("x:0");
    tf->mutable_result()->mutable_tensor()->set_tensor_name("y:0");
  }
  return c;
}
}  // namespace

TEST_CASE("opaque: an empty graph_def Any is written as a present, empty message", "[opaque]") {
  // By hand: type (as for scale), then tensorflow (field 2, 20 bytes): graph_def `0a 00`,
  // parameter `12 07 12 05 0a 03 "x:0"`, result `1a 07 12 05 0a 03 "y:0"`.
  const std::string by_hand =
      std::string("\x0a\x0e\x0a\x0c\x0a\x04\x22\x02\x08\x01\x12\x04\x22\x02\x08\x01") +
      std::string("\x12\x14\x0a\x00", 4) + "\x12\x07\x12\x05\x0a\x03x:0" +
      "\x1a\x07\x12\x05\x0a\x03y:0";
  const std::vector<unsigned char> b = empty_graph.bytes();
  const std::string bytes(b.begin(), b.end());
  CHECK(ctff_test::hex(bytes) == ctff_test::hex(by_hand));
  CHECK(ctff_test::hex(bytes) == ctff_test::hex(empty_payload_message(false).SerializeAsString()));
  const federated_language::Computation m = ctff_test::require_parses(b);
  CHECK(m.tensorflow().has_graph_def());
  CHECK(m.tensorflow().graph_def().type_url().empty());
  STATIC_REQUIRE(empty_graph.size() == 38);
  CHECK(empty_graph.compact() == hex_name(reference_adler32(b)));

  // The same for XLA's hlo_module, and at run time (names from run-time strings).
  const std::vector<unsigned char> xb = empty_hlo.bytes();
  CHECK(ctff_test::require_parses(xb).xla().has_hlo_module());
  CHECK(std::string(xb.begin(), xb.end()) == empty_payload_message(true).SerializeAsString());
  const std::string x = "x:0", y = "y:0";
  const auto rt = ctff::tensorflow_computation<ctff::function<float, float>>(
      ctff::empty_any, tf_tensor(x), tf_tensor(y));
  CHECK(rt.bytes() == b);

  // Inside a trace, embedded unchanged.
  const federated_language::Computation t = ctff_test::require_parses(mapped_empty.bytes());
  const auto& fn = t.lambda().result().block().local(0).value().call().argument();
  CHECK(fn.struct_().element(0).value().SerializeAsString() == bytes);
}
