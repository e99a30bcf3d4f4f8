// federated_language's check that an intrinsic's concrete type is an instance of its generic type
// signature (type_analysis.check_concrete_instance_of):
//   * the concrete type holds no abstract type;
//   * it matches the generic type node for node: equal tensors and placements, structs of the same
//     length and element names, federated types of the same placement and all_equal, functions
//     with a parameter exactly when the generic one has one;
//   * an abstract label met in a defining position (inside an odd number of function parameters;
//     the top-level parameter counts) is bound to the concrete type there, and every other
//     defining use must be equivalent to that binding;
//   * every non-defining use must be assignable from the binding; a label never bound may be used
//     once (generic_zero's `T`), not more.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/core/enum_is.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/defer.hpp"
#include "ctff/types/relations.hpp"

namespace ctff {
namespace detail {

template <class = void>  // (compiled when used: core/defer.hpp)
class instance_checker {
 public:
  constexpr instance_checker(const type_desc& concrete, const type_desc& generic)
      : c_(concrete), g_(generic) {}

  constexpr bool run() {
    for (const auto& n : c_.nodes)
      if (detail::is(n.kind, type_kind::abstract)) return false;
    if (!walk(g_.root, c_.root, false)) return false;
    for (const use& u : uses_) {
      const std::uint32_t b = bound_of(u.label);
      if (b == none) {
        std::uint32_t count = 0;
        for (const use& v : uses_) count += v.label == u.label;
        if (count > 1) return false;
      } else if (!assignable(c_, u.node, c_, b)) {
        return false;
      }
    }
    return true;
  }

 private:
  static constexpr std::uint32_t none = 0xffffffffu;
  struct binding {
    std::string_view label;
    std::uint32_t node;
  };
  struct use {
    std::string_view label;
    std::uint32_t node;
  };

  constexpr std::uint32_t bound_of(std::string_view label) const {
    for (const binding& b : bound_)
      if (b.label == label) return b.node;
    return none;
  }

  constexpr bool walk(std::uint32_t g, std::uint32_t c, bool defining) {
    const type_node& gn = g_.node(g);
    const type_node& cn = c_.node(c);
    if (detail::is(gn.kind, type_kind::abstract)) {
      const std::string_view label = g_.label(g);
      if (!defining) {
        uses_.push_back({label, c});
        return true;
      }
      const std::uint32_t b = bound_of(label);
      if (b == none) {
        bound_.push_back({label, c});
        return true;
      }
      return assignable(c_, c, c_, b) && assignable(c_, b, c_, c);
    }
    if (!is(gn.kind, cn.kind)) return false;
    switch (gn.kind) {
      case type_kind::tensor:
        if (!is(gn.dt, cn.dt) || gn.unknown_rank != cn.unknown_rank || gn.dim_count != cn.dim_count)
          return false;
        for (std::uint32_t k = 0; k != gn.dim_count; ++k)
          if (g_.dims[gn.dim_begin + k] != c_.dims[cn.dim_begin + k]) return false;
        return true;
      case type_kind::placement:
        return true;
      case type_kind::struct_:
        if (gn.kid_count != cn.kid_count) return false;
        for (std::uint32_t k = 0; k != gn.kid_count; ++k) {
          const std::uint32_t gk = g_.kid(g, k), ck = c_.kid(c, k);
          if (g_.name(gk) != c_.name(ck)) return false;
          if (!walk(gk, ck, defining)) return false;
        }
        return true;
      case type_kind::sequence:
        return walk(g_.kid(g, 0), c_.kid(c, 0), defining);
      case type_kind::function:
        if (gn.has_param != cn.has_param) return false;
        if (gn.has_param && !walk(g_.kid(g, 0), c_.kid(c, 0), !defining)) return false;
        return walk(g_.kid(g, gn.has_param ? 1 : 0), c_.kid(c, cn.has_param ? 1 : 0), defining);
      case type_kind::federated:
        if (!is(gn.where, cn.where) || gn.all_equal != cn.all_equal) return false;
        return walk(g_.kid(g, 0), c_.kid(c, 0), defining);
      case type_kind::abstract:
        return false;
    }
    return false;
  }

