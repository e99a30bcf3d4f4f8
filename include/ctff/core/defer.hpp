// CTFF_DEFER, written before an inline function that a TU which only includes ctff never needs.
//
// g++ compiles a non-template inline function when it reads it, and instantiates every template
// the body uses (scratch<T>'s members, std::string's, ...): a TU that includes ctff and traces
// nothing paid for all of it. A function template is compiled only when used, so on g++ the
// macro makes the function a template with one defaulted parameter (calls are unchanged: the
// parameter is never deduced). clang instantiates what a template's non-dependent code uses as
// soon as it reads it, so there a template only adds work, and the macro is empty. Measured on
// `#include <ctff/ctff.hpp>` (-fsyntax-only, instructions): docs/design.md, "What including
// ctff compiles".
#pragma once

// CTFF_DEFERRED defines a function declared ahead with CTFF_DEFER.
#if defined(__clang__)
#define CTFF_DEFER
#define CTFF_DEFERRED
#else
#define CTFF_DEFER template <class = void>
#define CTFF_DEFERRED template <class>
#endif
