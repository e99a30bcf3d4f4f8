// Selecting an element name a federated struct does not have.
// expect: ctff: get: the index or name is not an element of the struct
// expect: value: {<a=int32,b=float32>}@C
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto c = ctff::computation<"c", ctff::at_clients<ctff::struct_<ctff::field<"a", i32>, ctff::field<"b", float>>>>(
    [](auto x) { return ctff::get<"c">(x); });  // expect-line
static_assert(!c.compact().empty());
