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

#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/run/budget.hpp"
#include "ctff/run/client_backend.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/resolve.hpp"
#include "ctff/run/thread_pool.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

// How far a long run is: per-client work of one intrinsic, `done` of `total` clients (see
// run_options::progress).
struct run_progress {
  std::string_view intrinsic;
  std::size_t done = 0, total = 0;
};
using progress_callback = std::function<void(const run_progress&)>;

// A C++ callable standing for an opaque (TensorFlow, XLA, Data) computation; `arg` is null when
// the computation has no parameter.
using opaque_binding = std::function<dynamic_value(const dynamic_value* arg)>;

namespace detail {

// A tree and, per node, its parent and the step from it: errors spell the path from the root
// the way the checker does (`lambda.result.call.argument`); per Reference, where its value is.
class program {
 public:
  explicit program(std::shared_ptr<const computation_tree> t) : t_(std::move(t)) {
    const computation_tree& tree = *t_;
    up_.assign(tree.nodes.size(), step{no_index, nullptr, -1, {}});
    constants_.resize(tree.nodes.size());
    references_ = resolve_references(tree);
    for (std::uint32_t i = 0; i != tree.nodes.size(); ++i) {
      const block_node& n = tree.node(i);
      auto link = [&](std::uint32_t kid, const char* what, std::int64_t index = -1,
                      std::string_view name = {}) {
        if (kid < up_.size()) up_[kid] = step{i, what, index, name};
      };
      switch (n.kind) {
        case block_kind::selection: link(n.a, "selection.source"); break;
        case block_kind::call:
          link(n.a, "call.function");
          if (n.b != no_index) link(n.b, "call.argument");
          break;
        case block_kind::lambda: link(n.a, "lambda.result"); break;
        case block_kind::block:
          for (std::uint32_t k = 0; k != n.count; ++k) {
            const block_elem& e = tree.elem(i, k);
            link(e.value, "block.local", k, tree.name(e));
          }
          link(n.a, "block.result");
          break;
        case block_kind::struct_:
          for (std::uint32_t k = 0; k != n.count; ++k) {
            const block_elem& e = tree.elem(i, k);
            link(e.value, "struct", k, tree.name(e));
          }
          break;
        default: break;
      }
    }
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

  std::string path(std::uint32_t i) const {
    std::vector<path_frame> frames;
    while (i < up_.size() && up_[i].parent != no_index) {
      frames.push_back(path_frame{up_[i].what, up_[i].index, up_[i].name});
      i = up_[i].parent;
    }
    return path_string(std::vector<path_frame>(frames.rbegin(), frames.rend()));
  }

 private:
  struct step {
    std::uint32_t parent;
    const char* what;
    std::int64_t index;
    std::string_view name;
  };
  std::shared_ptr<const computation_tree> t_;
  std::vector<step> up_;
  std::vector<dynamic_value> constants_;
  std::vector<frame_slot> references_;
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
    // Progress: every hundredth of the clients (and the last), one report at a time, each
    // further than the one before (threads may reach marks out of order).
    std::atomic<std::size_t> done{0};
    std::mutex report;
    std::size_t reported = 0;
    const std::size_t every = std::max<std::size_t>(1, n / 100);
    auto reached = [&](std::size_t k) {
      if (k % every != 0 && k != n) return;
      std::lock_guard lock(report);
      if (k <= reported) return;
      reported = k;
      (*progress_)(run_progress{what, k, n});
    };
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
      if (progress_) reached(done.fetch_add(1, std::memory_order_relaxed) + 1);
    });
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
  std::size_t clients_;
  run_limits limits_;
  detail::thread_pool& pool_;
  const std::map<std::string, opaque_binding, std::less<>>& bindings_;
  client_backend* backend_;
  const progress_callback* progress_;
  std::atomic<std::uint64_t> steps_{0};
  detail::byte_budget budget_{limits_.max_value_bytes};
};

}  // namespace ctff
