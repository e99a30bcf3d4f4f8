// ctff::remote_executor: an executor whose per-client work runs on workers (ctff-worker, or TFF's
// own), over TFF's remote-execution protocol. The clients are split as TFF's composing stack
// splits them, ceil(N/K) to each of the K live workers in order; each worker gets its slice and
// the per-client intrinsic (federated_map, federated_eval_at_clients) with the function to run,
// shipped as a closed Computation (run/function_computation.hpp). The slices come back and are
// joined in worker order, and everything else (sums, folds, server work) runs here in client
// order: results are those of a local run, whatever the timing. A function that cannot be
// shipped (it captures a federated value) runs here. A worker that fails, or does not answer
// within the deadline, is an execution_error naming it; workers down at the start are left out.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <future>
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

#include "ctff/remote/value_message.hpp"
#include "ctff/run/client_backend.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/function_computation.hpp"

namespace ctff {

struct remote_options {
  std::vector<std::string> workers{};                     // HOST:PORT, in the order clients go
  std::chrono::milliseconds deadline = std::chrono::minutes(10);  // per request to a worker
  std::chrono::milliseconds connect = std::chrono::seconds(5);    // to reach a worker at the start
  std::size_t max_message_bytes = std::size_t{1} << 30;
  // TLS: the CA that signed the workers' certificates (PEM); with tls_cert and tls_key, the
  // certificate this controller shows them. All empty: no TLS.
  std::string tls_root_ca{}, tls_cert{}, tls_key{};
};

namespace detail {

namespace v0 = tensorflow_federated::v0;

// One live worker: its stub and its executors, by number of clients.
class worker_link {
 public:
  worker_link(std::string address, std::shared_ptr<grpc::Channel> channel, const remote_options& o)
      : address_(std::move(address)), stub_(v0::ExecutorGroup::NewStub(channel)), deadline_(o.deadline) {}
  ~worker_link() {
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

  // Sends `rq` by `method`; a failure is a run_fault naming this worker and what it was doing.
  template <class Rq, class Rs>
  Rs send(grpc::Status (v0::ExecutorGroup::Stub::*method)(grpc::ClientContext*, const Rq&, Rs*), const Rq& rq,
          const char* what) {
    Rs rs;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + deadline_);
    const grpc::Status s = (stub_.get()->*method)(&ctx, rq, &rs);
    if (!s.ok())
      throw run_fault("worker " + address_ + ": " + what + ": " + status_name(s.error_code()) + ": " +
                      s.error_message());
    return rs;
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
    const auto rs = send(&v0::ExecutorGroup::Stub::GetExecutor, rq, "GetExecutor");
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
  std::mutex m_;
  std::map<std::size_t, std::string> executors_;
};

// A closed Computation's bytes as the message a Value carries.
inline federated_language::Computation computation_message(const std::string& bytes) {
  federated_language::Computation c;
  if (!c.ParseFromString(bytes)) throw run_fault("a shipped function does not parse back as a Computation");
  return c;
}

// Runs federated_map and federated_eval_at_clients on the workers, a slice each.
class remote_backend final : public client_backend {
 public:
  explicit remote_backend(std::vector<std::unique_ptr<worker_link>> links) : links_(std::move(links)) {}

