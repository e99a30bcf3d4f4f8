// The function types of the Python goldens (tests/goldens, traced by federated_language 0.5.3),
// spelled as ctff types: their type strings (at compile time, and against NAME.type.txt at run
// time) and their `Type` wire bytes (against the `type` field of NAME.binpb and NAME.textproto).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include "ctff/proto/type_message.hpp"
#include "ctff/proto/type_reader.hpp"
#include "ctff/reflect/scalar.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/type_string.hpp"
#include "parse_back.hpp"
#include "same_desc.hpp"

#ifndef CTFF_GOLDENS_DIR
#error "CTFF_GOLDENS_DIR must name the goldens directory (set by tests/CMakeLists.txt)"
#endif

namespace {

using ctff::all_equal;
using ctff::at_clients;
using ctff::at_server;
using ctff::field;
using ctff::function;
using ctff::struct_;
using ctff::type_string;
using i32 = std::int32_t;

// ---------------------------------------------------------------------------------------------
// The goldens' types.

// add_one_local: (int32 -> int32)
using add_one_param = i32;
using add_one_result = i32;
using add_one_fn = function<add_one_param, add_one_result>;
static_assert(type_string<add_one_param>() == "int32");
static_assert(type_string<add_one_result>() == "int32");

// federated_values: ( -> <int32@SERVER,float32@CLIENTS>)
using federated_values_result = struct_<at_server<i32>, at_clients<float, all_equal>>;
using federated_values_fn = function<void, federated_values_result>;

// named_params
using named_params_param =
    struct_<field<"alpha", at_server<i32>>, field<"beta", at_clients<float>>, field<"gamma", i32>>;
using named_params_result =
    struct_<field<"total", at_server<float>>, field<"first", at_server<i32>>, field<"last", i32>>;
using named_params_fn = function<named_params_param, named_params_result>;

// simple_broadcast_map_sum: (int32@SERVER -> int32@SERVER)
using simple_param = at_server<i32>;
using simple_result = at_server<i32>;
using simple_fn = function<simple_param, simple_result>;

// sum_clients: ({int32}@CLIENTS -> int32@SERVER)
using sum_clients_param = at_clients<i32>;
using sum_clients_result = at_server<i32>;
using sum_clients_fn = function<sum_clients_param, sum_clients_result>;

// zip_unnamed
using zip_unnamed_param = struct_<field<"a", at_clients<i32>>, field<"b", at_clients<float>>>;
using zip_unnamed_result = at_clients<struct_<i32, float>>;
using zip_unnamed_fn = function<zip_unnamed_param, zip_unnamed_result>;

// The goldens this file covers.
const std::set<std::string> covered = {"add_one_local",  "federated_values",
                                       "named_params",   "simple_broadcast_map_sum",
                                       "sum_clients",    "zip_unnamed"};

// ---------------------------------------------------------------------------------------------
// Helpers.

std::string golden_path(const std::string& name, const char* ext) {
  return std::string(CTFF_GOLDENS_DIR) + "/" + name + ext;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  INFO("reading " << path);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// NAME.type.txt holds the type string and a final newline.
std::string read_type_txt(const std::string& name) {
  std::string s = read_file(golden_path(name, ".type.txt"));
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

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

// A varint at `at` (advanced past it); false if the bytes end first or it is too long.
bool read_varint(std::string_view b, std::size_t& at, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && at < b.size(); shift += 7) {
    const auto c = static_cast<unsigned char>(b[at++]);
    v |= static_cast<std::uint64_t>(c & 0x7f) << shift;
    if (!(c & 0x80)) return true;
  }
  return false;
}

// The payload of the (single) length-delimited top-level field `field` of a serialized message,
// found by walking the top-level fields.
std::string_view top_level_field(std::string_view b, std::uint32_t field) {
  std::size_t at = 0;
  std::string_view found;
  int count = 0;
  while (at < b.size()) {
    std::uint64_t key = 0, v = 0;
    REQUIRE(read_varint(b, at, key));
    switch (key & 7) {
      case 0:
        REQUIRE(read_varint(b, at, v));
        break;
      case 1:
        at += 8;
        break;
      case 5:
        at += 4;
        break;
      case 2: {
        REQUIRE(read_varint(b, at, v));
        REQUIRE(v <= b.size() - at);
        if ((key >> 3) == field) {
          found = b.substr(at, static_cast<std::size_t>(v));
          ++count;
        }
        at += static_cast<std::size_t>(v);
        break;
      }
      default:
        FAIL("unexpected wire type " << (key & 7));
    }
  }
  REQUIRE(at == b.size());
  REQUIRE(count == 1);
  return found;
}

// Every run-time check of one golden against the ctff function type Fn.
template <class Fn>
void check_golden(const std::string& name) {
  INFO("golden " << name);
  using T = ctff::tff_t<Fn>;
  const std::string type_txt = read_type_txt(name);
  const ctff::byte_view bytes = ctff::type_bytes<Fn>();

  // The type string.
  CHECK(type_string<Fn>() == type_txt);

  // The `type` field of the serialized Computation: protobuf's parse, re-serialized ...
  const std::string binpb = read_file(golden_path(name, ".binpb"));
  federated_language::Computation comp;
  REQUIRE(comp.ParseFromString(binpb));
  REQUIRE(comp.has_type());
  CHECK(hex(serialize_deterministic(comp.type())) == hex(bytes));
  std::string reserialized;
  REQUIRE(comp.type().SerializeToString(&reserialized));
  CHECK(hex(reserialized) == hex(bytes));
  // ... and the raw bytes of field 1 in the file.
  CHECK(hex(top_level_field(binpb, 1)) == hex(bytes));

  // The text-format golden holds the same type.
  federated_language::Computation from_text;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(read_file(golden_path(name, ".textproto")),
                                                        &from_text));
  CHECK(hex(serialize_deterministic(from_text.type())) == hex(bytes));

  // Reading the golden's type back gives the description of Fn, which prints the same.
  const ctff::type_desc read = ctff::read_type(comp.type());
  CHECK(ctff::to_string(read) == type_txt);
  CHECK(ctff::to_string(read, true) == ctff::formatted_type_string<Fn>());
  CHECK(same_desc(read, ctff::describe<T>()));
  CHECK(hex(ctff::serialize(read)) == hex(bytes));
  CHECK(same_desc(ctff::parse_type(top_level_field(binpb, 1)), ctff::describe<T>()));

  // And the message ctff builds is the golden's.
  CHECK(hex(serialize_deterministic(ctff::type_proto<Fn>())) == hex(bytes));
  CHECK(hex(serialize_deterministic(ctff::to_proto(read))) == hex(bytes));
}

}  // namespace