  const type_desc& c_;
  const type_desc& g_;
  scratch<binding> bound_;
  scratch<use> uses_;
};

}  // namespace detail

// Whether `concrete` is a valid substitution of the generic type `generic`.
// (A template whose body depends on D, never given: compiled only when used, core/defer.hpp.)
template <class D = void>
constexpr bool is_concrete_instance(const type_desc& concrete, const type_desc& generic) {
  return detail::instance_checker<D>(concrete, generic).run();
}

namespace detail {

// The same rule over the static types themselves, for the tracer (one check per intrinsic node):
// no type_desc is built (the two `describe`s per call were 8 % of g++'s work on a FedAvg round).
// intrinsics_test checks that both forms agree.
//
// instance_match<G, C, Defining>: whether C matches G node for node (`ok`), and each abstract
// label of G in walk order with the concrete type at its place and whether the place is
// defining (`uses`).
template <fixed_string L, class C, bool Defining>
struct label_use {};
template <class... U>
struct use_list {};
template <class... A, class... B>
constexpr use_list<A..., B...> operator+(use_list<A...>, use_list<B...>) {
  return {};
}

template <class G, class C, bool D>
struct instance_match {  // kinds, tensors, placements or all_equal differ
  static constexpr bool ok = false;
  using uses = use_list<>;
};
template <fixed_string L, class C, bool D>
struct instance_match<abstract_t<L>, C, D> {
  static constexpr bool ok = true;
  using uses = use_list<label_use<L, C, D>>;
};
template <dtype T, std::int64_t... N, bool D>
struct instance_match<tensor<T, N...>, tensor<T, N...>, D> {  // equal dtypes and shapes
  static constexpr bool ok = true;
  using uses = use_list<>;
};
template <bool D>
struct instance_match<placement_t, placement_t, D> {
  static constexpr bool ok = true;
  using uses = use_list<>;
};
template <class G, class C, bool D>
struct instance_match<sequence_t<G>, sequence_t<C>, D> : instance_match<G, C, D> {};
template <class G, class C, placement_kind P, bool A, bool D>
struct instance_match<federated_t<G, P, A>, federated_t<C, P, A>, D> : instance_match<G, C, D> {};
template <class GR, class CR, bool D>
struct instance_match<function_t<void, GR>, function_t<void, CR>, D> : instance_match<GR, CR, D> {};
template <class GP, class GR, class CP, class CR, bool D>
struct instance_match<function_t<GP, GR>, function_t<CP, CR>, D> {
  using param = instance_match<GP, CP, !D>;  // a parameter flips whether a place defines
  using result = instance_match<GR, CR, D>;
  static constexpr bool ok = param::ok && result::ok;
  using uses = decltype(typename param::uses{} + typename result::uses{});
};

template <bool SameLength, class G, class C, bool D>
struct struct_instance_match {
  static constexpr bool ok = false;
  using uses = use_list<>;
};
template <class... GE, class... CE, bool D>
struct struct_instance_match<true, struct_t<GE...>, struct_t<CE...>, D> {
  static constexpr bool ok =
      ((elem<GE>::name == elem<CE>::name &&
        instance_match<typename elem<GE>::type, typename elem<CE>::type, D>::ok) &&
       ... && true);
  using uses = decltype((use_list<>{} + ... +
                         typename instance_match<typename elem<GE>::type,
                                                 typename elem<CE>::type, D>::uses{}));
};
template <class... GE, class... CE, bool D>
struct instance_match<struct_t<GE...>, struct_t<CE...>, D>
    : struct_instance_match<sizeof...(GE) == sizeof...(CE), struct_t<GE...>, struct_t<CE...>, D> {};

template <std::size_t I, class T, class... R>
struct nth_type : nth_type<I - 1, R...> {};
template <class T, class... R>
struct nth_type<0, T, R...> {
  using type = T;
};

// The labels' rule over the uses: a label's first defining use binds it; every other defining
// use is equivalent to the binding, every other use assignable from it; a label never bound is
// used once at most.
struct label_places {
  const std::string_view* labels;
  const bool* defining;
  std::size_t n;

  constexpr std::size_t binding(std::size_t i) const {  // n: none
    for (std::size_t j = 0; j != n; ++j)
      if (defining[j] && labels[j] == labels[i]) return j;
    return n;
  }
  constexpr std::size_t uses(std::size_t i) const {
    std::size_t count = 0;
    for (std::size_t j = 0; j != n; ++j) count += !defining[j] && labels[j] == labels[i];
    return count;
  }
};

template <class Uses>
struct labels_hold;
template <>
struct labels_hold<use_list<>> {
  static constexpr bool check() { return true; }
};
template <fixed_string... L, class... C, bool... D>
struct labels_hold<use_list<label_use<L, C, D>...>> {
  static constexpr std::string_view labels[] = {L.view()...};
  static constexpr bool defining[] = {D...};
  static constexpr label_places places{labels, defining, sizeof...(C)};

  template <std::size_t I, class Use>
  static constexpr bool holds() {
    constexpr std::size_t b = places.binding(I);
    if constexpr (b == places.n) {
      return places.uses(I) <= 1;
    } else {
      using Bound = typename nth_type<b, C...>::type;
      if constexpr (std::is_same_v<Use, Bound>) {
        return true;  // (no abstract type in it: assignable both ways)
      } else if constexpr (defining[I]) {
        return is_assignable_v<Use, Bound> && is_assignable_v<Bound, Use>;
      } else {
        return is_assignable_v<Use, Bound>;
      }
    }
  }
  template <std::size_t... I>
  static constexpr bool all(std::index_sequence<I...>) {
    return (holds<I, C>() && ...);
  }
  static constexpr bool check() { return all(std::index_sequence_for<C...>{}); }
};

template <class Concrete, class Generic>
constexpr bool static_instance() {
  if constexpr (has_abstract_v<Concrete>) {
    return false;
  } else {
    using match = instance_match<Generic, Concrete, false>;
    if constexpr (!match::ok)
      return false;
    else
      return labels_hold<typename match::uses>::check();
  }
}

}  // namespace detail

template <tff_type Concrete, tff_type Generic>
inline constexpr bool is_concrete_instance_v = detail::static_instance<Concrete, Generic>();

}  // namespace ctff
