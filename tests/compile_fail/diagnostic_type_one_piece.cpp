// A type of up to 36 characters reads as one piece on every compiler (clang prints at most 36
// characters of a string: the label "value:" is a piece of its own there).
// expect: ctff: federated_broadcast: the value must be placed at SERVER
// expect: {<loss=float32,count=int32>}@CLIENTS
#include <cstdint>

#include <ctff/ctff.hpp>

struct stats {
  float loss;
  std::int32_t count;
};
constexpr auto c = ctff::computation<"c", ctff::at_clients<stats>>(
    [](auto x) { return ctff::federated_broadcast(x); });  // expect-line
static_assert(!c.compact().empty());
