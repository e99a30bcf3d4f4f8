// Where C++ cannot know Python's binding order, a compile-time trace fails with one diagnostic.
//
// A failure found by the trace itself is kept as a `trace_fault` in the trace (the trace goes on,
// its graph is never shown) and reported by one static_assert naming the line that made the
// offending value (trace/static_outputs.hpp). A failure the trace cannot record (a value made
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

// The rule for a value made from constants only that is never used (trace/context.hpp: a failed
// constant evaluation at compile time, whose notes show it).
#define CTFF_UNUSED_CONSTANT_VALUE_MESSAGE "ctff: a value made from constants only (federated_value, federated_eval, a call of a computation on constants) is never used: Python binds it where it is made, which C++ cannot see; use it or remove it"

namespace ctff::detail {

enum class fault_kind : std::uint8_t {
  none,
  kept_constant_value,  // a value made from constants only, kept in a variable, met other calls
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

// A structural type: it is a template argument of the traced shape.
struct trace_fault {
  fault_kind kind = fault_kind::none;
  made_where made{};
};

}  // namespace ctff::detail
