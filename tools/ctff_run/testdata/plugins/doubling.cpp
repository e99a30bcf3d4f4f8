// A test plugin binding testdata/unbound_tensorflow.textproto's comp#7b000c3 (int32 -> int32) by
// its key, over dynamic values: x -> 2x (wrapping); a negative x throws (ctff-run: exit 1, naming it).
#include <cstdint>
#include <stdexcept>

#include <ctff/run/plugin.hpp>

CTFF_PLUGIN(registry) {
  registry.bind("comp#7b000c3", [](const ctff::dynamic_value* arg) {
    if (!arg) throw std::invalid_argument("doubling takes an argument");
    const std::int32_t x = arg->tensor().get<ctff::dtype::int32>()[0];
    if (x < 0) throw std::domain_error("doubling takes no negative number");
    return ctff::make_scalar<ctff::dtype::int32>(static_cast<std::int32_t>(2u * static_cast<std::uint32_t>(x)));
  });
}
