// One worker as a controller sees it: its stub, its executors by number of clients, the slices
// of clients' values it already holds, whether it answers, and the bytes exchanged with it. A
// failed request is a run fault naming the worker: executor_gone when the worker no longer has
// the executor, worker_down when the worker itself failed (remote/worker_pool.hpp then runs the
// work elsewhere).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <tensorflow_federated/proto/v0/executor.grpc.pb.h>

#include "ctff/remote/wire_columns.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

// Bytes of requests sent to the workers and of their answers (serialized messages, without
// gRPC's framing), since the remote_executor was made.
struct wire_traffic {
  std::uint64_t sent = 0, received = 0;
};

namespace detail {

namespace v0 = tensorflow_federated::v0;

// A worker that no longer knows the executor asked for (FAILED_PRECONDITION: it restarted, or
// destroyed the executor as idle): the request is made again on a new one, as TFF's clients do.
struct executor_gone : run_fault {
  using run_fault::run_fault;
};

// A worker that cannot be reached, did not answer within the deadline, or dropped the call
// (UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, ABORTED, UNKNOWN): the work can be run again
// elsewhere. Any other status is the run's own failure there, which another worker would repeat.
struct worker_down : run_fault {
  using run_fault::run_fault;
};

inline bool is_worker_down(grpc::StatusCode c) {
  return c == grpc::StatusCode::UNAVAILABLE || c == grpc::StatusCode::DEADLINE_EXCEEDED ||
         c == grpc::StatusCode::CANCELLED || c == grpc::StatusCode::ABORTED || c == grpc::StatusCode::UNKNOWN;
}

// The time by which the current attempt at a slice must end (remote_options::slice_deadline),
// for the requests this thread sends; max(): none.
inline thread_local std::chrono::system_clock::time_point attempt_ends = std::chrono::system_clock::time_point::max();

// One live worker: its stub and its executors, by number of clients.
class worker_link {
 public:
  worker_link(std::string address, std::shared_ptr<grpc::Channel> channel, std::chrono::milliseconds deadline)
      : address_(std::move(address)), stub_(v0::ExecutorGroup::NewStub(channel)), deadline_(deadline) {}
  ~worker_link() {
    if (!up()) return;  // (a stopped worker would hold each request to its deadline)
    for (const auto& [n, id] : executors_) {
      v0::DisposeExecutorRequest rq;
      rq.mutable_executor()->set_id(id);
      v0::DisposeExecutorResponse rs;
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
      (void)stub_->DisposeExecutor(&ctx, rq, &rs);  // best effort: the worker may be gone
    }
  }
  worker_link(const worker_link&) = delete;
  worker_link& operator=(const worker_link&) = delete;

  const std::string& address() const { return address_; }
  wire_traffic traffic() const { return {sent_.load(), received_.load()}; }

  // Clients' values this worker already holds, by the identity of their nodes (kept alive here,
  // so that an address is never reused while it is a key): the same data sent again (a training
  // set, round after round) is not sent again. Data nobody else holds any more (a caller's
  // argument gone: it can never be sent again) is disposed of as soon as more is remembered, and
  // the least recently used of more than `cached_max`; so memory stays flat over many rounds of
  // new data on both sides.
  static constexpr std::size_t cached_max = 16;
  struct cache_key {
    std::string executor;
    std::vector<const void*> nodes;
    friend auto operator<=>(const cache_key&, const cache_key&) = default;
  };
  std::optional<std::string> cached(const cache_key& k) {
    std::lock_guard lock(cache_m_);
    auto it = cache_.find(k);
    if (it == cache_.end()) return std::nullopt;
    it->second.used = ++clock_;
    return it->second.ref;
  }
  void remember(cache_key k, std::string ref, std::vector<dynamic_value> pin) {
    std::vector<std::pair<std::string, std::string>> drop;  // (executor, ref), disposed unlocked
    {
      std::lock_guard lock(cache_m_);
      for (auto it = cache_.begin(); it != cache_.end();) {
        const auto& p = it->second.pin;
        if (std::all_of(p.begin(), p.end(), [](const dynamic_value& v) { return v.sole(); })) {
          drop.emplace_back(it->first.executor, it->second.ref);
          it = cache_.erase(it);
        } else {
          ++it;
        }
      }
      cache_[std::move(k)] = cached_value{std::move(ref), std::move(pin), ++clock_};
      while (cache_.size() > cached_max) {
        auto old = std::min_element(cache_.begin(), cache_.end(),
                                    [](const auto& a, const auto& b) { return a.second.used < b.second.used; });
        drop.emplace_back(old->first.executor, old->second.ref);
        cache_.erase(old);
      }
    }
    for (const auto& [ex, ref] : drop) dispose(ex, {ref});
  }

