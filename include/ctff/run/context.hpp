// What one run carries: the number of clients, the workers, the opaque bindings, the limits and
// what the run has used of them; and a computation_tree prepared for running (the path of every
// building block, for errors).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/read/block_paths.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/run/budget.hpp"
#include "ctff/run/client_backend.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/resolve.hpp"
#include "ctff/run/tap.hpp"
#include "ctff/run/thread_pool.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

// How far a long run is: per-client work of one intrinsic, `done` of `total` clients (see
// run_options::progress); which call it is: the path of its Call building block, the how-manieth
// per-client call of the run (from 1) and how many Call building blocks of the computation call
// an intrinsic that works client by client (0: not known); `worker`: the worker (HOST:PORT) whose
// clients came in last (remote_executor), empty for work done here. Its views last as long as the
// call.
struct run_progress {
  std::string_view intrinsic;
  std::size_t done = 0, total = 0;
  std::string_view path{};
  std::size_t call = 0, calls = 0;
  std::string_view worker{};
};
using progress_callback = std::function<void(const run_progress&)>;

// A C++ callable standing for an opaque (TensorFlow, XLA, Data) computation; `arg` is null when
// the computation has no parameter.
using opaque_binding = std::function<dynamic_value(const dynamic_value* arg)>;

namespace detail {

// A tree and its building blocks' paths (errors spell them the way the checker does,
// `lambda.result.call.argument`); per Reference, where its value is.
class program {
 public:
  explicit program(std::shared_ptr<const computation_tree> t)
      : t_(std::move(t)), paths_(*t_), references_(resolve_references(*t_)) {
    constants_.resize(t_->nodes.size());
  }

  const computation_tree& tree() const { return *t_; }
  // What evaluating node i always gives (literals, intrinsic functions), made once; null: none.
  const dynamic_value& constant(std::uint32_t i) const { return constants_[i]; }
  void set_constant(std::uint32_t i, dynamic_value v) { constants_[i] = std::move(v); }
  // The key opaque node i is bound by (binding_key, run/binding_key.hpp), worked out once.
  const std::string& key(std::uint32_t i) const { return keys_[i]; }
  void set_key(std::uint32_t i, std::string k) {
    if (keys_.size() != t_->nodes.size()) keys_.resize(t_->nodes.size());
    keys_[i] = std::move(k);
  }
  // Whether Lambda node i can be called on a column of clients at once (run/batched_eval.hpp).
  bool batchable(std::uint32_t i) const { return i < batchable_.size() && batchable_[i]; }
  void set_batchable(std::vector<bool> b) { batchable_ = std::move(b); }
  // Where Reference node i finds its value (run/resolve.hpp).
  const frame_slot& reference(std::uint32_t i) const { return references_[i]; }
  const std::shared_ptr<const computation_tree>& shared_tree() const { return t_; }

  std::string path(std::uint32_t i) const { return paths_.path(i); }
  const block_paths& paths() const { return paths_; }

 private:
  std::shared_ptr<const computation_tree> t_;
  block_paths paths_;
  std::vector<frame_slot> references_;
  std::vector<dynamic_value> constants_;
  std::vector<bool> batchable_;
  std::vector<std::string> keys_;
};

}  // namespace detail

// One run: shared by every thread that works on it.
class run_context {
 public:
  run_context(std::size_t clients, const run_limits& limits, detail::thread_pool& pool,
              const std::map<std::string, opaque_binding, std::less<>>& bindings,
              client_backend* backend = nullptr, const progress_callback* progress = nullptr)
      : clients_(clients), limits_(limits), pool_(pool), bindings_(bindings), backend_(backend),
        progress_(progress && *progress ? progress : nullptr) {}

  // Where per-client intrinsics may run instead (none: here).
  client_backend* backend() const { return backend_; }

  std::size_t clients() const { return clients_; }
  const run_limits& limits() const { return limits_; }

