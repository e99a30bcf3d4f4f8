// Text carried into a compiler diagnostic. A failed check reads
//
//   static_assert(detail::diagnostic_for<W>::shown, "ctff: <operator>: <rule>");
//
// where W is a text writer (see static_text.hpp) and `shown` is always false: the static_assert's
// message is the rule, and the compiler's account of the failed condition prints W's text, because
// the text is a template argument of `diagnostic`:
//   g++-12:     note: 'ctff::diagnostic<ctff::tff_types<22>{"value: {int32}@CLIENTS"}>::shown'
//               evaluates to false
//   clang++-16: error: static assertion failed due to requirement 'diagnostic<ctff::tff_types<6>{
//               "value:"}, ctff::tff_types<15>{"{int32}@CLIENTS"}>::shown': ctff: ...
// A '\n' in the text separates the parts of a report (after a ';', which clang's pieces drop);
// g++ shows it as a space. clang prints a
// char array as a string only up to 36 characters (longer ones end in "[...]": its diagnostics
// never print whole arrays), so on clang the text is cut into pieces of at most 36: at each '\n',
// then, in a longer part, after its label ("value:"), so that a type of up to 36 characters
// reads as one piece, and in a longer type after a comma or before a '@' (never inside a name).
// Each piece's terminating zero is written explicitly: clang's evaluator otherwise records only
// the characters written (8, 16 or 32 of them) and prints the array as a list of numbers.
//
// A compiler that takes a computed static_assert message (P2741, __cpp_static_assert >= 202306L:
// clang 22 in every mode, clang 17-21 and g++ 14 in C++26 mode) prints the text whole instead, in
// the message, whatever its length. So a check is written
//
//   CTFF_DIAGNOSE(detail::diagnostic_for<W>::shown, "ctff: <operator>: <rule>");
//
// (as long as `static_assert`, so that continuation lines stay aligned), which is that
// static_assert on other compilers and on these
//   static_assert(false, detail::diagnostic_message(detail::diagnostic_for<W>::shown, "ctff: ..."))
// printing `error: static assertion failed: ctff: <operator>: <rule>; value: {int32}@CLIENTS`
// (a literal `false` condition: clang prints no "due to requirement" account of it).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "ctff/core/static_text.hpp"

#if defined(__cpp_static_assert) && __cpp_static_assert >= 202306L
#define CTFF_COMPUTED_DIAGNOSTICS 1
#if defined(__clang__)
// clang 22 takes the computed message in C++20 too, with a -Wc++26-extensions (-Wpedantic) warning.
// (A check whose report is silent, types/report.hpp, is discarded: `false` as the condition keeps
// clang from printing the condition before the message.)
#define CTFF_DIAGNOSE(...)                                                                  \
  _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wc++26-extensions\"") \
      if constexpr (!::ctff::detail::diagnostic_passes(__VA_ARGS__))                          \
          static_assert(false, ::ctff::detail::diagnostic_message(__VA_ARGS__))               \
              _Pragma("clang diagnostic pop")
#else
#define CTFF_DIAGNOSE(...)                                            \
  if constexpr (!::ctff::detail::diagnostic_passes(__VA_ARGS__)) \
  static_assert(false, ::ctff::detail::diagnostic_message(__VA_ARGS__))
#endif
#else
#define CTFF_COMPUTED_DIAGNOSTICS 0
// Object-like: the condition and the message are the user's tokens, not a macro's, so g++ adds no
// "in expansion of macro" note (the compile-fail cases' line budget).
#define CTFF_DIAGNOSE static_assert
#endif

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
inline constexpr std::size_t diagnostic_piece_max = 36;
#else
inline constexpr std::size_t diagnostic_piece_max = 0;  // one piece, any length
#endif

struct piece_bounds {
  std::size_t begin = 0, size = 0;
};

