// The `Type` message of federated_language as wire bytes: fields in number order, explicitly set
// empty messages kept (`placement {}`), proto3 defaults omitted, dims packed with -1 for unknown
// dimensions. Written back to front, as the Computation writers write (core/sink.hpp, back_sink).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ctff/core/defer.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

// The oneof field of Type that holds a node of kind k.
CTFF_DEFER
constexpr std::uint32_t type_field(type_kind k) {
  switch (k) {
    case type_kind::function: return 1;
    case type_kind::struct_: return 2;
    case type_kind::sequence: return 3;
    case type_kind::tensor: return 4;
    case type_kind::abstract: return 5;
    case type_kind::placement: return 6;
    case type_kind::federated: return 7;
  }
  return 0;
}

// An upper bound on the size of a static type's Type message, so that one constant evaluation both
// writes it and measures it (type_bytes). Every field header is counted as 6 bytes (a tag below
// field 16 and a length below 2^35) and every dimension as 10, so no type can exceed it; a wrong
// bound cannot go unnoticed either, as writing past the array is not a constant expression.
inline constexpr std::size_t wire_header_bound = 6;
template <class T> inline constexpr std::size_t wire_bound_v = wire_header_bound;  // placement
template <dtype D, std::int64_t... N>
inline constexpr std::size_t wire_bound_v<tensor<D, N...>> = 3 * wire_header_bound + 4 + 10 * sizeof...(N);
template <class... E>
inline constexpr std::size_t wire_bound_v<struct_t<E...>> =
    wire_header_bound +
    ((3 * wire_header_bound + elem<E>::name.size() + wire_bound_v<typename elem<E>::type>) + ... + 0);
template <class T>
inline constexpr std::size_t wire_bound_v<sequence_t<T>> = 2 * wire_header_bound + wire_bound_v<T>;
template <class P, class R>
inline constexpr std::size_t wire_bound_v<function_t<P, R>> =
    3 * wire_header_bound + wire_bound_v<P> + wire_bound_v<R>;
template <class T, placement_kind P, bool A>
inline constexpr std::size_t wire_bound_v<federated_t<T, P, A>> =
    5 * wire_header_bound + placement_uri(P).size() + 2 + wire_bound_v<T>;
template <fixed_string L>
inline constexpr std::size_t wire_bound_v<abstract_t<L>> = 2 * wire_header_bound + L.size();

template <class Sink>
constexpr void write_nested_type(const type_desc& d, std::uint32_t c, std::uint32_t field, Sink& s);

// Node i's Type message, back to front into s (back_sink, or growing_back_sink at run time):
// fields last to first, and each length measured from what was written, so no size is computed
// before writing (a size pass per node was half the cost of a type's bytes during constant
// evaluation).
template <class Sink>
constexpr void write_type(const type_desc& d, std::uint32_t i, Sink& s) {
  const type_node& n = d.node(i);
  const auto end = s.pos;
  switch (n.kind) {
    case type_kind::function:  // FunctionType{parameter = 1, result = 2}
      write_nested_type(d, d.kid(i, n.has_param ? 1 : 0), 2, s);
      if (n.has_param) write_nested_type(d, d.kid(i, 0), 1, s);
      break;
    case type_kind::struct_:  // StructType{element = 1: Element{name = 1, value = 2}}
      for (std::uint32_t k = n.kid_count; k-- > 0;) {
        const std::uint32_t c = d.kid(i, k);
        const auto e = s.pos;
        write_nested_type(d, c, 2, s);
        s.string_field(1, d.name(c));
        s.close(1, e);
      }
      break;
    case type_kind::sequence:  // SequenceType{element = 1}
      write_nested_type(d, d.kid(i, 0), 1, s);
      break;
    case type_kind::tensor: {  // TensorType{dtype = 1, dims = 2 (packed), unknown_rank = 3}
      if (n.unknown_rank) {
        s.put(1);
        s.tag(3, 0);
      }
      if (n.dim_count) {
        const auto e = s.pos;
        for (std::uint32_t k = n.dim_count; k-- > 0;)
          s.varint(static_cast<std::uint64_t>(d.dims[n.dim_begin + k]));
        s.close(2, e);
      }
      s.varint(static_cast<std::uint64_t>(n.dt));
      s.tag(1, 0);
      break;
    }
    case type_kind::abstract:  // AbstractType{label = 1}; Python can read none back
      s.string_field(1, d.label(i));
      break;
    case type_kind::placement:  // always empty: `32 00`
      break;
    case type_kind::federated: {  // FederatedType{placement = 1: PlacementSpec, all_equal = 2, member = 3}
      write_nested_type(d, d.kid(i, 0), 3, s);
      if (n.all_equal) {
        s.put(1);
        s.tag(2, 0);
      }
      const auto e = s.pos;  // PlacementSpec{value = 2: Placement{uri = 1}}
      const auto f = s.pos;
      s.string_field(1, placement_uri(n.where));
      s.close(2, f);
      s.close(1, e);
      break;
    }
  }
  s.close(type_field(n.kind), end);
}

// Node c's Type message as the length-delimited field `field` of its parent.
template <class Sink>
constexpr void write_nested_type(const type_desc& d, std::uint32_t c, std::uint32_t field, Sink& s) {
  const auto end = s.pos;
  write_type(d, c, s);
  s.close(field, end);
}

}  // namespace ctff::detail

namespace ctff {

// Run-time serialization of a type description as a `Type` message.
inline std::string serialize(const type_desc& d) {
  detail::growing_back_sink s(64);
  detail::write_type(d, d.root, s);
  return std::string(reinterpret_cast<const char*>(s.data()), s.size());
}

}  // namespace ctff
