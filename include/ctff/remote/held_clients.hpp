// A CLIENTS value whose members the workers hold (remote_options::aggregate_on_workers): a
// slice per worker, in worker order, each the id of a value on one executor of that worker.
// Fetched once, in worker order, when something on the controller reads the members; disposed
// of on the workers when the controller's last reference goes.
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

#include "ctff/remote/slice_requests.hpp"
#include "ctff/remote/worker_link.hpp"
#include "ctff/run/clients_elsewhere.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// Clients [begin, end) of a value held by a worker's executor as `ref`.
struct held_slice {
  std::shared_ptr<worker_link> link;
  std::string executor, ref;
  std::size_t begin = 0, end = 0;
};

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

// What a worker says when it no longer has an executor (FAILED_PRECONDITION) whose values the
// controller relied on: they cannot be sent again, the run fails (a new run starts afresh).
[[noreturn]] inline void lost_values(worker_link& w, const std::string& executor, const char* what) {
  w.forget(executor);
  throw run_fault("worker " + w.address() + ": " + what +
                  ": the worker no longer has the executor holding the clients' values computed there "
                  "(it restarted, or dropped it as idle); they cannot be sent again: run the computation again");
}

class held_clients final : public clients_elsewhere {
 public:
  held_clients(std::vector<held_slice> slices, std::size_t n) : slices_(std::move(slices)), n_(n) {}
  ~held_clients() override {
    for (const held_slice& s : slices_) s.link->dispose(s.executor, {s.ref});
  }
  held_clients(const held_clients&) = delete;
  held_clients& operator=(const held_clients&) = delete;

  std::size_t clients() const override { return n_; }
  const std::vector<held_slice>& slices() const { return slices_; }

  std::vector<dynamic_value> fetch() const override {
    std::lock_guard lock(m_);
    if (!members_) {
      std::vector<std::vector<dynamic_value>> parts = on_each_worker(slices_.size(), [&](std::size_t k) { return fetch_slice(k); });
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
    const held_slice& s = slices_[k];
    const std::size_t count = s.end - s.begin;
    slice_requests rq(*s.link, s.executor);
    dynamic_value out;
    try {
      out = rq.compute(s.ref, "Compute (the clients' values it holds)");
    } catch (const executor_gone&) {
      lost_values(*s.link, s.executor, "Compute (the clients' values it holds)");
    }
    if (!out.is(value_kind::federated) || out.federated().where != placement_kind::clients ||
        (!out.federated().all_equal && out.federated().members.size() != count) || out.federated().members.empty())
      throw run_fault("worker " + s.link->address() + ": answered something other than " + std::to_string(count) +
                      " clients' values");
    const federated_data& o = out.federated();
    if (!o.all_equal) return o.members;
    return std::vector<dynamic_value>(count, o.members.front());
  }

  // The held_clients of v, if v is a CLIENTS value held on workers.
  static const held_clients* of(const dynamic_value& v) {
    if (!v.is(value_kind::federated)) return nullptr;
    return dynamic_cast<const held_clients*>(v.federated().elsewhere.get());
  }
  // Whether a and b are split the same way over the same executors (to be used together).
  bool aligned(const held_clients& o) const {
    if (o.slices_.size() != slices_.size() || o.n_ != n_) return false;
    for (std::size_t k = 0; k != slices_.size(); ++k)
      if (o.slices_[k].link != slices_[k].link || o.slices_[k].executor != slices_[k].executor ||
          o.slices_[k].begin != slices_[k].begin || o.slices_[k].end != slices_[k].end)
        return false;
    return true;
  }

 private:
  std::vector<held_slice> slices_;
  std::size_t n_;
  mutable std::mutex m_;
  mutable std::optional<std::vector<dynamic_value>> members_;
};

inline dynamic_value held_value(std::vector<held_slice> slices, std::size_t n) {
  federated_data f{.where = placement_kind::clients, .all_equal = false, .members = {},
                   .elsewhere = std::make_shared<const held_clients>(std::move(slices), n)};
  return dynamic_value(std::move(f));
}

}  // namespace ctff::detail
