// Storage with static duration for text and bytes computed during constant evaluation. A writer is
// an empty class type; it runs once to count and once to write (or once, back to front into storage
// of a known upper bound), so no allocation outlives the constant evaluation that made it.
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

// Bytes written back to front (back_sink) into storage of a known upper bound on their size, so
// one constant evaluation writes and measures them; they end where the storage ends.
template <std::size_t Capacity>
struct bounded_bytes {
  std::array<unsigned char, Capacity> a{};
  std::size_t n = 0;
  constexpr const unsigned char* data() const { return a.data() + (Capacity - n); }
};

template <class W, std::size_t Capacity>
inline constexpr auto bytes_v = [] {
  bounded_bytes<Capacity> r{};
  back_sink s{r.a.data() + Capacity};
  W{}(s);
  r.n = static_cast<std::size_t>(-s.pos);
  return r;
}();

}  // namespace ctff::detail
