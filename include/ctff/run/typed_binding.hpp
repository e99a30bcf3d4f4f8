// A C++ callable bound to an opaque computation (executor::bind, binding_registry::bind): what
// it takes (the whole parameter, one argument per element, or a generic callable's natural
// value), checked at compile time with one diagnostic, and the opaque_binding over dynamic values
// that converts its argument and result.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctff/core/diagnostic.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/convert.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/mismatch.hpp"
#include "ctff/run/natural.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

template <class F> struct function_parts;  // of a function_t
template <class P, class R> struct function_parts<function_t<P, R>> {
  using param = P;
  using result = R;
};

// The parameters of a callable that is not generic: a function pointer, or a class with one
// operator() that is not a template (`size` and `tuple` are missing for any other member).
template <class... A> struct param_list {
  static constexpr std::size_t size = sizeof...(A);
  using tuple = std::tuple<std::remove_cvref_t<A>...>;
};
template <class M> struct member_params {};
template <class C, class R, class... A> struct member_params<R (C::*)(A...)> : param_list<A...> {};
template <class C, class R, class... A> struct member_params<R (C::*)(A...) const> : param_list<A...> {};
template <class C, class R, class... A> struct member_params<R (C::*)(A...) noexcept> : param_list<A...> {};
template <class C, class R, class... A>
struct member_params<R (C::*)(A...) const noexcept> : param_list<A...> {};
template <class Fn> struct callable_params : member_params<decltype(&Fn::operator())> {};
template <class R, class... A> struct callable_params<R (*)(A...)> : param_list<A...> {};
template <class R, class... A> struct callable_params<R (*)(A...) noexcept> : param_list<A...> {};
template <class Fn>
concept plain_callable = (std::is_pointer_v<Fn> || requires { &Fn::operator(); }) &&
                         requires { callable_params<Fn>::size; };

// How a binding passes the computation's parameter P to its callable: whole, as an `A`, or
// element by element (`A` the tuple of them), like call's arguments; `none` when the callable
// takes neither one argument nor one per element of a struct P (`A` then names what it takes
// in the diagnostic). A generic callable gets P's
// natural C++ value (run/natural.hpp), whole if it can be called so, else its elements.
enum class bind_form { whole, elements, none };
// Never true: names the callable's number of parameters in a rejected binding's diagnostic.
template <std::size_t N> struct callable_parameters {
  static constexpr bool one_or_one_per_element = false;
};
struct generic_callable {
  static constexpr bool one_or_one_per_element = false;
};
template <bind_form F, class A> struct bind_as {
  static constexpr bind_form form = F;
  using type = A;
};
template <class P, class Fn>
consteval auto bind_parameter() {
  constexpr std::size_t elements = [] {
    if constexpr (is_struct_v<P>) return struct_parts<P>::size;
    else return std::size_t{0};
  }();
  if constexpr (plain_callable<Fn>) {
    using L = callable_params<Fn>;
    if constexpr (L::size == 1) return bind_as<bind_form::whole, std::tuple_element_t<0, typename L::tuple>>{};
    else if constexpr (L::size >= 2 && L::size == elements) return bind_as<bind_form::elements, typename L::tuple>{};
    else return bind_as<bind_form::none, callable_parameters<L::size>>{};
  } else {
    using N = natural_t<P>;
    if constexpr (std::is_invocable_v<Fn&, const N&>) {
      return bind_as<bind_form::whole, N>{};
    } else if constexpr (elements >= 2) {
      if constexpr ([]<std::size_t... I>(std::index_sequence<I...>) {
                      return std::is_invocable_v<Fn&, const std::tuple_element_t<I, N>&...>;
                    }(std::make_index_sequence<elements>{}))
        return bind_as<bind_form::elements, N>{};
      else return bind_as<bind_form::none, generic_callable>{};
    } else {
      return bind_as<bind_form::none, generic_callable>{};
    }
  }
}
// What the callable returns for its argument(s) A.
template <class Fn, bind_form F, class A> struct bind_result {
  using type = std::invoke_result_t<Fn&, const A&>;
};
template <class Fn, class A> struct bind_result<Fn, bind_form::elements, A> {
  using type = decltype(std::apply(std::declval<Fn&>(), std::declval<const A&>()));
};
template <class Fn, bind_form F, class A>
using bind_result_t = std::remove_cvref_t<typename bind_result<Fn, F, A>::type>;


