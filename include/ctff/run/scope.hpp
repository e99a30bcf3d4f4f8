// The values in scope while a run evaluates building blocks (run/evaluate.hpp): bindings in
// frames, each frame indexed by slot, as run/resolve.hpp resolved every Reference.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "ctff/run/value.hpp"

namespace ctff::detail {

// The values in scope: a list of bindings, innermost first, shared by the closures made in it. A
// closure keeps the list as it was when the closure was made, so no binding ever holds a closure
// that holds it (a Block local that is a lambda would otherwise keep itself alive). A Lambda's
// call and a Block's locals make a frame: an index from slot to binding, so that a Reference,
// resolved to so many frames out and a slot when the program was prepared (run/resolve.hpp),
// finds its value without walking the bindings in between.
struct scope_node;
struct scope_frame {
  const scope_node* entry = nullptr;     // the innermost binding when the frame began (none: null)
  std::vector<const scope_node*> slots;  // each kept alive by the bindings after it
};
struct scope_node {
  mutable std::shared_ptr<const scope_node> outer;  // the binding before this one (mutable:
                                                    // unlinked when destroyed, below)
  std::shared_ptr<scope_frame> frame;
  dynamic_value v;

  scope_node(std::shared_ptr<const scope_node> o, std::shared_ptr<scope_frame> f, dynamic_value x)
      : outer(std::move(o)), frame(std::move(f)), v(std::move(x)) {}
  scope_node(const scope_node&) = delete;
  scope_node& operator=(const scope_node&) = delete;
  // Frees the bindings only this one holds one by one: a Block of a million locals is a list
  // that long, and letting each binding's destructor free the next would overflow the stack.
  ~scope_node() {
    std::shared_ptr<const scope_node> next = std::move(outer);
    while (next && next.use_count() == 1) next = std::move(next->outer);
  }
};
using scope = std::shared_ptr<const scope_node>;

// A frame of `slots` bindings, made in the scope `outer`.
inline std::shared_ptr<scope_frame> new_frame(const scope& outer, std::size_t slots) {
  auto f = std::make_shared<scope_frame>();
  f->entry = outer.get();
  f->slots.reserve(slots);  // (never reallocated while closures made in it read it)
  return f;
}
// Binds v in the next slot of `frame`.
inline scope bind_in(scope outer, const std::shared_ptr<scope_frame>& frame, dynamic_value v) {
  auto n = std::make_shared<const scope_node>(std::move(outer), frame, std::move(v));
  frame->slots.push_back(n.get());
  return n;
}

}  // namespace ctff::detail
