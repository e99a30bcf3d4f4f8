// Renaming every variable by where its binder stands (the rule of tests/forms/goldens/README.md):
// a preorder walk in proto field order (a Call's function then argument, a Struct's elements, a
// Selection's source, a Lambda's result, a Block's locals then result) numbers the binders it
// meets with one counter for the whole tree, `_v1`, `_v2`, ...: a Lambda's parameter at the
// Lambda (none for a Lambda without one), a Block local when the walk reaches it, before its
// value. References take the new name of the binder they refer to by the usual scoping (a local
// is visible in the later locals and the result, not in its own value); free references are
// left as they are, or, when asked, named `_u1`, `_u2`, ... in the order the walk first meets
// each free name (the goldens' rule for the stages TFF left with dangling references). Nothing else changes, so two computations that differ only in the names of
// their variables come out byte for byte the same (TFF names its variables at random).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {
namespace detail {

class preorder_renamer {
 public:
  preorder_renamer(computation_tree& t, bool number_free) : t_(t), number_free_(number_free) {}

  void run() {
    if (t_.root != no_index && t_.root < t_.nodes.size()) walk(t_.root, 0);
  }

 private:
  std::pair<std::uint32_t, std::uint32_t> next_name() {
    const std::string name = "_v" + std::to_string(++counter_);
    return {tree_access::pool(t_).add_chars(name), static_cast<std::uint32_t>(name.size())};
  }

  void walk(std::uint32_t i, int depth) {
    if (depth > 4000) throw form_error("depth_limit", "", "the computation nests too deeply to rename");
    block_node& n = t_.nodes[i];
    switch (n.kind) {
      case block_kind::reference: {
        const std::string name(t_.text(i));
        for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
          if (it->first == name) {
            t_.nodes[i].text_off = it->second.first;
            t_.nodes[i].text_len = it->second.second;
            return;
          }
        if (!number_free_) return;
        for (const auto& [old, fresh] : free_)
          if (old == name) {
            t_.nodes[i].text_off = fresh.first;
            t_.nodes[i].text_len = fresh.second;
            return;
          }
        const std::string fresh = "_u" + std::to_string(free_.size() + 1);
        free_.emplace_back(name, std::make_pair(tree_access::pool(t_).add_chars(fresh),
                                                static_cast<std::uint32_t>(fresh.size())));
        t_.nodes[i].text_off = free_.back().second.first;
        t_.nodes[i].text_len = free_.back().second.second;
        return;
      }
      case block_kind::lambda: {
        const std::uint32_t result = n.a;
        if (n.text_len == 0) {
          walk(result, depth + 1);
          return;
        }
        const std::string old(t_.text(i));
        const auto fresh = next_name();
        t_.nodes[i].text_off = fresh.first;
        t_.nodes[i].text_len = fresh.second;
        scope_.emplace_back(old, fresh);
        walk(result, depth + 1);
        scope_.pop_back();
        return;
      }
      case block_kind::block: {
        const std::uint32_t first = n.first, count = n.count, result = n.a;
        const std::size_t d = scope_.size();
        for (std::uint32_t k = 0; k != count; ++k) {
          const std::string old(t_.name(t_.elems[first + k]));
          const auto fresh = next_name();
          t_.elems[first + k].name_off = fresh.first;
          t_.elems[first + k].name_len = fresh.second;
          walk(t_.elems[first + k].value, depth + 1);
          scope_.emplace_back(old, fresh);
        }
        walk(result, depth + 1);
        scope_.resize(d);
        return;
      }
      default:  // a selection, call or struct: its children (renaming them leaves the links as
                // they are); a leaf: nothing
        for_each_child(t_, i, [&](std::uint32_t k, const child_step&) {
          walk(k, depth + 1);
          return true;
        });
        return;
    }
  }

  computation_tree& t_;
  bool number_free_;
  std::uint64_t counter_ = 0;
  std::vector<std::pair<std::string, std::pair<std::uint32_t, std::uint32_t>>> scope_, free_;
};

}  // namespace detail

// The tree with its variables renamed `_v1`, `_v2`, ... in preorder (see above); with
// number_free_names, its free references `_u1`, `_u2`, ... too.
inline computation_tree rename_variables_in_preorder(computation_tree t, bool number_free_names = false) {
  detail::preorder_renamer(t, number_free_names).run();
  return t;
}

}  // namespace ctff