  // Sends `rq` by `method`; a failure is a run_fault naming this worker and what it was doing.
  // With `metadata`, sent with it; with `trailing`, the values of the answer's trailing metadata
  // of key `trailing_key` appended to it.
  template <class Rq, class Rs>
  Rs send(grpc::Status (v0::ExecutorGroup::Stub::*method)(grpc::ClientContext*, const Rq&, Rs*), const Rq& rq,
          const char* what, const std::vector<std::pair<std::string, std::string>>& metadata = {},
          std::string_view trailing_key = {}, std::vector<std::string>* trailing = nullptr) {
    Rs rs;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::min(std::chrono::system_clock::now() + deadline_, attempt_ends));
    for (const auto& [key, value] : metadata) ctx.AddMetadata(key, value);
    sent_.fetch_add(rq.ByteSizeLong(), std::memory_order_relaxed);
    const grpc::Status s = (stub_.get()->*method)(&ctx, rq, &rs);
    received_.fetch_add(rs.ByteSizeLong(), std::memory_order_relaxed);
    if (trailing)
      for (const auto& [key, value] : ctx.GetServerTrailingMetadata())
        if (std::string_view(key.data(), key.size()) == trailing_key) trailing->emplace_back(value.data(), value.size());
    if (!s.ok()) {
      std::string m = "worker " + address_ + ": " + what + ": " + status_name(s.error_code()) + ": " + s.error_message();
      if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) throw executor_gone(std::move(m));
      if (is_worker_down(s.error_code())) throw worker_down(std::move(m));
      throw run_fault(std::move(m));
    }
    return rs;
  }

  // Disposes of the values `refs` of executor `ex`, best effort (the worker may be gone: its
  // values went with it) and within 2 s whatever the deadline (run from destructors).
  void dispose(const std::string& ex, const std::vector<std::string>& refs) noexcept {
    if (refs.empty() || !up()) return;
    try {
      v0::DisposeRequest rq;
      for (const std::string& id : refs) rq.add_value_ref()->set_id(id);
      rq.mutable_executor()->set_id(ex);
      v0::DisposeResponse rs;
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::min<std::chrono::milliseconds>(deadline_, std::chrono::seconds(2)));
      sent_.fetch_add(rq.ByteSizeLong(), std::memory_order_relaxed);
      (void)stub_->Dispose(&ctx, rq, &rs);
    } catch (...) {
    }
  }

  // Forgets the executor `id` and what this link had cached on it.
  void forget(const std::string& id) {
    {
      std::lock_guard lock(m_);
      for (auto it = executors_.begin(); it != executors_.end();)
        it = it->second == id ? executors_.erase(it) : std::next(it);
    }
    std::lock_guard lock(cache_m_);
    for (auto it = cache_.begin(); it != cache_.end();) it = it->first.executor == id ? cache_.erase(it) : std::next(it);
  }

  // Forgets every executor and what was cached on them (the worker restarted: they are gone);
  // values held there made before (held_slice::epoch) are then known to be lost.
  void forget_all() {
    {
      std::lock_guard lock(m_);
      executors_.clear();
      ++epoch_;
    }
    std::lock_guard lock(cache_m_);
    cache_.clear();
  }
  std::uint64_t epoch() const {
    std::lock_guard lock(m_);
    return epoch_;
  }

  // Whether the worker reads and writes clients' tensors as columns (remote/wire_columns.hpp), as
  // its last GetExecutor answer said.
  bool columns() const { return columns_.load(); }

  // Whether the worker answered last time (marked down by the pool when a request failed as a
  // worker does; up again when a probe is answered).
  bool up() const { return up_.load(); }
  void set_up(bool u) { up_.store(u); }
  // Whether the worker answers at all within `wait`: a DisposeExecutor of an executor it never
  // made, which any worker answers at once (with an error) unless it is down or stopped.
  bool answers(std::chrono::milliseconds wait) {
    v0::DisposeExecutorRequest rq;
    rq.mutable_executor()->set_id("ctff-probe");
    v0::DisposeExecutorResponse rs;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + wait);
    return !is_worker_down(stub_->DisposeExecutor(&ctx, rq, &rs).error_code());
  }

  // The worker's executor for n clients (and a server), asked for once.
  std::string executor(std::size_t n) {
    std::lock_guard lock(m_);
    if (auto it = executors_.find(n); it != executors_.end()) return it->second;
    v0::GetExecutorRequest rq;
    auto* c = rq.add_cardinalities();
    c->mutable_placement()->set_uri("clients");
    c->set_cardinality(static_cast<std::int32_t>(n));
    auto* s = rq.add_cardinalities();
    s->mutable_placement()->set_uri("server");
    s->set_cardinality(1);
    std::vector<std::string> columns;  // a ctff-worker says it reads columns (remote/wire_columns.hpp)
    const auto rs = send(&v0::ExecutorGroup::Stub::GetExecutor, rq, "GetExecutor", {}, columns_key, &columns);
    columns_.store(!columns.empty());
    return executors_[n] = rs.executor().id();
  }

  static std::string status_name(grpc::StatusCode c) {
    switch (c) {
      case grpc::StatusCode::CANCELLED: return "CANCELLED";
      case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
      case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED (no answer within the deadline)";
      case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
      case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
      case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
      case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
      case grpc::StatusCode::INTERNAL: return "INTERNAL";
      case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE (the worker cannot be reached)";
      default: return "status " + std::to_string(static_cast<int>(c));
    }
  }

 private:
  std::string address_;
  std::unique_ptr<v0::ExecutorGroup::Stub> stub_;
  std::chrono::milliseconds deadline_;
  mutable std::mutex m_;
  std::map<std::size_t, std::string> executors_;
  std::uint64_t epoch_ = 0;
  std::atomic<bool> up_{true}, columns_{false};
  std::atomic<std::uint64_t> sent_{0}, received_{0};
  struct cached_value {
    std::string ref;
    std::vector<dynamic_value> pin;
    std::uint64_t used;
  };
  std::mutex cache_m_;
  std::map<cache_key, cached_value> cache_;
  std::uint64_t clock_ = 0;
};

}  // namespace detail
}  // namespace ctff
