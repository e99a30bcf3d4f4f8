// ctff::polymorphic<"name">(fn): a computation without declared parameter types (Python's
// `@federated_computation` on a function with parameters but no types). It is traced anew, inside
// the enclosing trace, for each concrete use:
//   * where a function value of known parameter type is expected (federated_map, federated_apply,
//     aggregation operators, ...), the operator hands over the parameter type (`instantiate<P>()`):
//     the parameter type is exactly P and fn takes it whole (or one argument per element of a
//     struct P when it cannot take it whole);
//   * called directly, `poly(x, y)`: the parameter type is the unnamed struct of the argument
//     types, always a struct even for one argument (`<int32>`), and fn gets one argument per
//     element; the call is bound to a Block local like any computation call.
// Each use is a nested trace (`trace_nested`, trace/nested.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctff/core/python_name.hpp"
#include "ctff/core/rule_sentences.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/computation.hpp"
#include "ctff/trace/nested.hpp"

namespace ctff {
namespace detail {

// The function the nested trace runs: fn with the parameter whole (Python's unpack=None: whole
// when fn can take it, else unpacked), or always unpacked (a direct call, unpack=True).
template <class Fn, class P, bool Unpack>
struct poly_body {
  Fn fn;
  constexpr auto operator()(value<P> p) const {
    if constexpr (Unpack) {
      return call_unpacked(fn, p, std::make_index_sequence<struct_info<P>::size>{});
    } else {
      return call_body(fn, std::move(p));
    }
  }
};

// One concrete use of a polymorphic computation: a function value of type (P -> R).
template <fixed_string Name, class Fn, class P, bool Unpack>
class poly_instance {
 public:
  using body_type = poly_body<Fn, P, Unpack>;
  using param_type = P;
  using result_type = value_type_t<typename body_result<body_type, P>::type>;
  using type = function_t<P, result_type>;

  constexpr explicit poly_instance(const Fn& fn) : body_{fn} {}

  static constexpr std::string_view name() { return Name.view(); }
  constexpr const body_type& body() const { return body_; }

  template <class... X>
  constexpr auto operator()(X&&... x) const {
    return call_function(*this, static_cast<X&&>(x)...);
  }

 private:
  body_type body_;
};

template <fixed_string N, class Fn, class P, bool U>
struct convert<poly_instance<N, Fn, P, U>> {
  static constexpr bool ok = true;
  using C = poly_instance<N, Fn, P, U>;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const C& x) {
    const auto index = static_cast<std::uint32_t>(c.embeds.size());
    c.embeds.push_back(embed{});
    if (c.floating) {
      trace_in_floating<N, Fn, typename C::body_type, P>(c, x.body(), index);
    } else {
      trace_nested<N, typename C::body_type, P>(c, x.body(), index, {});
    }
    return embedded_node(c, index);
  }
};

}  // namespace detail

// A computation traced per use; see the top of this file.
template <fixed_string Name, class Fn>
class polymorphic_t {
 public:
  using fn_type = Fn;

  constexpr explicit polymorphic_t(Fn fn) : fn_(std::move(fn)) {}

  static constexpr std::string_view name() { return Name.view(); }

  // The instance for parameter type P (a TFF or C++ type), as an operator that knows the
  // parameter type asks for it (see detail::with_param_hint).
  template <class P>
  constexpr auto instantiate() const {
    return detail::poly_instance<Name, Fn, tff_t<P>, false>(fn_);
  }

  // Inside a trace: traced for the parameter type <types of x...> and called with <x...>.
  template <class... X>
  requires(traceable<X>&&...) constexpr auto operator()(X&&... x) const {
    using P = struct_t<detail::value_type_t<X>...>;
    if constexpr (sizeof...(X) == 0) {
      static_assert(sizeof...(X) > 0,
                    "ctff: polymorphic: call it with at least one argument (a function without "
                    "parameters is a ctff::computation<\"name\">)");
      return detail::poisoned<tensor<dtype::int32>>();
    } else if constexpr (std::is_void_v<
                      typename detail::body_result<detail::poly_body<Fn, P, true>, P>::type>) {
      static_assert(
          !std::is_void_v<typename detail::body_result<detail::poly_body<Fn, P, true>, P>::type>,
          "ctff: polymorphic: the traced function returned nothing");
      return detail::poisoned<tensor<dtype::int32>>();
    } else {
      return detail::call_function(detail::poly_instance<Name, Fn, P, true>(fn_),
                                   std::tuple<X&&...>(static_cast<X&&>(x)...));
    }
  }

 private:
  Fn fn_;
};

template <fixed_string Name, class Fn>
constexpr auto polymorphic(Fn fn) {
  if constexpr (!detail::is_valid_computation_name(Name.view()))
    CTFF_DIAGNOSE(detail::name_report<"name", Name>::shown,
                  "ctff: polymorphic: " CTFF_RULE_PYTHON_NAME);
  return polymorphic_t<Name, Fn>(std::move(fn));
}

}  // namespace ctff
