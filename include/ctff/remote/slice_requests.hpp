// The requests about one slice of the clients to one executor of one worker: values created
// there, structs, calls, a value computed and read back; what they create is disposed of when
// done, except what is kept (a result the worker holds on to: remote/held_clients.hpp). And the
// clients' values of a slice made a value there, sending as little as it can.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <tensorflow_federated/proto/v0/executor.grpc.pb.h>

#include "ctff/remote/remote_error.hpp"
#include "ctff/remote/shipped_taps.hpp"
#include "ctff/remote/value_message.hpp"
#include "ctff/remote/worker_link.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

class slice_requests {
 public:
  slice_requests(worker_link& w, std::string executor) : w_(w), ex_(std::move(executor)) {}
  ~slice_requests() { w_.dispose(ex_, made_); }
  slice_requests(const slice_requests&) = delete;
  slice_requests& operator=(const slice_requests&) = delete;

  worker_link& link() { return w_; }
  const std::string& executor() const { return ex_; }

  // The run whose taps the functions shipped here carry (null: none), and the slice's first client
  // (the worker counts its clients from 0).
  void tap_for(run_context* run, std::size_t first) {
    run_ = run;
    first_ = first;
  }

  std::string value(v0::Value v, const char* what, const std::vector<std::pair<std::string, std::string>>& metadata = {}) {
    v0::CreateValueRequest rq;
    *rq.mutable_value() = std::move(v);
    rq.mutable_executor()->set_id(ex_);
    return made(w_.send(&v0::ExecutorGroup::Stub::CreateValue, rq, what, metadata).value_ref().id());
  }
  std::string value(const dynamic_value& v, const char* what) { return value(to_message(v), what); }
  // A Computation; with `taps` (the run's taps inside it, detail::taps_in), tapped there.
  std::string computation(federated_language::Computation c, const char* what, const shipped_taps* taps = nullptr) {
    v0::Value v;
    *v.mutable_computation() = std::move(c);
    std::vector<std::pair<std::string, std::string>> metadata;
    if (run_ && taps && !taps->empty()) {
      for (const std::string& p : taps->paths) metadata.emplace_back(tap_request_key, p);
      taps_.in_run.insert(taps->in_run.begin(), taps->in_run.end());
    }
    return value(std::move(v), what, metadata);
  }
  // A struct of values held there (names: empty, or one per element).
  std::string structure(const std::vector<std::string>& refs, const char* what,
                        const std::vector<std::string>& names = {}) {
    v0::CreateStructRequest rq;
    for (std::size_t k = 0; k != refs.size(); ++k) {
      auto* e = rq.add_element();
      if (k < names.size()) e->set_name(names[k]);
      e->mutable_value_ref()->set_id(refs[k]);
    }
    rq.mutable_executor()->set_id(ex_);
    return made(w_.send(&v0::ExecutorGroup::Stub::CreateStruct, rq, what).value_ref().id());
  }
  // A call there; what the taps it carries saw given to the run's.
  std::string call(const std::string& fn, const std::string& arg, const char* what) {
    v0::CreateCallRequest rq;
    rq.mutable_function_ref()->set_id(fn);
    if (!arg.empty()) rq.mutable_argument_ref()->set_id(arg);
    rq.mutable_executor()->set_id(ex_);
    if (!run_ || taps_.in_run.empty()) return made(w_.send(&v0::ExecutorGroup::Stub::CreateCall, rq, what).value_ref().id());
    std::vector<std::string> events;
    std::string r = made(w_.send(&v0::ExecutorGroup::Stub::CreateCall, rq, what, {}, tap_events_key, &events).value_ref().id());
    deliver_tap_events(events, taps_, first_, w_.address(), *run_);
    return r;
  }
  dynamic_value compute(const std::string& ref, const char* what) {
    v0::ComputeRequest rq;
    rq.mutable_value_ref()->set_id(ref);
    rq.mutable_executor()->set_id(ex_);
    const v0::ComputeResponse r = w_.send(&v0::ExecutorGroup::Stub::Compute, rq, what);
    try {
      return ctff::from_message(r.value());
    } catch (const remote_error& e) {
      throw run_fault("worker " + w_.address() + ": its answer: " + e.what());
    }
  }
  // The member of a SERVER value computed there (a slice's partial aggregate).
  dynamic_value compute_at_server(const std::string& ref, const char* what) {
    const dynamic_value v = compute(ref, what);
    if (!v.is(value_kind::federated) || v.federated().where != placement_kind::server || v.federated().members.size() != 1)
      throw run_fault("worker " + w_.address() + ": " + what + ": answered something other than a SERVER value");
    return v.federated().members.front();
  }
  // Not disposed of at the end: the caller holds it (and disposes of it).
  std::string keep(std::string ref) {
    std::erase(made_, ref);
    return ref;
  }

