// ctff::remote_executor: an executor whose per-client work runs on workers (ctff-worker, or TFF's
// own), over TFF's remote-execution protocol. The clients are split as TFF's composing stack
// splits them, ceil(N/K) to each of the K live workers in order; each worker gets its slice and
// the per-client intrinsic (federated_map, federated_eval_at_clients) with the function to run,
// shipped as a closed Computation (run/function_computation.hpp). By default the slices come
// back and are joined in worker order, and everything else (sums, folds, server work) runs here
// in client order: results are those of a local run, whatever the timing. With
// remote_options::aggregate_on_workers the results stay on the workers (remote/held_clients.hpp)
// for the maps and aggregations that follow (remote/worker_aggregation.hpp), partial results
// merged here in worker order. A function that cannot be shipped (it captures a federated value)
// runs here. A slice whose worker dies, hangs past the deadline or restarts runs again on
// another (remote/worker_pool.hpp), with the same result; a run fails, saying what was tried,
// only when no worker can run a slice. Workers down at the start are left out of the split
// (spares for failover once they answer).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <tensorflow_federated/proto/v0/executor.grpc.pb.h>

#include "ctff/read/tree.hpp"
#include "ctff/remote/held_clients.hpp"
#include "ctff/remote/shipped_taps.hpp"
#include "ctff/remote/slice_requests.hpp"
#include "ctff/remote/value_message.hpp"
#include "ctff/remote/worker_aggregation.hpp"
#include "ctff/remote/worker_data.hpp"
#include "ctff/remote/worker_link.hpp"
#include "ctff/remote/worker_pool.hpp"
#include "ctff/remote/slice_recipe.hpp"
#include "ctff/run/client_backend.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/function_computation.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff {

struct remote_options {
  std::vector<std::string> workers{};                     // HOST:PORT, in the order clients go
  std::chrono::milliseconds deadline = std::chrono::minutes(10);  // per request to a worker
  std::chrono::milliseconds connect = std::chrono::seconds(5);    // to reach a worker at the start
  // Failover (docs/distributed.md): a slice whose worker dies, hangs past a deadline or
  // restarts runs again on the next worker that answers, at most `retries` times per slice;
  // `slice_deadline` bounds each attempt at a slice (0: only `deadline`, per request); a failed
  // worker is asked every `probe_every` whether it answers again, and used again once it does.
  // When no worker answers, a slice waits up to `connect` for one.
  std::size_t retries = 3;
  std::chrono::milliseconds slice_deadline{0};
  std::chrono::milliseconds probe_every{500};
  std::size_t max_message_bytes = std::size_t{1} << 30;
  // TLS: the CA that signed the workers' certificates (PEM); with tls_cert and tls_key, the
  // certificate this controller shows them. All empty: no TLS.
  std::string tls_root_ca{}, tls_cert{}, tls_key{};
  // Keep the clients' results on the workers and aggregate them there, a slice each, merging
  // the partial results here in worker order (TFF's composing executor does so): far fewer
  // bytes back, but float sums regrouped (docs/distributed.md). False: every result comes back
  // and is aggregated here in client order, bit for bit a local run's.
  bool aggregate_on_workers = false;
  // Where this side reads clients' data given by URI when it must (null: it cannot; the workers
  // read it: docs/distributed.md, "Data on the workers").
  std::shared_ptr<const data_dir> data{};
};

namespace detail {

namespace v0 = tensorflow_federated::v0;

// Whether the building block i of t (a lambda's body) only moves values about: references,
// selections, structs, literals, no call. Such a function (`federated_map` of a selection, as
// selecting from a federated struct is written) costs less to run here than its values cost to
// send.
inline bool only_moves_values(const computation_tree& t, std::uint32_t i, int depth = 0) {
  if (i == no_index || i >= t.nodes.size() || depth > 64) return false;
  const block_node& n = t.node(i);
  switch (n.kind) {
    case block_kind::reference:
    case block_kind::literal: return true;
    case block_kind::selection:
    case block_kind::struct_:
      return for_each_child(t, i, [&](std::uint32_t k, const child_step&) { return only_moves_values(t, k, depth + 1); });
    default: return false;
  }
}
inline bool only_moves_values(const dynamic_value& fn) {
  const auto* c = dynamic_cast<const closure*>(fn.function().impl.get());
  if (!c) return false;
  const computation_tree& t = c->prog()->tree();
  return only_moves_values(t, t.node(c->lambda()).a);
}

// Runs federated_map and federated_eval_at_clients on the workers, a slice each; with
// aggregate_on_workers, keeps their results there and runs what it can of values held there.
class remote_backend final : public client_backend {
 public:
  remote_backend(std::shared_ptr<worker_pool> pool, bool aggregate, std::shared_ptr<const data_dir> data = {})
      : pool_(std::move(pool)), aggregate_(aggregate), data_(std::move(data)) {}

