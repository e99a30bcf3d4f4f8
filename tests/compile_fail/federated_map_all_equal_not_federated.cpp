// federated_map_all_equal over an unplaced value.
// expect: ctff: federated_map_all_equal: the value must be federated, or a struct of federated values to zip
// expect: value: int32
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto add_one = ctff::computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto c = ctff::computation<"c", i32>(
    [](auto x) { return ctff::federated_map_all_equal(add_one, x); });  // expect-line
static_assert(!c.compact().empty());
