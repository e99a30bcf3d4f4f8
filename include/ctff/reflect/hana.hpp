// Boost.Hana structs (BOOST_HANA_DEFINE_STRUCT, BOOST_HANA_ADAPT_STRUCT, BOOST_HANA_ADAPT_ADT) as
// named TFF structs, with Hana's member names and order. They take precedence over Boost.PFR: an
// adapted struct may list a subset of its members, or list them in another order.
#pragma once

// Only the declarations of hana::pair and hana::tuple: the macros that make a Hana struct include
// their definitions (and hana::string's, for the keys' c_str()) before any use here, and the full
// headers would cost every user of ctff.hpp a tenth of its include time.
#include <boost/hana/accessors.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/fwd/pair.hpp>
#include <boost/hana/fwd/tuple.hpp>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/reflect/aggregate.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {

template <class T>
concept hana_struct = std::is_class_v<T> && boost::hana::Struct<T>::value;

template <hana_struct T>
inline constexpr bool reflected_elsewhere<T> = true;

// A Hana key (a compile-time string such as hana::string<'x'>) as a fixed_string.
template <class Key>
inline constexpr auto hana_key_name =
    to_fixed_string<std::string_view(Key::c_str()).size()>(Key::c_str());

// The member type an accessor returns (a reference for DEFINE/ADAPT_STRUCT, a value for ADT).
template <class T, class Accessor>
using hana_member_t =
    std::remove_cvref_t<decltype(std::declval<const Accessor&>()(std::declval<T&>()))>;

// hana::accessors<T>() is a hana::tuple of hana::pair<key, accessor>, one per member.
template <class T, class Accessors = decltype(boost::hana::accessors<T>())>
struct hana_struct_type;

template <class T, class... Key, class... Accessor>
struct hana_struct_type<T, boost::hana::tuple<boost::hana::pair<Key, Accessor>...>> {
  // member_field reports a member without a TFF type by name, as for PFR aggregates.
  using type =
      struct_t<typename member_field<T, hana_key_name<Key>, hana_member_t<T, Accessor>>::type...>;
};

}  // namespace detail

template <detail::hana_struct T>
struct tff_type_of<T> {
  using type = typename detail::hana_struct_type<T>::type;
};

}  // namespace ctff
