// Taps across the wire. A controller that ships a function to a worker sends the paths of the
// run's taps inside it, as paths of the shipped Computation, in the metadata of the CreateValue
// that creates it (`ctff-tap`, one entry per path); the worker taps its run of the next
// CreateCall on them and answers with what they saw in that call's trailing metadata
// (`ctff-tap-bin`, one event per entry: a Value struct <path, placement, client, worker, value>).
// The controller maps each event back to the path in its own run, the client to its index in
// the whole cohort, and names the worker. TFF's own clients send no such metadata: nothing
// changes for them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tensorflow_federated/proto/v0/executor.pb.h>

#include "ctff/remote/value_message.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/function_computation.hpp"
#include "ctff/run/tap.hpp"
#include "ctff/run/value.hpp"
#include "ctff/run/value_print.hpp"

namespace ctff::detail {

inline constexpr const char* tap_request_key = "ctff-tap";
inline constexpr const char* tap_events_key = "ctff-tap-bin";
// The bytes of events one call answers with at most; beyond, the call fails (RESOURCE_EXHAUSTED)
// rather than hold them all: a tap on every client of a large slice is what a summary is for.
inline constexpr std::size_t max_tap_bytes = std::size_t{64} << 20;

// The run's taps inside a shipped function: the paths to send (in the shipped Computation), and
// the path in the run each stands for.
struct shipped_taps {
  std::vector<std::string> paths;
  std::map<std::string, std::string, std::less<>> in_run;
  bool empty() const { return paths.empty(); }
};
inline shipped_taps taps_in(const std::vector<function_writer::placed_closure>& closures, run_context& c) {
  shipped_taps out;
  if (!c.taps()) return out;
  for (const function_writer::placed_closure& pc : closures) {
    const program& p = *pc.c->prog();
    const tap_marks* m = c.marks(p);
    const std::uint32_t lambda = pc.c->lambda();
    if (!m || !m->holds_tap[lambda]) continue;
    const std::string top = p.path(lambda);
    for (std::uint32_t i : p.paths().preorder(lambda)) {
      if (!m->tapped[i]) continue;
      const std::string full = p.path(i);
      const std::string rest = full.substr(std::min(full.size(), top.size() + (top.empty() ? 0 : 1)));
      std::string shipped = pc.path.empty() ? rest : rest.empty() ? pc.path : pc.path + "." + rest;
      out.in_run.emplace(shipped, full);
      out.paths.push_back(std::move(shipped));
    }
  }
  return out;
}

// One event as it goes on the wire.
inline std::string tap_event_bytes(const tapped_value& v) {
  auto text = [](std::string_view s) { return make_scalar<dtype::str>(std::string(s)); };
  auto event = [&](const dynamic_value& value) {
    return ctff::to_message(make_struct_value(
        {text(v.path), text(v.placement ? placement_uri(*v.placement) : std::string_view()),
         make_scalar<dtype::int64>(v.client ? static_cast<std::int64_t>(*v.client) : -1), text(v.worker), value},
        {"path", "placement", "client", "worker", "value"}));
  };
  try {
    return event(v.value).SerializeAsString();
  } catch (const std::exception&) {  // (a function, a placement: no Value; its printed form)
    return event(text(ctff::to_string(v.value))).SerializeAsString();
  }
}

struct tap_event {
  std::string path, worker;
  std::optional<placement_kind> placement;
  std::optional<std::size_t> client;
  dynamic_value value;
};
// An event read back; nullopt: not one (a worker that answers with something else is ignored
// rather than trusted).
inline std::optional<tap_event> read_tap_event(std::string_view bytes) {
  tensorflow_federated::v0::Value m;
  if (bytes.size() > max_tap_bytes || !m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  try {
    const dynamic_value e = ctff::from_message(m);
    if (!e.is(value_kind::struct_) || e.structure().elements.size() != 5) return std::nullopt;
    const auto& x = e.structure().elements;
    auto text = [&](std::size_t k) -> std::optional<std::string> {
      if (!x[k].is(value_kind::tensor) || x[k].tensor().dt != dtype::str || x[k].tensor().get<dtype::str>().size() != 1)
        return std::nullopt;
      return x[k].tensor().get<dtype::str>()[0];
    };
    const std::optional<std::string> path = text(0), where = text(1), worker = text(3);
    if (!path || !where || !worker || !x[2].is(value_kind::tensor) || x[2].tensor().dt != dtype::int64 ||
        x[2].tensor().get<dtype::int64>().size() != 1)
      return std::nullopt;
    const std::int64_t client = x[2].tensor().get<dtype::int64>()[0];
    tap_event out{*path, *worker, std::nullopt, std::nullopt, x[4]};
    for (placement_kind k : {placement_kind::clients, placement_kind::server})
      if (*where == placement_uri(k)) out.placement = k;
    if (client >= 0) out.client = static_cast<std::size_t>(client);
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Gives the events a worker at `address` answered with, for the clients from `first` on, to the
// run's taps, at the paths they stand for.
inline void deliver_tap_events(const std::vector<std::string>& events, const shipped_taps& taps, std::size_t first,
                               const std::string& address, run_context& c) {
  if (!c.taps()) return;
  for (const std::string& bytes : events) {
    std::optional<tap_event> e = read_tap_event(bytes);
    if (!e) continue;
    auto at = taps.in_run.find(e->path);
    if (at == taps.in_run.end()) continue;
    std::optional<std::size_t> client = e->client;
    if (client) *client += first;
    c.taps()->deliver(tapped_value{at->second, e->placement, client, e->worker.empty() ? address : e->worker, e->value});
  }
}

}  // namespace ctff::detail
