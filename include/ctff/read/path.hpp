// Paths from the root of a Computation to one of its messages, as the reader and the checker
// report them: `lambda.result.block.local[2](fc_f_symbol_2).call.argument`. Kept as a stack of
// frames while walking and spelled only when an error needs it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ctff::detail {

// One step: `what`, then `[index]` when index >= 0, then `(name)` when there is a name.
struct path_frame {
  const char* what;
  std::int64_t index;
  std::string_view name;
};

inline std::string path_string(const std::vector<path_frame>& frames) {
  std::string path;
  for (const path_frame& f : frames) {
    if (!path.empty()) path += '.';
    path += f.what;
    if (f.index >= 0) {
      path += '[';
      path += std::to_string(f.index);
      path += ']';
    }
    if (!f.name.empty()) {
      path += '(';
      path += f.name;
      path += ')';
    }
  }
  return path;
}

}  // namespace ctff::detail
