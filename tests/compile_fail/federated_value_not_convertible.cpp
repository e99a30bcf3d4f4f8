// federated_value of something that is no value, constant or tuple of them.
// expect: ctff: federated_value: the value must be a traced value, a constant or a tuple of them
// expect: nullptr_t
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c">(
    [] { return ctff::federated_value(nullptr, ctff::SERVER); });  // expect-line
static_assert(!c.compact().empty());
