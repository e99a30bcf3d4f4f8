// Values as JSON, interpreted by their TFF type (reference/execution.md §5): the argument and
// result format of ctff-run. The only ctff header that needs nlohmann/json.
//
// Input (value_from_json) follows §5 strictly; every mismatch is an argument_error whose path
// names the place in the value: `arg.model.bias[3]` (named struct elements by `.name`, others and
// list members by `[i]`, tensor elements by `[i][j]`, client members by `[i]`).
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
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/core/sink.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"
#include "ctff/types/print.hpp"

namespace ctff {
namespace detail {

// A tensor of unknown rank read from JSON has at most this many dimensions (TensorFlow's limit).
inline constexpr std::size_t json_max_rank = 254;

// The compact type string of node i, cut to a readable length for messages.
inline std::string json_type_text(const type_desc& types, std::uint32_t i) {
  text_sink count{};
  print_type(types, i, count);
  std::string out(count.n, '\0');
  text_sink s{out.data()};
  print_type(types, i, s);
  if (out.size() > 120) out = out.substr(0, 117) + "...";
  return out;
}

// What a JSON value is, for messages: scalars as written (cut), containers by kind.
inline std::string json_what(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::array: return j.empty() ? "an empty list" : "a list";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::discarded: return "nothing";
    default: break;
  }
  std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// float16 (5 exponent bits, 10 mantissa bits) and bfloat16 (8, 7): IEEE binary formats.
template <int E, int M>
std::uint16_t json_small_float_bits(double x) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr std::uint16_t inf = static_cast<std::uint16_t>(((1u << E) - 1) << M);
  const std::uint16_t sign = std::signbit(x) ? static_cast<std::uint16_t>(1u << (E + M)) : 0;
  if (std::isnan(x)) return static_cast<std::uint16_t>(sign | inf | (1u << (M - 1)));
  const double a = std::fabs(x);
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | inf);
  int exp = 0;
  const double f = std::frexp(a, &exp);  // a = f * 2^exp, f in [0.5, 1)
  int e = exp - 1;                       // a = (2f) * 2^e
  if (a == 0 || e < 1 - bias) {
    // Subnormal (or zero): a / 2^(1 - bias - M), rounded to nearest even; 2^M is the least normal.
    const double q = std::nearbyint(std::ldexp(a, bias - 1 + M));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(q));
  }
  double q = std::nearbyint(std::ldexp(2 * f, M));  // in [2^M, 2^(M+1)]
  if (q == std::ldexp(1.0, M + 1)) {
    q = std::ldexp(1.0, M);
    ++e;
  }
  if (e > bias) return static_cast<std::uint16_t>(sign | inf);
  const auto mant = static_cast<std::uint16_t>(static_cast<unsigned>(q) - (1u << M));
  return static_cast<std::uint16_t>(sign | (static_cast<unsigned>(e + bias) << M) | mant);
}
template <int E, int M>
double json_small_float_value(std::uint16_t bits) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr unsigned emax = (1u << E) - 1;
  const unsigned e = (bits >> M) & emax;
  const unsigned m = bits & ((1u << M) - 1);
  double a;
  if (e == emax) {
    a = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (e == 0) {
    a = std::ldexp(static_cast<double>(m), 1 - bias - M);
  } else {
    a = std::ldexp(static_cast<double>(m | (1u << M)), static_cast<int>(e) - bias - M);
  }
  return (bits >> (E + M)) ? -a : a;
}

// Reads one JSON document against a TFF type.
class json_reader {
 public:
  json_reader(const type_desc& types, std::optional<std::size_t>& clients)
      : types_(types), clients_(clients) {}

  dynamic_value read(const nlohmann::json& j, std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    switch (n.kind) {
      case type_kind::tensor: return tensor(j, t, path);
      case type_kind::struct_: return structure(j, t, path);
      case type_kind::federated: return federated(j, t, path);
      case type_kind::sequence: {
        if (!j.is_array()) fail(path, "expected a list (a sequence " + json_type_text(types_, t) + "), got " + json_what(j));
        std::vector<dynamic_value> elements;
        elements.reserve(j.size());
        for (std::size_t i = 0; i != j.size(); ++i)
          elements.push_back(read(j[i], types_.kid(t, 0), path + "[" + std::to_string(i) + "]"));
        return make_sequence(std::move(elements));
      }
      case type_kind::function: fail(path, "a function (" + json_type_text(types_, t) + ") cannot be given as JSON");
      case type_kind::placement: fail(path, "a placement cannot be given as JSON");
      case type_kind::abstract: fail(path, "a value of the abstract type " + json_type_text(types_, t) + " cannot be given as JSON");
    }
    fail(path, "unknown type");
  }

