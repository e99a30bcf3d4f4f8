// A ctff worker: TFF's remote-execution service (tensorflow_federated.v0.ExecutorGroup) over
// ctff::executor, so that TFF's own controllers (Python's RemoteExecutor, the C++ composing
// stack) and ctff's remote executor drive it. One executor per set of cardinalities, shared and
// counted as TFF's service does; each holds the values it was sent or computed, by decimal id. A
// handler decodes the request, has the executor do it (remote/worker_executor.hpp), encodes.
// Status codes as TFF's clients read them: FAILED_PRECONDITION only for an unknown executor
// (they get a new one and retry), INVALID_ARGUMENT for what cannot be used (a malformed value,
// an unknown id, an argument of the wrong type), INTERNAL for a run that fails (ctff's message
// and building-block path), RESOURCE_EXHAUSTED for a worker limit; a request is all or nothing.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <tensorflow_federated/proto/v0/executor.grpc.pb.h>

#include "ctff/read/error.hpp"
#include "ctff/remote/shipped_taps.hpp"
#include "ctff/remote/worker_executor.hpp"
#include "ctff/run/data_uri.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/executor.hpp"

namespace ctff {

struct worker_options {
  run_options run{};  // each executor's threads and run limits (its clients: from GetExecutor)
  worker_limits limits{};
  int max_concurrent_calls = -1;  // CreateCall requests running at once (-1: no limit)
  // Called on each new executor before it runs anything: binds the opaque computations
  // (TensorFlow, XLA, Data) the worker can run, as executor::bind does.
  std::function<void(executor&)> setup{};
  // Makes each executor (unset: a ctff::executor; ctff-worker --workers: a remote_executor, so
  // that this worker drives others).
  std::function<std::unique_ptr<executor>(const run_options&)> make{};
  // Data computations sent as values (docs/distributed.md, "Data on the workers"): read from this
  // directory (ctff-worker --data); or, with keep_data (a worker driving others), kept as
  // references shipped on to them; neither: left to the bindings.
  std::shared_ptr<const data_dir> data{};
  bool keep_data = false;
};

// The ExecutorGroup service: register it with a grpc::ServerBuilder (ctff::serve does).
class worker_service final : public tensorflow_federated::v0::ExecutorGroup::Service {
  using Status = grpc::Status;
  using Ctx = grpc::ServerContext;

 public:
  explicit worker_service(worker_options options = {})
      : options_(std::move(options)), gate_(options_.max_concurrent_calls), service_id_(std::random_device{}()) {}

  Status GetExecutor(Ctx* ctx, const tensorflow_federated::v0::GetExecutorRequest* rq,
                     tensorflow_federated::v0::GetExecutorResponse* rs) override {
    return answer([&] {
      rs->mutable_executor()->set_id(acquire(detail::cardinalities_of(*rq, options_.run.limits.max_clients)));
      if (ctx) ctx->AddTrailingMetadata(detail::columns_key, "1");  // (remote/wire_columns.hpp)
    });
  }

  Status CreateValue(Ctx* ctx, const tensorflow_federated::v0::CreateValueRequest* rq,
                     tensorflow_federated::v0::CreateValueResponse* rs) override {
    return answer([&] {
      auto e = find(rq->executor(), "CreateValue");
      if (!metadata(ctx, detail::column_key).empty())  // clients' tensors as one column
        rs->mutable_value_ref()->set_id(
            e->hold(detail::make_column_value(detail::column_of_message(rq->value(), e->clients(), "CreateValue: value"))));
      else
        rs->mutable_value_ref()->set_id(e->create_value(rq->value(), metadata(ctx, detail::tap_request_key)));
    });
  }

  Status CreateCall(Ctx* ctx, const tensorflow_federated::v0::CreateCallRequest* rq,
                    tensorflow_federated::v0::CreateCallResponse* rs) override {
    return answer([&] {
      auto e = find(rq->executor(), "CreateCall");
      std::vector<std::string> events;  // what the taps saw, answered as trailing metadata
      dynamic_value r = e->call(rq->function_ref().id(), rq->has_argument_ref() ? &rq->argument_ref().id() : nullptr,
                                gate_, [ctx] { return ctx && ctx->IsCancelled(); }, events);
      if (ctx)
        for (const std::string& b : events) ctx->AddTrailingMetadata(detail::tap_events_key, b);
      rs->mutable_value_ref()->set_id(e->hold(std::move(r)));
    });
  }

  Status CreateStruct(Ctx*, const tensorflow_federated::v0::CreateStructRequest* rq,
                      tensorflow_federated::v0::CreateStructResponse* rs) override {
    return answer([&] {
      rs->mutable_value_ref()->set_id(find(rq->executor(), "CreateStruct")->create_struct(rq->element()));
    });
  }

