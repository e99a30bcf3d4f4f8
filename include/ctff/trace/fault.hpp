// Where C++ cannot know Python's binding order, a compile-time trace fails with one diagnostic.
//
// A failure found by the trace itself is kept as a `trace_fault` (the trace goes on, its graph is
// never shown) and reported by one static_assert naming the user's line where it is known
// (trace/static_outputs.hpp): the line that made the offending value made from constants only, or
// that made the offending computation. Kept: a constants-only value kept in a variable, arguments
// out of order (where one of them was made from constants only, its line), a computation with
// captures traced early under an enclosing name (the line that made it), a value of an enclosing
// trace read by a nested one (the line that made the nested computation). A nested trace keeps
// its failure in the outermost trace or floating context that encloses it (trace/context.hpp:
// fault_keeper). A failure the trace cannot record (a value made
// from constants only that dies unused: no trace ever sees it) makes the trace not a constant
// expression; static_outputs.hpp tells that apart without an error, and evaluates the trace once
// more where the compiler's report of why is the only error.
#pragma once

#include <cstdint>
#include <source_location>
#include <string_view>

// The rule, for trace_error at run time and the static_assert at compile time (which takes only
// a string literal).
#define CTFF_KEPT_CONSTANT_VALUE_MESSAGE                                                         \
  "ctff: a value made from constants only (federated_value, federated_eval, a call of a "      \
  "computation on constants) is kept in a variable and meets calls traced elsewhere: C++ "     \
  "cannot tell where Python binds it; use it in the expression that makes it, or make it a "  \
  "struct with the calls it meets (docs/porting_from_python.md)"

// Arguments that C++ evaluated out of order, which cannot be put back into Python's order
// (trace/binding_order.hpp: restore_order).
#define CTFF_OUT_OF_ORDER_MESSAGE                                                                \
  "ctff: C++ evaluated these arguments out of order and their calls cannot be put back into "  \
  "Python's order (a result left unused, or kept in a variable of a helper, sits between "     \
  "them); bind each argument to a named variable first"

// Two calls written on one line that g++'s generated code made right to left where no ctff
// operation received them together (a run-time trace only: trace/written_order.hpp). The line and
// the calls follow.
#define CTFF_WRITTEN_ORDER_MESSAGE                                                                 \
  "ctff: g++ made two calls written on one line right to left (the arguments of a function that " \
  "is not a ctff operation, such as `auto t = std::tuple(f(a), g(b));` or your own "             \
  "`pair_up(f(a), g(b))`), so their Python order is lost; give each call its own variable "      \
  "first (`auto x = f(a); auto y = g(b);`), or write the tuple with braces (`std::tuple{f(a), "  \
  "g(b)}`: left to right)"

// A computation with captures traced early (on constants only, during a compile-time trace) under
// a name that an enclosing trace turned out to have (trace/nested.hpp: checked_embed).
#define CTFF_FLOATING_RENAMED_MESSAGE                                                              \
  "ctff: a computation with captures called on constants only is named like an enclosing "       \
  "computation (or a computation it uses is): C++ traced it before it knew the enclosing names, " \
  "as a compile-time trace does; rename it"

// A value of an enclosing trace read inside a nested one (trace/binding_order.hpp: unify).
#define CTFF_FOREIGN_VALUE_MESSAGE                                                                 \
  "ctff: a value of one trace was used inside another trace (a computation's function reads a "  \
  "value of the trace that encloses it, as a capture: pass it as an argument)"

// The rule for a value made from constants only that is never used (trace/context.hpp: a failed
// constant evaluation at compile time, whose notes show it).
#define CTFF_UNUSED_CONSTANT_VALUE_MESSAGE "ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is never used: Python binds it where it is made, which C++ cannot see; use it or remove it"

namespace ctff::detail {

enum class fault_kind : std::uint8_t {
  none,
  kept_constant_value,  // a value made from constants only, kept in a variable, met other calls
  out_of_order,         // arguments evaluated out of order that cannot be put back
  floating_renamed,     // a computation with captures traced early, named like an enclosing one
  foreign_value,        // a value of an enclosing trace read by a nested trace (a capture)
  not_constant,         // the trace is not a constant expression (reported by the compiler)
};

// Where a value was made: the file's last path component (cut to fit) and the line.
struct made_where {
  char file[48]{};
  std::uint32_t line = 0;

  constexpr made_where() = default;
  constexpr explicit made_where(const std::source_location& l) : line(l.line()) {
    std::string_view f = l.file_name();
    if (const auto slash = f.find_last_of("/\\"); slash != std::string_view::npos)
      f.remove_prefix(slash + 1);
    for (std::size_t i = 0; i != f.size() && i + 1 < sizeof file; ++i) file[i] = f[i];
  }
  constexpr bool known() const { return line != 0; }
};

// The message of a kept failure (for trace_error where it cannot be kept).
constexpr const char* fault_message(fault_kind k) {
  switch (k) {
    case fault_kind::out_of_order: return CTFF_OUT_OF_ORDER_MESSAGE;
    case fault_kind::floating_renamed: return CTFF_FLOATING_RENAMED_MESSAGE;
    case fault_kind::foreign_value: return CTFF_FOREIGN_VALUE_MESSAGE;
    default: return CTFF_KEPT_CONSTANT_VALUE_MESSAGE;
  }
}

// A structural type: it is a template argument of the traced shape.
struct trace_fault {
  fault_kind kind = fault_kind::none;
  made_where made{};
};

}  // namespace ctff::detail
