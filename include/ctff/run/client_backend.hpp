// Where the intrinsics of a run may go: an executor given a client_backend offers it every call
// of an intrinsic; the backend runs it elsewhere (ctff::remote_executor: federated_map and
// federated_eval_at_clients on workers, and with remote_options::aggregate_on_workers the
// aggregations of values the workers hold) and returns the result, or declines and the executor
// runs it here, after fetching whatever its argument holds elsewhere (run/clients_elsewhere.hpp).
// Without aggregation elsewhere, folds and sums stay in the executor, in client order, so
// results do not depend on where the per-client work ran.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "ctff/run/value.hpp"

namespace ctff {

class run_context;

class client_backend {
 public:
  virtual ~client_backend() = default;
  // `fn` is the intrinsic `uri` (of the run's N = `clients`); `arg` its argument (null: none).
  // Called from the run's threads, possibly several at once.
  virtual std::optional<dynamic_value> try_call(std::string_view uri, const dynamic_value& fn,
                                                const dynamic_value* arg, std::size_t clients) = 0;
  // The same with the run's context (to call the run's functions here: federated_aggregate's
  // merge and report); by default try_call. The executor calls this one.
  virtual std::optional<dynamic_value> try_call_in(std::string_view uri, const dynamic_value& fn,
                                                   const dynamic_value* arg, std::size_t clients, run_context&) {
    return try_call(uri, fn, arg, clients);
  }
  // Whether `arg` may hold CLIENTS values as columns (run/client_column.hpp); false: the executor
  // turns them into members first.
  virtual bool reads_columns() const { return false; }
};

}  // namespace ctff
