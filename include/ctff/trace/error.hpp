// ctff::trace_failure: what a run-time trace throws when the program cannot be traced exactly as
// Python would (the same conditions stop a compile-time trace with a `ctff:` error).
#pragma once

#include <stdexcept>

namespace ctff {

class trace_failure : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace ctff