  std::optional<dynamic_value> try_call_in(std::string_view uri, const dynamic_value& fn, const dynamic_value* arg,
                                           std::size_t n, run_context& c) override {
    if (std::optional<dynamic_value> r = data_on_controller(uri, fn, arg, c, data_.get())) return r;
    if (ships_per_client(intrinsic_facts_of(uri))) {
      if (std::optional<dynamic_value> r = ship(uri, fn, arg, n, &c)) return r;
      return data_on_controller(uri, fn, arg, c, data_.get(), true);  // (not shipped: read here)
    }
    if (!aggregate_ || !arg || !*arg || !holds_elsewhere(*arg)) return std::nullopt;
    return aggregate_held(uri, fn, *arg, n, c);
  }

  std::optional<dynamic_value> try_call(std::string_view uri, const dynamic_value& fn, const dynamic_value* arg,
                                        std::size_t n) override {
    return ship(uri, fn, arg, n, nullptr);
  }

  const std::vector<std::shared_ptr<worker_link>>& links() const { return pool_->all(); }
  // Clients' tensors go to the workers that read columns as one (remote/wire_columns.hpp).
  bool reads_columns() const override { return true; }

 private:
  // The per-client intrinsic on the workers, the run's taps (c: null, none) inside the function
  // going with it.
  std::optional<dynamic_value> ship(std::string_view uri, const dynamic_value& fn, const dynamic_value* arg,
                                    std::size_t n, run_context* c) {
    const intrinsic_facts& facts = intrinsic_facts_of(uri);
    if (!ships_per_client(facts)) return std::nullopt;
    if (n == 0 || !arg || !*arg) return std::nullopt;
    const bool map = facts.kind == intrinsic_kind::map;
    // federated_map's <f, {T}@CLIENTS>: the function and the members; eval_at_clients: f alone.
    const dynamic_value f = map ? (arg->is(value_kind::struct_) && arg->structure().elements.size() == 2
                                       ? arg->structure().elements[0]
                                       : dynamic_value{})
                                : *arg;
    const dynamic_value* v = map && f ? &arg->structure().elements[1] : nullptr;
    if (!f || (map && (!v->is(value_kind::federated) || v->federated().where != placement_kind::clients)))
      return std::nullopt;  // (the intrinsic's own checks then say what is wrong)
    const held_clients* held = map ? held_clients::of(*v) : nullptr;
    if (held ? held->clients() != n
             : map && !v->federated().all_equal &&
                   (v->federated().column ? column_rows(*v->federated().column) : v->federated().members.size()) != n)
      return std::nullopt;
    // A function that only moves values about is cheaper here, unless the values are there.
    if (!f.is(value_kind::function) || (!held && !(v && holds_data_reference(*v)) && only_moves_values(f)))
      return std::nullopt;
    const std::optional<std::string> intrinsic = function_computation(fn);
    const std::optional<function_writer::written> written = written_function(f);
    if (!intrinsic || !written) return std::nullopt;  // not shippable: runs here
    const std::string* function = &written->bytes;
    const shipped_taps taps = c ? taps_in(written->closures, *c) : shipped_taps{};

    auto recipe = std::make_shared<const slice_recipe>(
        slice_recipe{*intrinsic, *function, map, held || !map ? dynamic_value{} : *v, held ? held->recipe() : nullptr});
    // Progress (c reporting): reported as slices come back, naming their workers; without
    // aggregate_on_workers, a slice goes in tenths so that reports come as the work goes (the
    // members are joined in order all the same). With it, slices stay whole: their partial
    // aggregates would be regrouped.
    run_context::progress_count count =
        c ? c->progress(n, uri) : run_context::progress_count(nullptr, n, uri, {}, 0, 0);
    const bool in_tenths = c && c->reporting() && !aggregate_;
    if (held) {  // on each slice where it is, the results kept there
      return held_value(on_each_worker(held->count(),
                                       [&](std::size_t k) {
                                         return held->with_slice(k, [&](slice_requests& rq, const held_slice& s) {
                                           rq.tap_for(c, s.begin);
                                           const std::string r = call_on(rq, *intrinsic, *function, &s.ref, taps);
                                           count.add(s.end - s.begin, rq.link().address());
                                           return held_slice{s.link, s.executor, rq.keep(r), s.begin, s.end, s.epoch};
                                         });
                                       }),
                        n, pool_, std::move(recipe));
    }
    // ceil(N/K) clients to each worker in order, as TFF's composing stack splits them; a slice
    // whose worker fails runs on another (worker_pool::run).
    const std::size_t k = pool_->home().size(), per = (n + k - 1) / k;
    std::vector<slice_result> parts = on_each_worker((n + per - 1) / per, [&](std::size_t w) {
      const std::size_t begin = w * per, end = std::min(n, begin + per);
      return pool_->run(pool_->home()[w], begin, end, [&](const std::shared_ptr<worker_link>& link) {
        const std::size_t step = in_tenths ? std::max<std::size_t>(1, (end - begin + 9) / 10) : end - begin;
        slice_result out;
        std::size_t counted = 0;
        try {
          for (std::size_t b = begin; b < end; b += step) {
            const std::size_t e = std::min(end, b + step);
            slice_result r = run_slice(link, map, *intrinsic, *function, v, b, e, taps, c);
            if (aggregate_ || step == end - begin) {
              out = std::move(r);
            } else {  // (tenths: joined as members)
              if (r.column)
                for (std::size_t i = 0; i != e - b; ++i) r.members.push_back(column_row(*r.column, i));
              out.members.insert(out.members.end(), std::make_move_iterator(r.members.begin()),
                                 std::make_move_iterator(r.members.end()));
            }
            count.add(e - b, link->address());
            counted += e - b;
          }
        } catch (...) {
          count.undo(counted);  // (the slice runs again, elsewhere or there)
          throw;
        }
        return out;
      });
    });
    if (aggregate_) {
      std::vector<held_slice> slices;
      for (slice_result& p : parts) slices.push_back(std::move(p.held));
      return held_value(std::move(slices), n, pool_, std::move(recipe));
    }
    // Columns from every worker: one column; else members, in slice order.
    std::vector<const tensor_data*> columns;
    for (const slice_result& p : parts)
      if (p.column) columns.push_back(p.column.get());
    if (columns.size() == parts.size())
      if (std::optional<tensor_data> all = column_concat(columns)) return make_column_value(std::move(*all));
    std::vector<dynamic_value> members;
    members.reserve(n);
    for (slice_result& p : parts) {
      if (p.column)
        for (std::size_t i = 0, rows = column_rows(*p.column); i != rows; ++i) members.push_back(column_row(*p.column, i));
      for (dynamic_value& m : p.members) members.push_back(std::move(m));
    }
    return make_federated(placement_kind::clients, false, std::move(members));
  }

