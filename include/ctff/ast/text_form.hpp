// Python's compact and formatted representations of a computation, laid out once for both trees:
// the traced graph (ast/print.hpp) and a computation read from bytes (read/print.hpp). A tree's
// print(i, s) switches on its own node kinds, spells leaves (references, intrinsics, placements,
// literals, compiled or embedded computations) itself and hands every other building block to
// text_form, which decides where the brackets, separators, line breaks and indents go and calls
// the tree's print back for the children. (Double dispatch rather than a node description the
// printer asks for: the constant evaluators pay for every call and every struct built, and this
// adds one call per inner node and nothing per leaf.)
#pragma once

#include <concepts>
#include <cstdint>

#include "ctff/core/sink.hpp"

namespace ctff::detail {

inline constexpr std::uint32_t text_no_arg = 0xffffffffu;

// What a tree provides to text_form:
//   void print(i, s)                  the node's text (through text_form for inner nodes)
//   void parameter(i, s)              a lambda's parameter name
//   std::uint32_t element(e, s)       puts struct element e's `name=` (or nothing: an unnamed
//                                     element) and returns its value's node
//   std::uint32_t local(e, s)         the same for block local e
// (e: the index the tree passed to struct_ or block as `first`, plus k for the k-th.)
template <class Tree>
concept text_tree = requires(Tree& t, std::uint32_t i, text_sink& s) {
  t.print(i, s);
  t.parameter(i, s);
  { t.element(i, s) } -> std::same_as<std::uint32_t>;
  { t.local(i, s) } -> std::same_as<std::uint32_t>;
};

template <text_tree Tree>
struct text_form {
  static constexpr void selection(Tree& t, std::uint32_t source, std::int64_t index,
                                  text_sink& s) {
    t.print(source, s);
    s.put('[');
    s.put_int(index);
    s.put(']');
  }
  // `<a=1,b>`; formatted: one element per line, indented.
  static constexpr void struct_(Tree& t, std::uint32_t first, std::uint32_t count,
                                text_sink& s) {
    if (count == 0) {
      s.put("<>");
      return;
    }
    s.put('<');
    elements<false>(t, first, count, s);
    s.put('>');
  }
  static constexpr void call(Tree& t, std::uint32_t fn, std::uint32_t arg, text_sink& s) {
    t.print(fn, s);
    s.put('(');
    if (arg != text_no_arg) t.print(arg, s);
    s.put(')');
  }
  static constexpr void lambda(Tree& t, std::uint32_t i, std::uint32_t result, text_sink& s) {
    s.put('(');
    t.parameter(i, s);
    s.put(" -> ");
    t.print(result, s);
    s.put(')');
  }
  static constexpr void block(Tree& t, std::uint32_t first, std::uint32_t count,
                              std::uint32_t result, text_sink& s) {
    // Python writes "(let " and strips the trailing space where a line ends.
    s.put(s.formatted ? "(let" : "(let ");
    elements<true>(t, first, count, s);
    s.put(" in ");
    t.print(result, s);
    s.put(')');
  }

 private:
  // Struct elements or block locals, one indented line each in the formatted form.
  template <bool Locals>
  static constexpr void elements(Tree& t, std::uint32_t first, std::uint32_t count,
                                 text_sink& s) {
    ++s.indent;
    s.line();
    for (std::uint32_t e = first; e != first + count; ++e) {
      if (e != first) {
        s.put(',');
        s.line();
      }
      t.print(Locals ? t.local(e, s) : t.element(e, s), s);
    }
    --s.indent;
    s.line();
  }
};

}  // namespace ctff::detail
