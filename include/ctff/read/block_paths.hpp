// Where each building block of a read tree is: its parent and the step from it, so that its path
// from the root is spelled the way the checker spells it (`lambda.result.call.argument`,
// read/path.hpp). What run-time errors name, what `ctff-inspect --paths` lists and what a tap
// (run/tap.hpp) is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"

namespace ctff {

class block_paths {
 public:
  explicit block_paths(const computation_tree& tree) {
    up_.assign(tree.nodes.size(), step{no_index, nullptr, -1, {}});
    for (std::uint32_t i = 0; i != tree.nodes.size(); ++i)
      detail::for_each_child(tree, i, [&](std::uint32_t kid, const detail::child_step& s) {
        if (kid < up_.size()) up_[kid] = step{i, s.what, s.index, s.name};
        return true;
      });
  }

  std::size_t size() const { return up_.size(); }
  // The building block whose child i is (no_index: the root, or a block no one refers to).
  std::uint32_t parent(std::uint32_t i) const { return i < up_.size() ? up_[i].parent : no_index; }

  // The path of building block i from the root (the root's: empty).
  std::string path(std::uint32_t i) const {
    std::vector<detail::path_frame> frames;
    while (i < up_.size() && up_[i].parent != no_index) {
      frames.push_back(detail::path_frame{up_[i].what, up_[i].index, up_[i].name});
      i = up_[i].parent;
    }
    return detail::path_string(std::vector<detail::path_frame>(frames.rbegin(), frames.rend()));
  }

  // The building block at `path` (nullopt: none). The root is the empty path.
  std::optional<std::uint32_t> find(std::string_view p, std::uint32_t root) const {
    for (std::uint32_t i = 0; i != up_.size(); ++i)
      if ((i == root || up_[i].parent != no_index) && path(i) == p) return i;
    return std::nullopt;
  }

  // The name building block i is bound to, when it is a Block's local (else empty).
  std::string_view local_name(std::uint32_t i) const {
    return i < up_.size() && up_[i].what && std::string_view(up_[i].what) == "block.local" ? up_[i].name
                                                                                       : std::string_view();
  }

  // The building blocks under `root` (itself first), each before its children, children in the
  // order of their indices (the reader's: a call's function before its argument, a Block's
  // locals in order before its result).
  std::vector<std::uint32_t> preorder(std::uint32_t root) const {
    std::vector<std::vector<std::uint32_t>> kids(up_.size());
    for (std::uint32_t i = 0; i != up_.size(); ++i)
      if (up_[i].parent < up_.size()) kids[up_[i].parent].push_back(i);
    std::vector<std::uint32_t> out, stack;
    if (root < up_.size()) stack.push_back(root);
    while (!stack.empty()) {
      const std::uint32_t i = stack.back();
      stack.pop_back();
      out.push_back(i);
      stack.insert(stack.end(), kids[i].rbegin(), kids[i].rend());
    }
    return out;
  }

  // Whether building block i lies in the subtree of building block `top` (itself included).
  bool within(std::uint32_t i, std::uint32_t top) const {
    for (; i < up_.size(); i = up_[i].parent)
      if (i == top) return true;
    return false;
  }

 private:
  struct step {
    std::uint32_t parent;
    const char* what;
    std::int64_t index;
    std::string_view name;
  };
  std::vector<step> up_;
};

}  // namespace ctff
