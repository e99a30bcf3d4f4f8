// The signatures of federated_language's intrinsics (types/signatures.hpp) described once as
// type_desc trees, the form the tree checker compares against (read/tree_checker.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "ctff/types/desc.hpp"
#include "ctff/types/signatures.hpp"

namespace ctff::detail {

struct intrinsic_signature {
  std::string_view uri;
  type_desc type;
};

template <class... Rows>
std::vector<intrinsic_signature> signatures_of(intrinsic_rows<Rows...>) {
  return {intrinsic_signature{Rows::uri, describe<typename Rows::signature>()}...};
}

// The 27 rows of types/signatures.hpp, described once.
inline const std::vector<intrinsic_signature>& intrinsic_signatures() {
  static const std::vector<intrinsic_signature> table = signatures_of(intrinsic_table{});
  return table;
}

}  // namespace ctff::detail