 private:
  std::string made(std::string ref) {
    made_.push_back(ref);
    return ref;
  }
  worker_link& w_;
  std::string ex_;
  std::vector<std::string> made_;
  run_context* run_ = nullptr;
  std::size_t first_ = 0;
  shipped_taps taps_;
};

// The clients' values [begin, end) of d, held by the worker: their id there. Values all clients
// share go once (an all_equal value); a struct per client goes element by element, zipped on
// the worker (federated_zip_at_clients), so that an element all share (a broadcast model)
// goes once and one the worker holds already (the same nodes as before: a training set) does
// not go again.
inline std::string clients_ref(slice_requests& rq, const federated_data& d, std::size_t begin, std::size_t end) {
  worker_link& w = rq.link();
  auto member = [&](std::size_t i) -> const dynamic_value& { return d.all_equal ? d.members.front() : d.members[i]; };
  // A column of per-client values: once if shared (second: true), else from the worker's
  // cache or sent.
  auto column = [&](auto entry) -> std::pair<std::string, bool> {
    const dynamic_value& first = entry(begin);
    bool shared = true;
    for (std::size_t i = begin + 1; shared && i != end; ++i) shared = entry(i).shares(first);
    if (shared)
      return {rq.value(make_federated(placement_kind::clients, true, {first}), "CreateValue (a value all clients share)"), true};
    worker_link::cache_key key{rq.executor(), {}};
    key.nodes.reserve(end - begin);
    for (std::size_t i = begin; i != end; ++i) key.nodes.push_back(entry(i).identity());
    if (std::optional<std::string> ref = w.cached(key)) return {*ref, false};
    std::vector<dynamic_value> values;
    values.reserve(end - begin);
    for (std::size_t i = begin; i != end; ++i) values.push_back(entry(i));
    std::string ref = rq.keep(rq.value(make_federated(placement_kind::clients, false, values), "CreateValue (the clients' values)"));
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
  federated_language::Computation zip;
  auto* param = zip.mutable_type()->mutable_function()->mutable_parameter()->mutable_struct_();
  auto* result = zip.mutable_type()->mutable_function()->mutable_result()->mutable_federated();
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
  std::vector<std::string> parts, names;
  for (std::size_t k = 0; k != m0.structure().elements.size(); ++k) {
    const auto [ref, shared] =
        column([&](std::size_t i) -> const dynamic_value& { return member(i).structure().elements[k]; });
    parts.push_back(ref);
    names.emplace_back(m0.structure().name(k));
    param->mutable_element(static_cast<int>(k))->mutable_value()->mutable_federated()->set_all_equal(shared);
  }
  const std::string parts_ref = rq.structure(parts, "CreateStruct (the clients' values)", names);
  zip.mutable_intrinsic()->set_uri(std::string(row::federated_zip_at_clients::uri));
  const std::string zip_ref = rq.computation(std::move(zip), "CreateValue (federated_zip_at_clients)");
  return rq.call(zip_ref, parts_ref, "CreateCall (federated_zip_at_clients)");
}

}  // namespace ctff::detail
