// Where a C++ type does not convert to a static TFF type (run/accepts.hpp), for the diagnostic of
// a rejected executor::call or bind: the first place in accepts' walk that fails, its path as the
// run-time errors spell it (`arg.data.y`, `arg[1]`, `[]` for any element of a range), the TFF
// type expected there and the C++ type given, or the member whose name is not the type's:
//   at: arg.data.y; expected: float32[?]; given: std::vector<int>
// Only a rejected call instantiates it (see core/diagnostic.hpp for how the text is shown).
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctff/core/fixed_string.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/reflect/member_name.hpp"
#include "ctff/run/accepts.hpp"
#include "ctff/run/convert_parts.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/type.hpp"

namespace ctff::detail {

// The C++ type's name as the compiler spells it (g++: `[with U = X]`, clang: `[U = X]`).
template <class U>
struct cxx_name_probe {
  static consteval std::basic_string_view<char> text() { return __PRETTY_FUNCTION__; }
};
template <class U>
consteval std::string_view cxx_type_name() {
  std::string_view t = cxx_name_probe<U>::text();
  t.remove_prefix(t.find("text() [") + 8);
  t.remove_prefix(t.find("U = ") + 4);
  t.remove_suffix(1);
  return t;
}

constexpr void put_decimal(text_sink& s, std::size_t n) {
  if (n >= 10) put_decimal(s, n / 10);
  s.put(static_cast<char>('0' + n % 10));
}

// A path's steps: element I of the struct T (`.name`, or `[I]` where T has no names); any element
// of a range (`[]`).
template <class T, std::size_t I>
struct element_step {
  static constexpr void write(text_sink& s) {
    constexpr std::string_view name = struct_parts<T>::names[I];
    if (name.empty()) {
      s.put("[");
      put_decimal(s, I);
      s.put("]");
    } else {
      s.put(".");
      s.put(name);
    }
  }
};
struct range_step {
  static constexpr void write(text_sink& s) { s.put("[]"); }
};
template <fixed_string Root, class... Step>
struct mismatch_path {
  template <class S>
  using then = mismatch_path<Root, Step..., S>;
  static constexpr void write(text_sink& s) {
    s.put("at: ");
    s.put(Root.view());
    (Step::write(s), ...);
  }
};

// The writers (core/static_text.hpp) of the three kinds of report.
template <class Path, class T, class U>
struct type_mismatch {
  constexpr void operator()(text_sink& s) const {
    Path::write(s);
    s.put(";\nexpected: ");
    const auto d = describe<T>();
    print_type(d, d.root, s);
    s.put(";\ngiven: ");
    s.put(cxx_type_name<U>());
  }
};
template <class Path, class T, class U, std::size_t I>
struct name_mismatch {
  constexpr void operator()(text_sink& s) const {
    Path::write(s);
    s.put(";\nexpected: an element named ");
    s.put(struct_parts<T>::names[I]);
    s.put(";\ngiven: the member ");
    s.put(member_name_text<U, I>);
  }
};
template <class P, std::size_t N>
struct count_mismatch {
  constexpr void operator()(text_sink& s) const {
    s.put("parameter: ");
    if constexpr (std::is_void_v<P>) {
      s.put("none");
    } else {
      const auto d = describe<P>();
      print_type(d, d.root, s);
    }
    s.put(";\ngiven: ");
    if (N == 0) s.put("no argument");
    else put_decimal(s, N);
    if (N != 0) s.put(N == 1 ? " argument" : " arguments");
  }
};

// Element I of a tuple-like or an aggregate.
template <class U, std::size_t I, bool = tuple_like<U>>
struct element_of {
  using type = std::tuple_element_t<I, U>;
};
template <class U, std::size_t I>
struct element_of<U, I, false> {
  using type = pfr_elem_t<U, I>;
};
template <class U, std::size_t I>
using element_of_t = typename element_of<U, I>::type;

// The first element of the struct T that U's element does not convert to (n: none).
template <class T, class U, std::size_t... I>
consteval std::size_t first_mismatch(std::index_sequence<I...>) {
  constexpr bool fits[] = {accepts<typename struct_parts<T>::template type<I>, element_of_t<U, I>>()...};
  for (std::size_t i = 0; i != sizeof...(I); ++i)
    if (!fits[i]) return i;
  return sizeof...(I);
}
template <class T, class U, std::size_t... I>
consteval std::size_t first_misnamed(std::index_sequence<I...>) {
  constexpr bool fits[] = {aggregate_name_fits<T, U, I>()...};
  for (std::size_t i = 0; i != sizeof...(I); ++i)
    if (!fits[i]) return i;
  return sizeof...(I);
}

// The writer of the first place where U does not convert to T (accepts<T, U>() is false). A
// tensor is one place: its C++ type is reported whole.
template <class Path, class T, class U>
consteval auto mismatch() {
  if constexpr (is_federated_v<T>) {
    using F = federated_parts<T>;
    if constexpr (!F::listed) return mismatch<Path, typename F::member, U>();
    else if constexpr (value_range<U>)
      return mismatch<typename Path::template then<range_step>, typename F::member, range_elem_t<U>>();
    else return type_mismatch<Path, T, U>{};
  } else if constexpr (is_sequence_v<T> && value_range<U>) {
    return mismatch<typename Path::template then<range_step>, typename sequence_parts<T>::element, range_elem_t<U>>();
  } else if constexpr (is_struct_v<T>) {
    constexpr std::size_t n = struct_parts<T>::size;
    constexpr bool same_size = [] {
      if constexpr (tuple_like<U>) return std::tuple_size_v<U> == n;
      else if constexpr (plain_aggregate<U>) return slot_count<U> == n;
      else return false;
    }();
    if constexpr (!same_size) {
      return type_mismatch<Path, T, U>{};
    } else {
      constexpr std::size_t i = first_mismatch<T, U>(std::make_index_sequence<n>{});
      if constexpr (i != n)
        return mismatch<typename Path::template then<element_step<T, i>>, typename struct_parts<T>::template type<i>,
                        element_of_t<U, i>>();
      else
        return name_mismatch<Path, T, U, first_misnamed<T, U>(std::make_index_sequence<n>{})>{};
    }
  } else {
    return type_mismatch<Path, T, U>{};
  }
}
template <fixed_string Root, class T, class U>
using mismatch_t = decltype(mismatch<mismatch_path<Root>, T, U>());

// The arguments of a rejected executor::call: their number, or the first that does not convert
// (one per element of a struct parameter: named as the element).
template <class P, class... A>
consteval auto arguments_mismatch() {
  constexpr std::size_t k = sizeof...(A);
  if constexpr (std::is_void_v<P> || k == 0) {
    return count_mismatch<P, k>{};
  } else if constexpr (k == 1) {
    return mismatch_t<"arg", P, std::remove_cvref_t<std::tuple_element_t<0, std::tuple<A...>>>>{};
  } else if constexpr (!is_struct_v<P>) {
    return count_mismatch<P, k>{};
  } else if constexpr (struct_parts<P>::size != k) {
    return count_mismatch<P, k>{};
  } else {
    using U = std::tuple<std::remove_cvref_t<A>...>;
    constexpr std::size_t i = first_mismatch<P, U>(std::make_index_sequence<k>{});
    return decltype(mismatch<mismatch_path<"arg", element_step<P, i>>, typename struct_parts<P>::template type<i>,
                             std::tuple_element_t<i, U>>()){};
  }
}
template <class P, class... A>
using arguments_mismatch_t = decltype(arguments_mismatch<P, A...>());

}  // namespace ctff::detail
