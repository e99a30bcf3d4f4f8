// Paths from the root of a Computation to one of its messages, as the reader and the checker
// report them: `lambda.result.block.local[2](fc_f_symbol_2).call.argument`. Kept as a stack of
// frames while walking and spelled only when an error needs it.
#pragma once

#include <cstddef>
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

// The path of the first `count` frames (all of them by default).
inline std::string path_string(const std::vector<path_frame>& frames, std::size_t count = static_cast<std::size_t>(-1)) {
  std::string path;
  for (std::size_t k = 0; k != frames.size() && k != count; ++k) {
    const path_frame& f = frames[k];
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