 private:
  [[noreturn]] static void fail(const std::string& path, std::string problem) {
    throw argument_error(path, std::move(problem));
  }

  dynamic_value structure(const nlohmann::json& j, std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    const std::uint32_t k = n.kid_count;
    bool all_named = k != 0;
    for (std::uint32_t i = 0; i != k; ++i) all_named = all_named && !types_.name(types_.kid(t, i)).empty();
    std::vector<dynamic_value> elements;
    std::vector<std::string> names;
    elements.reserve(k);
    for (std::uint32_t i = 0; i != k; ++i) names.emplace_back(types_.name(types_.kid(t, i)));
    if (k == 0) {
      if (!(j.is_array() || j.is_object()) || !j.empty()) fail(path, "expected [] (the empty struct <>), got " + json_what(j));
      return make_struct_value({});
    }
    if (all_named) {
      if (!j.is_object())
        fail(path, "expected an object with the keys of " + json_type_text(types_, t) + ", got " + json_what(j));
      for (const auto& item : j.items()) {
        bool known = false;
        for (const auto& nm : names) known = known || nm == item.key();
        if (!known) fail(path, "unexpected key `" + item.key() + "` (the type is " + json_type_text(types_, t) + ")");
      }
      for (std::uint32_t i = 0; i != k; ++i) {
        auto it = j.find(names[i]);
        if (it == j.end()) fail(path, "missing key `" + names[i] + "` (the type is " + json_type_text(types_, t) + ")");
        elements.push_back(read(*it, types_.kid(t, i), path + "." + names[i]));
      }
    } else {
      if (!j.is_array() || j.size() != k)
        fail(path, "expected a list of " + std::to_string(k) + " elements (" + json_type_text(types_, t) + "), got " +
                       (j.is_array() ? "a list of " + std::to_string(j.size()) : json_what(j)));
      for (std::uint32_t i = 0; i != k; ++i)
        elements.push_back(read(j[i], types_.kid(t, i),
                                names[i].empty() ? path + "[" + std::to_string(i) + "]" : path + "." + names[i]));
    }
    bool any_named = false;
    for (const auto& nm : names) any_named = any_named || !nm.empty();
    if (!any_named) names.clear();
    return make_struct_value(std::move(elements), std::move(names));
  }

  dynamic_value federated(const nlohmann::json& j, std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    const std::uint32_t member = types_.kid(t, 0);
    if (n.all_equal || n.where == placement_kind::server)
      return make_federated(n.where, true, {read(j, member, path)});
    if (!j.is_array()) fail(path, "expected a list of client values (" + json_type_text(types_, t) + "), got " + json_what(j));
    if (!clients_) {
      clients_ = j.size();
    } else if (*clients_ != j.size()) {
      fail(path, "a list of " + std::to_string(j.size()) + " client values, but the number of clients is " +
                     std::to_string(*clients_));
    }
    std::vector<dynamic_value> members;
    members.reserve(j.size());
    for (std::size_t i = 0; i != j.size(); ++i) members.push_back(read(j[i], member, path + "[" + std::to_string(i) + "]"));
    return make_federated(placement_kind::clients, false, std::move(members));
  }

