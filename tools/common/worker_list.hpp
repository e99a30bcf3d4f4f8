// `--workers HOST:PORT[,HOST:PORT...]` (ctff-run, ctff-worker): the addresses in order; an empty
// one (`a,,b`, a trailing comma) is an input_error.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "computation_file.hpp"

namespace ctff_tools {

inline std::vector<std::string> worker_list(const std::string& flag_value) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= flag_value.size();) {
    const std::size_t comma = std::min(flag_value.find(',', at), flag_value.size());
    if (comma == at) throw input_error{"--workers: an empty address in `" + flag_value + "`"};
    out.push_back(flag_value.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

}  // namespace ctff_tools
