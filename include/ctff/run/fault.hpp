// The executor's error without a place (run_fault): thrown by the arithmetic, the intrinsics and
// the limits; the evaluator adds the path of the building block that ran it.
#pragma once

#include <stdexcept>

namespace ctff::detail {

// An error without its place; the evaluator adds the path of the building block that ran it.
class run_fault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ctff::detail