// Where a part longer than diagnostic_piece_max is cut: after its label (": "), else after the
// last ',' or before the last '@' that keeps the piece within the limit, else at the limit.
constexpr std::size_t piece_end(std::string_view part) {
  const std::size_t max = diagnostic_piece_max;
  if (part.size() <= max) return part.size();
  const std::size_t label = part.find(": ");
  if (label != std::string_view::npos && label + 1 <= max) return label + 1;
  for (std::size_t i = max; i > 1; --i) {
    if (part[i - 1] == ',' || part[i] == '@') return i;
  }
  return max;
}

// The pieces of W's text (at most `max` of them are recorded; returns how many there are).
template <class W>
constexpr std::size_t split_pieces(piece_bounds* out, std::size_t max) {
  constexpr std::string_view all = static_text<W>();
  std::size_t n = 0;
  auto emit = [&](std::size_t begin, std::size_t size) {
    if (n < max) out[n] = {begin, size};
    ++n;
  };
  if constexpr (diagnostic_piece_max == 0) {
    emit(0, all.size());
    return n;
  } else {
    std::size_t begin = 0;
    while (true) {
      const std::size_t stop = all.find('\n', begin);
      std::size_t part_end = stop == std::string_view::npos ? all.size() : stop;
      if (part_end != begin && all[part_end - 1] == ';') --part_end;  // pieces separate parts
      do {  // the part [begin, part_end), in pieces; a space after a cut starts no piece
        const std::size_t size = piece_end(all.substr(begin, part_end - begin));
        emit(begin, size);
        begin += size;
        while (begin != part_end && all[begin] == ' ') ++begin;
      } while (begin != part_end);
      if (stop == std::string_view::npos) return n;
      begin = stop + 1;
    }
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
  tff_types<b.size> r{};
  for (std::size_t i = 0; i != b.size; ++i) {
    const char c = all[b.begin + i];
    r.text[i] = c == '\n' ? ' ' : c;
  }
  r.text[b.size] = '\0';  // written, so that clang prints every length as a string
  return r;
}

template <class W, class Seq = std::make_index_sequence<piece_count_v<W>>>
struct diagnostic_of;
template <class W, std::size_t... K>
struct diagnostic_of<W, std::index_sequence<K...>> {
  using type = diagnostic<diagnostic_piece<W, K>()...>;
};

#if CTFF_COMPUTED_DIAGNOSTICS

// diagnostic_for<W>::shown: never true (a plain static_assert of it still works) and names W for
// diagnostic_message.
template <class W>
struct diagnostic_shown {
  explicit constexpr operator bool() const { return false; }
};
template <class W>
struct diagnostic_text {
  static constexpr diagnostic_shown<W> shown{};
};

// A static_assert message: a char buffer (std::string is no constant in libstdc++ 12).
template <std::size_t N>
struct diagnostic_message_text {
  char text[N]{};
  constexpr std::size_t size() const { return N; }
  constexpr const char* data() const { return text; }
};

// Whether the check passes: a report's never does; a silent one's (a bool) does.
template <class W, std::size_t N>
constexpr bool diagnostic_passes(diagnostic_shown<W>, const char (&)[N]) {
  return false;
}
template <std::size_t N>
constexpr bool diagnostic_passes(bool shown, const char (&)[N]) {
  return shown;
}

// "<rule>; <W's text>", each '\n' of the text (between report items, after a ';') a space.
template <class W, std::size_t N>
constexpr auto diagnostic_message(diagnostic_shown<W>, const char (&rule)[N]) {
  constexpr std::string_view all = static_text<W>();
  diagnostic_message_text<N - 1 + 2 + all.size()> m{};
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) m.text[n++] = rule[i];
  m.text[n++] = ';';
  m.text[n++] = ' ';
  for (const char c : all) m.text[n++] = c == '\n' ? ' ' : c;
  return m;
}

// The type whose `shown` a failed check names.
template <class W>
using diagnostic_for = diagnostic_text<W>;

#else

// The `diagnostic` specialization showing W's text.
template <class W>
using diagnostic_for = typename diagnostic_of<W>::type;

#endif

// Never true: names C++ types in the compiler's output (for arguments that have no TFF type).
template <class... X>
struct cxx_types {
  static constexpr bool shown = false;
};

}  // namespace detail
}  // namespace ctff
