// What writing a run's result in a form of its own (JSON: run/json_write.hpp; arrays:
// run/array_write.hpp) checks before writing a node: that the value has such a form at all, and
// that it is of its type's kind. One wording for both writers.
#pragma once

#include <cstdint>
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

}  // namespace ctff::detail
