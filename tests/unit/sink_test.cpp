// g++'s compile-time outputs are written a word at a time: the wire bytes by word_back_sink
// (core/sink.hpp), the structural text by drawing_word_sink (ast/structural.hpp); back_sink and
// drawing_char_sink are the references. Every operation, at every alignment, must give the same
// bytes, in constant evaluation and at run time, on both compilers (clang uses neither for its
// outputs, so this test is their only check there).
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <ctff/ctff.hpp>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

using ctff::detail::back_sink;
using ctff::detail::word_back_sink;

constexpr std::size_t cap_words = 256;

// A script of writes exercising runs of 0..19 bytes and chars, one-byte and long varints, fixed
// widths, decimal numbers, closed fields and string fields, each starting at a position that
// moves through every alignment.
template <class Sink>
constexpr void script(Sink& s, int variant) {
  constexpr unsigned char raw[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 200, 201, 202, 203, 204, 205, 206, 207, 208, 255};
  constexpr std::string_view text = "fc_chain_symbol_01234";
  for (std::size_t k = 0; k != 20; ++k) {
    const auto end = s.pos;
    s.bytes(raw, (k + static_cast<std::size_t>(variant)) % 20);
    s.chars(text.substr(0, k));
    s.varint(std::uint64_t{1} << ((3 * k + static_cast<std::size_t>(variant)) % 64));
    s.fixed32(0x01020304u * static_cast<std::uint32_t>(k + 1));
    if (k % 3 == 0) s.fixed64(0x0102030405060708ull * (k + 1));
    s.number(k * 997 + static_cast<std::size_t>(variant));
    s.put(static_cast<unsigned char>(k));
    s.string_field(static_cast<std::uint32_t>(k + 1), text.substr(k % 5));
    s.close(static_cast<std::uint32_t>(k + 16), end);
    s.tag(static_cast<std::uint32_t>(k * 40 + 1), 2);
  }
}

struct written {
  std::array<unsigned char, cap_words * 8> bytes{};
  std::size_t size = 0;
  constexpr bool operator==(const written&) const = default;
};

constexpr written by_back_sink(int variant) {
  back_sink count{};
  script(count, variant);
  written w;
  w.size = static_cast<std::size_t>(-count.pos);
  back_sink s{w.bytes.data(), static_cast<std::ptrdiff_t>(w.size)};
  script(s, variant);
  return w;
}

constexpr written by_word_sink(int variant) {
  back_sink count{};
  script(count, variant);
  written w;
  w.size = static_cast<std::size_t>(-count.pos);
  std::array<std::uint64_t, cap_words> words{};
  word_back_sink s{words.data(), static_cast<std::ptrdiff_t>(w.size)};
  script(s, variant);
  if (s.pos != 0 || s.cur != 0) return written{};  // every byte stored
  w.bytes = std::bit_cast<std::array<unsigned char, cap_words * 8>>(words);
  return w;
}

static_assert(by_back_sink(0).size > 1000 && by_back_sink(0).size < cap_words * 8);
static_assert(by_word_sink(0) == by_back_sink(0));
static_assert(by_word_sink(1) == by_back_sink(1));
static_assert(by_word_sink(5) == by_back_sink(5));
static_assert(by_word_sink(7) == by_back_sink(7));

constexpr auto inc = ctff::computation<"inc", std::int32_t>([](auto x) { return x + 1; });
constexpr auto mapped = ctff::computation<"mapped", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_map(inc, v); });

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

TEST_CASE("word_back_sink writes what back_sink writes, at every alignment", "[sink]") {
  for (int variant = 0; variant != 16; ++variant) {
    CAPTURE(variant);
    const written a = by_back_sink(variant);
    const written b = by_word_sink(variant);
    CHECK(a.size == b.size);
    CHECK(a.bytes == b.bytes);
  }
}

TEST_CASE("a traced graph written through word_back_sink is the computation's bytes", "[sink]") {
  auto check = [](const auto& c) {
    ctff::detail::trace_ctx ctx;
    using C = std::remove_cvref_t<decltype(c)>;
    const auto root = ctff::detail::trace_into<typename C::fn_type, typename C::param_type>(
        {}, C::name(), ctx);
    const std::size_t size = ctff::detail::serializer(ctx).size(root);
    std::vector<std::uint64_t> words((size + 7) / 8 + 1, 0);
    word_back_sink s{words.data(), static_cast<std::ptrdiff_t>(size)};
    ctff::detail::basic_serializer<word_back_sink>(ctx).write_back(root, s);
    CHECK(s.pos == 0);
    std::vector<unsigned char> out(words.size() * 8);
    for (std::size_t i = 0; i != out.size(); ++i)
      out[i] = static_cast<unsigned char>(words[i / 8] >> (8 * (i % 8)));
    CHECK(ctff::byte_view(out.data(), size) == c.bytes());
  };
  check(mapped);
  check(ctff::computation<"lits">([] {
    return ctff::federated_value(std::array<float, 3>{1.5f, -2.0f, 0.0f}, ctff::SERVER);
  }));
  check(ctff::computation<"s">([] { return std::string_view("a string literal"); }));
  check(ctff::computation<"d">([] { return std::array<double, 2>{0.1, -3.0}; }));
}
