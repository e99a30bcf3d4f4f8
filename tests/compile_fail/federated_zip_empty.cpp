// federated_zip of a struct without federated values.
// expect: ctff: federated_zip: the struct must contain at least one federated value
// expect: value: <>
#include <cstdint>
#include <tuple>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;

constexpr auto c = ctff::computation<"c">(
    [] { return ctff::federated_zip(std::tuple<>{}); });  // expect-line
static_assert(!c.compact().empty());