  const opaque_binding* binding(std::string_view key) const {
    auto it = bindings_.find(key);
    return it == bindings_.end() ? nullptr : &it->second;
  }

  // Counts one evaluated building block (k: as many as k, evaluated once for k clients).
  void step(std::uint64_t k = 1) {
    if (steps_.fetch_add(k, std::memory_order_relaxed) + k > limits_.max_steps)
      throw detail::run_fault("the run evaluated more than run_limits::max_steps (" +
                              std::to_string(limits_.max_steps) + ") building blocks");
  }
  detail::byte_budget& budget() { return budget_; }

  // f(i) for every client i, on the workers (each charging this run's budget, counting its calls
  // from the depth of the caller, so that max_depth does not depend on the thread, and naming
  // client i in the errors of the bindings it calls).
  void for_each_client(std::size_t n, const std::function<void(std::size_t)>& f, std::string_view what = {}) {
    const std::size_t depth = depth_guard::depth();
    progress_count count = progress(n, what);
    pool_.for_each(n, [&](std::size_t i) {
      detail::byte_budget*& b = detail::byte_budget::current();
      std::size_t& d = depth_guard::depth();
      std::optional<std::size_t>& c = current_client();
      struct restore {  // this thread's state, put back however f returns
        detail::byte_budget*& b;
        std::size_t& d;
        std::optional<std::size_t>& c;
        detail::byte_budget* b0;
        std::size_t d0;
        std::optional<std::size_t> c0;
        ~restore() { b = b0, d = d0, c = c0; }
      } guard{b, d, c, b, d, c};
      b = &budget_;
      d = depth;
      c = i;
      f(i);
      count.add(1);
    });
  }

  // Reports per-client work of one call as it is done, clients `k` at a time, from any thread:
  // every hundredth of the clients (and the last), one report at a time, each further than the
  // one before (threads may reach marks out of order). Made on the thread evaluating the Call.
  class progress_count {
   public:
    progress_count(const progress_callback* cb, std::size_t n, std::string_view what, std::string path, std::size_t call,
                   std::size_t calls)
        : cb_(cb), n_(n), every_(std::max<std::size_t>(1, n / 100)), what_(what), path_(std::move(path)),
          call_(call), calls_(calls) {}
    void add(std::size_t k, std::string_view worker = {}) {
      if (!cb_ || k == 0) return;
      const std::size_t now = done_.fetch_add(k, std::memory_order_relaxed) + k;
      if (now / every_ == (now - k) / every_ && now != n_) return;
      std::lock_guard lock(m_);
      if (now <= reported_) return;
      reported_ = now;
      (*cb_)(run_progress{what_, now, n_, path_, call_, calls_, worker});
    }
    // Work counted that is to be done again (a slice run again on another worker).
    void undo(std::size_t k) {
      if (cb_) done_.fetch_sub(k, std::memory_order_relaxed);
    }

   private:
    const progress_callback* cb_;
    std::size_t n_, every_;
    std::string_view what_;
    std::string path_;
    std::size_t call_, calls_;
    std::atomic<std::size_t> done_{0};
    std::mutex m_;
    std::size_t reported_ = 0;
  };
  // The count of the call this thread is evaluating, over n clients (inert when not reporting).
  progress_count progress(std::size_t n, std::string_view what) {
    if (!progress_) return progress_count(nullptr, n, what, {}, 0, 0);
    const call_site site = current_call();  // (this thread's: not one of the pool's yet)
    return progress_count(progress_, n, what, site.prog ? site.prog->path(site.node) : std::string(),
                          calls_made_.fetch_add(1, std::memory_order_relaxed) + 1,
                          site.prog ? per_client_calls(*site.prog) : 0);
  }

