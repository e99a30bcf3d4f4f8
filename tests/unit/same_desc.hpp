// Two type descriptions equal node by node: the same layout (children before parents), kinds,
// dims, names and labels (where a node without dims points into `dims` does not matter). Names may live in `chars` (a description read from bytes) or in static
// storage (describe<T>()), so they are compared as text.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ctff/types/desc.hpp"

inline bool same_desc(const ctff::type_desc& a, const ctff::type_desc& b) {
  if (a.root != b.root || a.nodes.size() != b.nodes.size() || a.kids != b.kids)
    return false;
  for (std::uint32_t i = 0; i != a.nodes.size(); ++i) {
    const auto& x = a.nodes[i];
    const auto& y = b.nodes[i];
    if (x.kind != y.kind || x.dt != y.dt || x.unknown_rank != y.unknown_rank ||
        x.all_equal != y.all_equal || x.has_param != y.has_param || x.where != y.where ||
        x.kid_begin != y.kid_begin || x.kid_count != y.kid_count || x.dim_count != y.dim_count ||
        a.name(i) != b.name(i) || a.label(i) != b.label(i))
      return false;
    for (std::uint32_t k = 0; k != x.dim_count; ++k)
      if (a.dims[x.dim_begin + k] != b.dims[y.dim_begin + k]) return false;
  }
  return true;
}
