// An aggregate with a C array member: one ctff: error names the struct and the member, and says
// to write std::array. (clang++-22 prints the name as fixed_string<7UL>{"weights"}, older
// compilers as ctff::fixed_string<7>{"weights"}.)
// expect: ctff: an aggregate with a C array member has no TFF type
// expect-re: member_is_not_a_c_array<client_data, (ctff::)?fixed_string<7(UL)?>\{"weights"\}>
// expect: write std::array<T, N> instead of T[N]
#include <cstdint>

#include <ctff/ctff.hpp>

struct client_data {
  std::int32_t count;
  float weights[4];
};
constexpr auto c = ctff::computation<"c", client_data>(  // expect-line
    [](auto x) { return x; });
static_assert(!c.compact().empty());
