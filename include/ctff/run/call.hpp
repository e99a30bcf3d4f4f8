// Calling a function value (a lambda, an intrinsic, a bound opaque computation) in a run: a
// per-client intrinsic is first offered to the run's client_backend, and what runs here reads its
// members here.
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include "ctff/run/client_backend.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

inline dynamic_value call(const dynamic_value& fn, const dynamic_value* arg, run_context& c) {
  if (!fn.is(value_kind::function)) throw run_fault("calling a value that is not a function");
  const function_impl& f = *fn.function().impl;
  dynamic_value listed;  // (what arg points to once a column became members: lives to the end)
  if (client_backend* b = c.backend()) {  // (none: nothing more to do, nothing is elsewhere)
    if (const std::string_view u = f.intrinsic_uri(); !u.empty()) {
      // A backend reads members (unless it reads columns): a column becomes them where it may
      // read it.
      if (arg && !b->reads_columns() && holds_column(*arg) &&
          (ships_per_client(intrinsic_facts_of(u)) || holds_elsewhere(*arg)))
        arg = &(listed = with_members(*arg));
      if (std::optional<dynamic_value> r = b->try_call_in(u, fn, arg, c.clients(), c)) return std::move(*r);
    }
    // What the backend left here reads the members: those held elsewhere are fetched first.
    if (arg && holds_elsewhere(*arg)) {
      const dynamic_value here = fetched(*arg);
      return f.call(&here, c);
    }
  }
  return f.call(arg, c);
}
inline dynamic_value call(const dynamic_value& fn, const dynamic_value& arg, run_context& c) { return call(fn, &arg, c); }

}  // namespace ctff::detail
