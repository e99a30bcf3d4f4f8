// The names of an aggregate's members, read at compile time from the compiler's pretty function
// text for a pointer to the member.
#pragma once

#include <boost/pfr/core.hpp>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "ctff/core/fixed_string.hpp"
#include "ctff/reflect/slot_count.hpp"

namespace ctff::detail {

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
  return pretty_member<member_address{&member_ref<I>(fake_object<T>.value)}>();
}

// Whether the member addresses are constant expressions: not with a reference or bit-field member.
template <member_address A>
struct address_tag {};

template <class T>
concept has_constant_member_addresses = requires {
  typename address_tag<member_address{&member_ref<0>(fake_object<T>.value)}>;
};
#ifdef __clang__
#pragma clang diagnostic pop
#endif

// The text after a member's name is the same for every member on a given compiler (g++ adds
// `)}; std::string_view = ...]`, clang `}]`): measure it once on a probe member. A variable
// template of the reflected type whose probe does not depend on it (name_probe<void> for every
// T): the probe is read once, and only by a program that reflects a struct (a TU that includes
// ctff and reflects none instantiates nothing of PFR).
template <class>
struct name_probe {
  int ctff_name_probe;
};

template <class T>
inline constexpr std::size_t pretty_suffix_size = [] {
  constexpr std::string_view text =
      pretty_member_of<name_probe<std::conditional_t<sizeof(T) != 0, void, T>>, 0>();
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
  text.remove_suffix(pretty_suffix_size<T>);
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

// The name of member I of T, which has M members (any kind: C arrays too), read as member_name
// does, through PFR's structured binding for a given count.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
template <class T, std::size_t M, std::size_t I>
consteval std::string_view counted_member_name() {
  std::string_view text = pretty_member<member_address{&boost::pfr::detail::sequence_tuple::get<I>(
      boost::pfr::detail::tie_as_tuple(fake_object<T>.value, boost::pfr::detail::size_t_<M>{}))}>();
  text.remove_suffix(pretty_suffix_size<T>);
  std::size_t begin = text.size();
  while (begin != 0 && is_identifier_char(text[begin - 1])) --begin;
  return text.substr(begin);
}

template <class T, std::size_t M, std::size_t I>
inline constexpr std::string_view counted_member_name_v = counted_member_name<T, M, I>();
#ifdef __clang__
#pragma clang diagnostic pop
#endif

}  // namespace ctff::detail
