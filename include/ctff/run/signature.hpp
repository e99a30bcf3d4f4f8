// What a run of a computation_tree takes and gives (executor::run): a root of a function type is
// called, with an argument of its parameter type when it has one, and gives its result; any other
// root is evaluated and is its own result.
#pragma once

#include <cstdint>

#include "ctff/read/tree.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {

// The types of a run of a tree, as nodes of its `types`.
struct run_signature {
  bool called = false;                 // the root has a function type: the run calls it
  std::uint32_t parameter = no_index;  // the argument's type; no_index: the run takes none
  std::uint32_t result = no_index;     // the result's type; no_index: the root has no type
};

inline run_signature signature_of(const computation_tree& t) {
  if (t.root == no_index || t.root >= t.nodes.size()) return {};
  const std::uint32_t fn = t.node(t.root).type;
  if (fn == no_index) return {};
  const type_node& n = t.types.node(fn);
  if (n.kind != type_kind::function) return {false, no_index, fn};
  return {true, n.has_param ? t.types.kid(fn, 0) : no_index, t.types.kid(fn, n.kid_count - 1)};
}

}  // namespace ctff