  struct slice_result {
    std::vector<dynamic_value> members;        // or, from a worker that reads columns:
    std::shared_ptr<const tensor_data> column;  // or, with aggregate_on_workers:
    held_slice held;
  };

  slice_result run_slice(const std::shared_ptr<worker_link>& w, bool map, const std::string& intrinsic,
                         const std::string& function, const dynamic_value* v, std::size_t begin, std::size_t end,
                         const shipped_taps& taps, run_context* c) const {
    const std::size_t count = end - begin;
    const std::uint64_t epoch = w->epoch();
    slice_requests rq(*w, w->executor(count));
    rq.tap_for(c, begin);
    const std::string value = map ? clients_ref(rq, v->federated(), begin, end) : std::string();
    const std::string r = call_on(rq, intrinsic, function, map ? &value : nullptr, taps);
    if (aggregate_) return {{}, {}, held_slice{w, rq.executor(), rq.keep(r), begin, end, epoch}};
    const dynamic_value out = rq.compute(r, "Compute", count);
    if (out.is(value_kind::federated) && out.federated().column) return {{}, out.federated().column, {}};
    if (!out.is(value_kind::federated) || out.federated().where != placement_kind::clients ||
        (!out.federated().all_equal && out.federated().members.size() != count) || out.federated().members.empty())
      throw run_fault("worker " + w->address() + ": answered something other than " + std::to_string(count) +
                      " clients' values");
    const federated_data& o = out.federated();
    if (!o.all_equal) return {o.members, {}, {}};
    return {std::vector<dynamic_value>(count, o.members.front()), {}, {}};
  }

