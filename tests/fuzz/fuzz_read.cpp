// libFuzzer target over ctff/read: reader, writer, checker and every printer on arbitrary bytes.
// Invariants checked besides "no crash, no leak, no undefined behaviour, no unbounded memory":
//   * bytes the reader accepts are written back in a form it reads again into the same bytes;
//   * where protobuf also parses them (and no opaque payload is kept verbatim), protobuf writes
//     exactly the bytes ctff writes;
//   * the only exception is ctff::read_error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <federated_language/proto/computation.pb.h>

#include <ctff/read.hpp>

namespace {

bool has_opaque(const ctff::computation_tree& t) {
  for (const auto& n : t.nodes)
    if (n.kind == ctff::block_kind::tensorflow || n.kind == ctff::block_kind::xla ||
        n.kind == ctff::block_kind::data)
      return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ctff::read_limits limits;
  limits.max_depth = 300;
  ctff::computation_tree t;
  try {
    t = ctff::read_computation(ctff::byte_view(data, size), limits);
  } catch (const ctff::read_error&) {
    return 0;
  }
  const std::string out = ctff::serialize(t);
  if (ctff::serialize(ctff::read_computation(out, limits)) != out) std::abort();
  if (!has_opaque(t)) {
    federated_language::Computation m;
    if (m.ParseFromArray(data, static_cast<int>(size)) && m.SerializeAsString() != out) std::abort();
  }
  (void)ctff::check(t);
  (void)ctff::type_string(t);
  (void)ctff::type_string(t, true);
  (void)ctff::compact(t);
  (void)ctff::formatted(t);
  if (t.nodes.size() < 2000) (void)ctff::structural(t);
  return 0;
}
