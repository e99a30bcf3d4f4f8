// A DistributeAggregateForm's summary as TFF's DistributeAggregateForm.summary() prints it: one
// line per part, its name padded to 28 columns (the longest, client_to_server_aggregation), a
// colon, a space and the part's compact type; a MergeableCompForm's in the same layout.
#pragma once

#include <string>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {

// A line per part, each ending in '\n'; a part without a root prints an empty type.
template <class Form>
  requires requires(const Form& f) { f.parts(); }
std::string form_summary(const Form& f) {
  std::string out;
  for (const auto& [name, t] : f.parts()) {
    out.append(name);
    out.append(name.size() < 28 ? 28 - name.size() : 0, ' ');
    out.append(": ");
    if (t->root < t->nodes.size()) out.append(type_string(*t));
    out.push_back('\n');
  }
  return out;
}

}  // namespace ctff