  Status CreateSelection(Ctx*, const tensorflow_federated::v0::CreateSelectionRequest* rq,
                         tensorflow_federated::v0::CreateSelectionResponse* rs) override {
    return answer([&] {
      auto e = find(rq->executor(), "CreateSelection");
      rs->mutable_value_ref()->set_id(e->create_selection(rq->source_ref().id(), rq->index()));
    });
  }

  Status Compute(Ctx* ctx, const tensorflow_federated::v0::ComputeRequest* rq,
                 tensorflow_federated::v0::ComputeResponse* rs) override {
    return answer([&] {
      bool column = !metadata(ctx, detail::column_key).empty();  // asked for, and answered with, one
      *rs->mutable_value() = find(rq->executor(), "Compute")->compute(rq->value_ref().id(), column ? &column : nullptr);
      if (column) ctx->AddTrailingMetadata(detail::column_key, "1");
    });
  }

  Status Dispose(Ctx*, const tensorflow_federated::v0::DisposeRequest* rq,
                 tensorflow_federated::v0::DisposeResponse*) override {
    return answer([&] {
      auto e = find(rq->executor(), "Dispose");
      for (const auto& r : rq->value_ref()) e->dispose(r.id());
    });
  }

  Status DisposeExecutor(Ctx*, const tensorflow_federated::v0::DisposeExecutorRequest* rq,
                         tensorflow_federated::v0::DisposeExecutorResponse*) override {
    return answer([&] { release(rq->executor().id()); });
  }

  // How many executors the worker holds, and values over all of them (for tests and monitoring).
  std::size_t executors() const {
    std::lock_guard lock(m_);
    return by_key_.size();
  }
  std::size_t values() const {
    std::lock_guard lock(m_);
    std::size_t n = 0;
    for (const auto& [key, e] : by_key_) n += e.e->held_count();
    return n;
  }

 private:
  struct entry {
    std::shared_ptr<detail::worker_executor> e;
    std::size_t refs;
    std::chrono::steady_clock::time_point used = std::chrono::steady_clock::now();
  };

  // Destroys the executors idle for longer than worker_limits::idle_executor (m_ held). One a
  // request is using (a reference besides the map's) is not idle.
  void sweep() {
    if (options_.limits.idle_executor.count() <= 0) return;
    const auto now = std::chrono::steady_clock::now();
    for (auto it = by_key_.begin(); it != by_key_.end();) {
      if (now - it->second.used > options_.limits.idle_executor && it->second.e.use_count() == 1) {
        by_id_.erase(it->second.e->id());
        it = by_key_.erase(it);
      } else {
        ++it;
      }
    }
  }

  // The id of the executor for these cardinalities, made if there is none, counted once more.
  std::string acquire(const detail::executor_cardinalities& card) {
    std::lock_guard lock(m_);
    sweep();
    auto it = by_key_.find(card.key);
    if (it == by_key_.end()) {
      if (by_key_.size() >= options_.limits.max_executors)
        detail::refuse(grpc::StatusCode::RESOURCE_EXHAUSTED, "GetExecutor: the worker has " + std::to_string(by_key_.size()) +
                                                                 " executors (worker_limits::max_executors)");
      run_options ro = options_.run;
      ro.clients = card.clients;
      auto e = std::make_shared<detail::worker_executor>(
          card.key + "/" + std::to_string(service_id_) + "/" + std::to_string(next_executor_++),
          options_.make ? options_.make(ro) : std::make_unique<executor>(ro), options_.limits, options_.data,
          options_.keep_data);
      if (options_.setup) options_.setup(e->runner());
      it = by_key_.emplace(card.key, entry{std::move(e), 0}).first;
      by_id_[it->second.e->id()] = card.key;
    }
    ++it->second.refs;
    it->second.used = std::chrono::steady_clock::now();
    return it->second.e->id();
  }

  // Counts executor `id` once less, destroying it at none. An executor already gone is no error:
  // TFF's clients dispose again after a worker restart.
  void release(const std::string& id) {
    std::lock_guard lock(m_);
    auto k = by_id_.find(id);
    if (k == by_id_.end()) return;
    auto it = by_key_.find(k->second);
    if (--it->second.refs == 0) {
      by_key_.erase(it);
      by_id_.erase(k);
    }
  }

  // The values of metadata `key` the client sent.
  static std::vector<std::string> metadata(const Ctx* ctx, const char* key) {
    std::vector<std::string> v;
    if (ctx)
      for (auto [k, end] = ctx->client_metadata().equal_range(key); k != end; ++k) v.emplace_back(k->second.data(), k->second.size());
    return v;
  }

