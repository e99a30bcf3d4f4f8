// The nodes operators record: bound calls (Call bound to a Block local, Python's
// bind_computation_to_reference) and intrinsics; and building blocks that operators put together
// themselves, not from traced values: references by a fixed name and the lambdas that bind them
// (Python's `(x -> x[0])`, `(a -> acc(a))`), inline calls and selections; and the stand-in value
// an operator returns after a failed check.
#pragma once

#include <cstdint>
#include <source_location>
#include <string_view>
#include <type_traits>

#include "ctff/core/defer.hpp"
#include "ctff/trace/convert.hpp"
#include "ctff/types/instance.hpp"
#include "ctff/types/signatures.hpp"

namespace ctff::detail {

// A value for node `id` whose subtree's bindings start at `first` (no_node: none of its own).
template <class T>
constexpr value<T> make_value(trace_ctx& c, std::uint32_t id, std::uint32_t first) {
  const auto end = static_cast<std::uint32_t>(c.bindings.size());
  return value_access::make<T>(location{&c, id, first == no_node ? end : first, end});
}

// Marks call `seq` as the first user of the bound calls that node `id` refers to inline.
// (Recursive over the inline part of an operand's tree, which is shallow: bound calls and
// embedded computations end it.)
CTFF_DEFER
constexpr void note_uses(trace_ctx& c, std::uint32_t id, std::uint32_t seq) {
  if (id == no_node) return;
  const node& n = c.nodes[id];
  switch (n.kind) {
    case node_kind::symbol_ref:
      if (c.order[n.a].user == no_node) c.order[n.a].user = seq;
      return;
    case node_kind::selection: case node_kind::lambda: note_uses(c, n.a, seq); return;
    case node_kind::call:
      if (c.order[id].seq == no_node) {
        note_uses(c, n.a, seq);
        note_uses(c, n.b, seq);
      }
      return;
    case node_kind::struct_:
      for (std::uint32_t k = 0; k != n.b; ++k) note_uses(c, c.elems[n.a + k].value, seq);
      return;
    default: return;
  }
}

// Records Call(fn, arg), binds it to a Block local and returns the Reference (Python's
// bind_computation_to_reference). `site`: where the user wrote the call, if known (line != 0);
// remembered by run-time traces compiled by g++ only, the only traces whose calls can be made
// right to left (trace/written_order.hpp): nothing during constant evaluation or on clang.
template <class R>
constexpr value<R> bound_call(trace_ctx& c, std::uint32_t fn, std::uint32_t arg, std::uint32_t first,
                              const std::source_location& site = {}) {
  const auto seq = static_cast<std::uint32_t>(c.bindings.size());
  auto id = c.add_typed<R>({.kind = node_kind::call, .a = fn, .b = arg});
#if defined(__clang__)
  (void)site;
#else
  if (!std::is_constant_evaluated() && site.line() != 0) c.sites.push_back({id, site});
#endif
  c.order[id].seq = seq;
  note_uses(c, fn, seq);
  note_uses(c, arg, seq);
  auto pos = c.bind(id);
  auto r = c.add_typed<R>({.kind = node_kind::symbol_ref, .a = id});
  return make_value<R>(c, r, first == no_node ? pos : first);
}

// Intrinsic(uri) of concrete type F for the intrinsic's row I (types/signatures.hpp: its URI and
// generic signature). F is checked against the signature here, on every path that makes an
// intrinsic node, as building_blocks.Intrinsic does (the operators check every rule first, with
// their own messages).
template <class F, class I>
constexpr std::uint32_t intrinsic_node(trace_ctx& c) {
  if constexpr (!is_concrete_instance_v<F, typename I::signature>)
    static_assert(has_poison_v<F>,  // a failed check's stand-in: reported where it was made
                  "ctff internal error: an intrinsic's concrete type is not an instance of its "
                  "generic signature");
  return c.add_typed<F>({.kind = node_kind::intrinsic, .text = I::uri});
}

// Reference(name) of type T.
template <class T>
constexpr std::uint32_t named_ref_node(trace_ctx& c, std::string_view name) {
  return c.add_typed<T>({.kind = node_kind::named_ref, .text = name});
}

// Selection(src, index) of type E.
template <class E>
constexpr std::uint32_t selection_node(trace_ctx& c, std::uint32_t src, std::uint32_t index) {
  return c.add_typed<E>({.kind = node_kind::selection, .a = src, .b = index});
}

// Call(fn, arg) of result type R, inline (not bound to a Block local).
template <class R>
constexpr std::uint32_t inline_call_node(trace_ctx& c, std::uint32_t fn, std::uint32_t arg) {
  return c.add_typed<R>({.kind = node_kind::call, .a = fn, .b = arg});
}

// Lambda(param, body) of function type F.
template <class F>
constexpr std::uint32_t lambda_node(trace_ctx& c, std::string_view param, std::uint32_t body) {
  return c.add_typed<F>({.kind = node_kind::lambda, .a = body, .b = 0, .text = param});
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
  return location{c, c->add({.kind = node_kind::intrinsic, .text = "ctff_invalid"}), 0, 0};
}
// Whatever the operation would have returned (R), the stand-in has type poison_t: the checks of
// the operations it meets next report nothing (types/report.hpp).
template <class R>
constexpr value<poison_t> poisoned() {
  return value_access::make<dependent_t<R, poison_t>>(poisoned_location());  // (core/defer.hpp)
}

}  // namespace ctff::detail
