// Plain aggregates as named TFF structs: `struct point { float x; std::int32_t y; };` is
// <x=float32,y=int32>. Members are found with Boost.PFR; their names are read at compile time from
// the compiler's pretty function text for a pointer to the member (see member_name below).
#pragma once

#include <array>
#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/core/fixed_string.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {

// Set to true (by partial specialization) for aggregates that another reflection header maps,
// such as Boost.Hana structs (reflect/hana.hpp): Boost.PFR then stays out of the way.
template <class T>
inline constexpr bool reflected_elsewhere = false;

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

// Class types reflected member by member. std::array, std::tuple and std::pair have their own
// headers (tuple and pair are not aggregates anyway); ctff's own types are never reflected.
// Boost.PFR's limits apply and report with its own messages: no base classes, no C array members.
template <class T>
concept plain_aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !tff_type<T> &&
                          !is_field_v<T> && !is_std_array_v<T> && !reflected_elsewhere<T>;

// ---------------------------------------------------------------------------------------------
// Member names. The address of member I of an object is a constant expression that the
// compilers print with the member's name (g++: `(& obj.S::name)`, clang: `&obj.value.name`).
// Two portability points: clang 16 rejects a pointer to a subobject as a template argument unless
// it is wrapped in a class type (member_address), and the object is declared, never defined, so
// that any T works (no default constructor, destructor or literal type needed).
template <class T>
struct fake_holder {
  T value;
};

#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
// Only its address is used, in template arguments of consteval functions: never odr-used at run
// time, so the missing definition never reaches the linker.
template <class T>
extern const fake_holder<T> fake_object;

template <class P>
struct member_address {
  P pointer;
};
template <class P>
member_address(P) -> member_address<P>;  // clang 16 has no CTAD for aggregates

template <member_address A>
consteval std::string_view pretty_member() {
  return __PRETTY_FUNCTION__;
}

template <class T, std::size_t I>
consteval std::string_view pretty_member_of() {
  return pretty_member<member_address{&boost::pfr::get<I>(fake_object<T>.value)}>();
}

// Whether the member addresses are constant expressions: not with a reference or bit-field member.
template <member_address A>
struct address_tag {};

template <class T>
concept has_constant_member_addresses = requires {
  typename address_tag<member_address{&boost::pfr::get<0>(fake_object<T>.value)}>;
};
#ifdef __clang__
#pragma clang diagnostic pop
#endif

// The text after a member's name is the same for every member on a given compiler (g++ adds
// `)}; std::string_view = ...]`, clang `}]`): measure it once on a probe member.
struct name_probe {
  int ctff_name_probe;
};

inline constexpr std::size_t pretty_suffix_size = [] {
  constexpr std::string_view text = pretty_member_of<name_probe, 0>();
  constexpr std::string_view probe = "ctff_name_probe";
  return text.size() - text.rfind(probe) - probe.size();
}();

constexpr bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || static_cast<unsigned char>(c) >= 0x80;  // UTF-8 identifiers
}

// The name of member I of T: the identifier that ends the printed member address.
template <class T, std::size_t I>
consteval std::string_view member_name() {
  std::string_view text = pretty_member_of<T, I>();
  text.remove_suffix(pretty_suffix_size);
  std::size_t begin = text.size();
  while (begin != 0 && is_identifier_char(text[begin - 1])) --begin;
  return text.substr(begin);
}

template <std::size_t N>
consteval fixed_string<N> to_fixed_string(std::string_view s) {
  char chars[N + 1]{};
  for (std::size_t i = 0; i != N; ++i) chars[i] = s[i];
  return fixed_string<N>(chars);
}

template <class T, std::size_t I>
inline constexpr std::string_view member_name_text = member_name<T, I>();

template <class T, std::size_t I>
inline constexpr auto member_name_v =
    to_fixed_string<member_name_text<T, I>.size()>(member_name_text<T, I>);

// ---------------------------------------------------------------------------------------------
// Named so that the failed requirement, printed by both compilers on the error's own lines, shows
// the aggregate, the member's name and its type:
// `member_has_tff_type<client_data, ctff::fixed_string<3>{"ptr"}, void*>`.
template <class Aggregate, fixed_string Member, class Type>
inline constexpr bool member_has_tff_type = has_tff_type<Type>;

// The checks sit in constexpr function bodies, evaluated while the type is computed: a failed
// static_assert there leaves the enclosing classes valid. In a class, clang would drop the class,
// fail the has_tff_type check it is instantiated from, and add tff_t's generic error.
template <class Aggregate, fixed_string Member, class Type>
constexpr bool check_member() {
  static_assert(member_has_tff_type<Aggregate, Member, Type>,
                "ctff: a member of this aggregate has no TFF type (its name and type are the "
                "arguments of member_has_tff_type); specialize ctff::tff_type_of for the "
                "member's type");
  return true;
}

// One member as field<"name", TFF type>; shared with reflect/hana.hpp. Naming the class runs
// check_member (a default argument); after its error a placeholder type avoids further ones.
template <class Aggregate, fixed_string Member, class Type,
          bool Checked = check_member<Aggregate, Member, Type>()>
struct member_field {
  using type =
      field<Member, typename std::conditional_t<has_tff_type<Type>, tff_t_impl<Type>,
                                                std::type_identity<tensor<dtype::bool_>>>::type>;
};

template <class T>
using indices_of = std::make_index_sequence<boost::pfr::tuple_size_v<T>>;

// A reference member makes every member address non-constant (PFR's tie reads the reference), a
// bit-field has no address: then no name can be read. Report that, not a failed template argument.
template <class T>
consteval bool member_addresses_are_constant() {
  if constexpr (boost::pfr::tuple_size_v<T> == 0)
    return true;
  else
    return has_constant_member_addresses<T>;
}

template <class T>
inline constexpr bool has_addressable_members = member_addresses_are_constant<T>();

template <class T>
constexpr bool check_addressable_members() {
  static_assert(has_addressable_members<T>,
                "ctff: an aggregate with a reference or bit-field member has no TFF type (its "
                "member names cannot be read); specialize ctff::tff_type_of for it");
  return has_addressable_members<T>;
}

template <class T, bool Valid = check_addressable_members<T>(), class Indices = indices_of<T>>
struct aggregate_struct {
  using type = struct_t<>;  // placeholder after the addressability error
};

template <class T, std::size_t... I>
struct aggregate_struct<T, true, std::index_sequence<I...>> {
  using type = struct_t<
      typename member_field<T, member_name_v<T, I>, boost::pfr::tuple_element_t<I, T>>::type...>;
};

}  // namespace detail

template <detail::plain_aggregate T>
struct tff_type_of<T> {
  using type = typename detail::aggregate_struct<T>::type;
};

}  // namespace ctff
