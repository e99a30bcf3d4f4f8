// What the intrinsics read: a type inside a tree's type_desc (`typed`), the parts of their
// argument values, checked (a federated value's members, a struct's elements, a tensor), function
// calls, and the zero of a type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

struct typed {  // a type inside a tree's type_desc
  const type_desc* d;
  std::uint32_t i;
  const type_node& node() const { return d->node(i); }
  typed kid(std::uint32_t k) const { return {d, d->kid(i, k)}; }
  std::uint32_t kids() const { return node().kid_count; }
  typed param() const { return kid(0); }  // of a function type with a parameter
  typed result() const { return kid(kids() - 1); }
  typed member() const { return kid(0); }  // of a federated or sequence type
};

inline std::vector<std::string> struct_names(typed t) {
  std::vector<std::string> names;
  bool any = false;
  for (std::uint32_t k = 0; k != t.kids(); ++k) {
    names.emplace_back(t.d->name(t.d->kid(t.i, k)));
    any = any || !names.back().empty();
  }
  if (!any) names.clear();
  return names;
}

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

inline dynamic_value call(const dynamic_value& fn, const dynamic_value* arg, run_context& c) {
  if (!fn.is(value_kind::function)) throw run_fault("calling a value that is not a function");
  const function_impl& f = *fn.function().impl;
  dynamic_value listed;  // (what arg points to once a column became members: lives to the end)
  if (client_backend* b = c.backend()) {  // (none: nothing more to do, nothing is elsewhere)
    if (const std::string_view u = f.intrinsic_uri(); !u.empty()) {
      // A backend reads members: a column becomes them where it may read it.
      if (arg && holds_column(*arg) &&
          (u == "federated_map" || u == "federated_eval_at_clients" || holds_elsewhere(*arg)))
        arg = &(listed = with_members(*arg));
      if (std::optional<dynamic_value> r = b->try_call_in(u, fn, arg, c.clients(), c)) return std::move(*r);
    }
    // What the backend left here reads the members: those held elsewhere are fetched first.
    if (arg && holds_elsewhere(*arg)) {
      const dynamic_value here = fetched(*arg);
      return f.call(&here, c);
    }
  }
  return f.call(arg, c);
}
inline dynamic_value call(const dynamic_value& fn, const dynamic_value& arg, run_context& c) { return call(fn, &arg, c); }

// The zero of a type (generic_zero, federated_sum of no clients): n members for {T}@CLIENTS
// (one zero, shared).
inline dynamic_value zero_of(typed t, std::size_t n) {
  const type_node& tn = t.node();
  switch (tn.kind) {
    case type_kind::tensor: {
      if (tn.unknown_rank) throw run_fault("the zero of a tensor of unknown rank");
      std::vector<std::int64_t> shape(t.d->dims.begin() + tn.dim_begin,
                                      t.d->dims.begin() + tn.dim_begin + tn.dim_count);
      for (auto d : shape)
        if (d < 0) throw run_fault("the zero of a tensor with an unknown dimension");
      return dynamic_value(zero_tensor(tn.dt, std::move(shape)));
    }
    case type_kind::struct_: {
      std::vector<dynamic_value> e;
      for (std::uint32_t k = 0; k != t.kids(); ++k) e.push_back(zero_of(t.kid(k), n));
      return make_struct_value(std::move(e), struct_names(t));
    }
    case type_kind::federated: {
      dynamic_value m = zero_of(t.member(), n);
      if (tn.where == placement_kind::clients && !tn.all_equal)
        return make_federated(tn.where, false, std::vector<dynamic_value>(n, m));
      return make_federated(tn.where, true, {std::move(m)});
    }
    default: throw run_fault("no zero for this type");
  }
}

}  // namespace ctff::detail
