// A string usable as a template argument: computation names, struct field names, URIs.
#pragma once

#include <cstddef>
#include <string_view>

namespace ctff {

template <std::size_t N>
struct fixed_string {
  char data[N + 1]{};

  constexpr fixed_string(const char (&s)[N + 1]) noexcept {
    for (std::size_t i = 0; i != N; ++i) data[i] = s[i];
    data[N] = '\0';  // written: clang prints a name of 8, 16 or 32 characters as text, not numbers
  }
  static constexpr std::size_t size() noexcept { return N; }
  constexpr std::string_view view() const noexcept { return {data, N}; }
  constexpr operator std::string_view() const noexcept { return view(); }

  template <std::size_t M>
  constexpr bool operator==(const fixed_string<M>& o) const noexcept {
    return view() == o.view();
  }
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N - 1>;

}  // namespace ctff
