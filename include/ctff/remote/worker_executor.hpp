// One executor of a worker: what each request does to it (the service, remote/worker.hpp, only
// decodes, calls and encodes) and the values it holds, by decimal id, within worker_limits; the
// status code a failed request answers with; the gate that bounds the calls running at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <tensorflow_federated/proto/v0/executor.pb.h>

#include "ctff/read/reader.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/remote/remote_error.hpp"
#include "ctff/remote/shipped_taps.hpp"
#include "ctff/remote/value_message.hpp"
#include "ctff/remote/wire_columns.hpp"
#include "ctff/remote/worker_data.hpp"
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
inline std::uint64_t tensor_bytes(const tensor_data& t) {
  return std::visit(
      [](const auto& e) -> std::uint64_t {
        using E = typename std::remove_cvref_t<decltype(e)>::value_type;
        std::uint64_t n = e.size() * sizeof(E);
        if constexpr (std::is_same_v<E, std::string>)
          for (const auto& s : e) n += s.size();
        return n;
      },
      t.elements);
}
inline std::uint64_t held_bytes(const dynamic_value& v) {
  if (!v) return 0;
  switch (v.kind()) {
    case value_kind::tensor: return tensor_bytes(v.tensor());
    case value_kind::struct_: {
      std::uint64_t n = 0;
      for (const dynamic_value& e : v.structure().elements) n += held_bytes(e);
      return n;
    }
    case value_kind::federated: {
      const auto& m = v.federated().members;
      std::uint64_t n = v.federated().column ? tensor_bytes(*v.federated().column) : 0;
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

// The executor a GetExecutor request asks for: its key (the cardinalities by uri, as TFF keys its
// executors) and its clients, checked.
struct executor_cardinalities {
  std::string key;
  std::size_t clients;
};
inline executor_cardinalities cardinalities_of(const tensorflow_federated::v0::GetExecutorRequest& rq,
                                               std::uint64_t max_clients) {
  std::map<std::string, std::int64_t> card;  // by uri
  for (const auto& c : rq.cardinalities()) {
    const std::string& uri = c.placement().uri();
    if (uri != "clients" && uri != "server")
      refuse(grpc::StatusCode::INVALID_ARGUMENT, "GetExecutor: the placement `" + uri.substr(0, 64) + "` (clients and server only)");
    if (c.cardinality() < 0) refuse(grpc::StatusCode::INVALID_ARGUMENT, "GetExecutor: a cardinality of " + std::to_string(c.cardinality()));
    card[uri] = c.cardinality();
  }
  if (card.count("server") && card["server"] > 1)
    refuse(grpc::StatusCode::INVALID_ARGUMENT, "GetExecutor: a server cardinality of " + std::to_string(card["server"]) + " (at most 1)");
  const std::int64_t n = card.count("clients") ? card["clients"] : 0;
  if (static_cast<std::uint64_t>(n) > max_clients)
    refuse(grpc::StatusCode::RESOURCE_EXHAUSTED, "GetExecutor: " + std::to_string(n) + " clients exceed run_limits::max_clients (" +
                                                     std::to_string(max_clients) + ")");
  std::string key;
  for (const auto& [uri, k] : card) key += (key.empty() ? "" : ",") + uri + "=" + std::to_string(k);
  return {std::move(key), static_cast<std::size_t>(n)};
}

// One executor of a worker and the values it holds.
class worker_executor {
 public:
  // data: where Data computations sent as values are read (null: not here); keep_data: else kept
  // as references for the workers this one drives (remote/worker_data.hpp).
  worker_executor(std::string id, std::unique_ptr<executor> ex, const worker_limits& limits,
                  std::shared_ptr<const data_dir> data = {}, bool keep_data = false)
      : id_(std::move(id)), ex_(std::move(ex)), limits_(limits), data_(std::move(data)), keep_data_(keep_data) {}

  const std::string& id() const { return id_; }
  executor& runner() { return *ex_; }
  std::size_t clients() const { return ex_->options().clients.value_or(0); }

  // CreateValue: the value (its Computations evaluated here), held; its id. taps: paths in that
  // Computation whose values the calls that follow see (remote/shipped_taps.hpp).
  std::string create_value(const tensorflow_federated::v0::Value& value, std::vector<std::string> taps) {
    if (!taps.empty() && !value.has_computation())
      refuse(grpc::StatusCode::INVALID_ARGUMENT, "CreateValue: taps (ctff-tap) on a value that is not a Computation");
    std::shared_ptr<const computation_tree> tree;
    dynamic_value v = ctff::from_message(value, [&](const federated_language::Computation& c) {
      try {
        if (std::optional<dynamic_value> d = data_value(c, data_.get(), keep_data_, ex_->options().limits)) return *d;
      } catch (const data_error& e) {
        refuse(grpc::StatusCode::INVALID_ARGUMENT, std::string("CreateValue: ") + e.what());
      }
      std::string bytes;
      if (!c.SerializeToString(&bytes)) remote_fail("value", "a Computation that does not serialize");
      auto t = std::make_shared<const computation_tree>(read_computation(bytes));
      if (!tree) tree = t;
      return ex_->evaluate(std::move(t));
    });
    check_clients(v, clients(), value_path{nullptr, "CreateValue: value"});
    if (!taps.empty()) tap_plan().add(tree, taps);  // (a path with no building block: refused here)
    const std::string id = hold(std::move(v));
    if (!taps.empty()) tap(id, std::move(tree), std::move(taps));
    return id;
  }

  // CreateCall: the function held as fn_ref applied to the value held as arg_ref (null: none),
  // through the gate; what the taps held saw goes to `events` (remote/shipped_taps.hpp). The
  // result, for the caller to hold.
  dynamic_value call(const std::string& fn_ref, const std::string* arg_ref, call_gate& gate,
                     const std::function<bool()>& cancelled, std::vector<std::string>& events) {
    const dynamic_value fn = get(fn_ref, "CreateCall: function_ref");
    if (!fn.is(value_kind::function))
      refuse(grpc::StatusCode::INVALID_ARGUMENT, "CreateCall: function_ref " + fn_ref + " is not a function");
    const dynamic_value arg = arg_ref ? get(*arg_ref, "CreateCall: argument_ref") : dynamic_value{};
    std::size_t event_bytes = 0;
    const std::unique_ptr<tap_plan> plan = taps([&](const tapped_value& v) {
      if (event_bytes > max_tap_bytes) return;
      std::string b = tap_event_bytes(v);
      event_bytes += b.size();
      if (event_bytes <= max_tap_bytes) events.push_back(std::move(b));
    });
    dynamic_value r;
    {
      const call_gate::pass pass(gate);
      r = ex_->apply_held(fn, arg, plan.get());  // (a column stays one: remote/wire_columns.hpp)
    }
    if (cancelled()) refuse(grpc::StatusCode::CANCELLED, "CreateCall: the caller went away");
    if (event_bytes > max_tap_bytes)
      refuse(grpc::StatusCode::RESOURCE_EXHAUSTED,
             "CreateCall: the taps saw more than " + std::to_string(max_tap_bytes) +
                 " bytes of values; tap fewer building blocks or fewer clients per worker");
    return r;
  }

  // CreateStruct: the values held as the elements' refs, by the elements' names (none named:
  // unnamed), held; its id.
  std::string create_struct(
      const google::protobuf::RepeatedPtrField<tensorflow_federated::v0::CreateStructRequest::Element>& elements) {
    std::vector<dynamic_value> values;
    std::vector<std::string> names;
    bool named = false;
    for (const auto& el : elements) {
      values.push_back(get(el.value_ref().id(), "CreateStruct: element"));
      names.push_back(el.name());
      named = named || !el.name().empty();
    }
    if (!named) names.clear();
    return hold(make_struct_value(std::move(values), std::move(names)));
  }

  // CreateSelection: element `index` of the struct held as source_ref, held; its id.
  std::string create_selection(const std::string& source_ref, std::int64_t index) {
    const dynamic_value src = get(source_ref, "CreateSelection: source_ref");
    if (!src.is(value_kind::struct_))
      refuse(grpc::StatusCode::INVALID_ARGUMENT, "CreateSelection: source_ref " + source_ref + " is not a struct");
    const auto& el = src.structure().elements;
    if (index < 0 || static_cast<std::size_t>(index) >= el.size())
      refuse(grpc::StatusCode::INVALID_ARGUMENT, "CreateSelection: index " + std::to_string(index) + " of a struct of " +
                                                     std::to_string(el.size()));
    return hold(el[static_cast<std::size_t>(index)]);
  }

  // Compute: the value held as ref, as a message; with `column` (asked for), as one when it can be
  // (remote/wire_columns.hpp), `column` then saying whether it is.
  tensorflow_federated::v0::Value compute(const std::string& ref, bool* column = nullptr) const {
    const dynamic_value v = get(ref, "Compute: value_ref");
    if (column && v.is(value_kind::federated) && v.federated().where == placement_kind::clients && !v.federated().all_equal)
      if (const auto c = as_column(v.federated(), v.federated().members.size()))  // (a column: itself)
        return column_message(*c);
    if (column) *column = false;
    return ctff::to_message(v);
  }

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
  std::shared_ptr<const data_dir> data_;
  bool keep_data_;
  mutable std::mutex m_;
  std::map<std::uint64_t, held> values_;
  std::map<std::uint64_t, tapped> taps_;
  std::uint64_t next_ = 0;
  std::uint64_t held_ = 0;
};

}  // namespace detail

}  // namespace ctff
