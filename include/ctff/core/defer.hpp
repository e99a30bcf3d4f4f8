// Keeping what a TU that only includes ctff never needs from being compiled.
//
// CTFF_DEFER, written before an inline function: g++ compiles a non-template inline function when
// it reads it, and instantiates every template the body uses (scratch<T>'s members, std::string's,
// ...); a function template is compiled only when used, so on g++ the macro makes the function a
// template with one defaulted parameter (calls are unchanged: the parameter is never deduced).
// clang instantiates what a template's *non-dependent* code uses as soon as it reads it, so there
// a template alone only adds work, and the macro is empty.
//
// dependent_t<D, T> / dependent<D>(x), for clang: T (or x) named so that it depends on the
// template parameter D of the code around it; what that code does with a T (a printer's members,
// std::vector's growth) is then instantiated when the template is, not when it is read. Used where
// a template's body would otherwise instantiate much: the static outputs' and nested traces'
// printers and writers, type_desc's mutators, describe, dragon4, the run-time outputs' shared_ptr,
// the stand-in value after a failed check (poisoned), opaque bytes() and checked_embed.
// A call f<D>(...) is dependent too: numpy's printers are templates on D on both compilers and
// call each other so, down to dragon4 (a TU that prints no literal compiles none of them).
// Measured on `#include <ctff/ctff.hpp>` (-fsyntax-only, instructions): docs/design.md, "What
// including ctff compiles".
#pragma once

// CTFF_DEFERRED defines a function declared ahead with CTFF_DEFER.
#if defined(__clang__)
#define CTFF_DEFER
#define CTFF_DEFERRED
#else
#define CTFF_DEFER template <class = void>
#define CTFF_DEFERRED template <class>
#endif

namespace ctff::detail {

template <class D, class T>
struct dependent_on {
  using type = T;
};
template <class D, class T>
using dependent_t = typename dependent_on<D, T>::type;
template <class D, class T>
constexpr dependent_t<D, T>& dependent(T& x) {
  return x;
}

}  // namespace ctff::detail
