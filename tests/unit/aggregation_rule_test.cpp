// The aggregations' rules (run/aggregation_rule.hpp) as aggregate_on_workers uses them: slices'
// partial results merged in slice order and reported. Expected values are computed by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ctff/run.hpp"
#include "ctff/run/aggregation_rule.hpp"

namespace {

using namespace ctff;
using detail::aggregation_kind;
using detail::aggregation_rule;

template <dtype D>
auto merged(aggregation_kind kind, std::size_t clients, const std::vector<dynamic_value>& parts) {
  const aggregation_rule rule(kind, clients);
  aggregation_rule::state s = rule.merging();
  for (const dynamic_value& p : parts) REQUIRE(rule.merge(s, p));
  return rule.report(s).tensor().get<D>()[0];
}

}  // namespace

TEST_CASE("aggregation rules: each intrinsic names its rule", "[aggregation_rule]") {
  CHECK(detail::aggregation_of("federated_secure_sum_bitwidth") == aggregation_kind::secure_sum);
  CHECK(detail::aggregation_of("federated_weighted_mean") == aggregation_kind::weighted_mean);
  CHECK(detail::aggregation_of("federated_aggregate") == aggregation_kind::aggregate);
  CHECK_FALSE(detail::aggregation_of("federated_map"));
}

TEST_CASE("aggregation rules: slices' partials merge in slice order", "[aggregation_rule]") {
  // Clients 1..7 over slices {1,2,3}, {4,5}, {6,7}: partial sums 6, 9, 13.
  const std::vector<dynamic_value> sums{make_scalar<dtype::int32>(6), make_scalar<dtype::int32>(9),
                                        make_scalar<dtype::int32>(13)};
  CHECK(merged<dtype::int32>(aggregation_kind::sum, 7, sums) == 28);
  const std::vector<dynamic_value> fsums{make_scalar<dtype::float32>(6), make_scalar<dtype::float32>(9),
                                         make_scalar<dtype::float32>(13)};
  CHECK(merged<dtype::float32>(aggregation_kind::mean, 7, fsums) == 4.0f);  // over the clients, not the slices
  // float32: (2e8 + 2) + (2 - 2e8) + 6 regrouped per slice is 6, not 10 (docs/distributed.md).
  const std::vector<dynamic_value> cancel{make_scalar<dtype::float32>(2e8f), make_scalar<dtype::float32>(-2e8f),
                                          make_scalar<dtype::float32>(6)};
  CHECK(merged<dtype::float32>(aggregation_kind::sum, 7, cancel) == 6.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(merged<dtype::float32>(aggregation_kind::min, 7,
                               {make_scalar<dtype::float32>(3), make_scalar<dtype::float32>(-1),
                                make_scalar<dtype::float32>(2)}) == -1.0f);
  CHECK(std::isnan(merged<dtype::float32>(aggregation_kind::max, 7,
                                          {make_scalar<dtype::float32>(3), make_scalar<dtype::float32>(nan),
                                           make_scalar<dtype::float32>(9)})));
}

TEST_CASE("aggregation rules: a weighted mean's slice without weight is merged client by client", "[aggregation_rule]") {
  const aggregation_rule rule(aggregation_kind::weighted_mean, 4);
  aggregation_rule::state s = rule.merging();
  const dynamic_value w2 = make_scalar<dtype::float32>(2), w0 = make_scalar<dtype::float32>(0);
  // Slice 0: clients 2 and 5 (weights 1 and 1): mean 3.5, weight 2.
  CHECK(rule.merge(s, make_scalar<dtype::float32>(3.5f), &w2));
  // Slice 1: weights 1 and -1: no total weight, its mean (0/0) refused; its clients 4 and 8 instead.
  CHECK_FALSE(rule.merge(s, make_scalar<dtype::float32>(std::numeric_limits<float>::quiet_NaN()), &w0));
  const dynamic_value one = make_scalar<dtype::float32>(1), minus_one = make_scalar<dtype::float32>(-1);
  rule.accumulate(s, make_scalar<dtype::float32>(4), &one);
  rule.accumulate(s, make_scalar<dtype::float32>(8), &minus_one);
  CHECK(rule.report(s).tensor().get<dtype::float32>()[0] == 1.5f);  // (3.5 * 2 + 4 - 8) / 2
}
