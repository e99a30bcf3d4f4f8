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

#include <cstdint>
#include <string_view>

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
      if (n.kind == type_kind::abstract) return false;
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
    if (gn.kind == type_kind::abstract) {
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
    if (gn.kind != cn.kind) return false;
    switch (gn.kind) {
      case type_kind::tensor:
        if (gn.dt != cn.dt || gn.unknown_rank != cn.unknown_rank || gn.dim_count != cn.dim_count)
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
        if (gn.where != cn.where || gn.all_equal != cn.all_equal) return false;
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

template <tff_type Concrete, tff_type Generic>
inline constexpr bool is_concrete_instance_v = is_concrete_instance(describe<Concrete>(),
                                                                    describe<Generic>());

}  // namespace ctff
