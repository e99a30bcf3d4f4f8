// sequence_sum of a value that is no sequence.
// expect: ctff: sequence_sum: the value must be a sequence or a federated sequence
// expect: value: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto s) { return ctff::sequence_sum(s); });  // expect-line
static_assert(!c.compact().empty());
