// A type of a run as a node of a tree's type_desc (`typed`), with the steps into its parts, and a
// struct type's element names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctff/types/desc.hpp"

namespace ctff::detail {

struct typed {  // a type inside a tree's type_desc
  const type_desc* d;
  std::uint32_t i;
  const type_node& node() const { return d->node(i); }
  typed kid(std::uint32_t k) const { return {d, d->kid(i, k)}; }
  std::uint32_t kids() const { return node().kid_count; }
  typed param() const { return kid(0); }  // of a function type with a parameter
  typed result() const { return kid(kids() - 1); }
  typed member() const { return kid(0); }  // of a federated or sequence type
};

// The element names of struct type t; empty when no element has one.
inline std::vector<std::string> struct_names(typed t) {
  std::vector<std::string> names;
  bool any = false;
  for (std::uint32_t k = 0; k != t.kids(); ++k) {
    names.emplace_back(t.d->name(t.d->kid(t.i, k)));
    any = any || !names.back().empty();
  }
  if (!any) names.clear();
  return names;
}

}  // namespace ctff::detail
