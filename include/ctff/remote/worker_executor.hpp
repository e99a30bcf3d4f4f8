// One executor of a worker and the values it holds, by decimal id, within worker_limits; the
// status code a failed request answers with; the gate that bounds the calls running at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <grpcpp/grpcpp.h>

#include "ctff/remote/remote_error.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/tap.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

// What one worker holds at most; a request that would go beyond is RESOURCE_EXHAUSTED.
struct worker_limits {
  std::size_t max_executors = 256;                     // distinct sets of cardinalities at once
  std::size_t max_values = std::size_t{1} << 20;       // values held by one executor
  std::uint64_t max_held_bytes = std::uint64_t{4} << 30;  // bytes of tensors one executor holds
  // An executor no request has used for this long, and none is using, is destroyed with its
  // values: what a controller that went away without DisposeExecutor held (0: never).
  std::chrono::milliseconds idle_executor = std::chrono::hours(1);
};

namespace detail {

// The bytes of tensors a value holds (shared parts counted each time: an upper bound).
inline std::uint64_t held_bytes(const dynamic_value& v) {
  if (!v) return 0;
  switch (v.kind()) {
    case value_kind::tensor:
      return std::visit(
          [](const auto& e) -> std::uint64_t {
            using E = typename std::remove_cvref_t<decltype(e)>::value_type;
            std::uint64_t n = e.size() * sizeof(E);
            if constexpr (std::is_same_v<E, std::string>)
              for (const auto& s : e) n += s.size();
            return n;
          },
          v.tensor().elements);
    case value_kind::struct_: {
      std::uint64_t n = 0;
      for (const dynamic_value& e : v.structure().elements) n += held_bytes(e);
      return n;
    }
    case value_kind::federated: {
      const auto& m = v.federated().members;
      std::uint64_t n = 0;
      for (std::size_t k = 0; k != m.size(); ++k) n += k && m[k].shares(m[k - 1]) ? 0 : held_bytes(m[k]);
      return n;
    }
    case value_kind::sequence: {
      std::uint64_t n = 0;
      for (const dynamic_value& e : v.sequence().elements) n += held_bytes(e);
      return n;
    }
    case value_kind::function:
    case value_kind::placement: break;
  }
  return 0;
}

// A failure of one request, with the status code TFF's clients expect for it.
struct request_failure {
  grpc::StatusCode code;
  std::string message;
};
[[noreturn]] inline void refuse(grpc::StatusCode code, std::string message) {
  throw request_failure{code, std::move(message)};
}

// The values of a CLIENTS placement an executor serves must have its N members. (The path, a
// value_path: spelled out only for the error; a string per element is quadratic in the value.)
inline void check_clients(const dynamic_value& v, std::size_t n, const value_path& where) {
  if (!v) return;
  if (v.is(value_kind::federated)) {
    const federated_data& f = v.federated();
    if (f.where == placement_kind::clients && !f.all_equal && f.members.size() != n)
      refuse(grpc::StatusCode::INVALID_ARGUMENT,
             where.text() + ": a CLIENTS value of " + std::to_string(f.members.size()) + " members; this executor has " +
                 std::to_string(n) + " clients");
  } else if (v.is(value_kind::struct_)) {
    const struct_data& s = v.structure();
    for (std::size_t k = 0; k != s.elements.size(); ++k) check_clients(s.elements[k], n, where.child(s.name(k), k));
  }
}

// One executor of a worker and the values it holds.
class worker_executor {
 public:
  worker_executor(std::string id, std::unique_ptr<executor> ex, const worker_limits& limits)
      : id_(std::move(id)), ex_(std::move(ex)), limits_(limits) {}

  const std::string& id() const { return id_; }
  executor& runner() { return *ex_; }
  std::size_t clients() const { return ex_->options().clients.value_or(0); }

