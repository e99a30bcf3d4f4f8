// A type longer than 36 characters: whole in the message where the compiler computes static_assert
// messages (clang++-22), whole in the failed condition with g++-12, and cut after a comma into
// pieces of at most 36 characters with clang++-16 (which prints no longer string).
// expect: ctff: federated_broadcast: the value must be placed at SERVER
// expect-computed: the value must be placed at SERVER; value: {<loss=float32,count=int32,weights=float32[4]>}@CLIENTS
// expect-whole: value: {<loss=float32,count=int32,weights=float32[4]>}@CLIENTS
// expect-pieces: {"{<loss=float32,count=int32,"}, ctff::tff_types<28>{"weights=float32[4]>}@CLIENTS"}
#include <array>
#include <cstdint>

#include <ctff/ctff.hpp>

struct stats {
  float loss;
  std::int32_t count;
  std::array<float, 4> weights;
};
constexpr auto c = ctff::computation<"c", ctff::at_clients<stats>>(
    [](auto x) { return ctff::federated_broadcast(x); });  // expect-line
static_assert(!c.compact().empty());
