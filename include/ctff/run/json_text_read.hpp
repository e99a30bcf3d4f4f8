// JSON text to a value in one pass, guided by the TFF type: no document tree (ctff-run's argument,
// issue 45). The pass takes the common shape of an argument — plain JSON that fits the type — and
// gives way to the tree reader (run/json_read.hpp: parse_json, value_from_json) at anything else:
// a syntax error, a value that does not fit, an escape or a non-ASCII byte in a string, a
// duplicate key, an unknown rank, a number it does not read exactly as nlohmann/json does. That
// reader then reports the same error, with the same message, as before; on the text the pass
// takes, both make the same value (tests/fuzz/fuzz_run_json.cpp checks it).
#pragma once

#include <algorithm>
#include <charconv>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/run/client_column.hpp"
#include "ctff/run/json_read.hpp"
#include "ctff/run/small_float.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {
namespace detail {

// Reads text that is plain JSON fitting the type; throws give_way otherwise.
class json_text_reader {
 public:
  struct give_way {};

  json_text_reader(std::string_view text, const type_desc& types, std::optional<std::size_t>& clients)
      : p_(text.data()), end_(text.data() + text.size()), types_(types), clients_(clients) {}

  dynamic_value document(std::uint32_t t) {
    ws();
    dynamic_value v = value(t);
    ws();
    if (p_ != end_) throw give_way{};
    return v;
  }

 private:
  // parse_json refuses deeper text before parsing; here it gives way.
  static constexpr int max_depth = 512;

  void ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool eat(char c) {
    ws();
    if (p_ != end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void need(char c) {
    if (!eat(c)) throw give_way{};
  }
  void open(char c) {
    need(c);
    if (++depth_ > max_depth) throw give_way{};
  }
  // After an element of a list: true at `]` (the list ends), false at `,`.
  bool list_end() {
    ws();
    if (p_ == end_) throw give_way{};
    if (*p_ == ']') {
      ++p_;
      --depth_;
      return true;
    }
    if (*p_ != ',') throw give_way{};
    ++p_;
    return false;
  }
  // `[` then whether the list is empty (`]` eaten).
  bool list_start() {
    open('[');
    if (eat(']')) {
      --depth_;
      return true;
    }
    return false;
  }
  // A string without escapes, control characters or non-ASCII bytes (nlohmann/json checks UTF-8
  // and decodes escapes: the tree reader does those).
  std::string_view plain_string() {
    need('"');
    const char* s = p_;
    while (p_ != end_ && *p_ != '"') {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '\\' || c < 0x20 || c >= 0x80) throw give_way{};
      ++p_;
    }
    if (p_ == end_) throw give_way{};
    return {s, static_cast<std::size_t>(p_++ - s)};
  }

  // A JSON number token (RFC 8259's grammar, as nlohmann/json's lexer takes it).
  struct number {
    std::string_view text;
    bool integer;  // no fraction, no exponent
  };
  number number_token() {
    ws();
    const char* s = p_;
    const auto digit = [&] { return p_ != end_ && *p_ >= '0' && *p_ <= '9'; };
    if (p_ != end_ && *p_ == '-') ++p_;
    if (!digit()) throw give_way{};
    if (*p_ == '0') ++p_;
    else
      while (digit()) ++p_;
    bool integer = true;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (!digit()) throw give_way{};
      while (digit()) ++p_;
      integer = false;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digit()) throw give_way{};
      while (digit()) ++p_;
      integer = false;
    }
    return {{s, static_cast<std::size_t>(p_ - s)}, integer};
  }

  // A float element: a number (nlohmann/json reads an integer token as an integer, then it is
  // widened: -0 is +0.0) or "nan", "inf", "-inf".
  double real() {
    ws();
    if (p_ != end_ && *p_ == '"') {
      const std::string_view s = plain_string();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
      throw give_way{};
    }
    const number n = number_token();
    double x = 0;
#if defined(_LIBCPP_VERSION)
    // libc++'s headers declare floating-point from_chars, but a libc++.so older than 20 (Debian
    // 12's libc++1 beside libc++-22-dev) does not define it: the tree reader (strtod) reads it.
    (void)n;
    throw give_way{};
#else
    const auto r = std::from_chars(n.text.data(), n.text.data() + n.text.size(), x);
    if (r.ec != std::errc{} || r.ptr != n.text.data() + n.text.size()) throw give_way{};  // out of range
#endif
    if (n.integer && x == 0) x = 0;  // `-0`
    return x;
  }

