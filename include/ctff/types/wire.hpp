// The `Type` message of federated_language, written straight to wire bytes: fields in number
// order, explicitly set empty messages kept (`placement {}`), proto3 defaults omitted, dims packed
// with -1 for unknown dimensions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ctff/core/defer.hpp"
#include "ctff/core/scratch.hpp"
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

// Payload of TensorType.dims (packed int64, -1 for an unknown dimension).
CTFF_DEFER
constexpr std::size_t dims_payload(const type_desc& d, const type_node& n) {
  std::size_t packed = 0;
  for (std::uint32_t k = 0; k != n.dim_count; ++k)
    packed += varint_size(static_cast<std::uint64_t>(d.dims[n.dim_begin + k]));
  return packed;
}

// TensorType{dtype = 1, dims = 2, unknown_rank = 3}.
CTFF_DEFER
constexpr std::size_t tensor_body_size(const type_desc& d, const type_node& n) {
  std::size_t len = tag_size(1) + varint_size(static_cast<std::uint64_t>(n.dt));
  if (n.dim_count) len += field_size(2, dims_payload(d, n));
  if (n.unknown_rank) len += tag_size(3) + 1;
  return len;
}

// Placement{uri = 1}.
CTFF_DEFER
constexpr std::size_t placement_size(placement_kind p) {
  return field_size(1, placement_uri(p).size());
}

// PlacementSpec{value = 2: Placement}.
CTFF_DEFER
constexpr std::size_t placement_spec_size(placement_kind p) {
  return field_size(2, placement_size(p));
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

// Writes Type messages. The payload size of every node's message is computed once, bottom-up,
// and kept: recomputing a child's size at each enclosing level (twice per level) made the work
// exponential in the nesting depth.
class type_writer {
 public:
  explicit constexpr type_writer(const type_desc& d) : d_(d) {
    body_.assign(d.nodes.size(), npos);
  }

  // Size of node i's Type message, which is a single length-delimited oneof field.
  constexpr std::size_t size(std::uint32_t i) {
    return field_size(type_field(d_.node(i).kind), body(i));
  }

  constexpr void write(std::uint32_t i, byte_sink& s) {
    const type_node& n = d_.node(i);
    s.tag(type_field(n.kind), 2);
    s.varint(body(i));
    switch (n.kind) {
      case type_kind::function: {
        if (n.has_param) nested(1, d_.kid(i, 0), s);
        nested(2, d_.kid(i, n.has_param ? 1 : 0), s);
        return;
      }
      case type_kind::struct_: {
        for (std::uint32_t k = 0; k != n.kid_count; ++k) {
          auto c = d_.kid(i, k);
          s.tag(1, 2);
          s.varint(element_size(c));
          s.string_field(1, d_.name(c));
          nested(2, c, s);
        }
        return;
      }
      case type_kind::sequence:
        nested(1, d_.kid(i, 0), s);
        return;
      case type_kind::tensor: {
        s.tag(1, 0);
        s.varint(static_cast<std::uint64_t>(n.dt));
        if (n.dim_count) {
          s.tag(2, 2);
          s.varint(dims_payload(d_, n));
          for (std::uint32_t k = 0; k != n.dim_count; ++k)
            s.varint(static_cast<std::uint64_t>(d_.dims[n.dim_begin + k]));
        }
        if (n.unknown_rank) {
          s.tag(3, 0);
          s.put(1);
        }
        return;
      }
      case type_kind::abstract:
        // Python can read none back; describe() users must not serialize these (checked by callers).
        s.string_field(1, d_.label(i));
        return;
      case type_kind::placement:  // always empty: `32 00`
        return;
      case type_kind::federated: {
        s.tag(1, 2);
        s.varint(placement_spec_size(n.where));
        s.tag(2, 2);
        s.varint(placement_size(n.where));
        s.string_field(1, placement_uri(n.where));
        if (n.all_equal) {
          s.tag(2, 0);
          s.put(1);
        }
        nested(3, d_.kid(i, 0), s);
        return;
      }
    }
  }

 private:
  static constexpr std::size_t npos = ~std::size_t{0};

  // A nested Type as a length-delimited field.
  constexpr void nested(std::uint32_t field, std::uint32_t i, byte_sink& s) {
    s.tag(field, 2);
    s.varint(size(i));
    write(i, s);
  }

  // StructType.Element{name, value} of the element whose type is node c.
  constexpr std::size_t element_size(std::uint32_t c) {
    auto nm = d_.name(c);
    return (nm.empty() ? 0 : field_size(1, nm.size())) + field_size(2, size(c));
  }

  // The payload of node i's oneof field (the FunctionType, StructType, ... message).
  constexpr std::size_t body(std::uint32_t i) {
    if (body_[i] != npos) return body_[i];
    const type_node& n = d_.node(i);
    std::size_t len = 0;
    switch (n.kind) {
      case type_kind::function:
        if (n.has_param) len += field_size(1, size(d_.kid(i, 0)));
        len += field_size(2, size(d_.kid(i, n.has_param ? 1 : 0)));
        break;
      case type_kind::struct_:
        for (std::uint32_t k = 0; k != n.kid_count; ++k) len += field_size(1, element_size(d_.kid(i, k)));
        break;
      case type_kind::sequence:
        len = field_size(1, size(d_.kid(i, 0)));
        break;
      case type_kind::tensor:
        len = tensor_body_size(d_, n);
        break;
      case type_kind::abstract:
        len = d_.label(i).empty() ? 0 : field_size(1, d_.label(i).size());
        break;
      case type_kind::placement:
        len = 0;
        break;
      case type_kind::federated:
        len = field_size(1, placement_spec_size(n.where)) + (n.all_equal ? tag_size(2) + 1 : 0) +
              field_size(3, size(d_.kid(i, 0)));
        break;
    }
    body_[i] = len;
    return len;
  }

  const type_desc& d_;
  scratch<std::size_t> body_;
};

CTFF_DEFER
constexpr void write_type(const type_desc& d, std::uint32_t i, byte_sink& s) {
  type_writer w(d);
  w.write(i, s);
}

CTFF_DEFER
constexpr std::size_t type_size(const type_desc& d, std::uint32_t i) {
  type_writer w(d);
  return w.size(i);
}

}  // namespace ctff::detail

namespace ctff {

// Run-time serialization of a type description as a `Type` message.
inline std::string serialize(const type_desc& d) {
  detail::byte_sink c{};
  detail::write_type(d, d.root, c);
  std::string out(c.n, '\0');
  detail::byte_sink s{reinterpret_cast<unsigned char*>(out.data())};
  detail::write_type(d, d.root, s);
  return out;
}

}  // namespace ctff
