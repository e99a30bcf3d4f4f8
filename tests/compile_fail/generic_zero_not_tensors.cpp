// generic_zero of a federated type.
// expect: ctff: generic_zero: the type must be a tensor or a struct of tensors
// expect: type: {int32}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c">(
    [] { return ctff::generic_zero<ctff::at_clients<i32>>(); });  // expect-line
static_assert(!c.compact().empty());