  template <dtype D>
  typename stored_t<D>::value_type element() {
    using E = element_t<D>;
    if constexpr (D == dtype::bool_) {
      ws();
      if (end_ - p_ >= 4 && std::string_view(p_, 4) == "true") {
        p_ += 4;
        return 1;
      }
      if (end_ - p_ >= 5 && std::string_view(p_, 5) == "false") {
        p_ += 5;
        return 0;
      }
      throw give_way{};
    } else if constexpr (D == dtype::str) {
      return std::string(plain_string());
    } else if constexpr (D == dtype::float16) {
      return half_bits{json_small_float_bits<5, 10>(real())};
    } else if constexpr (D == dtype::bfloat16) {
      return bfloat16_bits{json_small_float_bits<8, 7>(real())};
    } else if constexpr (std::is_floating_point_v<E>) {
      return static_cast<E>(real());
    } else if constexpr (D == dtype::complex64 || D == dtype::complex128) {
      using R = typename E::value_type;
      open('[');
      const double re = real();
      need(',');
      const double im = real();
      need(']');
      --depth_;
      return E(static_cast<R>(re), static_cast<R>(im));
    } else {
      static_assert(std::is_integral_v<E>);
      const number n = number_token();
      if (!n.integer) throw give_way{};
      E v{};
      const auto r = std::from_chars(n.text.data(), n.text.data() + n.text.size(), v);
      if (r.ec != std::errc{} || r.ptr != n.text.data() + n.text.size()) throw give_way{};  // out of E's range
      return v;
    }
  }

  dynamic_value value(std::uint32_t t) {
    const type_node& n = types_.node(t);
    switch (n.kind) {
      case type_kind::tensor: return tensor(t);
      case type_kind::struct_: return structure(t);
      case type_kind::federated: {
        const std::uint32_t member = types_.kid(t, 0);
        if (n.all_equal || n.where == placement_kind::server) return make_federated(n.where, true, {value(member)});
        if (columnar(member)) return column(member);
        std::vector<dynamic_value> members;
        if (!list_start())
          do members.push_back(value(member));
          while (!list_end());
        if (!clients_) clients_ = members.size();
        else if (*clients_ != members.size()) throw give_way{};
        return make_federated(placement_kind::clients, false, std::move(members));
      }
      case type_kind::sequence: {
        std::vector<dynamic_value> elements;
        if (!list_start())
          do elements.push_back(value(types_.kid(t, 0)));
          while (!list_end());
        return make_sequence(std::move(elements));
      }
      default: throw give_way{};
    }
  }

  dynamic_value structure(std::uint32_t t) {
    const std::uint32_t k = types_.node(t).kid_count;
    std::vector<std::string> names;
    bool all_named = k != 0, any_named = false;
    for (std::uint32_t i = 0; i != k; ++i) {
      names.emplace_back(types_.name(types_.kid(t, i)));
      all_named = all_named && !names.back().empty();
      any_named = any_named || !names.back().empty();
    }
    std::vector<dynamic_value> elements(k);
    if (k == 0) {  // `[]` or `{}`
      ws();
      const char close = p_ != end_ && *p_ == '{' ? '}' : ']';
      open(close == '}' ? '{' : '[');
      need(close);
      --depth_;
    } else if (all_named) {
      open('{');
      for (std::uint32_t seen = 0; seen != k;) {
        if (seen) need(',');
        const std::string_view key = plain_string();
        std::uint32_t i = 0;
        while (i != k && names[i] != key) ++i;
        if (i == k || elements[i]) throw give_way{};  // unknown or repeated (the last one wins)
        need(':');
        elements[i] = value(types_.kid(t, i));
        ++seen;
      }
      need('}');
      --depth_;
    } else {
      open('[');
      for (std::uint32_t i = 0; i != k; ++i) {
        if (i) need(',');
        elements[i] = value(types_.kid(t, i));
      }
      need(']');
      --depth_;
    }
    if (!any_named) names.clear();
    return make_struct_value(std::move(elements), std::move(names));
  }

