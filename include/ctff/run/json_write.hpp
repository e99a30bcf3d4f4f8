// Values to JSON, written by their TFF type (reference/execution.md §5): ctff-run's result format.
//
// Output (value_to_json) is one line without spaces:
//   * integers (every integer dtype) exactly, in decimal;
//   * floats (float16, bfloat16 and float32 widened to double, float64) as Python's repr of the
//     double: its shortest round-trip digits (std::to_chars), positional when the decimal point
//     falls within 16 digits of the first one (`1.0`, `-0.0`, `0.1`, `123456792.0`,
//     `0.0001`), else in exponent form (`1e-05`, `5.343857958189007e+18`, `1e+20`). NaN and
//     ±inf are the strings "nan", "inf", "-inf" (any NaN, whatever its sign or payload);
//   * complex as [re, im] of two such floats; bool as true/false;
//   * strings as JSON strings, escaped by nlohmann/json (bytes that are not valid UTF-8 become
//     U+FFFD);
//   * a struct whose elements all have names as an object, keys in the type's order; other
//     structs (and `<>`) as lists; `{T}@CLIENTS` as the list of members, T@SERVER and all_equal
//     T@CLIENTS as the member; a sequence as a list of its elements.
#pragma once

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "ctff/numpy/python_repr.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/json_messages.hpp"
#include "ctff/run/result_form.hpp"
#include "ctff/run/small_float.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {
namespace detail {

// Appends the JSON form of a double (see the header comment).
inline void json_put_double(std::string& out, double x) {
  if (std::isnan(x)) {
    out += "\"nan\"";
    return;
  }
  if (std::isinf(x)) {
    out += x > 0 ? "\"inf\"" : "\"-inf\"";
    return;
  }
  // The shortest round-trip digits and their exponent, laid out as Python's repr does.
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  if (sci.front() == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const std::size_t e_at = sci.find('e');
  dragon_digits d;
  for (char c : sci.substr(0, e_at))
    if (c != '.') d.d[d.n++] = c;
  std::from_chars(sci.data() + e_at + 1 + (sci[e_at + 1] == '+'), sci.data() + sci.size(), d.exp10);
  small_text text;
  put_python_digits(text, d, true);
  out += text.view();
}

template <class I>
void json_put_int(std::string& out, I x) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  out.append(buf, r.ptr);
}

// Writes a value as JSON, following its type.
class json_writer {
 public:
  json_writer(const type_desc& types, std::optional<std::size_t> clients) : types_(types), clients_(clients) {}

  void write(const dynamic_value& v, std::uint32_t t) {
    const type_node& n = types_.node(t);
    check_has_form(v, n, "JSON");
    switch (n.kind) {
      case type_kind::tensor: return tensor(expect(v, value_kind::tensor, t).tensor());
      case type_kind::struct_: return structure(expect(v, value_kind::struct_, t).structure(), t);
      case type_kind::sequence: {
        const auto& s = expect(v, value_kind::sequence, t).sequence();
        out += '[';
        for (std::size_t i = 0; i != s.elements.size(); ++i) {
          if (i) out += ',';
          write(s.elements[i], types_.kid(t, 0));
        }
        out += ']';
        return;
      }
      case type_kind::federated: return federated(expect(v, value_kind::federated, t).federated(), t);
      default: throw execution_error("", "a value of type " + message_type_text(types_, t) + " has no JSON form");
    }
  }

  std::string out;

 private:
  const dynamic_value& expect(const dynamic_value& v, value_kind k, std::uint32_t t) const {
    return expect_kind(v, k, types_, t);
  }

  void structure(const struct_data& s, std::uint32_t t) {
    check_element_count(s, types_, t);
    const std::uint32_t k = types_.node(t).kid_count;
    bool all_named = k != 0;
    for (std::uint32_t i = 0; i != k; ++i) all_named = all_named && !types_.name(types_.kid(t, i)).empty();
    out += all_named ? '{' : '[';
    for (std::uint32_t i = 0; i != k; ++i) {
      if (i) out += ',';
      if (all_named) {
        out += nlohmann::json(std::string(types_.name(types_.kid(t, i))))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        out += ':';
      }
      write(s.elements[i], types_.kid(t, i));
    }
    out += all_named ? '}' : ']';
  }

  void federated(const federated_data& f, std::uint32_t t) {
    const result_members m = members_of_result(f, types_, t, clients_);
    const std::uint32_t member = types_.kid(t, 0);
    if (!m.listed) return write(m[0], member);
    out += '[';
    for (std::size_t i = 0; i != m.size; ++i) {
      if (i) out += ',';
      write(m[i], member);
    }
    out += ']';
  }

  void tensor(const tensor_data& v) {
    check_fills_shape(v);
    visit_dtype(v.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      const auto* elements = std::get_if<stored_t<D>>(&v.elements);
      if (!elements) throw execution_error("", "a result tensor's elements do not match its dtype");
      std::size_t next = 0;
      nest<D>(*elements, v.shape, 0, next);
    });
  }

  template <dtype D>
  void nest(const stored_t<D>& e, const std::vector<std::int64_t>& shape, std::size_t level, std::size_t& next) {
    if (level == shape.size()) return element<D>(e[next++]);
    out += '[';
    for (std::int64_t i = 0; i != shape[level]; ++i) {
      if (i) out += ',';
      nest<D>(e, shape, level + 1, next);
    }
    out += ']';
  }

  template <dtype D>
  void element(const typename stored_t<D>::value_type& x) {
    using E = element_t<D>;
    if constexpr (D == dtype::bool_) {
      out += x ? "true" : "false";
    } else if constexpr (D == dtype::str) {
      out += nlohmann::json(x).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else if constexpr (D == dtype::float16) {
      json_put_double(out, static_cast<double>(half_to_float(x.bits)));
    } else if constexpr (D == dtype::bfloat16) {
      json_put_double(out, static_cast<double>(bfloat16_to_float(x.bits)));
    } else if constexpr (std::is_floating_point_v<E>) {
      json_put_double(out, static_cast<double>(x));
    } else if constexpr (D == dtype::complex64 || D == dtype::complex128) {
      out += '[';
      json_put_double(out, static_cast<double>(x.real()));
      out += ',';
      json_put_double(out, static_cast<double>(x.imag()));
      out += ']';
    } else {
      json_put_int(out, static_cast<E>(x));
    }
  }

  const type_desc& types_;
  std::optional<std::size_t> clients_;
};

}  // namespace detail

// The JSON form of v, read as the type node `type` of `types`, on one line (see the header
// comment). `types` holds many types as nodes and `type` indexes one: for a run of a
// computation_tree `tree`, `types` is `tree.types` and `type` the result type,
// `signature_of(tree).result` (run/signature.hpp); for a static type T, `d = describe<T>()` and
// `d.root`. `clients`, when given, is the number of clients: an
// all_equal value where the type is `{T}@CLIENTS` is written as that many copies of its member.
// Throws execution_error for a function or placement value, or a value that does not match the
// type. (For text for people rather than programs: to_string, run/value_print.hpp.)
inline std::string value_to_json(const dynamic_value& v, const type_desc& types, std::uint32_t type,
                                 std::optional<std::size_t> clients = {}) {
  detail::json_writer w(types, clients);
  w.write(detail::with_members(v), type);
  return std::move(w.out);
}

}  // namespace ctff
