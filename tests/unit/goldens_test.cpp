// The six golden programs: ctff's bytes, type strings and printed forms equal Python's, at compile
// time (static_assert against data generated from tests/goldens) and at run time (against the
// files, and for run-time traces).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <ctff/proto.hpp>
#include <ctff_goldens_data.hpp>

#include "golden_programs.hpp"
#include "parse_back.hpp"

namespace {

std::string read_file(const std::string& name) {
  std::ifstream f(std::string(CTFF_GOLDENS_DIR) + "/" + name, std::ios::binary);
  REQUIRE(f.good());
  return {std::istreambuf_iterator<char>(f), {}};
}
std::string chomp(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

template <class C>
void check_against_files(const std::string& name, const C& c) {
  INFO("golden " << name);
  ctff_test::require_parses(c.bytes());
  CHECK(c.bytes().str() == read_file(name + ".binpb"));
  CHECK(std::string(c.type_string()) == chomp(read_file(name + ".type.txt")));
  CHECK(std::string(c.compact()) == chomp(read_file(name + ".compact.txt")));
  CHECK(std::string(c.formatted()) == chomp(read_file(name + ".formatted.txt")));
  CHECK(std::string(c.structural()) == chomp(read_file(name + ".structural.txt")));
}

#define CTFF_GOLDEN_STATIC(prog, name)                           \
  static_assert(programs::prog.bytes() == golden::name##_bytes); \
  static_assert(programs::prog.type_string() == golden::name##_type); \
  static_assert(programs::prog.compact() == golden::name##_compact); \
  static_assert(programs::prog.formatted() == golden::name##_formatted); \
  static_assert(programs::prog.structural() == golden::name##_structural)

CTFF_GOLDEN_STATIC(add_one, add_one_local);
CTFF_GOLDEN_STATIC(simple, simple_broadcast_map_sum);
CTFF_GOLDEN_STATIC(sum_clients, sum_clients);
CTFF_GOLDEN_STATIC(named_params, named_params);
CTFF_GOLDEN_STATIC(zip_unnamed, zip_unnamed);
CTFF_GOLDEN_STATIC(federated_values, federated_values);

}  // namespace

TEST_CASE("compile-time traces equal the golden files", "[goldens]") {
  check_against_files("add_one_local", programs::add_one);
  check_against_files("simple_broadcast_map_sum", programs::simple);
  check_against_files("sum_clients", programs::sum_clients);
  check_against_files("named_params", programs::named_params);
  check_against_files("zip_unnamed", programs::zip_unnamed);
  check_against_files("federated_values", programs::federated_values);
}

TEST_CASE("run-time traces equal the golden files", "[goldens][runtime]") {
  check_against_files("add_one_local", programs::rt_add_one(1));
  check_against_files("simple_broadcast_map_sum", programs::rt_simple(1));
  check_against_files("sum_clients", programs::rt_sum_clients(0));
  check_against_files("named_params", programs::rt_named_params(0));
  check_against_files("zip_unnamed", programs::rt_zip_unnamed(0));
  check_against_files("federated_values", programs::rt_federated_values(10, 2.5f));
}

TEST_CASE("run-time literals change the bytes", "[goldens][runtime]") {
  // Guards against a run-time trace that ignores its captured constant.
  CHECK(programs::rt_add_one(2).bytes().str() != read_file("add_one_local.binpb"));
  ctff_test::require_parses(programs::rt_add_one(2).bytes());
  CHECK(programs::rt_add_one(2).compact() ==
        "(add_one_arg -> (let fc_add_one_symbol_0=generic_plus(<add_one_arg,2>) in fc_add_one_symbol_0))");
}

TEST_CASE("to_proto lowers a computation to the protobuf message", "[goldens][proto]") {
  federated_language::Computation expected;
  REQUIRE(expected.ParseFromString(read_file("simple_broadcast_map_sum.binpb")));
  auto msg = ctff::to_proto(programs::simple);
  CHECK(msg.SerializeAsString() == expected.SerializeAsString());
  CHECK(msg.lambda().parameter_name() == "simple_arg");
  CHECK(msg.lambda().result().block().local_size() == 3);
}

TEST_CASE("protoc decodes every emitted computation", "[goldens][protoc]") {
  auto decode = [](const std::string& name, ctff::byte_view bytes) {
    std::string path = std::string("ctff_protoc_") + name + ".binpb";
    {
      std::ofstream out(path, std::ios::binary);
      out << bytes.str();
    }
    std::string cmd = std::string(CTFF_PROTOC) + " --decode=federated_language.Computation -I " +
                      CTFF_PROTO_DIR + " " + CTFF_PROTO_DIR +
                      "/federated_language/proto/computation.proto < " + path + " > " + path +
                      ".txt 2>&1";
    int rc = std::system(cmd.c_str());
    std::ifstream in(path + ".txt");
    std::string text{std::istreambuf_iterator<char>(in), {}};
    std::remove(path.c_str());
    std::remove((path + ".txt").c_str());
    INFO(name << ": " << text);
    CHECK(rc == 0);
    return text;
  };
  for (auto [name, bytes] : {std::pair{"add_one_local", programs::add_one.bytes()},
                             std::pair{"simple_broadcast_map_sum", programs::simple.bytes()},
                             std::pair{"sum_clients", programs::sum_clients.bytes()},
                             std::pair{"named_params", programs::named_params.bytes()},
                             std::pair{"zip_unnamed", programs::zip_unnamed.bytes()},
                             std::pair{"federated_values", programs::federated_values.bytes()}}) {
    CHECK(decode(name, bytes) == read_file(std::string(name) + ".textproto"));
  }
}
