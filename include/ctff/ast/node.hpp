// Building blocks as constexpr data: one node per building block, kept in a graph's pools
// (ast/graph.hpp) and naming its operands by index; children are always recorded before their
// parents. (The tracer's binding-order bookkeeping is a pool of its own, `node_order`
// (trace/context.hpp).)
#pragma once

#include <cstdint>
#include <string_view>

namespace ctff::detail {

enum class node_kind : std::uint8_t {
  param_ref,   // Reference to the traced computation's parameter, `<name>_arg`
  symbol_ref,  // Reference to a Block local; a = the bound node
  named_ref,   // Reference by a fixed name (parameters of generated lambdas); text = name
  selection,   // a = source, b = index
  struct_,     // a = first element (in elems), b = element count
  call,        // a = function, b = argument or no_node
  intrinsic,   // text = uri
  lambda,      // a = body; text = parameter name, empty when there is no parameter
  block,       // a = result; locals are the trace's bindings
  literal,     // a = index in lits
  embedded,    // a = index in embeds: a whole Computation message written verbatim
  placement,   // a = placement_kind
};

inline constexpr std::uint32_t no_node = 0xffffffffu;

struct node {
  node_kind kind{};
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  std::string_view text{};
  const unsigned char* type = nullptr;  // wire bytes of the node's Type (static storage)
  std::uint32_t type_size = 0;
};

struct struct_elem {
  std::uint32_t value = 0;
  std::string_view name{};
};

}  // namespace ctff::detail