  // Taps: the run's (null: none), set before the run starts.
  void set_taps(const tap_plan* taps) {
    static std::atomic<std::uint64_t> runs{0};
    taps_ = taps && !taps->empty() ? taps : nullptr;
    run_id_ = ++runs;
  }
  const tap_plan* taps() const { return taps_; }
  // Which building blocks of p are tapped (null: none, or no taps).
  const detail::tap_marks* marks(const detail::program& p) {
    if (!taps_) return nullptr;
    // Marks are found by tree (the plan keeps its trees alive, so an address is one tree), the
    // thread's last answer first.
    const computation_tree* t = &p.tree();
    struct seen {
      std::uint64_t run;
      const computation_tree* tree;
      const detail::tap_marks* marks;
    };
    thread_local seen last{0, nullptr, nullptr};
    if (last.run == run_id_ && last.tree == t) return last.marks;
    std::lock_guard lock(marks_m_);
    const detail::tap_marks* m = nullptr;
    bool found = false;
    for (const auto& [q, qm] : marks_)
      if (q == t) found = true, m = qm.get();
    if (!found) {
      const std::vector<std::uint32_t>* nodes = taps_->nodes_of(*t);
      m = marks_.emplace_back(t, nodes ? std::make_unique<detail::tap_marks>(p.paths(), *nodes) : nullptr).second.get();
    }
    last = seen{run_id_, t, m};
    return m;
  }
  // Gives the value v of building block i of p to the run's taps (client: this thread's).
  void tap(const detail::program& p, std::uint32_t i, const dynamic_value& v) {
    const std::string path = p.path(i);
    detail::tapped_values(v, current_client(), [&](std::optional<placement_kind> where, std::optional<std::size_t> client,
                                                   const dynamic_value& x) {
      taps_->deliver(tapped_value{path, where, client, {}, x});
    });
  }

  // Progress reports name the Call building block being evaluated: set by the evaluator, only
  // when reporting.
  struct call_site {
    const detail::program* prog = nullptr;
    std::uint32_t node = 0;
  };
  bool reporting() const { return progress_ != nullptr; }
  static call_site& current_call() {
    thread_local call_site s;
    return s;
  }

  // The client whose work this thread is doing inside for_each_client; none outside it.
  static std::optional<std::size_t>& current_client() {
    thread_local std::optional<std::size_t> c;
    return c;
  }

  // Call depth of the current thread (closures calling closures).
  struct depth_guard {
    explicit depth_guard(const run_context& c) {
      if (depth() >= c.limits_.max_depth)
        throw detail::run_fault("calls nested deeper than run_limits::max_depth (" +
                                std::to_string(c.limits_.max_depth) + ")");
      ++depth();
    }
    ~depth_guard() { --depth(); }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
    static std::size_t& depth() {
      thread_local std::size_t d = 0;
      return d;
    }
  };

 private:
  // How many Call building blocks of p call an intrinsic that works client by client.
  static std::size_t per_client_calls(const detail::program& p) {
    const computation_tree& t = p.tree();
    std::size_t k = 0;
    for (std::uint32_t i = 0; i != t.nodes.size(); ++i) {
      const block_node& n = t.node(i);
      if (n.kind != block_kind::call || n.a >= t.nodes.size()) continue;
      const dynamic_value& fn = p.constant(n.a);
      k += fn && fn.is(value_kind::function) && fn.function().impl->runs_per_client();
    }
    return k;
  }

  std::size_t clients_;
  run_limits limits_;
  detail::thread_pool& pool_;
  const std::map<std::string, opaque_binding, std::less<>>& bindings_;
  client_backend* backend_;
  const progress_callback* progress_;
  const tap_plan* taps_ = nullptr;
  std::uint64_t run_id_ = 0;
  std::mutex marks_m_;
  std::vector<std::pair<const computation_tree*, std::unique_ptr<detail::tap_marks>>> marks_;
  std::atomic<std::uint64_t> steps_{0};
  std::atomic<std::size_t> calls_made_{0};
  detail::byte_budget budget_{limits_.max_value_bytes};
};

}  // namespace ctff
