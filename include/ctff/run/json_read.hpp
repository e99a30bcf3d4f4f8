// JSON to values, interpreted by their TFF type (reference/execution.md §5): ctff-run's argument
// format. Input (value_from_json) follows §5 strictly; every mismatch is an argument_error whose
// path names the place in the value: `arg.model.bias[3]` (named struct elements by `.name`, others
// and list members by `[i]`, tensor elements by `[i][j]`, client members by `[i]`).
#pragma once

#include <nlohmann/json.hpp>

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

#include "ctff/run/error.hpp"
#include "ctff/run/json_messages.hpp"
#include "ctff/run/small_float.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {
namespace detail {

// A tensor of unknown rank read from JSON has at most this many dimensions (TensorFlow's limit).
inline constexpr std::size_t json_max_rank = 254;

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
        if (!j.is_array()) fail(path, "expected a list (a sequence " + message_type_text(types_, t) + "), got " + json_what(j));
        std::vector<dynamic_value> elements;
        elements.reserve(j.size());
        for (std::size_t i = 0; i != j.size(); ++i)
          elements.push_back(read(j[i], types_.kid(t, 0), path + "[" + std::to_string(i) + "]"));
        return make_sequence(std::move(elements));
      }
      case type_kind::function: fail(path, "a function (" + message_type_text(types_, t) + ") cannot be given as JSON");
      case type_kind::placement: fail(path, "a placement cannot be given as JSON");
      case type_kind::abstract: fail(path, "a value of the abstract type " + message_type_text(types_, t) + " cannot be given as JSON");
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
        fail(path, "expected an object with the keys of " + message_type_text(types_, t) + ", got " + json_what(j));
      for (const auto& item : j.items()) {
        bool known = false;
        for (const auto& nm : names) known = known || nm == item.key();
        if (!known) fail(path, "unexpected key `" + item.key() + "` (the type is " + message_type_text(types_, t) + ")");
      }
      for (std::uint32_t i = 0; i != k; ++i) {
        auto it = j.find(names[i]);
        if (it == j.end()) fail(path, "missing key `" + names[i] + "` (the type is " + message_type_text(types_, t) + ")");
        elements.push_back(read(*it, types_.kid(t, i), path + "." + names[i]));
      }
    } else {
      if (!j.is_array() || j.size() != k)
        fail(path, "expected a list of " + std::to_string(k) + " elements (" + message_type_text(types_, t) + "), got " +
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
    if (!j.is_array()) fail(path, "expected a list of client values (" + message_type_text(types_, t) + "), got " + json_what(j));
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
                       message_type_text(self->types_, type) + "), got " + json_what(j));
      const auto len = static_cast<std::int64_t>(j.size());
      if (want[level] >= 0 && len != want[level])
        fail(path, "expected a list of " + std::to_string(want[level]) + " (dimension " + std::to_string(level) + " of " +
                       message_type_text(self->types_, type) + "), got a list of " + std::to_string(len));
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

}  // namespace ctff
