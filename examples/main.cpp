// The main ctff example: a federated computation traced at compile time, printed three ways and
// lowered to the federated_language protobuf message.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <google/protobuf/text_format.h>

#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>

// A local computation: (int32 -> int32).
constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });

// Broadcast a server value, add one on every client, sum the results back at the server.
constexpr auto simple =
    ctff::computation<"simple", ctff::at_server<std::int32_t>>([](auto server_val) {
      auto at_clients = ctff::federated_broadcast(server_val);
      auto plus_one = ctff::federated_map(add_one, at_clients);
      return ctff::federated_sum(plus_one);
    });

// All of this was computed by the compiler.
static_assert(simple.type_string() == "(int32@SERVER -> int32@SERVER)");
static_assert(simple.bytes().size() == 972);

int main(int argc, char** argv) {
  // Parsed by protobuf (to_proto throws if it cannot), which writes the very same bytes back.
  // Checked before anything is printed: the example test passes only if the output appears.
  federated_language::Computation proto = ctff::to_proto(simple);
  if (proto.SerializeAsString() != simple.bytes().str()) {
    std::fprintf(stderr, "protobuf re-serializes the computation differently\n");
    return 1;
  }
  std::printf("type:      %.*s\n", static_cast<int>(simple.type_string().size()),
              simple.type_string().data());
  std::printf("compact:   %.*s\n", static_cast<int>(simple.compact().size()), simple.compact().data());
  std::printf("formatted:\n%.*s\n", static_cast<int>(simple.formatted().size()),
              simple.formatted().data());
  std::printf("bytes:     %zu (serialized federated_language.Computation)\n", simple.bytes().size());

  std::string text;
  google::protobuf::TextFormat::PrintToString(proto, &text);
  std::printf("proto:\n%s", text.c_str());

  // The serialized message, to the file named by the first argument.
  if (argc > 1) {
    std::ofstream out(argv[1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(simple.bytes().data()),
              static_cast<std::streamsize>(simple.bytes().size()));
    if (!out) return 1;
  }
  return 0;
}
