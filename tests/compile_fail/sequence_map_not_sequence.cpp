// sequence_map over a federated value that is no sequence.
// expect: ctff: sequence_map: the value must be a sequence or a federated sequence
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto s) { return ctff::sequence_map(add_one, s); });  // expect-line
static_assert(!c.compact().empty());
