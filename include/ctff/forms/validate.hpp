// Checking that five computations are a DistributeAggregateForm: each part passes ctff's checker,
// then the rules of forms/form_rules.hpp (TFF's, forms.py, in its order) on each part
// (forms/part_rules.hpp, forms/intrinsic_part_rules.hpp) and between the parts
// (forms/link_rules.hpp). Every error names
// its rule, the part and the building block, as the checker spells paths
// (`client_to_server_aggregation.lambda.result.block.local[0](_v3).call.argument`); an error about
// how two parts fit is located at the part that receives (`server_to_client_broadcast`).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_report.hpp"
#include "ctff/forms/intrinsic_part_rules.hpp"
#include "ctff/forms/link_rules.hpp"
#include "ctff/forms/part_rules.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {
namespace detail {

inline std::vector<form_error> form_errors_of(const distribute_aggregate_form& f, const type_desc* round,
                                              std::size_t max_errors) {
  form_report report(max_errors);
  const auto parts = f.parts();
  std::array<part_shape, 5> shapes{};
  part_rules each(report);
  intrinsic_part_rules calls(report);
  for (std::size_t k = 0; k != parts.size(); ++k) shapes[k] = each.lambda_rules(k, *parts[k].tree);
  for (std::size_t k = 0; k != parts.size(); ++k) {
    if (shapes[k].fn == no_index) continue;
    each.shape_rules(k, *parts[k].tree, shapes[k]);
    if (k == part_at::broadcast || k == part_at::aggregation) calls.check(*parts[k].tree, k == part_at::broadcast);
  }
  link_rules(report, parts, shapes).check(round);
  return report.take();
}

}  // namespace detail

// Every rule the form breaks (at most max_errors); empty when it is a DistributeAggregateForm.
inline std::vector<form_error> form_errors(const distribute_aggregate_form& f, std::size_t max_errors = 100) {
  return detail::form_errors_of(f, nullptr, max_errors);
}
// The same, and the form must fit the round it was split from (its type, `tree.type_of(tree.root)`):
// the rules server_state, client_data, server_output and round_type as TFF checks them.
inline std::vector<form_error> form_errors(const distribute_aggregate_form& f, const type_desc& round_type,
                                           std::size_t max_errors = 100) {
  return detail::form_errors_of(f, &round_type, max_errors);
}

// Throws the first form_error unless the parts are a DistributeAggregateForm.
inline void validate(const distribute_aggregate_form& f) {
  auto e = form_errors(f, 1);
  if (!e.empty()) throw e.front();
}
inline void validate(const distribute_aggregate_form& f, const type_desc& round_type) {
  auto e = form_errors(f, round_type, 1);
  if (!e.empty()) throw e.front();
}

}  // namespace ctff
