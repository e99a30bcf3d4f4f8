// The `Type` message of federated_language, written straight to wire bytes: fields in number
// order, explicitly set empty messages kept (`placement {}`), proto3 defaults omitted, dims packed
// with -1 for unknown dimensions.
#pragma once

#include <string>

#include "ctff/core/sink.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

constexpr void write_type(const type_desc& d, std::uint32_t i, byte_sink& s);

constexpr std::size_t type_size(const type_desc& d, std::uint32_t i) {
  byte_sink c{};
  write_type(d, i, c);
  return c.n;
}

// A nested Type as a length-delimited field.
constexpr void type_field(const type_desc& d, std::uint32_t field, std::uint32_t i, byte_sink& s) {
  s.tag(field, 2);
  s.varint(type_size(d, i));
  write_type(d, i, s);
}

constexpr std::size_t tensor_body_size(const type_desc& d, const type_node& n) {
  std::size_t len = 1 + varint_size(static_cast<std::uint64_t>(n.dt));
  if (n.dim_count) {
    std::size_t packed = 0;
    for (std::uint32_t k = 0; k != n.dim_count; ++k)
      packed += varint_size(static_cast<std::uint64_t>(d.dims[n.dim_begin + k]));
    len += field_size(packed);
  }
  if (n.unknown_rank) len += 2;
  return len;
}

constexpr std::size_t placement_spec_size(placement_kind p) {
  // PlacementSpec{value(2): Placement{uri(1)}}
  return field_size(field_size(placement_uri(p).size()));
}

constexpr void write_type(const type_desc& d, std::uint32_t i, byte_sink& s) {
  const type_node& n = d.node(i);
  switch (n.kind) {
    case type_kind::function: {
      std::size_t len = 0;
      if (n.has_param) len += field_size(type_size(d, d.kid(i, 0)));
      auto r = d.kid(i, n.has_param ? 1 : 0);
      len += field_size(type_size(d, r));
      s.tag(1, 2);
      s.varint(len);
      if (n.has_param) type_field(d, 1, d.kid(i, 0), s);
      type_field(d, 2, r, s);
      return;
    }
    case type_kind::struct_: {
      std::size_t len = 0;
      for (std::uint32_t k = 0; k != n.kid_count; ++k) {
        auto c = d.kid(i, k);
        auto nm = d.name(c);
        std::size_t el = (nm.empty() ? 0 : field_size(nm.size())) + field_size(type_size(d, c));
        len += field_size(el);
      }
      s.tag(2, 2);
      s.varint(len);
      for (std::uint32_t k = 0; k != n.kid_count; ++k) {
        auto c = d.kid(i, k);
        auto nm = d.name(c);
        std::size_t el = (nm.empty() ? 0 : field_size(nm.size())) + field_size(type_size(d, c));
        s.tag(1, 2);
        s.varint(el);
        s.string_field(1, nm);
        type_field(d, 2, c, s);
      }
      return;
    }
    case type_kind::sequence:
      s.tag(3, 2);
      s.varint(field_size(type_size(d, d.kid(i, 0))));
      type_field(d, 1, d.kid(i, 0), s);
      return;
    case type_kind::tensor: {
      s.tag(4, 2);
      s.varint(tensor_body_size(d, n));
      s.tag(1, 0);
      s.varint(static_cast<std::uint64_t>(n.dt));
      if (n.dim_count) {
        std::size_t packed = 0;
        for (std::uint32_t k = 0; k != n.dim_count; ++k)
          packed += varint_size(static_cast<std::uint64_t>(d.dims[n.dim_begin + k]));
        s.tag(2, 2);
        s.varint(packed);
        for (std::uint32_t k = 0; k != n.dim_count; ++k)
          s.varint(static_cast<std::uint64_t>(d.dims[n.dim_begin + k]));
      }
      if (n.unknown_rank) {
        s.tag(3, 0);
        s.put(1);
      }
      return;
    }
    case type_kind::abstract:
      // Python can read none back; describe() users must not serialize these (checked by callers).
      s.tag(5, 2);
      s.varint(field_size(d.label(i).size()));
      s.string_field(1, d.label(i));
      return;
    case type_kind::placement:
      s.tag(6, 2);
      s.put(0);
      return;
    case type_kind::federated: {
      auto m = d.kid(i, 0);
      std::size_t len = field_size(placement_spec_size(n.where)) + (n.all_equal ? 2 : 0) +
                        field_size(type_size(d, m));
      s.tag(7, 2);
      s.varint(len);
      s.tag(1, 2);
      s.varint(placement_spec_size(n.where));
      s.tag(2, 2);
      s.varint(field_size(placement_uri(n.where).size()));
      s.string_field(1, placement_uri(n.where));
      if (n.all_equal) {
        s.tag(2, 0);
        s.put(1);
      }
      type_field(d, 3, m, s);
      return;
    }
  }
}

constexpr bool has_abstract(const type_desc& d) {
  for (const auto& n : d.nodes)
    if (n.kind == type_kind::abstract) return true;
  return false;
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
