// make_struct<names...> with a name given twice: checked in make_struct itself, so the user's line
// inside the traced lambda shows on clang too (it used to sit behind "skipping N contexts").
// expect: ctff: make_struct<names...>: the names must be unique
// expect-condition: names: \"a\", \"a\"
// expect-computed: names: "a", "a"
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_server<i32>>([](auto x) {
  auto y = ctff::federated_broadcast(x);
  return ctff::make_struct<"a", "a">(x, y);  // expect-line
});
static_assert(!c.compact().empty());
