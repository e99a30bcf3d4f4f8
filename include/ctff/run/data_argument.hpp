// An argument given as JSON whose clients' data is named by URI (ctff-run; docs/running.md,
// "Data by URI"): in a `{T}@CLIENTS` value, a member `{"data": "URI"}`, or the whole value
// `{"data": "PATTERN"}` with `{i}` standing for each client's index, 0 to N-1 (N: --clients, or
// the length of the argument's other client lists). Each becomes a data_reference (run/
// data_reference.hpp) of type T: read where the run is told the data lives. Everything else is
// read as value_from_json reads it. (A T that is a struct of one element named `data` reads
// `{"data": ...}` as that struct.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctff/run/data_reference.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/json_read.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {
namespace detail {

// Whether j names data by URI where a member of type `member` goes.
inline bool is_data_form(const nlohmann::json& j, const type_desc& types, std::uint32_t member) {
  if (!j.is_object() || j.size() != 1) return false;
  const auto it = j.find("data");
  if (it == j.end() || !it->is_string()) return false;
  const type_node& n = types.node(member);
  return !(n.kind == type_kind::struct_ && n.kid_count == 1 && types.name(types.kid(member, 0)) == "data");
}

// Whether j, read as type t, names data by URI somewhere.
inline bool has_data_form(const nlohmann::json& j, const type_desc& types, std::uint32_t t, int depth = 0) {
  const type_node& n = types.node(t);
  if (depth > 64) return false;
  if (n.kind == type_kind::federated && n.where == placement_kind::clients && !n.all_equal) {
    const std::uint32_t m = types.kid(t, 0);
    if (is_data_form(j, types, m)) return true;
    if (j.is_array())
      for (const auto& x : j)
        if (is_data_form(x, types, m)) return true;
    return false;
  }
  if (n.kind != type_kind::struct_) return false;
  for (std::uint32_t k = 0; k != n.kid_count; ++k) {
    const std::uint32_t e = types.kid(t, k);
    const std::string name(types.name(e));
    if (j.is_object() && !name.empty() && j.contains(name) && has_data_form(j[name], types, e, depth + 1)) return true;
    if (j.is_array() && k < j.size() && has_data_form(j[k], types, e, depth + 1)) return true;
  }
  return false;
}

inline dynamic_value value_with_data(const nlohmann::json& j, const type_desc& types, std::uint32_t t,
                                     std::optional<std::size_t>& clients, const std::string& path, std::size_t first) {
  if (!has_data_form(j, types, t)) return value_from_json(j, types, t, clients, path);
  const type_node& n = types.node(t);
  if (n.kind == type_kind::struct_) {
    std::vector<dynamic_value> e;
    std::vector<std::string> names;
    bool named = false;
    for (std::uint32_t k = 0; k != n.kid_count; ++k) {
      const std::uint32_t x = types.kid(t, k);
      names.emplace_back(types.name(x));
      named = named || !names.back().empty();
      const bool by_name = j.is_object() && !names.back().empty();
      const nlohmann::json* v = by_name ? (j.contains(names.back()) ? &j[names.back()] : nullptr)
                                        : (j.is_array() && k < j.size() ? &j[k] : nullptr);
      if (!v) throw argument_error(path, "no element " + (by_name ? "`" + names.back() + "`" : std::to_string(k)));
      e.push_back(value_with_data(*v, types, x, clients, path + step_text(names.back(), k), first));
    }
    if (!named) names.clear();
    return make_struct_value(std::move(e), std::move(names));
  }
  // {T}@CLIENTS: a pattern for all, or a list whose members may be URIs.
  const std::uint32_t m = types.kid(t, 0);
  std::vector<dynamic_value> members;
  if (is_data_form(j, types, m)) {
    const std::string pattern = j["data"];
    const std::size_t at = pattern.find("{i}");
    if (at == std::string::npos)
      throw argument_error(path, "{\"data\": \"" + pattern + "\"} for all the clients needs `{i}` (the client's index)");
    if (!clients)
      throw argument_error(path, "{\"data\": \"" + pattern + "\"}: the number of clients is not known (give --clients N)");
    members.reserve(*clients);
    for (std::size_t i = 0; i != *clients; ++i) {
      std::string uri = pattern;
      for (std::size_t p = uri.find("{i}"); p != std::string::npos; p = uri.find("{i}", p))
        uri.replace(p, 3, std::to_string(first + i));
      members.push_back(data_reference_value(std::move(uri), types, m));
    }
    return make_federated(placement_kind::clients, false, std::move(members));
  }
  if (clients && *clients != j.size())
    throw argument_error(path, "a list of " + std::to_string(j.size()) + " client values, but the number of clients is " +
                                   std::to_string(*clients));
  clients = j.size();
  for (std::size_t i = 0; i != j.size(); ++i)
    members.push_back(is_data_form(j[i], types, m)
                          ? data_reference_value(j[i]["data"].get<std::string>(), types, m)
                          : value_from_json(j[i], types, m, clients, path + step_text({}, i)));
  return make_federated(placement_kind::clients, false, std::move(members));
}

}  // namespace detail

// Reads j as value_from_json does, clients' data given by URI becoming data references; a
// pattern's `{i}` counts from `first` (one subround's clients: forms/subrounds.hpp).
inline dynamic_value value_from_json_with_data(const nlohmann::json& j, const type_desc& types, std::uint32_t type,
                                               std::optional<std::size_t>& clients, const std::string& path = "arg",
                                               std::size_t first = 0) {
  return detail::value_with_data(j, types, type, clients, path, first);
}

}  // namespace ctff
