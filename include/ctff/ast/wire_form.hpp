// A computation's Computation message, written once for both trees: the traced graph
// (ast/serialize.hpp) and a computation read from bytes (read/writer.hpp). A tree's
// write_message(i, s) switches on its own node kinds, writes leaves' fields (names, URIs, literals,
// opaque messages) itself and hands every other building block to wire_form, which writes its
// fields and calls the tree's write_message back for the children; the tree then closes the block's
// field (`computation_field`) and adds the node's Type. Back to front (core/sink.hpp back_sink, as
// upb writes): a message's fields last to first, each payload before its length. (Double dispatch,
// as text_form: one call more per inner node, nothing per leaf.)
#pragma once

#include <concepts>
#include <cstdint>

#include "ctff/core/sink.hpp"

namespace ctff::detail {

// The field numbers of Computation's `computation` oneof. (Numbers, not an enumeration: clang
// resolves each assignment of an enumerator as an overloaded operator, core/enum_is.hpp.)
struct computation_field {
  static constexpr std::uint32_t tensorflow = 2, intrinsic = 3, lambda = 4, block = 5,
                                 reference = 6, call = 7, struct_ = 8, selection = 9, data = 10,
                                 placement = 11, xla = 12, literal = 14;
};

inline constexpr std::uint32_t wire_no_arg = 0xffffffffu;

// What a tree provides to wire_form:
//   void write_message(i, s)          node i's whole Computation message
//   void parameter(i, s)              a lambda's parameter_name field
//   std::uint32_t element(e)          struct element e's value
//   void element_name(e, s)           its name field
//   std::uint32_t local(e)            block local e's value
//   void local_name(e, s)             its name field
// (e: the index the tree passed to struct_ or block as `first`, plus k for the k-th.)
template <class Tree, class Sink>
concept wire_tree = requires(const Tree& t, std::uint32_t i, Sink& s) {
  t.write_message(i, s);
  t.parameter(i, s);
  { t.element(i) } -> std::same_as<std::uint32_t>;
  t.element_name(i, s);
  { t.local(i) } -> std::same_as<std::uint32_t>;
  t.local_name(i, s);
};

template <class Tree, class Sink>
  requires wire_tree<Tree, Sink>
struct wire_form {
  // Selection { source = 1; index = 3 }
  static constexpr void selection(const Tree& t, std::uint32_t source, std::int64_t index,
                                  Sink& s) {
    if (index != 0) {
      s.varint(static_cast<std::uint64_t>(index));
      s.tag(3, 0);
    }
    child(t, 1, source, s);
  }
  // Struct { repeated Element element = 1 { name = 1; value = 2 } }
  static constexpr void struct_(const Tree& t, std::uint32_t first, std::uint32_t count,
                                Sink& s) {
    elements<false>(t, first, count, s);
  }
  // Call { function = 1; argument = 2 }
  static constexpr void call(const Tree& t, std::uint32_t fn, std::uint32_t arg, Sink& s) {
    if (arg != wire_no_arg) child(t, 2, arg, s);
    child(t, 1, fn, s);
  }
  // Lambda { parameter_name = 1; result = 2 }
  static constexpr void lambda(const Tree& t, std::uint32_t i, std::uint32_t result, Sink& s) {
    child(t, 2, result, s);
    t.parameter(i, s);
  }
  // Block { repeated Local local = 1 { name = 1; value = 2 }; result = 2 }
  static constexpr void block(const Tree& t, std::uint32_t first, std::uint32_t count,
                              std::uint32_t result, Sink& s) {
    child(t, 2, result, s);
    elements<true>(t, first, count, s);
  }

 private:
  static constexpr void child(const Tree& t, std::uint32_t field, std::uint32_t i, Sink& s) {
    const auto end = s.pos;
    t.write_message(i, s);
    s.close(field, end);
  }
  template <bool Locals>
  static constexpr void elements(const Tree& t, std::uint32_t first, std::uint32_t count,
                                 Sink& s) {
    for (std::uint32_t e = first + count; e-- > first;) {
      const auto end = s.pos;
      child(t, 2, Locals ? t.local(e) : t.element(e), s);
      if constexpr (Locals) {
        t.local_name(e, s);
      } else {
        t.element_name(e, s);
      }
      s.close(1, end);
    }
  }
};

}  // namespace ctff::detail
