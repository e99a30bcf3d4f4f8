// What every example does with its computation: print its type and compact form, check that
// protobuf parses the bytes back unchanged (when built with protobuf: CTFF_EXAMPLE_PROTOBUF, which
// examples/CMakeLists.txt defines unless the build has no ctff::proto), and write them to a .binpb file (the path given as the
// first command-line argument, or NAME.binpb in the current directory).
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#ifdef CTFF_EXAMPLE_PROTOBUF
#include <ctff/proto.hpp>
#else
#include <ctff/ctff.hpp>
#endif

namespace example {

inline void print(const char* label, std::string_view text) {
  std::printf("%s: %.*s\n", label, static_cast<int>(text.size()), text.data());
}

// Returns main's exit status.
template <class C>
int output(const C& computation, int argc, char** argv) {
#ifdef CTFF_EXAMPLE_PROTOBUF
  // ctff::to_proto parses the bytes with protobuf (and throws if it cannot).
  if (ctff::to_proto(computation).SerializeAsString() != computation.bytes().str()) {
    std::fprintf(stderr, "protobuf re-serializes %.*s differently\n",
                 static_cast<int>(C::name().size()), C::name().data());
    return 1;
  }
#endif
  print("type", computation.type_string());
  print("compact", computation.compact());
  const std::string path =
      argc > 1 ? std::string(argv[1]) : std::string(C::name()) + ".binpb";
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(computation.bytes().data()),
            static_cast<std::streamsize>(computation.bytes().size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %zu bytes to %s\n", computation.bytes().size(), path.c_str());
  return 0;
}

}  // namespace example
