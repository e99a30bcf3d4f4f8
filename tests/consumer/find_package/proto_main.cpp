// Uses ctff::proto: the generated federated_language messages (and ctff/proto.hpp when present).
#include <cstdio>
#include <string>

#include <federated_language/proto/computation.pb.h>
#if __has_include(<ctff/proto.hpp>)
#include <ctff/proto.hpp>
#endif

int main() {
  // A SERVER placement literal: type{placement{}} placement{uri:"server"}.
  federated_language::Computation computation;
  computation.mutable_type()->mutable_placement();
  computation.mutable_placement()->set_uri("server");
  std::string bytes;
  if (!computation.SerializeToString(&bytes)) return 1;
  const std::string expected("\x0a\x02\x32\x00\x5a\x08\x0a\x06server", 14);
  if (bytes != expected) {
    std::puts("ctff proto consumer: unexpected bytes");
    return 1;
  }
  std::puts("ctff proto consumer: ok");
  return 0;
}
