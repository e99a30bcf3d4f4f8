// federated_broadcast(v): `federated_broadcast` of type (T@SERVER -> T@CLIENTS), the result equal
// at all clients.
#pragma once

#include <source_location>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {

template <class V>
constexpr auto federated_broadcast(V&& v, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using O = fed_operand<V>;
  using T = typename O::type;
  if constexpr (!O::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                  "ctff: federated_broadcast: " CTFF_RULE_FEDERATED("the value"));
    return poisoned<clients_eq_t<tensor<dtype::int32>>>();
  } else {
    using M = member_t<T>;
    using R = clients_eq_t<M>;
    if constexpr (!at_server_v<T>) {
      CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                    "ctff: federated_broadcast: " CTFF_RULE_PLACED_AT("the value", "SERVER"));
      return poisoned<R>();
    } else if constexpr (!fed_info<T>::all_equal) {
      CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
                    "ctff: federated_broadcast: " CTFF_RULE_ALL_EQUAL("the value"));
      return poisoned<R>();
    } else {
      return intrinsic_call<function_t<T, R>, row::federated_broadcast>(
          where, as_federated(static_cast<V&&>(v)));
    }
  }
}

}  // namespace ctff
