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
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
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
#include "ctff/remote/worker_link.hpp"
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

// A closed Computation's bytes as the message a Value carries.
inline federated_language::Computation computation_message(const std::string& bytes) {
  federated_language::Computation c;
  if (!c.ParseFromString(bytes)) throw run_fault("a shipped function does not parse back as a Computation");
  return c;
}

// Whether the building block i of t (a lambda's body) only moves values about: references,
// selections, structs, literals, no call. Such a function (`federated_map` of a selection, as
// selecting from a federated struct is written) costs less to run here than its values cost to
// send.
inline bool only_moves_values(const computation_tree& t, std::uint32_t i, int depth = 0) {
  if (i == no_index || i >= t.nodes.size() || depth > 64) return false;
  const block_node& n = t.node(i);
  switch (n.kind) {
    case block_kind::reference:
    case block_kind::literal: return true;
    case block_kind::selection: return only_moves_values(t, n.a, depth + 1);
    case block_kind::struct_:
      for (std::uint32_t k = 0; k != n.count; ++k)
        if (!only_moves_values(t, t.elem(i, k).value, depth + 1)) return false;
      return true;
    default: return false;
  }
}
inline bool only_moves_values(const dynamic_value& fn) {
  const auto* c = dynamic_cast<const closure*>(fn.function().impl.get());
  if (!c) return false;
  const computation_tree& t = c->prog()->tree();
  return only_moves_values(t, t.node(c->lambda()).a);
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
    if (!f.is(value_kind::function) || only_moves_values(f)) return std::nullopt;  // cheaper here
    const std::optional<std::string> intrinsic = function_computation(fn);
    const std::optional<std::string> function = function_computation(f);
    if (!intrinsic || !function) return std::nullopt;  // not shippable: runs here

    // ceil(N/K) clients to each worker in order, as TFF's composing stack splits them.
    const std::size_t k = links_.size(), per = (n + k - 1) / k;
    std::vector<std::future<std::vector<dynamic_value>>> parts;
    for (std::size_t w = 0; w != k && w * per < n; ++w) {
      const std::size_t begin = w * per, end = std::min(n, begin + per);
      parts.push_back(std::async(std::launch::async, [&, w, begin, end] {
        worker_link& l = *links_[w];
        try {
          return run_slice(l, map, *intrinsic, *function, v, begin, end);
        } catch (const executor_gone&) {
          l.forget(l.executor(end - begin));  // once more, on a new executor
          return run_slice(l, map, *intrinsic, *function, v, begin, end);
        }
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
      const std::string value_ref = slice_ref(w, ex, v->federated(), begin, end, held);
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

  // The clients' values [begin, end) of d, held by the worker: their id there. Values all clients
  // share go once (an all_equal value); a struct per client goes element by element, zipped on
  // the worker (federated_zip_at_clients), so that an element all share (a broadcast model)
  // goes once and one the worker holds already (the same nodes as before: a training set) does
  // not go again.
  static std::string slice_ref(worker_link& w, const std::string& ex, const federated_data& d, std::size_t begin,
                               std::size_t end, std::vector<std::string>& held) {
    auto member = [&](std::size_t i) -> const dynamic_value& { return d.all_equal ? d.members.front() : d.members[i]; };
    auto send_values = [&](const char* what, bool all_equal, std::vector<dynamic_value> values) {
      v0::CreateValueRequest rq;
      *rq.mutable_value() = ctff::to_message(make_federated(placement_kind::clients, all_equal, std::move(values)));
      rq.mutable_executor()->set_id(ex);
      return w.send(&v0::ExecutorGroup::Stub::CreateValue, rq, what).value_ref().id();
    };
    // A column of per-client values: once if shared (second: true), else from the worker's
    // cache or sent.
    auto column = [&](auto entry) -> std::pair<std::string, bool> {
      const dynamic_value& first = entry(begin);
      bool shared = true;
      for (std::size_t i = begin + 1; shared && i != end; ++i) shared = entry(i).shares(first);
      if (shared) {
        held.push_back(send_values("CreateValue (a value all clients share)", true, {first}));
        return {held.back(), true};
      }
      worker_link::cache_key key{ex, {}};
      key.nodes.reserve(end - begin);
      for (std::size_t i = begin; i != end; ++i) key.nodes.push_back(entry(i).identity());
      if (std::optional<std::string> ref = w.cached(key)) return {*ref, false};
      std::vector<dynamic_value> values;
      values.reserve(end - begin);
      for (std::size_t i = begin; i != end; ++i) values.push_back(entry(i));
      std::string ref = send_values("CreateValue (the clients' values)", false, values);
      w.remember(std::move(key), ref, std::move(values));
      return {ref, false};
    };
    // Structs of one shape (names included) go element by element; anything else whole.
    const dynamic_value& m0 = member(begin);
    bool by_element = m0.is(value_kind::struct_) && !m0.structure().elements.empty();
    for (std::size_t i = begin + 1; by_element && i != end; ++i) {
      const dynamic_value& m = member(i);
      by_element = m.is(value_kind::struct_) && m.structure().elements.size() == m0.structure().elements.size() &&
                   m.structure().names == m0.structure().names;
    }
    // The zip's type, (<{T0}@CLIENTS, ...> -> {<T0, ...>}@CLIENTS) with the names: what a TFF
    // worker checks. (A member whose type cannot be told, an empty sequence: whole instead.)
    federated_language::Type zip_type;
    auto* param = zip_type.mutable_function()->mutable_parameter()->mutable_struct_();
    auto* result = zip_type.mutable_function()->mutable_result()->mutable_federated();
    result->mutable_placement()->mutable_value()->set_uri("clients");
    auto* result_member = result->mutable_member()->mutable_struct_();
    for (std::size_t k = 0; by_element && k != m0.structure().elements.size(); ++k) {
      federated_language::Type t;
      by_element = type_of_value(m0.structure().elements[k], t);
      auto* p = param->add_element();
      p->set_name(std::string(m0.structure().name(k)));
      auto* pf = p->mutable_value()->mutable_federated();
      pf->mutable_placement()->mutable_value()->set_uri("clients");
      *pf->mutable_member() = t;
      auto* r = result_member->add_element();
      r->set_name(std::string(m0.structure().name(k)));
      *r->mutable_value() = std::move(t);
    }
    if (!by_element) return column([&](std::size_t i) -> const dynamic_value& { return member(i); }).first;
    v0::CreateStructRequest parts;
    for (std::size_t k = 0; k != m0.structure().elements.size(); ++k) {
      const auto [ref, shared] =
          column([&](std::size_t i) -> const dynamic_value& { return member(i).structure().elements[k]; });
      auto* e = parts.add_element();
      e->set_name(std::string(m0.structure().name(k)));
      e->mutable_value_ref()->set_id(ref);
      param->mutable_element(static_cast<int>(k))->mutable_value()->mutable_federated()->set_all_equal(shared);
    }
    parts.mutable_executor()->set_id(ex);
    held.push_back(w.send(&v0::ExecutorGroup::Stub::CreateStruct, parts, "CreateStruct (the clients' values)").value_ref().id());
    const std::string parts_ref = held.back();
    v0::CreateValueRequest zip;
    auto* zc = zip.mutable_value()->mutable_computation();
    *zc->mutable_type() = std::move(zip_type);
    zc->mutable_intrinsic()->set_uri("federated_zip_at_clients");
    zip.mutable_executor()->set_id(ex);
    held.push_back(w.send(&v0::ExecutorGroup::Stub::CreateValue, zip, "CreateValue (federated_zip_at_clients)").value_ref().id());
    v0::CreateCallRequest call;
    call.mutable_function_ref()->set_id(held.back());
    call.mutable_argument_ref()->set_id(parts_ref);
    call.mutable_executor()->set_id(ex);
    held.push_back(w.send(&v0::ExecutorGroup::Stub::CreateCall, call, "CreateCall (federated_zip_at_clients)").value_ref().id());
    return held.back();
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
        links.push_back(std::make_unique<detail::worker_link>(remote.workers[k], channels[k], remote.deadline));
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
    backend_ = std::make_shared<detail::remote_backend>(std::move(links));
    set_client_backend(backend_);
  }

  // The workers in use, in the order clients go to them; those left out (unreachable at the start).
  const std::vector<std::string>& workers() const { return live_; }
  const std::vector<std::string>& left_out() const { return left_out_; }
  // What went to the workers and came back, over all of them.
  wire_traffic traffic() const {
    wire_traffic t;
    for (const auto& l : backend_->links()) {
      const wire_traffic w = l->traffic();
      t.sent += w.sent;
      t.received += w.received;
    }
    return t;
  }

 private:
  std::vector<std::string> live_, left_out_;
  std::shared_ptr<detail::remote_backend> backend_;
};

}  // namespace ctff
