// C++ types as TFF types: everything ctff maps on its own, and the customization point.
//
// Built in (ctff::tff_t<T> / ctff::type_string<T>()):
//   bool, std::int8_t..std::int64_t, std::uint8_t..std::uint64_t   bool, int8..int64, uint8..uint64
//   float, double, std::complex<float>, std::complex<double>       float32, float64, complex64/128
//   std::string, std::string_view, const char*                      str
//   std::array<T, N>, std::array<std::array<T, M>, N>, ...          T's dtype with shape [N], [N,M]
//   std::tuple<A, B, ...>, std::pair<A, B>                          <A,B,...> (unnamed)
//   aggregates: struct point { float x; float y; };                 <x=float32,y=float32>
//   Boost.Hana structs (DEFINE_STRUCT / ADAPT_STRUCT / ADAPT_ADT)   named, in Hana's member order
//   ctff's own TFF types (ctff::tensor, ctff::struct_t, ...)        themselves
// Aggregates and Hana structs nest: a member may be any type above. char, wchar_t and the charN_t
// types are not integers of a stated width and map to nothing.
//
// Customization point: specialize ctff::tff_type_of for your type with a member `using type`
// naming its TFF type (a ctff TFF type such as ctff::tensor<...>; ctff::tff_t<U> names the one of
// a C++ type U that ctff maps):
//
//   class celsius { /* constructors, private members, ... */ };
//   template <> struct ctff::tff_type_of<celsius> { using type = ctff::tff_t<double>; };
//
//   template <class T> struct vec3 { T x, y, z; };   // a template of yours: partial specialization
//   template <class T> struct ctff::tff_type_of<vec3<T>> {
//     using type = ctff::tff_t<std::array<T, 3>>;    // T[3] instead of <x=T,y=T,z=T>
//   };
//
// A full specialization, or a partial one for a template of yours, takes precedence over the
// built-in rules (including aggregate reflection). A partial specialization constrained only by a
// concept (`template <my_concept T> struct tff_type_of<T>`) is ambiguous with the built-in rules
// for types both match; specialize for the types themselves instead.
#pragma once

#include "ctff/reflect/aggregate.hpp"
#include "ctff/reflect/array.hpp"
#include "ctff/reflect/hana.hpp"
#include "ctff/reflect/scalar.hpp"
#include "ctff/reflect/tuple.hpp"
#include "ctff/types/type_traits.hpp"
