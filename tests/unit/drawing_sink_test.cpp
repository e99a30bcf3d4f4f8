// g++ writes the structural text at compile time a word at a time (drawing_word_sink,
// ast/drawing_sink.hpp); drawing_char_sink, which run-time traces use, is the reference. Every
// operation, at every alignment, must give the same characters, in constant evaluation and at run
// time, on both compilers (clang does not use it for its outputs, so this test is its only check
// there).
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <ctff/ctff.hpp>
#include <string_view>

namespace {

// Characters of a drawing: runs of 0..20 characters (with and without structural breaks), spaces
// 0..19, single characters, decimal numbers.
template <class Sink>
constexpr void drawing_script(Sink& s, int variant) {
  constexpr std::string_view text = "Call/\\x\x01yz[fc_chain_symbol_12=Lambda(a)]";
  for (int k = 0; k != 24; ++k) {
    const auto from = static_cast<std::size_t>((k + variant) % 7);
    s.run(text.data() + from, static_cast<std::size_t>((k * 5 + variant) % 21), k % 4 == 3);
    s.spaces((k * 3 + variant) % 20);
    s.put(static_cast<char>('a' + k));
    s.put_uint(static_cast<std::uint64_t>(k) * 1001u);
    s.spaces(-1);
    s.put(std::string_view("ab"));
  }
}

constexpr std::size_t drawing_words = 256;

struct drawn_text {
  std::array<char, drawing_words * 8> c{};
  std::size_t size = 0;
  constexpr bool operator==(const drawn_text&) const = default;
};

constexpr drawn_text by_char_sink(int variant) {
  drawn_text t;
  ctff::detail::drawing_char_sink s{t.c.data()};
  drawing_script(s, variant);
  t.size = s.n;
  return t;
}

constexpr drawn_text by_drawing_words(int variant) {
  ctff::detail::drawing_word_sink<drawing_words> s{};
  drawing_script(s, variant);
  const std::size_t n = s.done * 8 + s.at;
  s.finish();
  drawn_text t;
  t.c = std::bit_cast<std::array<char, drawing_words * 8>>(s.out);
  for (std::size_t i = n; i != t.c.size(); ++i) t.c[i] = '\0';  // the reference's untouched tail
  t.size = n;
  return t;
}

static_assert(by_char_sink(0).size > 500 && by_char_sink(0).size < drawing_words * 8);
static_assert(by_drawing_words(0) == by_char_sink(0));
static_assert(by_drawing_words(3) == by_char_sink(3));
static_assert(by_drawing_words(6) == by_char_sink(6));

}  // namespace

TEST_CASE("drawing_word_sink writes what drawing_char_sink writes, at every alignment", "[sink]") {
  for (int variant = 0; variant != 8; ++variant) {
    CAPTURE(variant);
    const drawn_text a = by_char_sink(variant);
    const drawn_text b = by_drawing_words(variant);
    CHECK(a.size == b.size);
    CHECK(std::string_view(a.c.data(), a.size) == std::string_view(b.c.data(), b.size));
  }
}
