// Building blocks that operators put together themselves, not from traced values: references by a
// fixed name and the lambdas that bind them (Python's `(x -> x[0])`, `(a -> acc(a))`), inline
// calls and selections; and the stand-in value an operator returns after a failed check.
#pragma once

#include <cstdint>
#include <string_view>

#include "ctff/core/defer.hpp"
#include "ctff/trace/convert.hpp"

namespace ctff::detail {

// Reference(name) of type T.
template <class T>
constexpr std::uint32_t named_ref_node(trace_ctx& c, std::string_view name) {
  node n{};
  n.kind = node_kind::named_ref;
  n.text = name;
  return c.add_typed<T>(n);
}

// Selection(src, index) of type E.
template <class E>
constexpr std::uint32_t selection_node(trace_ctx& c, std::uint32_t src, std::uint32_t index) {
  node n{};
  n.kind = node_kind::selection;
  n.a = src;
  n.b = index;
  return c.add_typed<E>(n);
}

// Call(fn, arg) of result type R, inline (not bound to a Block local).
template <class R>
constexpr std::uint32_t inline_call_node(trace_ctx& c, std::uint32_t fn, std::uint32_t arg) {
  node n{};
  n.kind = node_kind::call;
  n.a = fn;
  n.b = arg;
  return c.add_typed<R>(n);
}

// Lambda(param, body) of function type F.
template <class F>
constexpr std::uint32_t lambda_node(trace_ctx& c, std::string_view param, std::uint32_t body) {
  node n{};
  n.kind = node_kind::lambda;
  n.a = body;
  n.b = 0;
  n.text = param;
  return c.add_typed<F>(n);
}

// Struct of element nodes, unnamed, of type S.
template <class S, std::size_t N>
constexpr std::uint32_t unnamed_struct_node(trace_ctx& c, const std::uint32_t (&ids)[N]) {
  auto tb = type_bytes<S>();
  return struct_node(c, ids, N, tb.data(), tb.size());
}

// The value an operator returns after a failed compile-time check: a well-formed value, so the
// rest of the user's code neither instantiates more diagnostics nor fails during constant
// evaluation. (The program is ill-formed anyway.)
// Its node has no type bytes: nothing reads them in a program that does not compile.
CTFF_DEFER
constexpr location poisoned_location() {
  trace_ctx* c = new_floating();
  node n{};
  n.kind = node_kind::intrinsic;
  n.text = "ctff_invalid";
  return location{c, c->add(n), 0, 0};
}
// Whatever the operation would have returned (R), the stand-in has type poison_t: the checks of
// the operations it meets next report nothing (types/report.hpp).
template <class R>
constexpr value<poison_t> poisoned() {
  return value<poison_t>(poisoned_location());
}

}  // namespace ctff::detail
