// The names in scope while a checker walks a tree (read/tree_checker.hpp): Lambda parameters and
// Block locals, innermost last. Looking a name up costs the same however many are in scope (a
// hash map from each name to its innermost binding; each binding remembers the one it shadows),
// so a Block of a million locals is checked in linear time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ctff/read/name_hash.hpp"

namespace ctff::detail {

template <class Value>
class name_scope {
 public:
  std::size_t size() const { return bindings_.size(); }

  void push(std::string_view name, const Value& value) {
    const auto [at, fresh] = innermost_.try_emplace(name, bindings_.size());
    bindings_.push_back(binding{name, value, fresh ? none : at->second});
    if (!fresh) at->second = bindings_.size() - 1;
  }
  // Drops the bindings made since size() was `mark`.
  void pop_to(std::size_t mark) {
    while (bindings_.size() > mark) {
      const binding& b = bindings_.back();
      if (b.shadowed == none) {
        innermost_.erase(b.name);
      } else {
        innermost_[b.name] = b.shadowed;
      }
      bindings_.pop_back();
    }
  }
  // The innermost binding of `name`, or null.
  const Value* find(std::string_view name) const {
    const auto at = innermost_.find(name);
    return at == innermost_.end() ? nullptr : &bindings_[at->second].value;
  }

 private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  struct binding {
    std::string_view name;
    Value value;
    std::size_t shadowed;  // the binding of the same name it hides, or none
  };
  std::vector<binding> bindings_;
  std::unordered_map<std::string_view, std::size_t, name_hash> innermost_;
};

}  // namespace ctff::detail
