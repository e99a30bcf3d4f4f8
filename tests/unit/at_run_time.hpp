// A body with a run-time member: a computation over it is traced at run time. It takes what Body
// takes (the parameter whole, or one argument per element).
#pragma once

#include <type_traits>

namespace ctff_test {

template <class Body>
struct at_run_time {
  int k = 0;
  template <class... X>
    requires std::is_invocable_v<const Body&, X...>
  auto operator()(X... x) const {
    return Body{}(x...);
  }
};

}  // namespace ctff_test
