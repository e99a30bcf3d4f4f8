// Type strings and `Type` wire bytes of static types, as constant expressions with static storage.
#pragma once

#include <string_view>

#include "ctff/core/byte_view.hpp"
#include "ctff/core/static_text.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/type_traits.hpp"
#include "ctff/types/wire.hpp"

namespace ctff {
namespace detail {

template <class T, bool Formatted>
struct type_text_writer {
  constexpr void operator()(text_sink& s) const {
    s.formatted = Formatted;
    const auto d = describe<T>();
    print_type(d, d.root, s);
  }
};

}  // namespace detail

// `{int32}@CLIENTS`, `<a=int32,float32>`, `( -> int32)`, ...
template <class T>
constexpr std::string_view type_string() {
  static_assert(detail::is_complete_v<tff_t<T>>);  // checks the type before printing it
  return detail::static_text<detail::type_text_writer<tff_t<T>, false>>();
}

// The multi-line form: structs as `<\n  a=int32,\n  float32\n>`.
template <class T>
constexpr std::string_view formatted_type_string() {
  static_assert(detail::is_complete_v<tff_t<T>>);
  return detail::static_text<detail::type_text_writer<tff_t<T>, true>>();
}

// The serialized `federated_language.Type` message.
template <class T>
constexpr byte_view type_bytes() {
  using U = tff_t<T>;
  static_assert(detail::is_complete_v<U>);
  static_assert(!detail::has_abstract_v<U> || detail::has_poison_v<U>,  // poison: reported
                "ctff: abstract types never reach the wire");
  constexpr auto& b = detail::static_type_bytes_v<U>;
  return byte_view(b.data(), b.n);
}

}  // namespace ctff
