// What the intrinsics read: the parts of their argument values, checked (a federated value's
// members, a struct's elements, a tensor).
#pragma once

#include <cstddef>
#include <string>

#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// The members of a federated value for clients 0..n-1 (an all_equal value: its one member).
inline const dynamic_value& member(const federated_data& f, std::size_t i) {
  return f.all_equal ? f.members.front() : f.members[i];
}
inline const federated_data& federated_of(const dynamic_value& v, const char* what) {
  if (!v.is(value_kind::federated)) throw run_fault(std::string(what) + ": not a federated value");
  const federated_data& f = v.federated();
  if (f.members.empty() && (f.all_equal || f.where == placement_kind::server))
    throw run_fault(std::string(what) + ": a federated value without its member");
  return f;
}
// Checks that a CLIENTS value that is not all_equal has one member per client.
inline const federated_data& clients_of(const dynamic_value& v, std::size_t n, const char* what) {
  const federated_data& f = federated_of(v, what);
  if (!f.all_equal && f.members.size() != n)
    throw run_fault(std::string(what) + ": a value with " + std::to_string(f.members.size()) +
                    " members for " + std::to_string(n) + " clients");
  return f;
}
inline const dynamic_value& element(const dynamic_value& v, std::size_t k, const char* what) {
  if (!v.is(value_kind::struct_) || v.structure().elements.size() <= k)
    throw run_fault(std::string(what) + ": its argument is not a struct of the intrinsic's arity");
  return v.structure().elements[k];
}
inline const tensor_data& tensor_of(const dynamic_value& v, const char* what) {
  if (!v.is(value_kind::tensor)) throw run_fault(std::string(what) + ": not a tensor");
  return v.tensor();
}

}  // namespace ctff::detail
