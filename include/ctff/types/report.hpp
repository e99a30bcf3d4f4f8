// TFF types named in a failed check's diagnostic, in TFF notation:
//
//   CTFF_DIAGNOSE(detail::report<detail::labeled<"value", T>>::shown,
//                 "ctff: federated_broadcast: the value must be placed at SERVER");
//
// prints `value: {int32}@CLIENTS` next to the message (see core/diagnostic.hpp).
#pragma once

#include <type_traits>

#include "ctff/core/diagnostic.hpp"
#include "ctff/core/fixed_string.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff::detail {

// A type with the role it plays in the failed operation; void: an argument without a TFF type.
template <fixed_string Label, class T>
struct labeled {};

template <class L>
struct report_item;
template <fixed_string Label, class T>
struct report_item<labeled<Label, T>> {
  static constexpr void write(text_sink& s) {
    s.put(Label.view());
    s.put(": ");
    if constexpr (std::is_void_v<T>) {
      s.put("(no TFF type: not a traced value, constant or computation)");
    } else {
      const auto d = describe<tff_t<T>>();
      print_type(d, d.root, s);
    }
  }
};

template <class... L>
struct report_writer {
  constexpr void operator()(text_sink& s) const {
    bool first = true;
    ((s.put(first ? "" : ";\n"), first = false, report_item<L>::write(s)),
     ...);  // see diagnostic.hpp
  }
};

template <class L>
inline constexpr bool poisoned_item_v = false;
template <fixed_string Label, class T>
inline constexpr bool poisoned_item_v<labeled<Label, T>> = has_poison_v<T>;

// A check that names the result of an earlier failed one passes silently: that failure was
// reported, and its stand-in type (poison_t) says nothing about the user's program.
struct silent_report {
  static constexpr bool shown = true;
};

template <class... L>
using report = std::conditional_t<(poisoned_item_v<L> || ...), silent_report,
                                  diagnostic_for<report_writer<L...>>>;

}  // namespace ctff::detail
