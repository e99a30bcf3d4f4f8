// Type strings exactly as federated_language prints them: compact (`<a=int32,float32>@SERVER`) and
// formatted (structs broken over lines, two spaces per level).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ctff/core/defer.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {
namespace detail {

CTFF_DEFER
constexpr void print_type(const type_desc& d, std::uint32_t i, text_sink& s) {
  const type_node& n = d.node(i);
  switch (n.kind) {
    case type_kind::tensor:
      if (n.unknown_rank) {
        s.put('\'');
        s.put(dtype_name(n.dt));
        s.put("'(shape=None)");
        return;
      }
      s.put(dtype_name(n.dt));
      if (n.dim_count) {
        s.put('[');
        for (std::uint32_t k = 0; k != n.dim_count; ++k) {
          if (k) s.put(',');
          auto v = d.dims[n.dim_begin + k];
          if (v < 0) {
            s.put('?');
          } else {
            s.put_int(v);
          }
        }
        s.put(']');
      }
      return;
    case type_kind::struct_:
      if (n.kid_count == 0) {
        s.put("<>");
        return;
      }
      s.put('<');
      ++s.indent;
      s.line();
      for (std::uint32_t k = 0; k != n.kid_count; ++k) {
        if (k) {
          s.put(',');
          s.line();
        }
        auto c = d.kid(i, k);
        if (auto nm = d.name(c); !nm.empty()) {
          s.put(nm);
          s.put('=');
        }
        print_type(d, c, s);
      }
      --s.indent;
      s.line();
      s.put('>');
      return;
    case type_kind::sequence:
      print_type(d, d.kid(i, 0), s);
      s.put('*');
      return;
    case type_kind::function:
      s.put('(');
      if (n.has_param) print_type(d, d.kid(i, 0), s);
      s.put(" -> ");
      print_type(d, d.kid(i, n.has_param ? 1 : 0), s);
      s.put(')');
      return;
    case type_kind::federated:
      if (!n.all_equal) s.put('{');
      print_type(d, d.kid(i, 0), s);
      if (!n.all_equal) s.put('}');
      s.put('@');
      s.put(placement_name(n.where));
      return;
    case type_kind::placement:
      s.put("placement");
      return;
    case type_kind::abstract:
      s.put(d.label(i));
      return;
  }
}

// Run-time printing of type i of a description: sized first, then written in place.
inline std::string type_text(const type_desc& d, std::uint32_t i, bool formatted = false) {
  text_sink count{};
  count.formatted = formatted;
  print_type(d, i, count);
  std::string out(count.n, '\0');
  text_sink s{out.data()};
  s.formatted = formatted;
  print_type(d, i, s);
  return out;
}

}  // namespace detail

// Run-time printing of a type description (e.g. one read from a Type message).
inline std::string to_string(const type_desc& d, bool formatted = false) {
  return detail::type_text(d, d.root, formatted);
}

// The compact string of type node i of d (`{int32}@CLIENTS`; a tree's types are `t.types`). One
// longer than max_chars (at least 3) is cut to that length, its end `...`.
inline std::string type_string(const type_desc& d, std::uint32_t i,
                               std::size_t max_chars = std::string::npos) {
  std::string out = detail::type_text(d, i);
  if (out.size() > max_chars) {
    // (No std::max: <algorithm> would renumber the auto:N that docs/diagnostics.md quotes.)
    out.resize(max_chars > 3 ? max_chars - 3 : 0);
    out += "...";
  }
  return out;
}

namespace detail {

// A type in a message: its string cut to a readable length.
inline std::string message_type_text(const type_desc& d, std::uint32_t i) { return type_string(d, i, 120); }

}  // namespace detail
}  // namespace ctff
