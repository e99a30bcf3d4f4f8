// How messages about JSON values name things: a type as its compact string, a JSON value as
// written or by kind, both cut to a readable length. Shared by reading (run/json_read.hpp) and
// writing (run/json_write.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "ctff/core/sink.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"

namespace ctff::detail {

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

}  // namespace ctff::detail
