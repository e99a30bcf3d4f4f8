// Where the per-client intrinsics of a run go: an executor given a client_backend offers it every
// call of federated_map and federated_eval_at_clients on CLIENTS values; the backend runs it
// elsewhere (ctff::remote_executor: on workers) and returns the result, or declines and the
// executor runs it here. Everything else (folds, sums, server work) stays in the executor, in
// client order, so results do not depend on where the per-client work ran.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "ctff/run/value.hpp"

namespace ctff {

class client_backend {
 public:
  virtual ~client_backend() = default;
  // `fn` is the intrinsic `uri` (of the run's N = `clients`); `arg` its argument (null: none).
  // Called from the run's threads, possibly several at once.
  virtual std::optional<dynamic_value> try_call(std::string_view uri, const dynamic_value& fn,
                                                const dynamic_value* arg, std::size_t clients) = 0;
};

}  // namespace ctff
