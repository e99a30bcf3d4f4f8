// The project's .proto files against the Python reference outputs in tests/goldens: every golden
// Computation parses, re-serializes to the same bytes, and prints as the golden text format, both
// through the generated C++ classes (ctff::proto) and through protoc --decode.
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include <catch2/catch.hpp>
#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/text_format.h>

namespace {

constexpr std::array kGoldens{
    "add_one_local",    "federated_values", "named_params",
    "simple_broadcast_map_sum", "sum_clients",      "zip_unnamed",
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string golden_path(const std::string& name, const std::string& extension) {
  return std::string(CTFF_GOLDENS_DIR) + "/" + name + extension;
}

struct pipe_closer {
  void operator()(std::FILE* f) const { pclose(f); }
};

// Runs a shell command and returns its standard output.
std::string run(const std::string& command) {
  std::unique_ptr<std::FILE, pipe_closer> pipe(popen(command.c_str(), "r"));
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0;) {
    out.append(buffer.data(), n);
  }
  return out;
}

}  // namespace

TEST_CASE("golden Computations round-trip through the generated classes", "[proto][goldens]") {
  for (const std::string name : kGoldens) {
    INFO("golden " << name);
    const std::string bytes = read_file(golden_path(name, ".binpb"));
    federated_language::Computation computation;
    REQUIRE(computation.ParseFromString(bytes));

    std::string reserialized;
    REQUIRE(computation.SerializeToString(&reserialized));
    CHECK(reserialized == bytes);

    std::string text;
    REQUIRE(google::protobuf::TextFormat::PrintToString(computation, &text));
    CHECK(text == read_file(golden_path(name, ".textproto")));
  }
}

TEST_CASE("protoc decodes the goldens with the project's .proto files", "[proto][goldens]") {
  for (const std::string name : kGoldens) {
    INFO("golden " << name);
    const std::string command = std::string("'") + CTFF_PROTOC + "' -I'" + CTFF_PROTO_DIR +
                                "' --decode=federated_language.Computation" +
                                " federated_language/proto/computation.proto < '" +
                                golden_path(name, ".binpb") + "'";
    CHECK(run(command) == read_file(golden_path(name, ".textproto")));
  }
}

TEST_CASE("a SERVER placement literal has the reference bytes", "[proto]") {
  federated_language::Computation computation;
  computation.mutable_type()->mutable_placement();
  computation.mutable_placement()->set_uri("server");
  const std::string expected("\x0a\x02\x32\x00\x5a\x08\x0a\x06server", 14);
  CHECK(computation.SerializeAsString() == expected);
}