// A ctff opaque computation (tensorflow_computation, xla_computation, data): its type and key.
template <class O>
concept typed_opaque = requires(const O& o) {
  typename O::type;
  o.compact();
};

// A typed callable for an opaque computation of type T, as an opaque_binding over dynamic
// values (executor::bind, binding_registry::bind). Each check in an `if constexpr` of its own: a
// rejected callable stops there, with one diagnostic and no follow-on error from the wrapper.
template <class T, class Fn>
opaque_binding typed_binding(Fn fn) {
  if constexpr (!detail::is_function_v<T>) {
    if constexpr (!std::is_invocable_v<Fn&>) {
      static_assert(std::is_invocable_v<Fn&>, "ctff: bind: the callable must take no argument: the computation has no parameter");
      return {};
    } else {
      using U = std::remove_cvref_t<std::invoke_result_t<Fn&>>;
      if constexpr (!converts_v<T, U>) {
        CTFF_DIAGNOSE(detail::diagnostic_for<detail::mismatch_t<"result", T, U>>::shown,
                      "ctff: bind: the callable's result does not convert to the data's type");
        return {};
      } else {
        return [fn](const dynamic_value*) mutable { return to_value<T>(fn(), "binding"); };
      }
    }
  } else {
    using P = typename detail::function_parts<T>::param;
    using R = typename detail::function_parts<T>::result;
    if constexpr (std::is_void_v<P>) {
      if constexpr (!std::is_invocable_v<Fn&>) {
        static_assert(std::is_invocable_v<Fn&>, "ctff: bind: the callable must take no argument: the computation has no parameter");
        return {};
      } else {
        using U = std::remove_cvref_t<std::invoke_result_t<Fn&>>;
        if constexpr (!converts_v<R, U>) {
          CTFF_DIAGNOSE(detail::diagnostic_for<detail::mismatch_t<"result", R, U>>::shown,
                        "ctff: bind: the callable's result does not convert to the computation's result type");
          return {};
        } else {
          return [fn](const dynamic_value*) mutable { return to_value<R>(fn(), "binding result"); };
        }
      }
    } else {
      using how = decltype(detail::bind_parameter<P, Fn>());
      using A = typename how::type;
      constexpr detail::bind_form form = how::form;
      if constexpr (form == detail::bind_form::none) {
        static_assert(A::one_or_one_per_element,
                      "ctff: bind: the callable must take one argument, the computation's parameter (or one per element of a struct parameter)");
        return {};
      } else if constexpr (!converts_v<P, A>) {
        if constexpr (form == detail::bind_form::whole) {
          CTFF_DIAGNOSE(detail::diagnostic_for<detail::mismatch_t<"parameter", P, A>>::shown,
                        "ctff: bind: the callable's parameter does not convert from the computation's parameter type");
          return {};
        } else {
          CTFF_DIAGNOSE(detail::diagnostic_for<detail::mismatch_t<"parameter", P, A>>::shown,
                        "ctff: bind: the callable's parameters do not convert from the elements of the computation's parameter type");
          return {};
        }
      } else {
        using U = detail::bind_result_t<Fn, form, A>;
        if constexpr (!converts_v<R, U>) {
          CTFF_DIAGNOSE(detail::diagnostic_for<detail::mismatch_t<"result", R, U>>::shown,
                        "ctff: bind: the callable's result does not convert to the computation's result type");
          return {};
        } else {
          return [fn](const dynamic_value* arg) mutable {
            if (!arg) throw detail::run_fault("a binding called without its argument");
            if constexpr (form == detail::bind_form::whole)
              return to_value<R>(fn(from_value<A, P>(*arg, "binding argument")), "binding result");
            else
              return to_value<R>(std::apply(fn, from_value<A, P>(*arg, "binding argument")), "binding result");
          };
        }
      }
    }
  }
}

}  // namespace ctff::detail
