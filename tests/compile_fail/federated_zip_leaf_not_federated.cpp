// federated_zip of a struct with an unplaced element.
// expect: ctff: federated_zip: every leaf of the struct must be a federated value
// expect: value: <{int32}@CLIENTS,int32>
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<i32>>(
    [](auto x) { return ctff::federated_zip(x, 1); });  // expect-line
static_assert(!c.compact().empty());
