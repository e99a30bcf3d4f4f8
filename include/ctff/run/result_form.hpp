// What writing a run's result in a form of its own (JSON: run/json_write.hpp; arrays:
// run/array_write.hpp) checks before writing a node: that the value has such a form at all, that
// it is of its type's kind, a struct of its type's length, a tensor that fills its shape; and which
// members a federated result is written as. One wording, and one rule, for both writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"

namespace ctff::detail {

// Throws for a function or placement (value or type): `form` names the form ("JSON", "array").
inline void check_has_form(const dynamic_value& v, const type_node& n, const char* form) {
  if (n.kind == type_kind::function || (v && v.is(value_kind::function)))
    throw execution_error("", std::string("a function value has no ") + form + " form");
  if (n.kind == type_kind::placement || (v && v.is(value_kind::placement)))
    throw execution_error("", std::string("a placement value has no ") + form + " form");
}

// v, when it is of kind k (its type: type node t of types); else the mismatch.
inline const dynamic_value& expect_kind(const dynamic_value& v, value_kind k, const type_desc& types, std::uint32_t t) {
  if (!v.is(k)) throw execution_error("", "the result does not match its type " + message_type_text(types, t));
  return v;
}

// Throws unless struct value s has as many elements as its type (type node t of types).
inline void check_element_count(const struct_data& s, const type_desc& types, std::uint32_t t) {
  const std::uint32_t k = types.node(t).kid_count;
  if (s.elements.size() != k)
    throw execution_error("", "the result has " + std::to_string(s.elements.size()) +
                                  " elements where its type " + message_type_text(types, t) +
                                  " has " + std::to_string(k));
}

// Throws unless tensor x's elements fill its shape.
inline void check_fills_shape(const tensor_data& x) {
  std::size_t total = 1;
  for (auto d : x.shape) {
    if (d < 0) throw execution_error("", "a result tensor has a negative dimension");
    total *= static_cast<std::size_t>(d);
  }
  if (total != x.size())
    throw execution_error("", "a result tensor has " + std::to_string(x.size()) +
                                  " elements for its shape's " + std::to_string(total));
}

// The members a federated result f of type t (a node of types) is written as: T@SERVER's and
// all_equal T@CLIENTS' one member (`listed` false; another count throws), or {T}@CLIENTS' list,
// an all_equal value's one member once per client when `clients` is known.
struct result_members {
  const federated_data* f;
  bool listed;
  std::size_t size;
  const dynamic_value& operator[](std::size_t i) const {
    return f->members[f->members.size() == size ? i : 0];
  }
};
inline result_members members_of_result(const federated_data& f, const type_desc& types,
                                        std::uint32_t t, std::optional<std::size_t> clients) {
  const type_node& n = types.node(t);
  if (n.all_equal || n.where == placement_kind::server) {
    if (f.members.size() != 1)
      throw execution_error("", "the result has " + std::to_string(f.members.size()) +
                                    " members where its type " + message_type_text(types, t) +
                                    " has one");
    return {&f, false, 1};
  }
  return {&f, true, f.all_equal && f.members.size() == 1 && clients ? *clients : f.members.size()};
}

}  // namespace ctff::detail
