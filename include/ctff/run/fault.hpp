// The executor's error without a place (run_fault): thrown by the arithmetic, the intrinsics and
// the limits; the evaluator adds the path of the building block that ran it.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

#include "ctff/run/error.hpp"

namespace ctff::detail {

// An error without its place; the evaluator adds the path of the building block that ran it.
// Thrown with std::throw_with_nested when it reports another exception (a binding's own).
class run_fault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// f as an execution_error at `path`, nesting what f nests.
[[noreturn]] inline void throw_at(const run_fault& f, std::string path) {
  if (const auto* n = dynamic_cast<const std::nested_exception*>(&f); n && n->nested_ptr()) {
    try {
      n->rethrow_nested();
    } catch (...) {
      std::throw_with_nested(execution_error(std::move(path), f.what()));
    }
  }
  throw execution_error(std::move(path), f.what());
}

}  // namespace ctff::detail
