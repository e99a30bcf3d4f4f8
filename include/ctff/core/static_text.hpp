// Storage with static duration for text and bytes computed during constant evaluation. A writer is
// an empty class type; it runs once to count and once to write, so no allocation outlives the
// constant evaluation that made it.
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

template <class W>
inline constexpr std::size_t bytes_size_v = [] {
  byte_sink s{};
  W{}(s);
  return s.n;
}();

template <class W>
inline constexpr auto bytes_v = [] {
  std::array<unsigned char, bytes_size_v<W> + 1> a{};
  byte_sink s{a.data()};
  W{}(s);
  return a;
}();

}  // namespace ctff::detail
