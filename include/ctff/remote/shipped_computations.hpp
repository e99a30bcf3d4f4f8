// The Computations a controller ships to aggregate on the workers (remote_options::
// aggregate_on_workers), built from the type of the intrinsic being run, so that a worker checks
// what it is given: the intrinsic under another uri or with another result (federated_sum for
// a mean's partial sums; federated_aggregate reporting its accumulator), federated_sum of a
// weighted mean's weights, and federated_aggregate's identity report.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include <federated_language/proto/computation.pb.h>

#include "ctff/run/function_computation.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

// The Computation of a function value, parsed (nullopt: none to ship).
inline std::optional<federated_language::Computation> shipped_function(const dynamic_value& fn) {
  const std::optional<std::string> bytes = function_computation(fn);
  federated_language::Computation c;
  if (!bytes || !c.ParseFromString(*bytes)) return std::nullopt;
  return c;
}

// The Computation of an intrinsic read from a tree with its function type (nullopt: none).
inline std::optional<federated_language::Computation> shipped_intrinsic(const dynamic_value& fn) {
  std::optional<federated_language::Computation> c = shipped_function(fn);
  if (!c || !c->has_intrinsic() || !c->type().has_function() || !c->type().function().has_parameter()) return std::nullopt;
  return c;
}

// The intrinsic `uri` of type (param -> result).
inline federated_language::Computation intrinsic_computation(const std::string& uri, federated_language::Type param,
                                                            federated_language::Type result) {
  federated_language::Computation c;
  *c.mutable_type()->mutable_function()->mutable_parameter() = std::move(param);
  *c.mutable_type()->mutable_function()->mutable_result() = std::move(result);
  c.mutable_intrinsic()->set_uri(uri);
  return c;
}

// federated_sum of a CLIENTS type: ({T}@CLIENTS -> T@SERVER), the result placed as `server` is
// (the intrinsic's own result type, its member replaced).
inline federated_language::Computation federated_sum_of(const federated_language::Type& clients,
                                                        federated_language::Type server) {
  *server.mutable_federated()->mutable_member() = clients.federated().member();
  return intrinsic_computation(std::string(row::federated_sum::uri), clients, std::move(server));
}

// (x -> x) of type (U -> U).
inline federated_language::Computation identity_of(const federated_language::Type& u) {
  federated_language::Computation c;
  *c.mutable_type()->mutable_function()->mutable_parameter() = u;
  *c.mutable_type()->mutable_function()->mutable_result() = u;
  auto* l = c.mutable_lambda();
  l->set_parameter_name("x");
  *l->mutable_result()->mutable_type() = u;
  l->mutable_result()->mutable_reference()->set_name("x");
  return c;
}

// federated_aggregate of the type of `aggregate` (an intrinsic Computation), reporting its
// accumulator: (<{T}@CLIENTS,U,(<U,T> -> U),(<U,U> -> U),(U -> U)> -> U@SERVER). Nullopt when
// the type is not that of a federated_aggregate.
inline std::optional<federated_language::Computation> partial_aggregate(const federated_language::Computation& aggregate) {
  const auto& fn = aggregate.type().function();
  if (!fn.parameter().has_struct_() || fn.parameter().struct_().element_size() != 5) return std::nullopt;
  federated_language::Type param = fn.parameter();
  const federated_language::Type u = param.struct_().element(1).value();
  federated_language::Type report;
  *report.mutable_function()->mutable_parameter() = u;
  *report.mutable_function()->mutable_result() = u;
  *param.mutable_struct_()->mutable_element(4)->mutable_value() = std::move(report);
  federated_language::Type result = fn.result();
  if (!result.has_federated()) return std::nullopt;
  *result.mutable_federated()->mutable_member() = u;
  return intrinsic_computation(std::string(row::federated_aggregate::uri), std::move(param), std::move(result));
}

}  // namespace ctff::detail
