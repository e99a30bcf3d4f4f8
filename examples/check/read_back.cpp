// Test helper for the examples: reads a .binpb file written by an example, parses it as a
// federated_language.Computation with protobuf, and checks that
//   - protobuf writes the same bytes back (nothing unknown or malformed),
//   - it is a function (a Lambda or a compiled computation) whose type ctff reads back,
//   - the type string equals the expected one, when given.
// Usage: ctff_example_read_back FILE [EXPECTED_TYPE]
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>

#include <ctff/proto.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [EXPECTED_TYPE]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  federated_language::Computation computation;
  if (bytes.empty() || !computation.ParseFromString(bytes)) {
    std::fprintf(stderr, "%s: not a federated_language.Computation (%zu bytes)\n", argv[1],
                 bytes.size());
    return 1;
  }
  if (computation.SerializeAsString() != bytes) {
    std::fprintf(stderr, "%s: protobuf re-serializes the message differently\n", argv[1]);
    return 1;
  }
  if (!computation.type().has_function()) {
    std::fprintf(stderr, "%s: the computation's type is not a function\n", argv[1]);
    return 1;
  }
  std::string type;
  try {
    type = ctff::to_string(ctff::read_type(computation.type()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 1;
  }
  std::printf("read back %zu bytes: %s\n", bytes.size(), type.c_str());
  if (argc > 2 && type != argv[2]) {
    std::fprintf(stderr, "%s: type %s, expected %s\n", argv[1], type.c_str(), argv[2]);
    return 1;
  }
  std::puts("ok");
  return 0;
}