  dynamic_value tensor(std::uint32_t t) {
    const type_node& n = types_.node(t);
    if (n.dt == dtype::invalid || n.unknown_rank) throw give_way{};
    std::vector<std::int64_t> want(n.dim_count), shape(n.dim_count, -1);
    std::uint64_t count = 1;
    for (std::uint32_t k = 0; k != n.dim_count; ++k) {
      want[k] = types_.dims[n.dim_begin + k];
      count = want[k] < 0 || count > (std::uint64_t{1} << 40) ? 0 : count * static_cast<std::uint64_t>(want[k]);
    }
    return visit_dtype(n.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      stored_t<D> elements;
      // An element takes two bytes of text at least: a reservation the text cannot fill is not made.
      if (count) elements.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, static_cast<std::uint64_t>(end_ - p_) / 2 + 1)));
      nest<D>(elements, want, shape, 0);
      for (std::size_t k = 0; k != shape.size(); ++k)
        if (shape[k] < 0) shape[k] = want[k] >= 0 ? want[k] : 0;
      return make_tensor<D>(std::move(elements), std::move(shape));
    });
  }

  // Whether the clients' values of tensor type t are read as one column (run/client_column.hpp):
  // numbers of a fully known shape.
  bool columnar(std::uint32_t t) const {
    const type_node& n = types_.node(t);
    if (n.kind != type_kind::tensor || n.dt == dtype::invalid || n.dt == dtype::str || n.unknown_rank) return false;
    for (std::uint32_t k = 0; k != n.dim_count; ++k)
      if (types_.dims[n.dim_begin + k] < 0) return false;
    return true;
  }
  // The list of the clients' tensors of type t as one tensor, the clients its first dimension.
  dynamic_value column(std::uint32_t t) {
    const type_node& n = types_.node(t);
    std::vector<std::int64_t> want{-1}, shape(n.dim_count + 1, -1);
    for (std::uint32_t k = 0; k != n.dim_count; ++k) want.push_back(types_.dims[n.dim_begin + k]);
    return visit_dtype(n.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      stored_t<D> elements;
      nest<D>(elements, want, shape, 0);
      const auto count = static_cast<std::size_t>(shape[0] < 0 ? 0 : shape[0]);
      if (!clients_) clients_ = count;
      else if (*clients_ != count) throw give_way{};
      if (count == 0) return make_federated(placement_kind::clients, false, {});
      for (std::size_t k = 1; k != shape.size(); ++k) shape[k] = want[k];
      return make_column_value(tensor_data{D, std::move(shape), tensor_elements(std::move(elements))});
    });
  }

  template <dtype D>
  void nest(stored_t<D>& out, const std::vector<std::int64_t>& want, std::vector<std::int64_t>& shape, std::size_t level) {
    if (level == want.size()) {
      out.push_back(element<D>());
      return;
    }
    std::int64_t len = 0;
    if (!list_start()) {
      if (level + 1 == want.size()) {
        do {
          out.push_back(element<D>());
          ++len;
        } while (!list_end());
      } else {
        do {
          nest<D>(out, want, shape, level + 1);
          ++len;
        } while (!list_end());
      }
    }
    if ((want[level] >= 0 && len != want[level]) || (shape[level] >= 0 && shape[level] != len)) throw give_way{};
    shape[level] = len;
  }

  const char* p_;
  const char* end_;
  int depth_ = 0;
  const type_desc& types_;
  std::optional<std::size_t>& clients_;
};

}  // namespace detail

// Reads JSON text as a value of the type node `type` of `types`, in one pass where it can (see
// the header comment), else as parse_json then value_from_json do: the same value, the same
// argument_error for any text. `clients` as value_from_json's.
inline dynamic_value value_from_json_text(std::string_view text, const type_desc& types, std::uint32_t type,
                                          std::optional<std::size_t>& clients, std::string path = "arg") {
  const std::optional<std::size_t> before = clients;
  try {
    return detail::json_text_reader(text, types, clients).document(type);
  } catch (const detail::json_text_reader::give_way&) {
    clients = before;
  }
  return value_from_json(parse_json(text), types, type, clients, std::move(path));
}

}  // namespace ctff
