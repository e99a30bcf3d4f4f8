// federated_map over a struct of a CLIENTS and a SERVER value (no broadcast) fails; the mean of its
// result must not report a second error about the stand-in result's type.
// expect: ctff: federated_map: the value must be federated, or a struct of federated values to zip
// expect: <{float32}@CLIENTS,float32@SERVER>
#include <tuple>

#include <ctff/ctff.hpp>

constexpr auto exceeds = ctff::computation<"exceeds", float, float>(
    [](auto reading, auto threshold) { return reading + threshold; });
constexpr auto c = ctff::computation<"c", ctff::at_clients<float>, ctff::at_server<float>>(
    [](auto readings, auto threshold) {
      auto above = ctff::federated_map(exceeds, std::tuple{readings, threshold});  // expect-line
      auto mean = ctff::federated_mean(above);
      auto total = ctff::federated_sum(above);
      return std::tuple{mean, total, ctff::federated_broadcast(mean), above + 1.0f};
    });
static_assert(!c.compact().empty());
