// Where each Reference's value lives, worked out once when a program is prepared: so many frames
// out (a Lambda's parameter makes a frame, and a Block's locals one that begins with its first
// local), at that slot. Looking a name up at run time then costs the same however many names are
// in scope (a Block of a million locals runs in linear time); the names are found with the
// checker's scope rules (read/name_scope.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "ctff/read/name_scope.hpp"
#include "ctff/read/tree.hpp"

namespace ctff::detail {

struct frame_slot {
  std::uint32_t up = no_index;  // frames out from the reference's own; no_index: the name is unbound
  std::uint32_t slot = 0;
};

// Per node, where a Reference node's value is (other nodes: unbound).
class reference_resolver {
 public:
  explicit reference_resolver(const computation_tree& t) : t_(t), out_(t.nodes.size()) {}

  std::vector<frame_slot> run() && {
    if (t_.root < t_.nodes.size()) walk(t_.root);
    return std::move(out_);
  }

 private:
  struct binding_at {
    std::uint32_t level, slot;
  };

  void walk(std::uint32_t i) {
    if (i >= t_.nodes.size()) return;
    const block_node& n = t_.node(i);
    switch (n.kind) {
      case block_kind::reference:
        if (const binding_at* b = scope_.find(t_.text(i))) out_[i] = frame_slot{level_ - b->level, b->slot};
        return;
      case block_kind::lambda: {
        if (t_.text(i).empty()) return walk(n.a);
        const std::size_t mark = scope_.size();
        scope_.push(t_.text(i), binding_at{++level_, 0});
        walk(n.a);
        scope_.pop_to(mark);
        --level_;
        return;
      }
      case block_kind::block: {
        // The Block's frame begins with its first local: that local's value sees the outer scope.
        const std::size_t mark = scope_.size();
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const block_elem& e = t_.elem(i, k);
          walk(e.value);
          if (k == 0) ++level_;
          scope_.push(t_.name(e), binding_at{level_, k});
        }
        walk(n.a);
        scope_.pop_to(mark);
        if (n.count) --level_;
        return;
      }
      default:  // a selection, call or struct: its children; a leaf: nothing
        for_each_child(t_, i, [this](std::uint32_t k, const child_step&) {
          walk(k);
          return true;
        });
        return;
    }
  }

  const computation_tree& t_;
  std::vector<frame_slot> out_;
  name_scope<binding_at> scope_;
  std::uint32_t level_ = 0;
};

inline std::vector<frame_slot> resolve_references(const computation_tree& t) {
  return reference_resolver(t).run();
}

}  // namespace ctff::detail