  std::shared_ptr<worker_pool> pool_;
  bool aggregate_;
  std::shared_ptr<const data_dir> data_;
};

}  // namespace detail

static_assert(std::has_virtual_destructor_v<executor>,
              "a remote_executor is destroyed through a std::unique_ptr<executor>");

// An executor whose per-client work runs on workers: everything executor does (run, call, bind,
// evaluate, apply), with federated_map and federated_eval_at_clients sent to the workers. The
// workers need the bindings of the opaque computations the per-client functions call
// (ctff-worker --bind, or worker_options::setup).
class remote_executor : public executor {
 public:
  explicit remote_executor(remote_options remote, run_options options = {}) : executor(options) {
    std::vector<std::shared_ptr<detail::worker_link>> links, spares;
    const int max = static_cast<int>(std::min<std::size_t>(remote.max_message_bytes, 0x7fffffff));
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(max);
    args.SetMaxSendMessageSize(max);
    // (What the taps saw comes back as trailing metadata: remote/shipped_taps.hpp.)
    args.SetInt(GRPC_ARG_MAX_METADATA_SIZE, static_cast<int>(detail::max_tap_bytes + (std::size_t{16} << 20)));
    std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
    if (!remote.tls_root_ca.empty() || !remote.tls_cert.empty()) {
      grpc::SslCredentialsOptions ssl;
      ssl.pem_root_certs = remote.tls_root_ca;
      ssl.pem_private_key = remote.tls_key;
      ssl.pem_cert_chain = remote.tls_cert;
      creds = grpc::SslCredentials(ssl);
    }
    // Reached at the start or left out (TFF does the same), all waited for at once.
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    for (const std::string& a : remote.workers) {
      channels.push_back(grpc::CreateCustomChannel(a, creds, args));
      channels.back()->GetState(true);  // start connecting
    }
    const auto by = std::chrono::system_clock::now() + remote.connect;
    for (std::size_t k = 0; k != channels.size(); ++k) {
      if (channels[k]->WaitForConnected(by)) {
        links.push_back(std::make_shared<detail::worker_link>(remote.workers[k], channels[k], remote.deadline));
        live_.push_back(remote.workers[k]);
      } else {
        left_out_.push_back(remote.workers[k]);
        spares.push_back(std::make_shared<detail::worker_link>(remote.workers[k], channels[k], remote.deadline));
      }
    }
    if (links.empty()) {
      std::string all;
      for (const std::string& a : remote.workers) {
        if (!all.empty()) all += ", ";
        all += a;
      }
      throw remote_error("remote_executor: no worker could be reached within " +
                         std::to_string(remote.connect.count()) + " ms" + (all.empty() ? " (none given)" : ": " + all));
    }
    auto pool = std::make_shared<detail::worker_pool>(
        std::move(links), std::move(spares),
        detail::failover_policy{remote.retries, remote.slice_deadline, remote.probe_every, remote.connect});
    backend_ = std::make_shared<detail::remote_backend>(std::move(pool), remote.aggregate_on_workers, remote.data);
    set_client_backend(backend_);
  }

  // The workers in use, in the order clients go to them; those left out (unreachable at the start:
  // spares, used for failover once they answer).
  const std::vector<std::string>& workers() const { return live_; }
  const std::vector<std::string>& left_out() const { return left_out_; }
  // What went to the workers and came back, over all of them.
  wire_traffic traffic() const {
    wire_traffic t;
    for (const auto& l : backend_->links()) {
      const wire_traffic w = l->traffic();
      t.sent += w.sent;
      t.received += w.received;
    }
    return t;
  }

 private:
  std::vector<std::string> live_, left_out_;
  std::shared_ptr<detail::remote_backend> backend_;
};

}  // namespace ctff
