// Checking a computation tree as federated_language's type analysis does, with every error
// located by its path from the root (ctff/read/path.hpp). The rules:
//   * types: every node has one; federated types hold no federated or function type, sequences
//     no federated, function or sequence type; struct element names are unique; no abstract
//     types; tensor dimensions are >= 0 or -1 (unknown), and a tensor of unknown rank has none
//     (read/type_rules.hpp, which proto's read_type applies too);
//   * Reference: names the innermost enclosing Lambda parameter or an earlier local of an
//     enclosing Block (so no name refers to itself or to a later local), with that binding's type;
//   * Selection: the source is a struct and the index within it; the type is the element's;
//   * Struct: a struct type of as many elements, the same names, each element's type;
//   * Call: the function has a function type; an argument exactly when it has a parameter, and
//     assignable to it; the type is the function's result type;
//   * Lambda: a function type with a parameter exactly when the Lambda names one; its result
//     type is the body's;  Block: the result's type;
//   * Intrinsic: a known URI whose type is an instance of its signature (types/signatures.hpp,
//     types/instance.hpp);  Placement: `clients` or `server`, of the placement type;
//   * Literal: a tensor type of the Array's dtype and shape;  TensorFlow and Xla: a function type.
// "The type is X" means equivalent to X (assignable both ways), as type_analysis compares them.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "ctff/read/check_error.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/tree_checker.hpp"

namespace ctff {

// Every rule the tree breaks (at most max_errors of them); empty when it is valid.
inline std::vector<check_error> check(const computation_tree& t, std::size_t max_errors = 100) {
  return detail::tree_checker(t, max_errors).run();
}

// Throws ctff::check_failure listing the errors unless the tree is valid.
inline void check_or_throw(const computation_tree& t) {
  auto errors = check(t);
  if (!errors.empty()) throw check_failure(std::move(errors));
}

}  // namespace ctff
