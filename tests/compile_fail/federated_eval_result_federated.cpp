// federated_eval of a function whose result is federated.
// expect: ctff: federated_eval: the function's result must not contain federated or function types
// expect: result: int32@SERVER
#include <cstdint>

#include <ctff/ctff.hpp>

using i32 = std::int32_t;
constexpr auto at_server = ctff::computation<"at_server">([] { return ctff::federated_value(1, ctff::SERVER); });
constexpr auto c = ctff::computation<"c">(
    [] { return ctff::federated_eval(at_server, ctff::CLIENTS); });  // expect-line
static_assert(!c.compact().empty());
