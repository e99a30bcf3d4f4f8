// Storage with static duration for text and bytes computed during constant evaluation. A writer is
// an empty class type; it runs once to count and once to write (or once, into storage of a known
// upper bound), so no allocation outlives the constant evaluation that made it.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "ctff/core/sink.hpp"

namespace ctff::detail {

template <class W>
inline constexpr std::size_t text_size_v = [] {
  text_sink s{};
  W{}(s);
  return s.n;
}();

template <class W>
inline constexpr auto text_v = [] {
  std::array<char, text_size_v<W> + 1> a{};
  text_sink s{a.data()};
  W{}(s);
  return a;
}();

template <class W>
constexpr std::string_view static_text() {
  return {text_v<W>.data(), text_size_v<W>};
}

// Bytes with a known upper bound on their size: written and measured in one constant evaluation.
template <std::size_t Capacity>
struct bounded_bytes {
  std::array<unsigned char, Capacity + 1> a{};
  std::size_t n = 0;
};

template <class W, std::size_t Capacity>
inline constexpr auto bytes_v = [] {
  bounded_bytes<Capacity> r{};
  byte_sink s{r.a.data()};
  W{}(s);
  r.n = s.n;
  return r;
}();

}  // namespace ctff::detail
