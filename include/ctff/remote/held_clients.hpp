// A CLIENTS value whose members the workers hold (remote_options::aggregate_on_workers): a
// slice per worker, in worker order, each the id of a value on one executor of that worker, and
// the recipe that made them. Fetched once, in worker order, when something on the controller
// reads the members; disposed of on the workers when the controller's last reference goes. Work
// on a slice whose worker fails runs on another, the slice made there again from the recipe
// (remote/slice_recipe.hpp, remote/worker_pool.hpp).
#pragma once

#include <cstddef>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctff/remote/slice_recipe.hpp"
#include "ctff/remote/slice_requests.hpp"
#include "ctff/remote/worker_link.hpp"
#include "ctff/remote/worker_pool.hpp"
#include "ctff/run/clients_elsewhere.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// f(k) for every k < count at once (one thread each: they wait on workers), the results in
// order of k; the first failure in that order is rethrown once all are done.
template <class F>
auto on_each_worker(std::size_t count, const F& f) {
  using R = decltype(f(std::size_t{}));
  std::vector<std::future<R>> parts;
  for (std::size_t k = 0; k != count; ++k) parts.push_back(std::async(std::launch::async, [&f, k] { return f(k); }));
  std::vector<R> out;
  out.reserve(count);
  std::exception_ptr first;
  for (auto& p : parts) {
    try {
      out.push_back(p.get());
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
  return out;
}

class held_clients final : public clients_elsewhere {
 public:
  held_clients(std::vector<held_slice> slices, std::size_t n, std::shared_ptr<worker_pool> pool,
               std::shared_ptr<const slice_recipe> recipe)
      : slices_(std::move(slices)), n_(n), pool_(std::move(pool)), recipe_(std::move(recipe)) {}
  ~held_clients() override {
    for (const held_slice& s : slices_)
      if (s.epoch == s.link->epoch()) s.link->dispose(s.executor, {s.ref});
  }
  held_clients(const held_clients&) = delete;
  held_clients& operator=(const held_clients&) = delete;

  std::size_t clients() const override { return n_; }
  std::size_t count() const { return slices_.size(); }
  const std::shared_ptr<const slice_recipe>& recipe() const { return recipe_; }
  held_slice slice(std::size_t k) const {
    std::lock_guard lock(slices_m_);
    return slices_[k];
  }

  // Slice k on executor `ex` of worker w: the one held, or made there again (and held from then
  // on) when it is elsewhere or was lost.
  held_slice on(std::size_t k, const std::shared_ptr<worker_link>& w, const std::string& ex) const {
    held_slice s = slice(k);
    if (s.there(*w, ex)) return s;
    held_slice made = make_slice(*recipe_, w, s.begin, s.end);
    if (made.executor != ex) throw executor_gone("worker " + w->address() + ": its executor changed meanwhile");
    std::lock_guard lock(slices_m_);
    std::swap(slices_[k], made);
    if (made.epoch == made.link->epoch()) made.link->dispose(made.executor, {made.ref});
    return slices_[k];
  }

  // f(requests, slice) for slice k, on the worker holding it, or failing over (worker_pool::run)
  // to another, where the slice is made again.
  template <class F>
  auto with_slice(std::size_t k, const F& f) const {
    const held_slice first = slice(k);
    return pool_->run(first.link, first.begin, first.end, [&](const std::shared_ptr<worker_link>& w) {
      const held_slice s = on(k, w, w->executor(first.end - first.begin));
      slice_requests rq(*w, s.executor);
      return f(rq, s);
    });
  }

  std::vector<dynamic_value> fetch() const override {
    std::lock_guard lock(m_);
    if (!members_) {
      std::vector<std::vector<dynamic_value>> parts = on_each_worker(count(), [&](std::size_t k) { return fetch_slice(k); });
      std::vector<dynamic_value> all;
      all.reserve(n_);
      for (auto& p : parts)
        for (dynamic_value& m : p) all.push_back(std::move(m));
      members_ = std::move(all);
    }
    return *members_;
  }

  // The members of slice k, read from its worker.
  std::vector<dynamic_value> fetch_slice(std::size_t k) const {
    return with_slice(k, [&](slice_requests& rq, const held_slice& s) {
      const std::size_t count = s.end - s.begin;
      const dynamic_value out = rq.compute(s.ref, "Compute (the clients' values it holds)");
      if (!out.is(value_kind::federated) || out.federated().where != placement_kind::clients ||
          (!out.federated().all_equal && out.federated().members.size() != count) || out.federated().members.empty())
        throw run_fault("worker " + s.link->address() + ": answered something other than " + std::to_string(count) +
                        " clients' values");
      const federated_data& o = out.federated();
      if (!o.all_equal) return o.members;
      return std::vector<dynamic_value>(count, o.members.front());
    });
  }

  // The held_clients of v, if v is a CLIENTS value held on workers.
  static const held_clients* of(const dynamic_value& v) {
    if (!v.is(value_kind::federated)) return nullptr;
    return dynamic_cast<const held_clients*>(v.federated().elsewhere.get());
  }
  // Whether o's clients are cut into the same slices (to be used together, slice by slice).
  bool aligned(const held_clients& o) const {
    if (o.count() != count() || o.n_ != n_ || o.pool_ != pool_) return false;
    for (std::size_t k = 0; k != count(); ++k) {
      const held_slice a = slice(k), b = o.slice(k);
      if (a.begin != b.begin || a.end != b.end) return false;
    }
    return true;
  }

 private:
  mutable std::vector<held_slice> slices_;  // (a slice remade elsewhere replaces its own)
  std::size_t n_;
  std::shared_ptr<worker_pool> pool_;
  std::shared_ptr<const slice_recipe> recipe_;
  mutable std::mutex slices_m_, m_;
  mutable std::optional<std::vector<dynamic_value>> members_;
};

inline dynamic_value held_value(std::vector<held_slice> slices, std::size_t n, std::shared_ptr<worker_pool> pool,
                                std::shared_ptr<const slice_recipe> recipe) {
  federated_data f{.where = placement_kind::clients, .all_equal = false, .members = {},
                   .elsewhere = std::make_shared<const held_clients>(std::move(slices), n, std::move(pool), std::move(recipe))};
  return dynamic_value(std::move(f));
}

}  // namespace ctff::detail