  // Holds v; returns its id.
  std::string hold(dynamic_value v) {
    const std::uint64_t bytes = held_bytes(v);
    std::lock_guard lock(m_);
    if (values_.size() >= limits_.max_values)
      refuse(grpc::StatusCode::RESOURCE_EXHAUSTED,
             "executor " + id_ + " holds " + std::to_string(values_.size()) +
                 " values (worker_limits::max_values); dispose of some first");
    if (bytes > limits_.max_held_bytes || held_ > limits_.max_held_bytes - bytes)
      refuse(grpc::StatusCode::RESOURCE_EXHAUSTED,
             "executor " + id_ + " would hold more than worker_limits::max_held_bytes (" +
                 std::to_string(limits_.max_held_bytes) + ") bytes of tensors; dispose of some first");
    held_ += bytes;
    const std::uint64_t id = ++next_;
    values_.emplace(id, held{std::move(v), bytes});
    return std::to_string(id);
  }
  dynamic_value get(const std::string& ref, const char* role) const {
    const std::uint64_t id = parse(ref, role);
    std::lock_guard lock(m_);
    auto it = values_.find(id);
    if (it == values_.end())
      refuse(grpc::StatusCode::INVALID_ARGUMENT, std::string(role) + ": executor " + id_ + " holds no value " + ref);
    return it->second.v;
  }
  // How many values it holds.
  std::size_t held_count() const {
    std::lock_guard lock(m_);
    return values_.size();
  }
  void dispose(const std::string& ref) {
    const std::uint64_t id = parse(ref, "value_ref");
    std::lock_guard lock(m_);
    auto it = values_.find(id);
    if (it == values_.end())
      refuse(grpc::StatusCode::INVALID_ARGUMENT, "Dispose: executor " + id_ + " holds no value " + ref);
    held_ -= it->second.bytes;
    values_.erase(it);
    taps_.erase(id);
  }

  // Taps in the computation held as `ref` (made from t; paths checked by the caller): given to
  // the runs of the calls that follow, until it is disposed of.
  void tap(const std::string& ref, std::shared_ptr<const computation_tree> t, std::vector<std::string> paths) {
    const std::uint64_t id = parse(ref, "value_ref");
    std::lock_guard lock(m_);
    taps_[id] = tapped{std::move(t), std::move(paths)};
  }
  // Every tap held, their values given to on_value (null: none held).
  std::unique_ptr<tap_plan> taps(value_callback on_value) const {
    std::lock_guard lock(m_);
    if (taps_.empty()) return nullptr;
    auto plan = std::make_unique<tap_plan>(std::move(on_value));
    for (const auto& [id, t] : taps_) plan->add(t.tree, t.paths);
    return plan;
  }

 private:
  static std::uint64_t parse(const std::string& ref, const char* role) {
    std::uint64_t id = 0;
    if (ref.empty() || ref.size() > 19) refuse(grpc::StatusCode::INVALID_ARGUMENT, std::string(role) + ": `" + ref.substr(0, 32) + "` is not a value id");
    for (char c : ref) {
      if (c < '0' || c > '9') refuse(grpc::StatusCode::INVALID_ARGUMENT, std::string(role) + ": `" + ref.substr(0, 32) + "` is not a value id");
      id = id * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return id;
  }
  struct held {
    dynamic_value v;
    std::uint64_t bytes;
  };
  struct tapped {
    std::shared_ptr<const computation_tree> tree;
    std::vector<std::string> paths;
  };
  std::string id_;
  std::unique_ptr<executor> ex_;
  worker_limits limits_;
  mutable std::mutex m_;
  std::map<std::uint64_t, held> values_;
  std::map<std::uint64_t, tapped> taps_;
  std::uint64_t next_ = 0;
  std::uint64_t held_ = 0;
};

// Lets at most `max` callers in at once (max < 0: any number).
class call_gate {
 public:
  explicit call_gate(int max) : max_(max) {}
  class pass {
   public:
    explicit pass(call_gate& g) : g_(g) {
      if (g_.max_ < 0) return;
      std::unique_lock lock(g_.m_);
      g_.cv_.wait(lock, [&] { return g_.in_ < g_.max_; });
      ++g_.in_;
    }
    ~pass() {
      if (g_.max_ < 0) return;
      {
        std::lock_guard lock(g_.m_);
        --g_.in_;
      }
      g_.cv_.notify_one();
    }
    pass(const pass&) = delete;
    pass& operator=(const pass&) = delete;

   private:
    call_gate& g_;
  };

 private:
  int max_;
  int in_ = 0;
  std::mutex m_;
  std::condition_variable cv_;
};

}  // namespace detail

}  // namespace ctff
