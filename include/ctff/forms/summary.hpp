// A DistributeAggregateForm's summary as TFF's DistributeAggregateForm.summary() prints it: one
// line per part, its name padded to 28 columns (the longest, client_to_server_aggregation), a
// colon, a space and the part's compact type.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_rules.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {

// Five lines, each ending in '\n'; a part without a root prints an empty type.
inline std::string form_summary(const distribute_aggregate_form& f) {
  const computation_tree* parts[] = {&f.server_prepare, &f.server_to_client_broadcast, &f.client_work,
                                     &f.client_to_server_aggregation, &f.server_result};
  std::string out;
  for (std::size_t k = 0; k != 5; ++k) {
    const std::string_view name = detail::form_part_names[k];
    out.append(name);
    out.append(name.size() < 28 ? 28 - name.size() : 0, ' ');
    out.append(": ");
    const computation_tree& t = *parts[k];
    if (t.root < t.nodes.size()) out.append(type_string(t));
    out.push_back('\n');
  }
  return out;
}

}  // namespace ctff
