// The keys opaque computations (TensorFlow, XLA, Data) are bound by (executor::bind,
// binding_registry::bind): how ctff prints them, `comp#<adler32 hex>`, Data the decimal adler32
// of its Computation message (read/print.hpp).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ctff/core/sink.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {
namespace detail {

inline bool is_opaque(block_kind k) {
  return k == block_kind::tensorflow || k == block_kind::xla || k == block_kind::data;
}

}  // namespace detail

// The key node i of t (an opaque computation) is bound by.
inline std::string binding_key(const computation_tree& t, std::uint32_t i) {
  detail::text_sink count{};
  detail::put_opaque_label(t, i, count, false);
  std::string out(count.n, '\0');
  detail::text_sink s{out.data()};
  detail::put_opaque_label(t, i, s, false);
  return out;
}

// The opaque computations of t, one node per binding key: the first, in the order of t's nodes.
inline std::vector<std::uint32_t> opaque_nodes(const computation_tree& t) {
  std::vector<std::uint32_t> out;
  std::set<std::string> seen;
  for (std::uint32_t i = 0; i != t.nodes.size(); ++i)
    if (detail::is_opaque(t.node(i).kind) && seen.insert(binding_key(t, i)).second) out.push_back(i);
  return out;
}

}  // namespace ctff
