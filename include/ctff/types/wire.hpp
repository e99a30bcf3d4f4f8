// The `Type` message of federated_language as wire bytes: fields in number order, explicitly set
// empty messages kept (`placement {}`), proto3 defaults omitted, dims packed with -1 for unknown
// dimensions. Written back to front, as the Computation writers write (core/sink.hpp, back_sink).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "ctff/core/defer.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/core/static_text.hpp"
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

// Field numbers of the Type messages' children (the nested Types).
inline constexpr std::uint32_t function_parameter_field = 1, function_result_field = 2;
inline constexpr std::uint32_t struct_element_field = 1, element_name_field = 1,
                               element_value_field = 2;
inline constexpr std::uint32_t sequence_element_field = 1, federated_member_field = 3;

// The fields of a node that are not nested Types, back to front; the two writers below (of a
// type_desc node, of a static type) share them.
template <class Sink>
constexpr void write_tensor_fields(Sink& s, dtype dt, const std::int64_t* dims, std::uint32_t n,
                                   bool rank_unknown) {
  // TensorType{dtype = 1, dims = 2 (packed), unknown_rank = 3}
  if (rank_unknown) {
    s.put(1);
    s.tag(3, 0);
  }
  if (n) {
    const auto e = s.pos;
    for (std::uint32_t k = n; k-- > 0;) s.varint(static_cast<std::uint64_t>(dims[k]));
    s.close(2, e);
  }
  s.varint(static_cast<std::uint64_t>(dt));
  s.tag(1, 0);
}

// FederatedType's fields after its member: all_equal = 2, placement = 1 (PlacementSpec{value = 2:
// Placement{uri = 1}}).
template <class Sink>
constexpr void write_federated_fields(Sink& s, placement_kind where, bool all_equal) {
  if (all_equal) {
    s.put(1);
    s.tag(2, 0);
  }
  const auto e = s.pos;
  const auto f = s.pos;
  s.string_field(1, placement_uri(where));
  s.close(2, f);
  s.close(1, e);
}

// A struct element's name after its value, and the element closed (it began at e).
template <class Sink>
constexpr void close_struct_element(Sink& s, std::string_view name, std::ptrdiff_t e) {
  s.string_field(element_name_field, name);
  s.close(struct_element_field, e);
}

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
    case type_kind::function:
      write_nested_type(d, d.kid(i, n.has_param ? 1 : 0), function_result_field, s);
      if (n.has_param) write_nested_type(d, d.kid(i, 0), function_parameter_field, s);
      break;
    case type_kind::struct_:
      for (std::uint32_t k = n.kid_count; k-- > 0;) {
        const std::uint32_t c = d.kid(i, k);
        const auto e = s.pos;
        write_nested_type(d, c, element_value_field, s);
        close_struct_element(s, d.name(c), e);
      }
      break;
    case type_kind::sequence:
      write_nested_type(d, d.kid(i, 0), sequence_element_field, s);
      break;
    case type_kind::tensor:
      write_tensor_fields(s, n.dt, d.dims.data() + n.dim_begin, n.dim_count, n.unknown_rank);
      break;
    case type_kind::abstract:  // AbstractType{label = 1}; Python can read none back
      s.string_field(1, d.label(i));
      break;
    case type_kind::placement:  // always empty: `32 00`
      break;
    case type_kind::federated:
      write_nested_type(d, d.kid(i, 0), federated_member_field, s);
      write_federated_fields(s, n.where, n.all_equal);
      break;
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

// A static type's Type message, back to front, from the type itself: no type_desc is built (a
// `describe` allocates, which the constant evaluators charge most: docs/performance.md, round
// 14). static_type_writer<T> is a writer of core/static_text.hpp and static_type_bytes_v<T> holds
// its bytes: each distinct type is written once, and a type that holds it copies them.
template <class T> struct static_type_writer;
template <class T>
inline constexpr auto& static_type_bytes_v = bytes_v<static_type_writer<T>, wire_bound_v<T>>;

// A child's bytes (those of a static_type_bytes_v) as the length-delimited field `field` of its
// parent.
CTFF_DEFER
constexpr void put_nested(back_sink& s, std::uint32_t field, const unsigned char* p, std::size_t n) {
  const auto end = s.pos;
  s.bytes(p, n);
  s.close(field, end);
}
template <std::size_t C>
constexpr void put_nested(back_sink& s, std::uint32_t field, const bounded_bytes<C>& child) {
  put_nested(s, field, child.data(), child.n);
}

template <dtype D, std::int64_t... N>
struct static_type_writer<tensor<D, N...>> {
  constexpr void operator()(back_sink& s) const {
    constexpr bool rank_unknown = sizeof...(N) == 1 && ((N == unknown_rank) && ...);
    constexpr std::int64_t dims[] = {N..., 0};
    const auto end = s.pos;
    write_tensor_fields(s, D, dims, rank_unknown ? 0 : sizeof...(N), rank_unknown);
    s.close(type_field(type_kind::tensor), end);
  }
};

// A struct element's name and value bytes, for the loop below (no function per element type).
struct static_element {
  std::string_view name;
  const unsigned char* data;
  std::size_t n;
};

template <class... E>
struct static_type_writer<struct_t<E...>> {
  constexpr void operator()(back_sink& s) const {
    const auto end = s.pos;
    if constexpr (sizeof...(E) != 0) {
      constexpr static_element elements[] = {
          {elem<E>::name, static_type_bytes_v<typename elem<E>::type>.data(),
           static_type_bytes_v<typename elem<E>::type>.n}...};
      for (std::size_t k = sizeof...(E); k-- > 0;) {  // last element first
        const auto e = s.pos;
        put_nested(s, element_value_field, elements[k].data, elements[k].n);
        close_struct_element(s, elements[k].name, e);
      }
    }
    s.close(type_field(type_kind::struct_), end);
  }
};

template <class T>
struct static_type_writer<sequence_t<T>> {
  constexpr void operator()(back_sink& s) const {
    const auto end = s.pos;
    put_nested(s, sequence_element_field, static_type_bytes_v<T>);
    s.close(type_field(type_kind::sequence), end);
  }
};

template <class P, class R>
struct static_type_writer<function_t<P, R>> {
  constexpr void operator()(back_sink& s) const {
    const auto end = s.pos;
    put_nested(s, function_result_field, static_type_bytes_v<R>);
    if constexpr (!std::is_void_v<P>) put_nested(s, function_parameter_field, static_type_bytes_v<P>);
    s.close(type_field(type_kind::function), end);
  }
};

template <class T, placement_kind P, bool A>
struct static_type_writer<federated_t<T, P, A>> {
  constexpr void operator()(back_sink& s) const {
    const auto end = s.pos;
    put_nested(s, federated_member_field, static_type_bytes_v<T>);
    write_federated_fields(s, P, A);
    s.close(type_field(type_kind::federated), end);
  }
};

template <>
struct static_type_writer<placement_t> {
  constexpr void operator()(back_sink& s) const {
    const auto end = s.pos;
    s.close(type_field(type_kind::placement), end);
  }
};

template <fixed_string L>
struct static_type_writer<abstract_t<L>> {
  constexpr void operator()(back_sink& s) const {
    const auto end = s.pos;
    s.string_field(1, L.view());
    s.close(type_field(type_kind::abstract), end);
  }
};

}  // namespace ctff::detail

namespace ctff {

// Run-time serialization of a type description as a `Type` message.
inline std::string serialize(const type_desc& d) {
  detail::growing_back_sink s(64);
  detail::write_type(d, d.root, s);
  return std::string(reinterpret_cast<const char*>(s.data()), s.size());
}

}  // namespace ctff
