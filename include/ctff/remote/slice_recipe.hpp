// How clients' values held on a worker were made (remote_options::aggregate_on_workers): the
// per-client intrinsic and function called on the controller's clients' values, or on what an
// earlier recipe made. When the worker holding a slice of them fails, the slice is made again
// from its recipe on another worker (remote/held_clients.hpp), from the controller's data down.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "ctff/remote/shipped_taps.hpp"
#include "ctff/remote/slice_requests.hpp"
#include "ctff/remote/worker_link.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// A closed Computation's bytes as the message a Value carries.
inline federated_language::Computation computation_message(const std::string& bytes) {
  federated_language::Computation c;
  if (!c.ParseFromString(bytes)) throw run_fault("a shipped function does not parse back as a Computation");
  return c;
}

// The intrinsic called with the function (and, for a map, the clients' values `value`) on the
// worker: the result's id there.
inline std::string call_on(slice_requests& rq, const std::string& intrinsic, const std::string& function,
                           const std::string* value, const shipped_taps& taps) {
  const std::string i = rq.computation(computation_message(intrinsic), "CreateValue (the intrinsic)");
  const std::string f = rq.computation(computation_message(function), "CreateValue (the function)", &taps);
  return rq.call(i, value ? rq.structure({f, *value}, "CreateStruct") : f, "CreateCall");
}

struct slice_recipe {
  std::string intrinsic, function;          // closed Computations' bytes
  bool map = false;                         // federated_map (else eval_at_clients: no operand)
  dynamic_value data;                       // the operand: the controller's CLIENTS value, or
  std::shared_ptr<const slice_recipe> from; // what this recipe made, for a held operand
};

// Clients [begin, end) of a value held by a worker's executor as `ref`; `epoch`: the worker's
// (worker_link::epoch) when it was made, another meaning the worker restarted and lost it.
struct held_slice {
  std::shared_ptr<worker_link> link;
  std::string executor, ref;
  std::size_t begin = 0, end = 0;
  std::uint64_t epoch = 0;

  bool there(const worker_link& w, const std::string& ex) const {
    return link.get() == &w && executor == ex && epoch == w.epoch();
  }
};

// Clients [begin, end) of what recipe r makes, made on the executor for them of worker w (the
// operand first, when it is itself made); no taps (they saw the clients the first time).
inline held_slice make_slice(const slice_recipe& r, const std::shared_ptr<worker_link>& w, std::size_t begin,
                             std::size_t end, int depth = 0) {
  if (depth > 256) throw run_fault("clients' values made from more than 256 maps: not made again");
  const std::uint64_t epoch = w->epoch();
  slice_requests rq(*w, w->executor(end - begin));
  std::string operand;
  if (r.from) {
    operand = make_slice(*r.from, w, begin, end, depth + 1).ref;
    rq.adopt(operand);
  } else if (r.map) {
    if (!r.data.is(value_kind::federated)) throw run_fault("a held value's recipe has no clients' values");
    operand = clients_ref(rq, r.data.federated(), begin, end);
  }
  const std::string out = rq.keep(call_on(rq, r.intrinsic, r.function, r.map ? &operand : nullptr, shipped_taps{}));
  return held_slice{w, rq.executor(), out, begin, end, epoch};
}

}  // namespace ctff::detail
