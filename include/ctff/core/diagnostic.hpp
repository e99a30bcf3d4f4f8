// Text carried into a compiler diagnostic. A failed check reads
//
//   static_assert(detail::diagnostic_for<W>::shown, "ctff: <operator>: <rule>");
//
// where W is a text writer (see static_text.hpp) and `shown` is always false: the static_assert's
// message is the rule, and the compiler's account of the failed condition prints W's text, because
// the text is a template argument of `diagnostic`:
//   g++-12:     note: 'ctff::diagnostic<ctff::tff_types<22>{"value: {int32}@CLIENTS"}>::shown'
//               evaluates to false
//   clang++-16: error: static assertion failed due to requirement 'diagnostic<ctff::tff_types<22>{
//               "value: {int32}@CLIENTS"}>::shown': ctff: ...
// A '\n' in the text marks where a new piece may start (between the parts of a report); g++ shows
// it as a space. clang prints a char array as a string only when it is short (up to 31 characters,
// and not 8 or 16 long, which come out as lists of numbers), so on clang the text is cut into
// pieces: at each '\n' and after 30 characters; a piece of 8 or 16 gets a trailing space.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "ctff/core/static_text.hpp"

namespace ctff {

// One piece of diagnostic text (a structural type, usable as a template argument).
template <std::size_t N>
struct tff_types {
  char text[N + 1]{};
};

// Never true: names the text of a failed check in the compiler's output.
template <auto... Text>
struct diagnostic {
  static constexpr bool shown = false;
};

namespace detail {

#if defined(__clang__)
inline constexpr std::size_t diagnostic_piece_max = 30;
#else
inline constexpr std::size_t diagnostic_piece_max = 0;  // one piece, any length
#endif

struct piece_bounds {
  std::size_t begin = 0, size = 0;
};

// The pieces of W's text (at most `max` of them are recorded; returns how many there are).
template <class W>
constexpr std::size_t split_pieces(piece_bounds* out, std::size_t max) {
  constexpr std::string_view all = static_text<W>();
  std::size_t n = 0, begin = 0;
  auto emit = [&](std::size_t end) {
    if (n < max) out[n] = {begin, end - begin};
    ++n;
  };
  if constexpr (diagnostic_piece_max == 0) {
    emit(all.size());
    return n;
  } else {
    for (std::size_t i = 0; i != all.size(); ++i) {
      if (all[i] == '\n') {
        emit(i);
        begin = i + 1;
      } else if (i - begin == diagnostic_piece_max) {
        emit(i);
        begin = i;
      }
    }
    if (begin != all.size() || n == 0) emit(all.size());
    return n;
  }
}

template <class W>
inline constexpr std::size_t piece_count_v = split_pieces<W>(nullptr, 0);

template <class W>
inline constexpr auto pieces_v = [] {
  std::array<piece_bounds, piece_count_v<W>> a{};
  split_pieces<W>(a.data(), a.size());
  return a;
}();

template <class W, std::size_t K>
constexpr auto diagnostic_piece() {
  constexpr std::string_view all = static_text<W>();
  constexpr piece_bounds b = pieces_v<W>[K];
  constexpr bool pad = diagnostic_piece_max != 0 && (b.size == 8 || b.size == 16);
  tff_types<b.size + (pad ? 1 : 0)> r{};
  for (std::size_t i = 0; i != b.size; ++i) {
    const char c = all[b.begin + i];
    r.text[i] = c == '\n' ? ' ' : c;
  }
  if (pad) r.text[b.size] = ' ';
  return r;
}

template <class W, class Seq = std::make_index_sequence<piece_count_v<W>>>
struct diagnostic_of;
template <class W, std::size_t... K>
struct diagnostic_of<W, std::index_sequence<K...>> {
  using type = diagnostic<diagnostic_piece<W, K>()...>;
};

// The `diagnostic` specialization showing W's text.
template <class W>
using diagnostic_for = typename diagnostic_of<W>::type;

// Never true: names C++ types in the compiler's output (for arguments that have no TFF type).
template <class... X>
struct cxx_types {
  static constexpr bool shown = false;
};

}  // namespace detail
}  // namespace ctff
