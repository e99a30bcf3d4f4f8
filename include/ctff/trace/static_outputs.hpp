// The outputs of a captureless computation C (C::fn_type, C::param_type, C::name()), each a
// constant: the recorded graph, the bytes, the compact and formatted texts and the structural
// drawing, with their sizes.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "ctff/ast/frozen_graph.hpp"
#include "ctff/ast/print.hpp"
#include "ctff/ast/serialize.hpp"
#include "ctff/ast/structural.hpp"
#include "ctff/core/defer.hpp"
#include "ctff/core/diagnostic.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/trace/fault.hpp"
#include "ctff/trace/trace_into.hpp"

namespace ctff::detail {

// Static storage of a captureless computation's outputs. Each size and each output is its own
// variable template, so each is a separate constant evaluation with its own step budget, never
// all of them at once. The trace runs twice: as a template argument, to learn the graph's pool
// sizes and any kept fault (traced_shape_v), then to fill a constant of that shape (frozen_v, a
// frozen graph: ast/frozen_graph.hpp). Every output reads that constant in place (static_graph)
// and traces nothing.
template <class C>
constexpr std::uint32_t trace_live(trace_ctx& ctx) {
  return trace_into<typename C::fn_type, typename C::param_type>({}, C::name(), ctx);
}

// The trace's shape and its fault (trace/fault.hpp). A structural type: the result of the trace
// evaluated as a template argument, where a trace that is not a constant expression is a
// substitution failure instead of an error (probe_shape).
struct traced_shape {
  graph_shape shape{};
  trace_fault fault{};
};
template <traced_shape S>
struct shape_tag {};

template <class C>
constexpr traced_shape trace_shape() {
  trace_ctx ctx;
  const auto root = trace_into<typename C::fn_type, typename C::param_type>({}, C::name(), ctx);
  return traced_shape{shape_of(ctx, root), ctx.fault};
}
template <class C>
auto probe_shape(int) -> shape_tag<trace_shape<C>()>;
template <class C>
void probe_shape(...);

template <class Tag>
inline constexpr traced_shape shape_in_v{{}, {fault_kind::not_constant, {}}};
template <traced_shape S>
inline constexpr traced_shape shape_in_v<shape_tag<S>> = S;

template <class C>
inline constexpr traced_shape traced_shape_v = shape_in_v<decltype(probe_shape<C>(0))>;
template <class C>
inline constexpr graph_shape graph_shape_v = traced_shape_v<C>.shape;

// What the outputs of a computation whose trace failed are made of (never shown: the program
// does not compile), so that the failure is reported once, not once per output.
struct failed_trace_stand_in {
  using fn_type = decltype([] { return 0; });
  using param_type = void;
  static constexpr std::string_view name() { return "ctff_failed_trace"; }
};
template <class C>
using traced_t =
    std::conditional_t<is(traced_shape_v<C>.fault.kind, fault_kind::none), C,
                       failed_trace_stand_in>;

// "made at line <n>: <file>" for the diagnostic of a kept failure: the user's line (trace/fault.hpp),
// after what was made there; `Unknown` where the line is not known.
template <made_where M, fixed_string What = "", fixed_string Unknown = "made by a call of a computation on constants">
struct made_at_writer {
  constexpr void operator()(text_sink& s) const {
    if (!M.known()) {
      s.put(Unknown.view());
      return;
    }
    s.put(What.view());
    s.put("made at line ");
    char digits[10];
    int n = 0;
    for (std::uint32_t v = M.line; v != 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
    while (n != 0) s.put(digits[--n]);
    s.put(": ");
    s.put(std::string_view(M.file));
  }
};

// The trace once more, where it is not a constant expression: the compiler says why (a ctff:
// message and the user's lines in its notes). Instantiated, never read.
template <class C>
inline constexpr traced_shape failed_trace_v = trace_shape<C>();

template <class C>
inline constexpr auto frozen_v = [] {
  trace_ctx ctx;
  trace_live<C>(ctx);
  return freeze<graph_shape_v<C>>(ctx);
}();

// The recorded graph of C, read in place by every output, and its root. Here too the one
// diagnostic of a failed trace (instantiated once per computation, whatever outputs are used).
template <class C>
constexpr frozen_read static_graph() {
  constexpr trace_fault f = traced_shape_v<C>.fault;
  if constexpr (is(f.kind, fault_kind::kept_constant_value)) {
    CTFF_DIAGNOSE(diagnostic_for<made_at_writer<f.made>>::shown, CTFF_KEPT_CONSTANT_VALUE_MESSAGE);
  } else if constexpr (is(f.kind, fault_kind::out_of_order)) {
    CTFF_DIAGNOSE(diagnostic_for<made_at_writer<f.made, "an argument ",
                                                "no argument made from constants only: line unknown">>::shown,
                  CTFF_OUT_OF_ORDER_MESSAGE);
  } else if constexpr (is(f.kind, fault_kind::floating_renamed)) {
    CTFF_DIAGNOSE(diagnostic_for<made_at_writer<f.made, "the computation ", "line unknown">>::shown,
                  CTFF_FLOATING_RENAMED_MESSAGE);
  } else if constexpr (is(f.kind, fault_kind::foreign_value)) {
    CTFF_DIAGNOSE(diagnostic_for<made_at_writer<f.made, "the computation ", "line unknown">>::shown,
                  CTFF_FOREIGN_VALUE_MESSAGE);
  } else if constexpr (is(f.kind, fault_kind::not_constant)) {
    if (!std::is_constant_evaluated()) (void)&failed_trace_v<C>;  // instantiated, never read
  }
  return read_frozen(frozen_v<traced_t<C>>);
}

template <class C>
inline constexpr std::size_t wire_size_v = [] {
  const frozen_read f = static_graph<C>();
  return dependent_t<C, serializer>(f.g).size(f.root);
}();

template <class C, bool Formatted>
inline constexpr std::size_t comp_text_size_v = [] {
  const frozen_read f = static_graph<C>();
  text_sink t{};
  t.formatted = Formatted;
  dependent_t<C, printer>(f.g).print(f.root, t);
  return t.n;
}();

template <class C>
inline constexpr auto wire_v = [] {
#if defined(__clang__)
  std::array<unsigned char, wire_size_v<C>> out{};
#else
  // g++ keeps a constant array's elements in order of first write; writing back to front would
  // insert each byte before all others (quadratic). An array made by bit_cast has every element
  // already, so each write is a plain update; g++ builds it natively, several times faster than
  // a loop touching each byte (the array is rounded up to whole words: bytes() knows the size).
  constexpr std::size_t words = (wire_size_v<C> + 7) / 8;
  auto out = std::bit_cast<std::array<unsigned char, words * 8>>(std::array<std::uint64_t, words>{});
#endif
  const frozen_read f = static_graph<C>();
  dependent_t<C, serializer>(f.g).write_into(f.root, out.data(), wire_size_v<C>);
  return out;
}();

// `Encoded`: the formatted text for embedding (text_sink::encode_breaks; same size).
template <class C, bool Formatted, bool Encoded = false>
inline constexpr auto text_out_v = [] {
  std::array<char, comp_text_size_v<C, Formatted> + 1> out{};
  const frozen_read f = static_graph<C>();
  text_sink t{out.data()};
  t.formatted = Formatted;
  t.encode_breaks = Encoded;
  dependent_t<C, printer>(f.g).print(f.root, t);
  return out;
}();

// Whether the formatted text for embedding differs from the formatted text: only when a literal
// spans lines, which shows in the compact text.
template <class C>
inline constexpr bool literal_breaks_v = [] {
  for (char c : C::compact())
    if (c == '\n') return true;
  return false;
}();


// The structural drawing (ast/structural.hpp), laid out once: the pieces are counted (a walk of
// the tree), laid out into a constant, then written as text, plain or encoded for embedding;
// each its own evaluation.
template <class C>
inline constexpr std::size_t structural_pieces_v = [] {
  const frozen_read f = static_graph<C>();
  return dependent_t<C, structural_writer>::count_pieces(f.g, f.root);
}();

template <std::size_t N>
struct structural_layout {
  std::array<drawn_piece, N> pieces{};
  std::size_t size = 0;  // characters of the text
  bool breaks = false;   // a row holds a line break (a multi-line literal)
  bool counted = false;  // N is the number of pieces laid out (count_pieces agrees)
};

template <class C>
inline constexpr auto structural_layout_v = [] {
  const frozen_read f = static_graph<C>();
  const dependent_t<C, structural_writer> w(f.g, f.root, false);
  structural_layout<structural_pieces_v<C>> out{};
  out.counted = w.piece_count() == out.pieces.size();
  if (out.counted) w.drawn(out.pieces.data());
  out.size = w.size();
  out.breaks = w.has_breaks();
  return out;
}();

struct structural_info {
  std::size_t size = 0;
  bool breaks = false;
};
template <class C>
inline constexpr structural_info structural_info_v{structural_layout_v<C>.size,
                                                   structural_layout_v<C>.breaks};

template <class C, bool Encoded>
inline constexpr auto structural_v = [] {
  constexpr auto& l = structural_layout_v<C>;
  static_assert(l.counted, "ctff: internal error: count_pieces disagrees with the layout");
  return structural_text(static_graph<C>().g, Encoded)
      .text<l.size>(l.pieces.data(), l.pieces.size());
}();

}  // namespace ctff::detail