TEST_CASE("golden types: add_one_local", "[golden][types]") {
  STATIC_REQUIRE(type_string<add_one_fn>() == "(int32 -> int32)");
  check_golden<add_one_fn>("add_one_local");
}

TEST_CASE("golden types: federated_values", "[golden][types]") {
  STATIC_REQUIRE(type_string<federated_values_result>() == "<int32@SERVER,float32@CLIENTS>");
  STATIC_REQUIRE(type_string<federated_values_fn>() == "( -> <int32@SERVER,float32@CLIENTS>)");
  STATIC_REQUIRE(ctff::formatted_type_string<federated_values_fn>() ==
                 "( -> <\n  int32@SERVER,\n  float32@CLIENTS\n>)");
  check_golden<federated_values_fn>("federated_values");
}

TEST_CASE("golden types: named_params", "[golden][types]") {
  STATIC_REQUIRE(type_string<named_params_param>() ==
                 "<alpha=int32@SERVER,beta={float32}@CLIENTS,gamma=int32>");
  STATIC_REQUIRE(type_string<named_params_result>() ==
                 "<total=float32@SERVER,first=int32@SERVER,last=int32>");
  STATIC_REQUIRE(type_string<named_params_fn>() ==
                 "(<alpha=int32@SERVER,beta={float32}@CLIENTS,gamma=int32> -> "
                 "<total=float32@SERVER,first=int32@SERVER,last=int32>)");
  check_golden<named_params_fn>("named_params");
}

TEST_CASE("golden types: simple_broadcast_map_sum", "[golden][types]") {
  STATIC_REQUIRE(type_string<simple_param>() == "int32@SERVER");
  STATIC_REQUIRE(type_string<simple_result>() == "int32@SERVER");
  STATIC_REQUIRE(type_string<simple_fn>() == "(int32@SERVER -> int32@SERVER)");
  check_golden<simple_fn>("simple_broadcast_map_sum");
}

TEST_CASE("golden types: sum_clients", "[golden][types]") {
  STATIC_REQUIRE(type_string<sum_clients_param>() == "{int32}@CLIENTS");
  STATIC_REQUIRE(type_string<sum_clients_result>() == "int32@SERVER");
  STATIC_REQUIRE(type_string<sum_clients_fn>() == "({int32}@CLIENTS -> int32@SERVER)");
  check_golden<sum_clients_fn>("sum_clients");
}

TEST_CASE("golden types: zip_unnamed", "[golden][types]") {
  STATIC_REQUIRE(type_string<zip_unnamed_param>() == "<a={int32}@CLIENTS,b={float32}@CLIENTS>");
  STATIC_REQUIRE(type_string<zip_unnamed_result>() == "{<int32,float32>}@CLIENTS");
  STATIC_REQUIRE(type_string<zip_unnamed_fn>() ==
                 "(<a={int32}@CLIENTS,b={float32}@CLIENTS> -> {<int32,float32>}@CLIENTS)");
  STATIC_REQUIRE(ctff::formatted_type_string<zip_unnamed_fn>() ==
                 "(<\n  a={int32}@CLIENTS,\n  b={float32}@CLIENTS\n> -> {<\n  int32,\n  float32\n>}@CLIENTS)");
  check_golden<zip_unnamed_fn>("zip_unnamed");
}

TEST_CASE("golden types: every golden is covered and reads back", "[golden][types]") {
  namespace fs = std::filesystem;
  std::set<std::string> found;
  for (const auto& entry : fs::directory_iterator(CTFF_GOLDENS_DIR)) {
    const std::string file = entry.path().filename().string();
    const std::string suffix = ".type.txt";
    if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string name = file.substr(0, file.size() - suffix.size());
    found.insert(name);
    INFO("golden " << name);
    CHECK(covered.count(name) == 1);  // add its ctff type above

    // Whatever the golden, its Type reads back into a description printing as NAME.type.txt.
    federated_language::Computation comp;
    REQUIRE(comp.ParseFromString(read_file(golden_path(name, ".binpb"))));
    const auto d = ctff::read_type(comp.type());
    CHECK(ctff::to_string(d) == read_type_txt(name));
    CHECK(ctff::serialize(d) == comp.type().SerializeAsString());
  }
  CHECK(found == covered);
}