  std::shared_ptr<detail::worker_executor> find(const tensorflow_federated::v0::ExecutorId& id, const char* method) {
    std::lock_guard lock(m_);
    sweep();
    auto k = by_id_.find(id.id());
    if (k == by_id_.end())
      detail::refuse(grpc::StatusCode::FAILED_PRECONDITION,
                     std::string(method) + ": no executor `" + id.id().substr(0, 128) + "` (call GetExecutor)");
    entry& found = by_key_.at(k->second);
    found.used = std::chrono::steady_clock::now();
    return found.e;
  }

  // Runs f; an exception becomes the status TFF's clients expect.
  template <class F>
  static Status answer(F f) {
    try {
      f();
      return Status::OK;
    } catch (const detail::request_failure& r) {
      return Status(r.code, r.message);
    } catch (const remote_error& e) {
      return Status(grpc::StatusCode::INVALID_ARGUMENT, e.what());
    } catch (const read_error& e) {
      return Status(grpc::StatusCode::INVALID_ARGUMENT, std::string("a Computation ctff cannot read: ") + e.what());
    } catch (const argument_error& e) {
      return Status(grpc::StatusCode::INVALID_ARGUMENT, e.what());
    } catch (const execution_error& e) {
      return Status(grpc::StatusCode::INTERNAL, e.what());
    } catch (const std::bad_alloc&) {
      return Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "out of memory");
    } catch (const std::exception& e) {
      return Status(grpc::StatusCode::INTERNAL, e.what());
    }
  }

  worker_options options_;
  detail::call_gate gate_;
  unsigned service_id_;
  mutable std::mutex m_;
  std::map<std::string, entry> by_key_;     // by cardinalities
  std::map<std::string, std::string> by_id_;  // executor id -> cardinalities
  std::uint64_t next_executor_ = 0;
};

// Where and how a worker listens.
struct serve_options {
  std::string host = "127.0.0.1";  // not reachable from other hosts unless asked
  int port = 0;                    // 0: a free port (worker::port() tells which)
  std::size_t max_message_bytes = std::size_t{1} << 30;  // per request and per reply
  // TLS: a certificate and its key (PEM files' contents); with client_ca, only clients with a
  // certificate it signed are accepted. All empty: no TLS.
  std::string tls_cert{}, tls_key{}, tls_client_ca{};
};

// A running worker: its gRPC server over a worker_service. Stops when destroyed.
class worker {
 public:
  worker(worker_options options, serve_options where) : service_(std::move(options)) {
    grpc::ServerBuilder b;
    std::shared_ptr<grpc::ServerCredentials> creds = grpc::InsecureServerCredentials();
    if (!where.tls_cert.empty() || !where.tls_key.empty()) {
      grpc::SslServerCredentialsOptions ssl(where.tls_client_ca.empty()
                                                ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                                : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
      ssl.pem_key_cert_pairs.push_back({where.tls_key, where.tls_cert});
      ssl.pem_root_certs = where.tls_client_ca;
      creds = grpc::SslServerCredentials(ssl);
    }
    const std::string host = where.host.find(':') != std::string::npos ? "[" + where.host + "]" : where.host;
    // gRPC sets SO_REUSEPORT on Linux by default: a second worker on a port in use would start
    // and share it, taking some of the first one's calls. A port in use is refused instead.
    b.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    b.AddListeningPort(host + ":" + std::to_string(where.port), creds, &port_);
    const int max = static_cast<int>(std::min<std::size_t>(where.max_message_bytes, 0x7fffffff));
    b.SetMaxReceiveMessageSize(max);
    b.SetMaxSendMessageSize(max);
    b.RegisterService(&service_);
    server_ = b.BuildAndStart();
    if (!server_ || port_ == 0)
      throw std::runtime_error("ctff worker: cannot listen on " + host + ":" + std::to_string(where.port));
  }
  ~worker() { shutdown(); }
  worker(const worker&) = delete;
  worker& operator=(const worker&) = delete;

  int port() const { return port_; }
  worker_service& service() { return service_; }
  // Blocks until shutdown() (from another thread or a signal handler's thread).
  void wait() { server_->Wait(); }
  // Stops taking requests; calls still running after `grace` are cancelled (their callers get
  // CANCELLED), and wait() returns once they have returned.
  void shutdown(std::chrono::milliseconds grace = std::chrono::seconds(1)) {
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + grace);
  }

 private:
  worker_service service_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

// Starts a worker: `ctff::serve({.setup = bind_mine}, {.port = 8000})->wait();`.
inline std::unique_ptr<worker> serve(worker_options options = {}, serve_options where = {}) {
  return std::make_unique<worker>(std::move(options), std::move(where));
}

}  // namespace ctff