  dynamic_value tensor(const nlohmann::json& j, std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    if (n.dt == dtype::invalid) fail(path, "a tensor of invalid dtype cannot be given");
    const bool complex = n.dt == dtype::complex64 || n.dt == dtype::complex128;
    std::vector<std::int64_t> want;  // -1: any length
    if (n.unknown_rank) {
      // The nesting decides: the depth of the first element (a complex element is a list too).
      const nlohmann::json* p = &j;
      while (p->is_array() && !(complex && !p->empty() && !(*p)[0].is_array())) {
        if (want.size() == json_max_rank) fail(path, "more than " + std::to_string(json_max_rank) + " dimensions");
        want.push_back(-1);
        if (p->empty()) break;
        p = &(*p)[0];
      }
    } else {
      for (std::uint32_t k = 0; k != n.dim_count; ++k) want.push_back(types_.dims[n.dim_begin + k] < 0 ? -1 : types_.dims[n.dim_begin + k]);
    }
    return visit_dtype(n.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      tensor_shape_reader<D> r{this, t, want, std::vector<std::int64_t>(want.size(), -1), {}};
      r.walk(j, 0, path);
      for (std::size_t k = 0; k != r.shape.size(); ++k)  // dimensions inside an empty list:
        if (r.shape[k] < 0) r.shape[k] = want[k] >= 0 ? want[k] : 0;  // the type's, or 0 for `?`
      return make_tensor<D>(std::move(r.elements), std::move(r.shape));
    });
  }

  template <dtype D>
  struct tensor_shape_reader {
    json_reader* self;
    std::uint32_t type;
    const std::vector<std::int64_t>& want;
    std::vector<std::int64_t> shape;
    stored_t<D> elements;

    void walk(const nlohmann::json& j, std::size_t level, const std::string& path) {
      if (level == want.size()) {
        elements.push_back(element(j, path));
        return;
      }
      if (!j.is_array())
        fail(path, "expected a list (dimension " + std::to_string(level) + " of " +
                       json_type_text(self->types_, type) + "), got " + json_what(j));
      const auto len = static_cast<std::int64_t>(j.size());
      if (want[level] >= 0 && len != want[level])
        fail(path, "expected a list of " + std::to_string(want[level]) + " (dimension " + std::to_string(level) + " of " +
                       json_type_text(self->types_, type) + "), got a list of " + std::to_string(len));
      if (shape[level] < 0) {
        shape[level] = len;
      } else if (shape[level] != len) {
        fail(path, "a list of " + std::to_string(len) + " where its neighbours have " + std::to_string(shape[level]) +
                       " (tensors are rectangular)");
      }
      for (std::size_t i = 0; i != j.size(); ++i) walk(j[i], level + 1, path + "[" + std::to_string(i) + "]");
    }

    static double real(const nlohmann::json& j, const std::string& path) {
      if (j.is_number_float()) return j.get<double>();
      if (j.is_number_unsigned()) return static_cast<double>(j.get<std::uint64_t>());
      if (j.is_number_integer()) return static_cast<double>(j.get<std::int64_t>());
      if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
      }
      fail(path, "expected a " + std::string(dtype_name(D)) + " number (or \"nan\", \"inf\", \"-inf\"), got " + json_what(j));
    }

    typename stored_t<D>::value_type element(const nlohmann::json& j, const std::string& path) {
      using E = element_t<D>;
      if constexpr (D == dtype::bool_) {
        if (!j.is_boolean()) fail(path, "expected true or false (bool), got " + json_what(j));
        return static_cast<unsigned char>(j.get<bool>());
      } else if constexpr (D == dtype::str) {
        if (!j.is_string()) fail(path, "expected a string, got " + json_what(j));
        return j.get<std::string>();
      } else if constexpr (D == dtype::float16) {
        return half_bits{json_small_float_bits<5, 10>(real(j, path))};
      } else if constexpr (D == dtype::bfloat16) {
        return bfloat16_bits{json_small_float_bits<8, 7>(real(j, path))};
      } else if constexpr (std::is_floating_point_v<E>) {
        return static_cast<E>(real(j, path));
      } else if constexpr (D == dtype::complex64 || D == dtype::complex128) {
        using R = typename E::value_type;
        if (!j.is_array() || j.size() != 2)
          fail(path, "expected [re, im] (" + std::string(dtype_name(D)) + "), got " + json_what(j));
        return E(static_cast<R>(real(j[0], path + "[0]")), static_cast<R>(real(j[1], path + "[1]")));
      } else {
        static_assert(std::is_integral_v<E>);
        const auto bad = [&]() -> std::string {
          return "expected an integer in the range of " + std::string(dtype_name(D)) + " [" +
                 std::to_string(std::numeric_limits<E>::min()) + ", " + std::to_string(std::numeric_limits<E>::max()) +
                 "], got " + json_what(j);
        };
        if (j.is_number_unsigned()) {
          const auto v = j.get<std::uint64_t>();
          if (v > static_cast<std::uint64_t>(std::numeric_limits<E>::max())) fail(path, bad());
          return static_cast<E>(v);
        }
        if (j.is_number_integer()) {
          const auto v = j.get<std::int64_t>();
          if (v < 0 && !std::is_signed_v<E>) fail(path, bad());
          if constexpr (std::is_signed_v<E>)
            if (v < static_cast<std::int64_t>(std::numeric_limits<E>::min()) ||
                v > static_cast<std::int64_t>(std::numeric_limits<E>::max()))
              fail(path, bad());
          return static_cast<E>(v);
        }
        fail(path, bad());
      }
    }
  };

  const type_desc& types_;
  std::optional<std::size_t>& clients_;
};

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
  // The shortest round-trip digits and their exponent, laid out as Python's repr does:
  // positional when the decimal point falls within 16 digits of the first, else `d.ddde+XX`.
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  if (sci.front() == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const std::size_t e_at = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_at))
    if (c != '.') digits += c;
  int exp10 = 0;
  std::from_chars(sci.data() + e_at + 1 + (sci[e_at + 1] == '+'), sci.data() + sci.size(), exp10);
  const int point = exp10 + 1;  // digits before the decimal point
  const int n = static_cast<int>(digits.size());
  if (point <= -4 || point > 16) {
    out += digits[0];
    if (n > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += exp10 < 0 ? "e-" : "e+";
    const int a = exp10 < 0 ? -exp10 : exp10;
    if (a < 10) out += '0';
    out += std::to_string(a);
  } else if (point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += digits;
  } else if (n > point) {
    out.append(digits, 0, static_cast<std::size_t>(point));
    out += '.';
    out.append(digits, static_cast<std::size_t>(point));
  } else {
    out += digits;
    out.append(static_cast<std::size_t>(point - n), '0');
    out += ".0";
  }
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
    if (n.kind == type_kind::function || (v && v.is(value_kind::function)))
      throw execution_error("", "a function value has no JSON form");
    if (n.kind == type_kind::placement || (v && v.is(value_kind::placement)))
      throw execution_error("", "a placement value has no JSON form");
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
      default: throw execution_error("", "a value of type " + json_type_text(types_, t) + " has no JSON form");
    }
  }

  std::string out;

 private:
  const dynamic_value& expect(const dynamic_value& v, value_kind k, std::uint32_t t) const {
    if (!v.is(k)) throw execution_error("", "the result does not match its type " + json_type_text(types_, t));
    return v;
  }

  void structure(const struct_data& s, std::uint32_t t) {
    const std::uint32_t k = types_.node(t).kid_count;
    if (s.elements.size() != k)
      throw execution_error("", "the result has " + std::to_string(s.elements.size()) + " elements where its type " +
                                    json_type_text(types_, t) + " has " + std::to_string(k));
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
    const type_node& n = types_.node(t);
    const std::uint32_t member = types_.kid(t, 0);
    if (n.all_equal || n.where == placement_kind::server) {
      if (f.members.size() != 1)
        throw execution_error("", "the result has " + std::to_string(f.members.size()) + " members where its type " +
                                      json_type_text(types_, t) + " has one");
      return write(f.members[0], member);
    }
    // An all_equal value where the type has one member per client: one copy per client.
    const std::size_t count = f.all_equal && f.members.size() == 1 && clients_ ? *clients_ : f.members.size();
    out += '[';
    for (std::size_t i = 0; i != count; ++i) {
      if (i) out += ',';
      write(f.members[f.members.size() == count ? i : 0], member);
    }
    out += ']';
  }

  void tensor(const tensor_data& v) {
    std::size_t total = 1;
    for (auto d : v.shape) {
      if (d < 0) throw execution_error("", "a result tensor has a negative dimension");
      total *= static_cast<std::size_t>(d);
    }
    if (total != v.size())
      throw execution_error("", "a result tensor has " + std::to_string(v.size()) + " elements for its shape's " +
                                    std::to_string(total));
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
      json_put_double(out, json_small_float_value<5, 10>(x.bits));
    } else if constexpr (D == dtype::bfloat16) {
      json_put_double(out, json_small_float_value<8, 7>(x.bits));
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

// Parses JSON text, refusing nesting deeper than max_depth lists and objects (nlohmann/json's
// parser is not recursive, but a value this deep is no argument). Throws argument_error at `arg`.
inline nlohmann::json parse_json(std::string_view text, std::size_t max_depth = 512) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {  // (`<`: an escape skips a character)
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw argument_error("arg", "JSON nested deeper than " + std::to_string(max_depth) + " lists and objects");
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {  // parse_error; out_of_range: 1e400
    std::string m = e.what();
    if (auto at = m.find("] "); m.rfind("[json.exception", 0) == 0 && at != std::string::npos) m.erase(0, at + 2);
    throw argument_error("arg", "not JSON: " + m);
  }
}

// Reads j as a value of the type node `type` of `types` (reference/execution.md §5). Each
// `{T}@CLIENTS` list sets `clients` when it is unset and must have that length otherwise. Throws
// argument_error naming the path in the value (`path` is the root's name).
inline dynamic_value value_from_json(const nlohmann::json& j, const type_desc& types, std::uint32_t type,
                                     std::optional<std::size_t>& clients, std::string path = "arg") {
  return detail::json_reader(types, clients).read(j, type, path);
}

// The JSON form of v, read as the type node `type` of `types`, on one line (see the header
// comment). `clients`, when given, is the number of clients: an all_equal value where the type is
// `{T}@CLIENTS` is written as that many copies of its member. Throws execution_error for a
// function or placement value, or a value that does not match the type.
inline std::string value_to_json(const dynamic_value& v, const type_desc& types, std::uint32_t type,
                                 std::optional<std::size_t> clients = {}) {
  detail::json_writer w(types, clients);
  w.write(v, type);
  return std::move(w.out);
}

}  // namespace ctff
