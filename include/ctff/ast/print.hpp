// The compact and formatted text of a finished trace, as federated_language prints a computation
// read back from its proto (selections by index): the traced graph's side of text_form
// (ast/text_form.hpp), which lays the inner nodes out.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "ctff/ast/context_names.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/ast/text_form.hpp"
#include "ctff/numpy/literal_print.hpp"
#include "ctff/core/same_text.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

// A call without argument: the graph's no_node is the forms' marker.
static_assert(no_node == text_no_arg);

// A class template only so that a TU that includes ctff and prints nothing compiles none of it
// (as basic_structural_writer).
template <class D = void>
class basic_printer {
 public:
  constexpr explicit basic_printer(const graph_view& g) : g_(g), names_(g) {
    pos_.assign(g.nodes.size(), no_node);
    for (std::uint32_t k = 0; k != g.bindings.size(); ++k) pos_[g.bindings[k]] = k;
  }

  constexpr void print(std::uint32_t i, text_sink& s) {
    using form = text_form<basic_printer>;
    const node& n = g_.nodes.p[i];
    switch (n.kind) {
      case node_kind::param_ref:
        s.put(names_.arg());
        return;
      case node_kind::symbol_ref:
        symbol(s, pos_[n.a]);
        return;
      case node_kind::named_ref:
      case node_kind::intrinsic:
        s.put(n.text);
        return;
      case node_kind::selection:
        form::selection(*this, n.a, n.b, s);
        return;
      case node_kind::struct_:
        form::struct_(*this, n.a, n.b, s);
        return;
      case node_kind::call:
        form::call(*this, n.a, n.b, s);
        return;
      case node_kind::lambda:
        form::lambda(*this, i, n.a, s);
        return;
      case node_kind::block:
        form::block(*this, 0, static_cast<std::uint32_t>(g_.bindings.size()), n.a, s);
        return;
      case node_kind::literal:
        print_literal<D>(literal_of(g_, g_.lits.p[n.a]), s);
        return;
      case node_kind::embedded: {
        const std::string_view t = g_.embed_text(g_.embeds.p[n.a], s.formatted);
        if (!s.out && s.formatted) {
          // Counting: each of the text's line breaks takes the indent; counted once per text (a
          // computation used again shares it).
          // (`counted_` first: g++ -fsanitize=undefined makes comparing a static object's address
          // with a null pointer non-constant.)
          if (!counted_ || !same_text(t, last_)) {
            counted_ = true;
            last_ = t;
            last_breaks_ = 0;
            for (char c : t) last_breaks_ += c == '\n' ? 1 : 0;
          }
          s.n += t.size() + last_breaks_ * 2 * static_cast<std::size_t>(s.indent);
          return;
        }
        s.put_lines(t);
        return;
      }
      case node_kind::placement:
        s.put(placement_name(static_cast<placement_kind>(n.a)));
        return;
    }
  }

  // For text_form: a lambda's parameter, a struct element (in the graph's elems) and a block
  // local (the trace's k-th binding, named by its position).
  constexpr void parameter(std::uint32_t i, text_sink& s) const {
    const node& n = g_.nodes.p[i];
    s.put(n.b ? names_.arg() : n.text);
  }
  constexpr std::uint32_t element(std::uint32_t e, text_sink& s) const {
    const struct_elem& el = g_.elems.p[e];
    if (!el.name.empty()) {
      s.put(el.name);
      s.put('=');
    }
    return el.value;
  }
  constexpr std::uint32_t local(std::uint32_t k, text_sink& s) const {
    symbol(s, k);
    s.put('=');
    return g_.bindings.p[k];
  }

 private:
  constexpr void symbol(text_sink& s, std::uint32_t k) const {
    s.put(names_.symbol_prefix());
    s.put_uint(k);
  }

  const graph_view g_;
  context_names names_;
  scratch<std::uint32_t> pos_;
  bool counted_ = false;     // last_ holds the last embedded text counted, last_breaks_ its breaks
  std::string_view last_{};
  std::size_t last_breaks_ = 0;
};

using printer = basic_printer<>;

}  // namespace ctff::detail