  std::optional<dynamic_value> try_call(std::string_view uri, const dynamic_value& fn, const dynamic_value* arg,
                                        std::size_t n) override {
    if (n == 0 || links_.empty() || !arg || !*arg) return std::nullopt;
    const bool map = uri == "federated_map";
    // federated_map's <f, {T}@CLIENTS>: the function and the members; eval_at_clients: f alone.
    const dynamic_value f = map ? (arg->is(value_kind::struct_) && arg->structure().elements.size() == 2
                                       ? arg->structure().elements[0]
                                       : dynamic_value{})
                                : *arg;
    const dynamic_value* v = map && f ? &arg->structure().elements[1] : nullptr;
    if (!f || (map && (!v->is(value_kind::federated) || v->federated().where != placement_kind::clients)))
      return std::nullopt;  // (the intrinsic's own checks then say what is wrong)
    if (map && !v->federated().all_equal && v->federated().members.size() != n) return std::nullopt;
    const std::optional<std::string> intrinsic = function_computation(fn);
    const std::optional<std::string> function = function_computation(f);
    if (!intrinsic || !function) return std::nullopt;  // not shippable: runs here

    // ceil(N/K) clients to each worker in order, as TFF's composing stack splits them.
    const std::size_t k = links_.size(), per = (n + k - 1) / k;
    std::vector<std::future<std::vector<dynamic_value>>> parts;
    for (std::size_t w = 0; w != k && w * per < n; ++w) {
      const std::size_t begin = w * per, end = std::min(n, begin + per);
      parts.push_back(std::async(std::launch::async, [&, w, begin, end] {
        return run_slice(*links_[w], map, *intrinsic, *function, v, begin, end);
      }));
    }
    std::vector<dynamic_value> members;
    members.reserve(n);
    std::exception_ptr first;  // the first worker's failure, in worker order (all are waited for)
    for (auto& p : parts) {
      try {
        for (dynamic_value& m : p.get()) members.push_back(std::move(m));
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
    return make_federated(placement_kind::clients, false, std::move(members));
  }

  const std::vector<std::unique_ptr<worker_link>>& links() const { return links_; }

 private:
  static std::vector<dynamic_value> run_slice(worker_link& w, bool map, const std::string& intrinsic,
                                              const std::string& function, const dynamic_value* v,
                                              std::size_t begin, std::size_t end) {
    const std::size_t count = end - begin;
    const std::string ex = w.executor(count);
    std::vector<std::string> held;
    auto create = [&](v0::Value value, const char* what) {
      v0::CreateValueRequest rq;
      *rq.mutable_value() = std::move(value);
      rq.mutable_executor()->set_id(ex);
      held.push_back(w.send(&v0::ExecutorGroup::Stub::CreateValue, rq, what).value_ref().id());
      return held.back();
    };
    struct release {  // what the worker holds for this slice, disposed however it ends
      worker_link& w;
      const std::string& ex;
      std::vector<std::string>& held;
      ~release() {
        if (held.empty()) return;
        v0::DisposeRequest rq;
        for (const std::string& id : held) rq.add_value_ref()->set_id(id);
        rq.mutable_executor()->set_id(ex);
        try {
          (void)w.send(&v0::ExecutorGroup::Stub::Dispose, rq, "Dispose");
        } catch (...) {  // the worker may be gone; its values go with it
        }
      }
    } guard{w, ex, held};

    v0::Value iv, fv;
    *iv.mutable_computation() = computation_message(intrinsic);
    *fv.mutable_computation() = computation_message(function);
    const std::string intrinsic_ref = create(std::move(iv), "CreateValue (the intrinsic)");
    const std::string function_ref = create(std::move(fv), "CreateValue (the function)");
    std::string arg_ref = function_ref;
    if (map) {
      const federated_data& d = v->federated();
      std::vector<dynamic_value> slice;
      slice.reserve(count);
      for (std::size_t i = begin; i != end; ++i) slice.push_back(d.all_equal ? d.members.front() : d.members[i]);
      const std::string value_ref =
          create(ctff::to_message(make_federated(placement_kind::clients, false, std::move(slice))), "CreateValue (the clients' values)");
      v0::CreateStructRequest rq;
      rq.add_element()->mutable_value_ref()->set_id(function_ref);
      rq.add_element()->mutable_value_ref()->set_id(value_ref);
      rq.mutable_executor()->set_id(ex);
      held.push_back(w.send(&v0::ExecutorGroup::Stub::CreateStruct, rq, "CreateStruct").value_ref().id());
      arg_ref = held.back();
    }
    v0::CreateCallRequest call;
    call.mutable_function_ref()->set_id(intrinsic_ref);
    call.mutable_argument_ref()->set_id(arg_ref);
    call.mutable_executor()->set_id(ex);
    held.push_back(w.send(&v0::ExecutorGroup::Stub::CreateCall, call, "CreateCall").value_ref().id());
    v0::ComputeRequest get;
    get.mutable_value_ref()->set_id(held.back());
    get.mutable_executor()->set_id(ex);
    const v0::ComputeResponse r = w.send(&v0::ExecutorGroup::Stub::Compute, get, "Compute");
    dynamic_value out;
    try {
      out = ctff::from_message(r.value());
    } catch (const remote_error& e) {
      throw run_fault("worker " + w.address() + ": its answer: " + e.what());
    }
    if (!out.is(value_kind::federated) || out.federated().where != placement_kind::clients ||
        (!out.federated().all_equal && out.federated().members.size() != count))
      throw run_fault("worker " + w.address() + ": answered something other than " + std::to_string(count) +
                      " clients' values");
    const federated_data& o = out.federated();
    if (!o.all_equal) return o.members;
    return std::vector<dynamic_value>(count, o.members.front());
  }

  std::vector<std::unique_ptr<worker_link>> links_;
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
    std::vector<std::unique_ptr<detail::worker_link>> links;
    const int max = static_cast<int>(std::min<std::size_t>(remote.max_message_bytes, 0x7fffffff));
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(max);
    args.SetMaxSendMessageSize(max);
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
        links.push_back(std::make_unique<detail::worker_link>(remote.workers[k], channels[k], remote));
        live_.push_back(remote.workers[k]);
      } else {
        left_out_.push_back(remote.workers[k]);
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
    set_client_backend(std::make_shared<detail::remote_backend>(std::move(links)));
  }

  // The workers in use, in the order clients go to them; those left out (unreachable at the start).
  const std::vector<std::string>& workers() const { return live_; }
  const std::vector<std::string>& left_out() const { return left_out_; }

 private:
  std::vector<std::string> live_, left_out_;
};

}  // namespace ctff
