// Type relations as federated_language defines them: assignability (what a Call accepts) and
// equivalence (assignable both ways). Work on descriptions, so they hold at compile and run time.
#pragma once

#include "ctff/core/defer.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {
namespace detail {

CTFF_DEFER
constexpr bool assignable(const type_desc& td, std::uint32_t t, const type_desc& sd, std::uint32_t s) {
  const type_node& a = td.node(t);
  const type_node& b = sd.node(s);
  if (!detail::is(a.kind, b.kind)) return false;
  switch (a.kind) {
    case type_kind::tensor:
      if (!detail::is(a.dt, b.dt)) return false;
      if (a.unknown_rank) return true;
      if (b.unknown_rank || a.dim_count != b.dim_count) return false;
      for (std::uint32_t k = 0; k != a.dim_count; ++k) {
        auto x = td.dims[a.dim_begin + k];
        if (x != -1 && x != sd.dims[b.dim_begin + k]) return false;
      }
      return true;
    case type_kind::struct_:
      if (a.kid_count != b.kid_count) return false;
      for (std::uint32_t k = 0; k != a.kid_count; ++k) {
        auto x = td.kid(t, k), y = sd.kid(s, k);
        auto sn = sd.name(y);
        if (!sn.empty() && sn != td.name(x)) return false;
        if (!assignable(td, x, sd, y)) return false;
      }
      return true;
    case type_kind::sequence:
      return assignable(td, td.kid(t, 0), sd, sd.kid(s, 0));
    case type_kind::function:
      if (a.has_param != b.has_param) return false;
      if (a.has_param && !assignable(sd, sd.kid(s, 0), td, td.kid(t, 0))) return false;
      return assignable(td, td.kid(t, a.has_param ? 1 : 0), sd, sd.kid(s, b.has_param ? 1 : 0));
    case type_kind::federated:
      return detail::is(a.where, b.where) && (!a.all_equal || b.all_equal) &&
             assignable(td, td.kid(t, 0), sd, sd.kid(s, 0));
    case type_kind::placement:
      return true;
    case type_kind::abstract:
      return false;
  }
  return false;
}

}  // namespace detail

// Whether a value of type `from` may be passed where `to` is expected.
constexpr bool is_assignable(const type_desc& to, const type_desc& from) {
  return detail::assignable(to, to.root, from, from.root);
}
constexpr bool is_equivalent(const type_desc& a, const type_desc& b) {
  return is_assignable(a, b) && is_assignable(b, a);
}

template <tff_type To, tff_type From>
inline constexpr bool is_assignable_v = is_assignable(describe<To>(), describe<From>());
// A type is assignable to itself unless it has an abstract part (which nothing is assignable to):
// the commonest check (an argument against the parameter made from it) describes nothing.
template <tff_type T>
inline constexpr bool is_assignable_v<T, T> = !detail::has_abstract_v<T>;

template <tff_type A, tff_type B>
inline constexpr bool is_equivalent_v = is_equivalent(describe<A>(), describe<B>());

}  // namespace ctff
