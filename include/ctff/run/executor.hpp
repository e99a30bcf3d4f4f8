// Running any Computation: ctff::executor evaluates a computation_tree (reference/execution.md).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "ctff/read/tree.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

struct run_options {
  std::optional<std::size_t> clients;  // N; unset: inferred from the argument, else 0
  unsigned threads = 0;                // 0: std::thread::hardware_concurrency()
  run_limits limits{};
};

// A C++ callable standing for an opaque (TensorFlow, XLA, Data) computation; `arg` is null when
// the computation has no parameter.
using opaque_binding = std::function<value(const value* arg)>;

class executor {
 public:
  explicit executor(run_options options = {});
  // Binds the opaque computation printed as `key` (`comp#<adler32>`; Data: its printed uri).
  void bind(std::string key, opaque_binding fn);
  // Runs t with the argument (null: none). Throws argument_error when the argument does not fit
  // t's parameter, execution_error when the run fails.
  value run(const computation_tree& t, const value& arg = {});
};

}  // namespace ctff
