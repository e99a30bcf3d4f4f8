// How messages about JSON values name them: as written or by kind, cut to a readable length (a
// type: types/print.hpp's message_type_text). Shared by reading (run/json_read.hpp) and writing
// (run/json_write.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"

namespace ctff::detail {

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
