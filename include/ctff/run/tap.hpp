// Taps: the values building blocks take while a computation runs, by path, without changing
// the computation. A tap names a building block by the path `ctff-inspect --paths` lists
// (`lambda.result.call.argument`); each value it takes is given to a callback with where it is:
// per client (with the client's index), at the server, or unplaced, and on which worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/read/block_paths.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

// One value a tap saw.
struct tapped_value {
  std::string_view path;  // the building block's
  // CLIENTS or SERVER; none: a value of no placement (a struct of federated values, a literal,
  // the work of a function applied at the server).
  std::optional<placement_kind> placement;
  // The client's index (a value computed for one client, or one member of a CLIENTS value);
  // none: at the server, unplaced, or one value all clients share (all_equal).
  std::optional<std::size_t> client;
  std::string_view worker;  // HOST:PORT of the worker that computed it; empty: this process
  const dynamic_value& value;
};
// Called one value at a time (never two calls at once), from the run's threads.
using value_callback = std::function<void(const tapped_value&)>;

// Whose value v is, in words: `client 3`, `server`, `all clients` (all_equal) or `value`
// (unplaced), then ` (worker HOST:PORT)` when a worker computed it.
inline std::string tap_origin(const tapped_value& v) {
  std::string s = v.client                                   ? "client " + std::to_string(*v.client)
                  : v.placement == placement_kind::server  ? std::string("server")
                  : v.placement == placement_kind::clients ? std::string("all clients")
                                                           : std::string("value");
  if (!v.worker.empty()) s += " (worker " + std::string(v.worker) + ")";
  return s;
}

// The taps of a run: building blocks by path, in the computations they belong to, and the
// callback their values go to.
class tap_plan {
 public:
  explicit tap_plan(value_callback on_value = {}) : on_value_(std::move(on_value)) {}

  // Taps the building blocks at `paths` in t: a path from the root, or a name alone (every
  // Block local of that name, `fc_round_symbol_3`). Throws argument_error naming a path at which
  // t has none.
  void add(std::shared_ptr<const computation_tree> t, const std::vector<std::string>& paths) {
    if (paths.empty()) return;
    const block_paths where(*t);
    std::vector<std::uint32_t> nodes;
    for (const std::string& p : paths) {
      const std::size_t before = nodes.size();
      if (p.find_first_of(".[(") == std::string::npos && !p.empty()) {
        for (std::uint32_t i = 0; i != where.size(); ++i)
          if (where.local_name(i) == p) nodes.push_back(i);
      } else if (const std::optional<std::uint32_t> i = where.find(p, t->root)) {
        nodes.push_back(*i);
      }
      if (nodes.size() == before)
        throw argument_error("tap", "`" + p + "`: the computation has no building block at this path, nor a local of this name (ctff-inspect --paths lists them)");
    }
    trees_.push_back(tapped_tree{std::move(t), std::move(nodes)});
  }
  bool empty() const { return trees_.empty() || !on_value_; }

  // The building blocks tapped in t (null: none).
  const std::vector<std::uint32_t>* nodes_of(const computation_tree& t) const {
    for (const tapped_tree& e : trees_)
      if (e.tree.get() == &t) return &e.nodes;
    return nullptr;
  }

  // Gives v to the callback, one call at a time.
  void deliver(const tapped_value& v) const {
    std::lock_guard lock(m_);
    on_value_(v);
  }

 private:
  struct tapped_tree {
    std::shared_ptr<const computation_tree> tree;  // (kept alive: taps are found by its address)
    std::vector<std::uint32_t> nodes;
  };
  value_callback on_value_;
  std::vector<tapped_tree> trees_;
  mutable std::mutex m_;
};

namespace detail {

// Per building block of one tree: whether it is tapped, and whether a tapped one lies in its
// subtree (a lambda with taps inside is called client by client, not on a column at once).
struct tap_marks {
  std::vector<bool> tapped, holds_tap;
  tap_marks(const block_paths& paths, const std::vector<std::uint32_t>& nodes)
      : tapped(paths.size()), holds_tap(paths.size()) {
    for (std::uint32_t i : nodes) {
      tapped[i] = true;
      for (std::uint32_t k = i; k < paths.size() && !(holds_tap[k] && k != i); k = paths.parent(k)) holds_tap[k] = true;
    }
  }
};

// The values a tap gives for v: one per member of a CLIENTS value (one if all_equal), the member
// of a SERVER value; inside one client's work, v as that client's.
template <class F>
void tapped_values(const dynamic_value& v, std::optional<std::size_t> client, const F& give) {
  if (client) return give(std::optional<placement_kind>(placement_kind::clients), client, v);
  if (!v || !v.is(value_kind::federated)) return give(std::optional<placement_kind>(), client, v);
  const federated_data& f = v.federated();
  if (f.where == placement_kind::server || f.all_equal) {
    const std::vector<dynamic_value> m = listed_members(f);
    if (!m.empty()) give(std::optional<placement_kind>(f.where), std::optional<std::size_t>(), m.front());
    return;
  }
  const std::vector<dynamic_value> m = listed_members(f);
  for (std::size_t i = 0; i != m.size(); ++i) give(std::optional<placement_kind>(f.where), std::optional<std::size_t>(i), m[i]);
}

}  // namespace detail

}  // namespace ctff
