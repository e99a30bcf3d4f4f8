// The error of what a worker or controller cannot use (ctff/remote), and where in a value it is.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ctff/run/value.hpp"

namespace ctff {

// A value or request a worker or controller cannot use: what is wrong, and where in the value.
class remote_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

[[noreturn]] inline void remote_fail(const std::string& where, const std::string& what) {
  throw remote_error(where + ": " + what);
}

// Where in a value (`value.model[3]`), as a chain up to the root, spelled out only for an error:
// a string per element would copy a long name once for every element below it (quadratic in the
// message).
struct value_path {
  const value_path* parent = nullptr;  // none: the root, spelled `name`
  std::string_view name{};             // a struct element's name (empty: by index)
  std::size_t index = 0;
  value_path child(std::string_view n, std::size_t k) const { return {this, n, k}; }
  std::string text() const {
    if (!parent) return std::string(name);
    std::string s = parent->text();
    s += step_text(name, index);
    return s;
  }
};
[[noreturn]] inline void remote_fail(const value_path& where, const std::string& what) {
  remote_fail(where.text(), what);
}

}  // namespace detail
}  // namespace ctff
