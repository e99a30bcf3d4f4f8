// Literal text: numpy 1.24's str() of each value (docs: ../shared/reference/tff-language.md §5),
// traced at compile time (captureless lambdas, STATIC_REQUIRE) and at run time (capturing
// lambdas). Expected strings follow numpy's rules by hand; the tables at the end are numpy
// 1.24.2's own str() of each value (Debian's python3-numpy), never ctff's output.
#include <catch2/catch.hpp>

#include <array>
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <ctff/ctff.hpp>

namespace {

using ctff::dtype;

template <class X>
std::string traced_at_run_time(const X& value) {
  return std::string(ctff::computation<"p">([value] { return value; }).compact());
}

}  // namespace

// The literal as the whole result of a computation, traced both ways: `( -> TEXT)`.
#define CHECK_LITERAL_TEXT(text, ...)                                                  \
  do {                                                                                 \
    STATIC_REQUIRE(ctff::computation<"p">([] { return __VA_ARGS__; }).compact() ==      \
                   std::string_view("( -> " text ")"));                                 \
    CHECK(traced_at_run_time(__VA_ARGS__) == "( -> " text ")");                        \
  } while (false)

namespace {

constexpr float nan_f = std::numeric_limits<float>::quiet_NaN();
constexpr float inf_f = std::numeric_limits<float>::infinity();
constexpr double nan_d = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_d = std::numeric_limits<double>::infinity();

// 0, 1, ..., N-1 (numpy's range(N)), of type T, with `offset` added.
template <class T, std::size_t N>
constexpr std::array<T, N> iota(T offset = 0, T step = 1) {
  std::array<T, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = offset + static_cast<T>(i) * step;
  return a;
}

template <class T, std::size_t R, std::size_t C>
constexpr std::array<std::array<T, C>, R> iota2(T offset = 0, T step = 1) {
  std::array<std::array<T, C>, R> a{};
  for (std::size_t i = 0; i < R * C; ++i) a[i / C][i % C] = offset + static_cast<T>(i) * step;
  return a;
}

template <class T, std::size_t A, std::size_t B, std::size_t C>
constexpr std::array<std::array<std::array<T, C>, B>, A> iota3() {
  std::array<std::array<std::array<T, C>, B>, A> a{};
  for (std::size_t i = 0; i < A * B * C; ++i) a[i / (B * C)][i / C % B][i % C] = static_cast<T>(i);
  return a;
}

// A literal of any dtype recorded by hand (float16 and bfloat16 have no C++ type a trace takes),
// printed as print_literal prints it. Empty shape: a scalar.
struct printed {
  std::array<char, 2048> c{};
  std::size_t n = 0;
  constexpr std::string_view view() const { return {c.data(), n}; }
};

constexpr printed print_bits(dtype dt, std::initializer_list<std::int64_t> shape,
                             std::initializer_list<std::uint64_t> bits) {
  ctff::detail::graph g;
  ctff::detail::lit l{};
  l.dt = dt;
  for (auto d : shape) g.dims.push_back(d);
  l.dim_count = static_cast<std::uint32_t>(shape.size());
  for (auto b : bits) g.vals.push_back(b);
  l.val_count = static_cast<std::uint32_t>(bits.size());
  printed out;
  ctff::detail::text_sink count{};
  ctff::detail::print_literal(ctff::detail::literal_of(g, l), count);
  if (count.n > out.c.size()) return out;
  ctff::detail::text_sink s{out.c.data()};
  ctff::detail::print_literal(ctff::detail::literal_of(g, l), s);
  out.n = s.n;
  return out;
}

// The same at run time: the bit patterns pass through a volatile, so nothing is folded.
std::string print_bits_at_run_time(dtype dt, std::initializer_list<std::int64_t> shape,
                                   std::initializer_list<std::uint64_t> bits) {
  std::vector<std::uint64_t> v;
  for (auto b : bits) {
    volatile std::uint64_t x = b;
    v.push_back(static_cast<std::uint64_t>(x));
  }
  ctff::detail::graph g;
  ctff::detail::lit l{};
  l.dt = dt;
  for (auto d : shape) g.dims.push_back(d);
  l.dim_count = static_cast<std::uint32_t>(shape.size());
  g.vals.append(v.data(), v.size());
  l.val_count = static_cast<std::uint32_t>(v.size());
  ctff::detail::text_sink count{};
  ctff::detail::print_literal(ctff::detail::literal_of(g, l), count);
  std::string out(count.n, '\0');
  ctff::detail::text_sink s{out.data()};
  ctff::detail::print_literal(ctff::detail::literal_of(g, l), s);
  return out;
}

}  // namespace

#define CHECK_BITS_TEXT(text, dt, shape, ...)                                     \
  do {                                                                            \
    STATIC_REQUIRE(print_bits(dt, shape, {__VA_ARGS__}).view() == text);           \
    CHECK(print_bits_at_run_time(dt, shape, {__VA_ARGS__}) == text);              \
  } while (false)

#define SCALAR std::initializer_list<std::int64_t>{}
#define SHAPE(...) std::initializer_list<std::int64_t>{__VA_ARGS__}

TEST_CASE("literal text: the measured examples of reference §5", "[literal][numpy]") {
  using f3 = std::array<float, 3>;
  CHECK_LITERAL_TEXT("[1.e-01 1.e-05 3.e+00]", f3{0.1f, 1e-5f, 3.0f});
  CHECK_LITERAL_TEXT("[0.5  0.25 3.  ]", f3{0.5f, 0.25f, 3.0f});
  CHECK_LITERAL_TEXT("[0.33333334 0.6666667 ]",
                     std::array<float, 2>{static_cast<float>(1.0 / 3), static_cast<float>(2.0 / 3)});
  CHECK_LITERAL_TEXT("[ 1.e-01  1.e-05  3.e+00 -0.e+00]", std::array<float, 4>{0.1f, 1e-5f, 3.0f, -0.0f});
  CHECK_LITERAL_TEXT("[1. 2. 3.]", f3{1.0f, 2.0f, 3.0f});
  CHECK_LITERAL_TEXT("[-0.  0.]", std::array<float, 2>{-0.0f, 0.0f});
  CHECK_LITERAL_TEXT("[1.e+10 1.e+00]", std::array<float, 2>{1e10f, 1.0f});
  CHECK_LITERAL_TEXT("[1.234567e+05 1.000000e-03]",
                     std::array<float, 2>{static_cast<float>(123456.7), static_cast<float>(0.001)});
  CHECK_LITERAL_TEXT("[1000.     1.5]", std::array<float, 2>{1000.0f, 1.5f});
  CHECK_LITERAL_TEXT("[1.e-04 1.e+00]", std::array<float, 2>{static_cast<float>(1e-4), 1.0f});
  CHECK_LITERAL_TEXT("[ nan  inf -inf  1.5]", std::array<float, 4>{nan_f, inf_f, -inf_f, 1.5f});
  CHECK_LITERAL_TEXT("[[1.5  2.25]\n [3.   4.  ]]",
                     std::array<std::array<float, 2>, 2>{{{1.5f, 2.25f}, {3.0f, 4.0f}}});
  CHECK_LITERAL_TEXT("[0.1 0.2 0.3]", std::array<double, 3>{0.1, 0.2, 0.30000000000000004});
  CHECK_LITERAL_TEXT("[1.e+100 1.e+000]", std::array<double, 2>{1e100, 1.0});
  CHECK_LITERAL_TEXT("[    -5 100000]", std::array<std::int64_t, 2>{-5, 100000});
  CHECK_LITERAL_TEXT("[ True False]", std::array<bool, 2>{true, false});
  CHECK_LITERAL_TEXT(
      "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n"
      " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]",
      iota<float, 30>());
  CHECK_LITERAL_TEXT("[0.000e+00 1.000e+00 2.000e+00 ... 1.002e+03 1.003e+03 1.004e+03]",
                     iota<float, 1005>());
  // Scalars: str(np.float32(x)).
  CHECK_LITERAL_TEXT("0.1", 0.1f);
  CHECK_LITERAL_TEXT("1e-05", 1e-5f);
  CHECK_LITERAL_TEXT("-0.0", -0.0f);
  CHECK_LITERAL_TEXT("10000000000.0", 1e10f);
  CHECK_LITERAL_TEXT("0.33333334", static_cast<float>(1.0 / 3));
}

TEST_CASE("literal text: zero floats (issue 8, defect 2)", "[literal][numpy]") {
  CHECK_LITERAL_TEXT("0.0", 0.0f);
  CHECK_LITERAL_TEXT("-0.0", -0.0f);
  CHECK_LITERAL_TEXT("0.0", 0.0);
  CHECK_LITERAL_TEXT("-0.0", -0.0);
  CHECK_LITERAL_TEXT("<0.0,-0.0,<0.0,-0.0>>", std::tuple{0.0f, -0.0, std::pair{0.0, -0.0f}});
  CHECK_LITERAL_TEXT("[0. 0.]", std::array<float, 2>{});
  CHECK_LITERAL_TEXT("[[0.]]", std::array<std::array<double, 1>, 1>{});
  CHECK_LITERAL_TEXT("0j", std::complex<float>(0.0f, 0.0f));
  CHECK_LITERAL_TEXT("(-0+0j)", std::complex<double>(-0.0, 0.0));
  CHECK_LITERAL_TEXT("[0.+0.j 0.-0.j]",
                     std::array<std::complex<float>, 2>{std::complex<float>(0.0f, 0.0f),
                                                        std::complex<float>(0.0f, -0.0f)});
}

TEST_CASE("literal text: float scalars are the shortest round-trip digits", "[literal][numpy]") {
  // Positional for 1e-4 <= |x| < 1e16 (with `.0` when whole), scientific otherwise.
  CHECK_LITERAL_TEXT("1e+16", 1e16f);
  CHECK_LITERAL_TEXT("123456.7", static_cast<float>(123456.7));
  CHECK_LITERAL_TEXT("3.4028235e+38", std::numeric_limits<float>::max());
  CHECK_LITERAL_TEXT("1e-45", std::numeric_limits<float>::denorm_min());
  CHECK_LITERAL_TEXT("1e-04", static_cast<float>(1e-4));  // float32(1e-4) < 1e-4
  CHECK_LITERAL_TEXT("16777216.0", 16777216.0f);
  CHECK_LITERAL_TEXT("nan", nan_f);
  CHECK_LITERAL_TEXT("-inf", -inf_f);
  CHECK_LITERAL_TEXT("0.1", 0.1);
  CHECK_LITERAL_TEXT("1e+16", 1e16);
  CHECK_LITERAL_TEXT("1000000000000000.0", 1e15);
  CHECK_LITERAL_TEXT("5e-324", std::numeric_limits<double>::denorm_min());
  CHECK_LITERAL_TEXT("1.7976931348623157e+308", std::numeric_limits<double>::max());
  CHECK_LITERAL_TEXT("2.5", 2.5);
  CHECK_LITERAL_TEXT("0.3333333333333333", 1.0 / 3);
  CHECK_LITERAL_TEXT("100.0", 100.0);
  CHECK_LITERAL_TEXT("1e-05", 1e-5);
  CHECK_LITERAL_TEXT("0.0001", 0.0001);
  CHECK_LITERAL_TEXT("inf", inf_d);
  CHECK_LITERAL_TEXT("nan", -nan_d);  // numpy never signs a nan
}

TEST_CASE("literal text: integers, bools, complex numbers, bytes", "[literal][numpy]") {
  CHECK_LITERAL_TEXT("-128", std::int8_t{-128});
  CHECK_LITERAL_TEXT("255", std::uint8_t{255});
  CHECK_LITERAL_TEXT("-32768", std::int16_t{-32768});
  CHECK_LITERAL_TEXT("65535", std::uint16_t{65535});
  CHECK_LITERAL_TEXT("-2147483648", std::numeric_limits<std::int32_t>::min());
  CHECK_LITERAL_TEXT("4294967295", std::numeric_limits<std::uint32_t>::max());
  CHECK_LITERAL_TEXT("-9223372036854775808", std::numeric_limits<std::int64_t>::min());
  CHECK_LITERAL_TEXT("18446744073709551615", std::numeric_limits<std::uint64_t>::max());
  CHECK_LITERAL_TEXT("True", true);
  CHECK_LITERAL_TEXT("False", false);
  // Complex: `(re+imj)` with each part as a scalar without a trailing `.0`; `imj` alone when the
  // real part is +0.
  using c64 = std::complex<float>;
  using c128 = std::complex<double>;
  CHECK_LITERAL_TEXT("(1+2j)", c64(1.0f, 2.0f));
  CHECK_LITERAL_TEXT("(1.5-0.5j)", c64(1.5f, -0.5f));
  CHECK_LITERAL_TEXT("2j", c64(0.0f, 2.0f));
  CHECK_LITERAL_TEXT("-0j", c64(0.0f, -0.0f));
  CHECK_LITERAL_TEXT("(-0-0j)", c128(-0.0, -0.0));
  CHECK_LITERAL_TEXT("(1e-05+1e+20j)", c64(1e-5f, 1e20f));
  CHECK_LITERAL_TEXT("(0.1+0.2j)", c128(0.1, 0.2));
  CHECK_LITERAL_TEXT("(0.1+0.2j)", c64(0.1f, 0.2f));
  CHECK_LITERAL_TEXT("(nan+infj)", c64(nan_f, inf_f));
  CHECK_LITERAL_TEXT("(inf+nanj)", c128(inf_d, -nan_d));
  CHECK_LITERAL_TEXT("(1-infj)", c64(1.0f, -inf_f));
  CHECK_LITERAL_TEXT("nanj", c64(0.0f, nan_f));
  CHECK_LITERAL_TEXT("-infj", c128(0.0, -inf_d));
  CHECK_LITERAL_TEXT("1e+20j", c64(0.0f, 1e20f));
  // Bytes: Python's repr, in double quotes when only a single one occurs. A scalar is the bytes
  // object read from the proto, so its trailing NULs stay (federated_language 0.5.3 prints
  // `federated_value_at_server(b'trail\x00')`).
  using sv = std::string_view;
  CHECK_LITERAL_TEXT("b'hi'", sv("hi"));
  CHECK_LITERAL_TEXT("b''", sv(""));
  CHECK_LITERAL_TEXT("b\"it's\"", sv("it's"));
  CHECK_LITERAL_TEXT("b'x\"y\\''", sv("x\"y'"));
  CHECK_LITERAL_TEXT("b'\\n\\t\\\\\\x7f\\x80\\r\\x00a'", sv("\n\t\\\x7f\x80\r\0a", 8));
  CHECK_LITERAL_TEXT("b'a\\x00\\x00'", sv("a\0\0", 3));
}

TEST_CASE("literal text: float arrays share one format", "[literal][numpy]") {
  // Positional: at most 8 digits after the point, shortest round-trip digits for each element.
  CHECK_LITERAL_TEXT("[0.33333333 0.66666667]", std::array<double, 2>{1.0 / 3, 2.0 / 3});
  // Scientific mantissas all get the longest one's digits: the extra ones are the value's own.
  CHECK_LITERAL_TEXT("[9.9999997e-06 3.3333334e-01]",
                     std::array<float, 2>{1e-5f, static_cast<float>(1.0 / 3)});
  // Positional digits go down to the units: 99999992 needs only 9999999e1 to round-trip.
  CHECK_LITERAL_TEXT("[99999992.   100000.]", std::array<float, 2>{99999992.0f, 100000.0f});
  CHECK_LITERAL_TEXT("99999990.0", 99999992.0f);
  CHECK_LITERAL_TEXT("[1.e-300 1.e+300]", std::array<double, 2>{1e-300, 1e300});
  CHECK_LITERAL_TEXT("[ 1.5e+300 -2.5e-300]", std::array<double, 2>{1.5e300, -2.5e-300});
  CHECK_LITERAL_TEXT("[[1.5e+00 1.0e-05]\n [    nan    -inf]]",
                     std::array<std::array<float, 2>, 2>{{{1.5f, 1e-5f}, {nan_f, -inf_f}}});
  CHECK_LITERAL_TEXT("[nan]", std::array<double, 1>{nan_d});
  CHECK_LITERAL_TEXT("[ nan -inf]", std::array<double, 2>{nan_d, -inf_d});
  // Complex: real parts and imaginary parts (always signed) each share a format.
  using c64 = std::complex<float>;
  using c128 = std::complex<double>;
  CHECK_LITERAL_TEXT("[1. +2.j 3.5-1.j]", std::array<c64, 2>{c64(1, 2), c64(3.5f, -1)});
  CHECK_LITERAL_TEXT("[1. +2.e+00j 3.5-1.e-05j]", std::array<c64, 2>{c64(1, 2), c64(3.5f, -1e-5f)});
  CHECK_LITERAL_TEXT("[nan +1.j  1.+infj -0. +0.j]",
                     std::array<c128, 3>{c128(nan_d, 1), c128(1, inf_d), c128(-0.0, 0.0)});
  CHECK_LITERAL_TEXT("[0.+1.j 2.+0.j]", std::array<c64, 2>{c64(0, 1), c64(2, 0)});
  CHECK_LITERAL_TEXT("[1.e+10+1.j 1.e+00-1.j]", std::array<c128, 2>{c128(1e10, 1), c128(1, -1)});
}

TEST_CASE("literal text: integer, bool and bytes arrays", "[literal][numpy]") {
  CHECK_LITERAL_TEXT("[18446744073709551615                    0]",
                     std::array<std::uint64_t, 2>{std::numeric_limits<std::uint64_t>::max(), 0});
  CHECK_LITERAL_TEXT("[-128    5]", std::array<std::int8_t, 2>{-128, 5});
  CHECK_LITERAL_TEXT("[7]", std::array<std::int32_t, 1>{7});
  CHECK_LITERAL_TEXT("[False  True]", std::array<bool, 2>{false, true});
  // Bytes are not padded.
  using sv = std::string_view;
  CHECK_LITERAL_TEXT("[b'a' b'bc']", std::array<sv, 2>{"a", "bc"});
  CHECK_LITERAL_TEXT("[b'a' b\"it's\" b'x\"y\\'' b'\\n\\t\\\\\\x7f\\x80']",
                     std::array<sv, 4>{sv("a\0", 2), "it's", "x\"y'", "\n\t\\\x7f\x80"});
  CHECK_LITERAL_TEXT("[b'']", std::array<sv, 1>{""});
}

TEST_CASE("literal text: rows, line wrapping and summaries", "[literal][numpy]") {
  // Blank lines between blocks of a 3-d array.
  CHECK_LITERAL_TEXT("[[[1 2]\n  [3 4]]\n\n [[5 6]\n  [7 8]]]",
                     [] {
                       std::array<std::array<std::array<std::int8_t, 2>, 2>, 2> a{};
                       for (int i = 0; i < 8; ++i) a[i / 4][i / 2 % 2][i % 2] = static_cast<std::int8_t>(i + 1);
                       return a;
                     }());
  CHECK_LITERAL_TEXT(
      "[[[ 0.   1.5  3.   4.5]\n  [ 6.   7.5  9.  10.5]\n  [12.  13.5 15.  16.5]]\n\n"
      " [[18.  19.5 21.  22.5]\n  [24.  25.5 27.  28.5]\n  [30.  31.5 33.  34.5]]]",
      [] {
        auto a = iota3<float, 2, 3, 4>();
        for (auto& x : a)
          for (auto& y : x)
            for (auto& z : y) z *= 1.5f;
        return a;
      }());
  // A row wraps before column 75 less one per open bracket; continuation lines are indented by
  // the open brackets.
  CHECK_LITERAL_TEXT(
      "[[100.  100.5 101.  101.5 102.  102.5 103.  103.5 104.  104.5 105.  105.5\n"
      "  106.  106.5 107.  107.5 108.  108.5 109.  109.5]\n"
      " [110.  110.5 111.  111.5 112.  112.5 113.  113.5 114.  114.5 115.  115.5\n"
      "  116.  116.5 117.  117.5 118.  118.5 119.  119.5]]",
      (iota2<float, 2, 20>(100.0f, 0.5f)));
  CHECK_LITERAL_TEXT(
      "[0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1\n"
      " 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1]",
      [] {
        std::array<double, 30> a{};
        for (auto& x : a) x = 0.1;
        return a;
      }());
  CHECK_LITERAL_TEXT(
      "[ True  True  True  True  True  True  True  True  True  True  True  True\n"
      "  True  True  True  True  True  True  True  True  True  True  True  True\n"
      "  True  True  True  True  True  True]",
      [] {
        std::array<bool, 30> a{};
        for (auto& x : a) x = true;
        return a;
      }());
  CHECK_LITERAL_TEXT(
      "[b'abcdefghij' b'abcdefghij' b'abcdefghij' b'abcdefghij' b'abcdefghij'\n"
      " b'abcdefghij' b'abcdefghij' b'abcdefghij' b'abcdefghij' b'abcdefghij'\n"
      " b'abcdefghij' b'abcdefghij']",
      [] {
        std::array<std::string_view, 12> a{};
        for (auto& x : a) x = "abcdefghij";
        return a;
      }());
  // Above 1000 elements: 3 at each end of every axis longer than 6, widths from those alone.
  CHECK_LITERAL_TEXT(
      "[[   0    1]\n [   2    3]\n [   4    5]\n ...\n [1998 1999]\n [2000 2001]\n [2002 2003]]",
      (iota2<std::int64_t, 1002, 2>()));
  CHECK_LITERAL_TEXT(
      "[[-1000  -999  -998 ...    -2    -1     0]\n [    1     2     3 ...   999  1000  1001]]",
      (iota2<std::int64_t, 2, 1001>(-1000)));
  CHECK_LITERAL_TEXT(
      "[[[   0    1    2 ...  297  298  299]\n  [ 300  301  302 ...  597  598  599]]\n\n"
      " [[ 600  601  602 ...  897  898  899]\n  [ 900  901  902 ... 1197 1198 1199]]]",
      (iota3<std::int32_t, 2, 2, 300>()));
  CHECK_LITERAL_TEXT("[0 0 0 ... 0 0 0]", std::array<std::uint8_t, 1001>{});
}

TEST_CASE("literal text: float16 and bfloat16", "[literal][numpy]") {
  // float16: numpy's float printing with float16's own shortest digits.
  CHECK_BITS_TEXT("1.0", dtype::float16, SCALAR, 0x3c00);
  CHECK_BITS_TEXT("0.1", dtype::float16, SCALAR, 0x2e66);
  CHECK_BITS_TEXT("65500.0", dtype::float16, SCALAR, 0x7bff);   // 65504
  CHECK_BITS_TEXT("6e-08", dtype::float16, SCALAR, 0x0001);     // 2^-24
  CHECK_BITS_TEXT("-0.0", dtype::float16, SCALAR, 0x8000);
  CHECK_BITS_TEXT("-inf", dtype::float16, SCALAR, 0xfc00);
  CHECK_BITS_TEXT("nan", dtype::float16, SCALAR, 0xfe00);
  CHECK_BITS_TEXT("[0.1 0.2]", dtype::float16, SHAPE(2), 0x2e66, 0x3266);
  CHECK_BITS_TEXT("[ 6.55e+04  5.96e-08 -0.00e+00]", dtype::float16, SHAPE(3), 0x7bff, 0x0001, 0x8000);
  CHECK_BITS_TEXT("[[ 1.  -2. ]\n [ 0.5  inf]]", dtype::float16, SHAPE(2, 2), 0x3c00, 0xc000, 0x3800, 0x7c00);
  // bfloat16: ml_dtypes' text, C++ `ostream << float` (6 significant digits); under numpy 1.x its
  // arrays print each element's repr, unpadded.
  CHECK_BITS_TEXT("1", dtype::bfloat16, SCALAR, 0x3f80);
  CHECK_BITS_TEXT("0.100098", dtype::bfloat16, SCALAR, 0x3dcd);  // 0.10009765625
  CHECK_BITS_TEXT("-2", dtype::bfloat16, SCALAR, 0xc000);
  CHECK_BITS_TEXT("-0", dtype::bfloat16, SCALAR, 0x8000);
  CHECK_BITS_TEXT("1.00136e-05", dtype::bfloat16, SCALAR, 0x3728);   // 1.00135803...e-05
  CHECK_BITS_TEXT("2.49981e+09", dtype::bfloat16, SCALAR, 0x4f15);   // 2499805184
  CHECK_BITS_TEXT("65536", dtype::bfloat16, SCALAR, 0x4780);
  CHECK_BITS_TEXT("1.67772e+07", dtype::bfloat16, SCALAR, 0x4b80);   // 2^24
  CHECK_BITS_TEXT("0.000999451", dtype::bfloat16, SCALAR, 0x3a83);   // 0.00099945068...
  CHECK_BITS_TEXT("inf", dtype::bfloat16, SCALAR, 0x7f80);
  CHECK_BITS_TEXT("-inf", dtype::bfloat16, SCALAR, 0xff80);
  CHECK_BITS_TEXT("nan", dtype::bfloat16, SCALAR, 0xffc0);
  CHECK_BITS_TEXT("[1 0.5 0.100098]", dtype::bfloat16, SHAPE(3), 0x3f80, 0x3f00, 0x3dcd);
  CHECK_BITS_TEXT("[[1 -2]\n [inf nan]]", dtype::bfloat16, SHAPE(2, 2), 0x3f80, 0xc000, 0x7f80, 0x7fc0);
  CHECK_BITS_TEXT("[]", dtype::bfloat16, SHAPE(0), );
  CHECK_BITS_TEXT("[]", dtype::float32, SHAPE(2, 0), );
}

// Many values: numpy's str() of each (scalars, and arrays of 8), printed during constant
// evaluation (static_assert) and at run time from bit patterns read through a volatile.
namespace {

struct scalar_case {
  dtype dt;
  std::uint64_t bits;
  std::string_view text;
};

struct array_case {
  dtype dt;
  std::array<std::uint64_t, 8> bits;
  std::string_view text;
};

constexpr scalar_case scalar_cases[] = {
    {dtype::float32, 0xb167a398, "-3.3707916e-09"},
    {dtype::float32, 0x3ff00000, "1.875"},
    {dtype::float32, 0x19d24c19, "2.1744227e-23"},
    {dtype::float32, 0xb686ed09, "-4.0211057e-06"},
    {dtype::float32, 0xe76e94cd, "-1.1266681e+24"},
    {dtype::float32, 0xb0a27ec7, "-1.1823084e-09"},
    {dtype::float32, 0x5e30394b, "3.1745658e+18"},
    {dtype::float32, 0xbf500000, "-0.8125"},
    {dtype::float32, 0x48aaf553, "350122.6"},
    {dtype::float32, 0x3c9636fd, "0.018336767"},
    {dtype::float32, 0x13631d2a, "2.8665807e-27"},
    {dtype::float32, 0xaebb1e8c, "-8.509202e-11"},
    {dtype::float32, 0x1f083f92, "2.8851704e-20"},
    {dtype::float32, 0xb5300000, "-6.556511e-07"},
    {dtype::float32, 0x115654ed, "1.6907793e-28"},
    {dtype::float32, 0xcbec7691, "-30993698.0"},
    {dtype::float32, 0xeb02c5a9, "-1.5809378e+26"},
    {dtype::float32, 0x440b463a, "557.0973"},
    {dtype::float32, 0xbca8b373, "-0.02059338"},
    {dtype::float32, 0x42200000, "40.0"},
    {dtype::float32, 0x299347f9, "6.5405967e-14"},
    {dtype::float32, 0xc4e8fe03, "-1863.9379"},
    {dtype::float32, 0x5ae5753d, "3.2293337e+16"},
    {dtype::float32, 0xacb3082e, "-5.088394e-12"},
    {dtype::float32, 0x503bd553, "12605279000.0"},
    {dtype::float32, 0xc6e00000, "-28672.0"},
    {dtype::float32, 0x4c39aa90, "48671296.0"},
    {dtype::float32, 0x5017d134, "10188280000.0"},
    {dtype::float32, 0x2e46b7bf, "4.5183187e-11"},
    {dtype::float32, 0x4013e86e, "2.3110614"},
    {dtype::float32, 0x328b6ac, "4.958046e-37"},
    {dtype::float32, 0xc3a00000, "-320.0"},
    {dtype::float32, 0x4c1198ef, "38167484.0"},
    {dtype::float32, 0xb0b65985, "-1.3267686e-09"},
    {dtype::float32, 0x50c30b29, "26178308000.0"},
    {dtype::float32, 0x453f1a53, "3057.6453"},
    {dtype::float32, 0x75013146, "1.6377092e+32"},
    {dtype::float32, 0xc0200000, "-2.5"},
    {dtype::float32, 0x22f28e74, "6.574506e-18"},
    {dtype::float32, 0x3f37f931, "0.7186461"},
    {dtype::float32, 0xce8ebc85, "-1197359700.0"},
    {dtype::float32, 0xbb99f092, "-0.0046978677"},
    {dtype::float32, 0x2372246a, "1.3126557e-17"},
    {dtype::float32, 0x38400000, "4.5776367e-05"},
    {dtype::float32, 0xdf12171a, "-1.0526911e+19"},
    {dtype::float32, 0xae0138a9, "-2.938153e-11"},
    {dtype::float32, 0xdfcb9815, "-2.9340998e+19"},
    {dtype::float32, 0x301bf1c9, "5.673227e-10"},
    {dtype::float32, 0x73cf05, "1.0635347e-38"},
    {dtype::float32, 0xbbb00000, "-0.0053710938"},
    {dtype::float32, 0xea82ad89, "-7.898993e+25"},
    {dtype::float32, 0xc54e1938, "-3297.5762"},
    {dtype::float32, 0x65fb9b6e, "1.48522645e+23"},
    {dtype::float32, 0x393a1351, "0.00017745538"},
    {dtype::float32, 0x4b976ada, "19846580.0"},
    {dtype::float32, 0x2c400000, "2.728484e-12"},
    {dtype::float32, 0xe8d395c7, "-7.993458e+24"},
    {dtype::float32, 0x31def066, "6.4883805e-09"},
    {dtype::float32, 0x9666af43, "-1.8634555e-25"},
    {dtype::float32, 0xb44dba28, "-1.9159836e-07"},
    {dtype::float32, 0x5ea1379e, "5.808464e+18"},
    {dtype::float32, 0xac000000, "-1.8189894e-12"},
    {dtype::float32, 0x3838f755, "4.4099364e-05"},
    {dtype::float32, 0xc59ecfa4, "-5081.955"},
    {dtype::float32, 0x2b7c8809, "8.971717e-13"},
    {dtype::float32, 0x520b899b, "149827270000.0"},
    {dtype::float32, 0x7185b55d, "1.3241844e+30"},
    {dtype::float32, 0xc0d00000, "-6.5"},
    {dtype::float32, 0x127e0bae, "8.0162664e-28"},
    {dtype::float32, 0xb5828a1b, "-9.725949e-07"},
    {dtype::float32, 0x2507ecdd, "1.1789636e-16"},
    {dtype::float32, 0xca7010ca, "-3933234.5"},
    {dtype::float32, 0x4daef273, "366890600.0"},
    {dtype::float32, 0xb6900000, "-4.2915344e-06"},
    {dtype::float32, 0x7998c826, "9.916108e+34"},
    {dtype::float32, 0x32a8bbcd, "1.9643176e-08"},
    {dtype::float32, 0xb326a5c8, "-3.8800664e-08"},
    {dtype::float32, 0xb8ce7204, "-9.8440825e-05"},
    {dtype::float32, 0x66b0a716, "4.1710935e+23"},
    {dtype::float32, 0x33b00000, "8.195639e-08"},
    {dtype::float32, 0x30074294, "4.9207327e-10"},
    {dtype::float32, 0x332e73df, "4.0617916e-08"},
    {dtype::float32, 0x9230adf3, "-5.5750217e-28"},
    {dtype::float32, 0x2de255db, "2.5731353e-11"},
    {dtype::float32, 0x2681b1c1, "8.999353e-16"},
    {dtype::float32, 0xcc100000, "-37748736.0"},
    {dtype::float32, 0xd2602368, "-240666670000.0"},
    {dtype::float32, 0x4f265878, "2790815700.0"},
    {dtype::float32, 0x396bfa65, "0.00022504626"},
    {dtype::float32, 0x309801cc, "1.1059966e-09"},
    {dtype::float32, 0xf9fbf4a1, "-1.6352852e+35"},
    {dtype::float32, 0xc9f00000, "-1966080.0"},
    {dtype::float32, 0x93cb1094, "-5.126075e-27"},
    {dtype::float32, 0x326f935c, "1.3945137e-08"},
    {dtype::float32, 0x92e57e86, "-1.4483122e-27"},
    {dtype::float32, 0xc7386094, "-47200.58"},
    {dtype::float32, 0xaf36cbc5, "-1.6625197e-10"},
    {dtype::float32, 0x2c000000, "1.8189894e-12"},
    {dtype::float32, 0xfea4316, "2.3100022e-29"},
    {dtype::float32, 0xb1fff072, "-7.4488122e-09"},
    {dtype::float32, 0x5a9cd7e4, "2.2073735e+16"},
    {dtype::float32, 0x31fcb681, "7.3549136e-09"},
    {dtype::float32, 0xe9ba79e7, "-2.8179484e+25"},
    {dtype::float32, 0x40e00000, "7.0"},
    {dtype::float32, 0x12b85bfa, "1.16347065e-27"},
    {dtype::float32, 0x3d92e457, "0.071724586"},
    {dtype::float32, 0xaa5272bf, "-1.8691557e-13"},
    {dtype::float32, 0xb6a3d385, "-4.8824027e-06"},
    {dtype::float32, 0x1de1b97d, "5.9748794e-21"},
    {dtype::float32, 0xc6300000, "-11264.0"},
    {dtype::float32, 0x7eac894f, "1.1467008e+38"},
    {dtype::float32, 0xbe708240, "-0.23487186"},
    {dtype::float32, 0xbb9e2f36, "-0.0048274053"},
    {dtype::float32, 0x4af66144, "8073378.0"},
    {dtype::float32, 0xd0c8f112, "-26969936000.0"},
    {dtype::float32, 0x33100000, "3.3527613e-08"},
    {dtype::float32, 0x34bc52d2, "3.5077989e-07"},
    {dtype::float32, 0xbd7b33d5, "-0.061328728"},
    {dtype::float32, 0xf27e847, "8.278471e-30"},
    {dtype::float32, 0xad71d614, "-1.3746799e-11"},
    {dtype::float32, 0x71aa3c0e, "1.6859217e+30"},
    {dtype::float32, 0x2c000000, "1.8189894e-12"},
    {dtype::float32, 0xd95be90c, "-3868703600000000.0"},
    {dtype::float32, 0x4fdfaff2, "7505700000.0"},
    {dtype::float32, 0xb16e480, "2.9060853e-32"},
    {dtype::float32, 0x5213ccab, "158698490000.0"},
    {dtype::float32, 0xd1ee379f, "-127891920000.0"},
    {dtype::float32, 0x3fd00000, "1.625"},
    {dtype::float32, 0x2693a703, "1.0245443e-15"},
    {dtype::float32, 0xb5d130dc, "-1.5585933e-06"},
    {dtype::float32, 0x8372b4b3, "-7.132484e-37"},
    {dtype::float32, 0xc87dc006, "-259840.1"},
    {dtype::float32, 0x2ab6f1c8, "3.2497464e-13"},
    {dtype::float32, 0xc4200000, "-640.0"},
    {dtype::float32, 0x454a22f2, "3234.184"},
    {dtype::float32, 0xc2c56019, "-98.68769"},
    {dtype::float32, 0x4ad025fd, "6820606.5"},
    {dtype::float32, 0xc93be648, "-769636.5"},
    {dtype::float32, 0xf5961694, "-3.805188e+32"},
    {dtype::float32, 0x4be00000, "29360128.0"},
    {dtype::float32, 0xb4584818, "-2.0142795e-07"},
    {dtype::float32, 0x4506f3da, "2159.2407"},
    {dtype::float32, 0x64998e21, "2.2660746e+22"},
    {dtype::float32, 0x30ad4c3e, "1.2609076e-09"},
    {dtype::float32, 0x356d8bca, "8.84928e-07"},
    {dtype::float32, 0xb2b00000, "-2.0489097e-08"},
    {dtype::float32, 0x47eebb45, "122230.54"},
    {dtype::float32, 0xc6537cdc, "-13535.215"},
    {dtype::float32, 0x667aee82, "2.9624783e+23"},
    {dtype::float32, 0x2ce0bccb, "6.387423e-12"},
    {dtype::float32, 0xf64fcad5, "-1.0536322e+33"},
    {dtype::float32, 0x2ee00000, "1.0186341e-10"},
    {dtype::float32, 0xe00afba2, "-4.0059105e+19"},
    {dtype::float32, 0xabeb45a5, "-1.6717085e-12"},
    {dtype::float32, 0xcb4f82e4, "-13599460.0"},
    {dtype::float32, 0xb7902f87, "-1.718827e-05"},
    {dtype::float32, 0xd5377d42, "-12609288000000.0"},
    {dtype::float32, 0xacb00000, "-5.002221e-12"},
    {dtype::float32, 0xcd595601, "-227893260.0"},
    {dtype::float32, 0xaf714628, "-2.1943747e-10"},
    {dtype::float32, 0x746944a4, "7.392562e+31"},
    {dtype::float32, 0x38614bc7, "5.3714753e-05"},
    {dtype::float32, 0x4c291295, "44321364.0"},
    {dtype::float32, 0x3bb00000, "0.0053710938"},
    {dtype::float32, 0x93955d3c, "-3.7704824e-27"},
    {dtype::float32, 0xbcba5725, "-0.022746632"},
    {dtype::float32, 0x129d5d, "1.70949e-39"},
    {dtype::float32, 0xc7c57890, "-101105.125"},
    {dtype::float32, 0xf1e559, "2.2214629e-38"},
    {dtype::float32, 0xc8d00000, "-425984.0"},
    {dtype::float32, 0x71cc2e06, "2.0220986e+30"},
    {dtype::float32, 0xc1ebf408, "-29.494156"},
    {dtype::float32, 0xab866f7a, "-9.552214e-13"},
    {dtype::float32, 0xbe95f614, "-0.29289305"},
    {dtype::float32, 0x43cb4ceb, "406.60092"},
    {dtype::float32, 0x31f00000, "6.9849193e-09"},
    {dtype::float32, 0xc4fc3730, "-2017.7246"},
    {dtype::float32, 0xcb734290, "-15942288.0"},
    {dtype::float32, 0xd4e858ed, "-7983394700000.0"},
    {dtype::float32, 0xc656e5f9, "-13753.493"},
    {dtype::float32, 0x45d39cb1, "6771.5864"},
    {dtype::float32, 0x32200000, "9.313226e-09"},
    {dtype::float32, 0x5617a475, "41683150000000.0"},
    {dtype::float32, 0xcb13ee19, "-9694745.0"},
    {dtype::float32, 0xc804200, "1.9761245e-31"},
    {dtype::float32, 0xaf34b7d7, "-1.6436218e-10"},
    {dtype::float32, 0xc43c4088, "-753.0083"},
    {dtype::float32, 0xc0e00000, "-7.0"},
    {dtype::float32, 0xb6edccbb, "-7.086984e-06"},
    {dtype::float32, 0x51859758, "71721220000.0"},
    {dtype::float32, 0xacf9550b, "-7.0864473e-12"},
    {dtype::float32, 0x3e1f678d, "0.15566845"},
    {dtype::float32, 0x2d4eb788, "1.1750496e-11"},
    {dtype::float32, 0x3a100000, "0.0005493164"},
    {dtype::float32, 0xb3f56d1b, "-1.1428548e-07"},
    {dtype::float32, 0xbc0ea518, "-0.008706354"},
    {dtype::float32, 0xb0bec61d, "-1.3880627e-09"},
    {dtype::float32, 0x2b898122, "9.770277e-13"},
    {dtype::float32, 0x14316688, "8.956437e-27"},
    {dtype::float32, 0xb0100000, "-5.2386895e-10"},
    {dtype::float32, 0xdcd96f1, "1.2670438e-30"},
    {dtype::float32, 0x348259a4, "2.427961e-07"},
    {dtype::float32, 0x4b44bb75, "12893045.0"},
    {dtype::float32, 0xb9b04793, "-0.00033622663"},
    {dtype::float32, 0x43d7582, "2.22708e-36"},
    {dtype::float32, 0x52a00000, "343597400000.0"},
    {dtype::float32, 0x70d4a50e, "5.264829e+29"},
    {dtype::float32, 0xd20523a0, "-142957080000.0"},
    {dtype::float32, 0x56a0f849, "88494120000000.0"},
    {dtype::float32, 0xaba6d238, "-1.1853357e-12"},
    {dtype::float32, 0xb4351e6a, "-1.6868003e-07"},
    {dtype::float32, 0x43a00000, "320.0"},
    {dtype::float32, 0x8fb11d3e, "-1.7464811e-29"},
    {dtype::float32, 0xae4a467e, "-4.5992092e-11"},
    {dtype::float32, 0x24841684, "5.728402e-17"},
    {dtype::float32, 0xd3720142, "-1039403200000.0"},
    {dtype::float32, 0x358f8008, "1.0691592e-06"},
    {dtype::float32, 0x4f300000, "2952790000.0"},
    {dtype::float32, 0x83da2858, "-1.2822151e-36"},
    {dtype::float32, 0x3ae8b2f4, "0.0017753527"},
    {dtype::float32, 0x9836eccb, "-2.3642499e-24"},
    {dtype::float32, 0xc8fc9a76, "-517331.7"},
    {dtype::float32, 0x7f72f81e, "3.2296147e+38"},
    {dtype::float32, 0xcc700000, "-62914560.0"},
    {dtype::float32, 0x1059fa8e, "4.2988724e-29"},
    {dtype::float32, 0xb531d58f, "-6.6248407e-07"},
    {dtype::float32, 0xc73dca6, "1.8786438e-31"},
    {dtype::float32, 0xc2349156, "-45.14193"},
    {dtype::float32, 0x4645804d, "12640.075"},
    {dtype::float32, 0x50900000, "19327353000.0"},
    {dtype::float32, 0xe3abc3d4, "-6.337008e+21"},
    {dtype::float32, 0x2bfb78fa, "1.78682e-12"},
    {dtype::float32, 0xda259fa2, "-1.1654722e+16"},
    {dtype::float32, 0x3d0982d0, "0.03357202"},
    {dtype::float32, 0x782d493f, "1.405864e+34"},
    {dtype::float32, 0x52400000, "206158430000.0"},
    {dtype::float32, 0x3591c811, "1.0861569e-06"},
    {dtype::float32, 0xc0cc5989, "-6.3859296"},
    {dtype::float32, 0xb4cdbde9, "-3.8322403e-07"},
    {dtype::float32, 0x3a1915c3, "0.00058397296"},
    {dtype::float32, 0x95807df4, "-5.189751e-26"},
    {dtype::float32, 0xcc000000, "-33554432.0"},
    {dtype::float32, 0x71a3681b, "1.6183012e+30"},
    {dtype::float32, 0xae24bc4c, "-3.7456524e-11"},
    {dtype::float32, 0x68e0d809, "8.494362e+24"},
    {dtype::float32, 0xb80734fb, "-3.223585e-05"},
    {dtype::float32, 0x75c48a65, "4.9828963e+32"},
    {dtype::float32, 0xc6f00000, "-30720.0"},
    {dtype::float32, 0xfef8e9b, "2.3622149e-29"},
    {dtype::float32, 0xbb9cc827, "-0.004784602"},
    {dtype::float32, 0xa769c8b6, "-3.2444051e-15"},
    {dtype::float32, 0x4e15d98b, "628515500.0"},
    {dtype::float32, 0x61fa1f51, "5.7674283e+20"},
    {dtype::float32, 0x31b00000, "5.122274e-09"},
    {dtype::float32, 0x91c34a9a, "-3.0811552e-28"},
    {dtype::float32, 0xb9a9836c, "-0.0003233211"},
    {dtype::float64, 0x73d98ba5df097, "1.006930987533093e-308"},
    {dtype::float64, 0xbdf8000000000000, "-3.4924596548080444e-10"},
    {dtype::float64, 0x17cdd5e94a8195, "3.3103599295776087e-308"},
    {dtype::float64, 0x41bd918704db808c, "496076548.8574302"},
    {dtype::float64, 0x196ddb051587ac, "3.5363548336891695e-308"},
    {dtype::float64, 0xbd7212d428f61ad4, "-1.0273623618540898e-12"},
    {dtype::float64, 0x1dba8cc714c2a1, "4.134286049730004e-308"},
    {dtype::float64, 0xc14c000000000000, "-3670016.0"},
    {dtype::float64, 0x1dab13d3accc4f, "4.125880928793389e-308"},
    {dtype::float64, 0xbe37a51700b6337a, "-5.505253152123287e-09"},
    {dtype::float64, 0x165be24106e9c7, "3.1093906794543237e-308"},
    {dtype::float64, 0xbe8239940a4c8c19, "-1.3578619930632595e-07"},
    {dtype::float64, 0xe0b6735c8fd06, "1.95313417773489e-308"},
    {dtype::float64, 0xc22e000000000000, "-64424509440.0"},
    {dtype::float64, 0x106b40091a06dc, "2.283335450388082e-308"},
    {dtype::float64, 0xc022711a0293dcb3, "-9.220901566075872"},
    {dtype::float64, 0x127acf900b5f12, "2.5699227104835857e-308"},
    {dtype::float64, 0xc1a5f56b3198e0ec, "-184202648.79859102"},
    {dtype::float64, 0x183edb04e69a60, "3.371755862656124e-308"},
    {dtype::float64, 0xbfc4000000000000, "-0.15625"},
    {dtype::float64, 0x9ec8629a0dcf3, "1.380091235612736e-308"},
    {dtype::float64, 0xc216cf666bb7b5ba, "-24492219117.927467"},
    {dtype::float64, 0x15230b7b193175, "2.939446883899849e-308"},
    {dtype::float64, 0xbd9ebfd6030e1fc2, "-6.9915948445127064e-12"},
    {dtype::float64, 0x17b2f7a8a6ae99, "3.2957643067239253e-308"},
    {dtype::float64, 0xbd86000000000000, "-2.5011104298755527e-12"},
    {dtype::float64, 0x96c85c06a37ff, "1.310556805415216e-308"},
    {dtype::float64, 0x3f5921f19760a7e2, "0.0015339717188091952"},
    {dtype::float64, 0x1964602a36ce2d, "3.531205057676628e-308"},
    {dtype::float64, 0xbeaed421f16184a2, "-9.187651552994148e-07"},
    {dtype::float64, 0x1f67bce7459fdd, "4.3674342381065925e-308"},
    {dtype::float64, 0x41dc000000000000, "1879048192.0"},
    {dtype::float64, 0xdf0a973a86482, "1.938607507415376e-308"},
    {dtype::float64, 0xc165d77b0f8bfe71, "-11451352.4858391"},
    {dtype::float64, 0x248cfb6ff8449, "3.17687628740983e-309"},
    {dtype::float64, 0x3dc0dfcef387121b, "3.0694084809373015e-11"},
    {dtype::float64, 0x13cb4455c28019, "2.75269609082263e-308"},
    {dtype::float64, 0xbea0000000000000, "-4.76837158203125e-07"},
    {dtype::float64, 0x1bc2fa54b3384e, "3.8607301362239897e-308"},
    {dtype::float64, 0x3d8f59acd86bd336, "3.5641157480116585e-12"},
    {dtype::float64, 0x66a68746451d5, "8.92206827063696e-309"},
    {dtype::float64, 0xbf4b79d6a5fceb83, "-0.0008384988868564844"},
    {dtype::float64, 0x42fc5fd9c376b, "5.82220453341314e-309"},
    {dtype::float64, 0xbdfc000000000000, "-4.0745362639427185e-10"},
    {dtype::float64, 0x2315c1c7d242, "1.905925045458e-310"},
    {dtype::float64, 0x4173249f0e697427, "20072944.900745537"},
    {dtype::float64, 0x1a85a223ae3749, "3.68833879184069e-308"},
    {dtype::float64, 0x41f92251dcbc3ed0, "6746873291.765335"},
    {dtype::float64, 0x8417ae6fc1a82, "1.1481077373452365e-308"},
    {dtype::float64, 0xbdda000000000000, "-9.458744898438454e-11"},
    {dtype::float64, 0x103cbf7aad219a, "2.2580740319219533e-308"},
    {dtype::float64, 0xc06f74fe87f30141, "-251.65607068502325"},
    {dtype::float64, 0x193eb59fade3db, "3.510743625938592e-308"},
    {dtype::float64, 0xbff4e0130b81839c, "-1.3047056626748832"},
    {dtype::float64, 0x1cd193ea390517, "4.0077283900517096e-308"},
    {dtype::float64, 0xbed8000000000000, "-5.7220458984375e-06"},
    {dtype::float64, 0x1afc9b49a888e1, "3.752968732445915e-308"},
    {dtype::float64, 0x3e2f269ba2e5ca31, "3.6264318416080496e-09"},
    {dtype::float64, 0x169940cfcf1495, "3.1427284168561596e-308"},
    {dtype::float64, 0xc11d1dd77d2b235a, "-477045.87223487126"},
    {dtype::float64, 0xa941b8eb28b40, "1.4711278148070793e-308"},
    {dtype::float64, 0x4068000000000000, "192.0"},
    {dtype::float64, 0x160bec3239934a, "3.065953302917968e-308"},
    {dtype::float64, 0x3e53e85612b7433d, "1.854036317338435e-08"},
    {dtype::float64, 0xe28cdf840092f, "1.969105929987279e-308"},
    {dtype::float64, 0x3fcf3459de73763c, "0.2437851272760997"},
    {dtype::float64, 0xdd1e60e4f1521, "1.921895950476094e-308"},
    {dtype::float64, 0x3d7c000000000000, "1.5916157281026244e-12"},
    {dtype::float64, 0x159a8589d5b575, "3.0043503693129213e-308"},
    {dtype::float64, 0xc1a0bcff6edf6750, "-140410807.4363351"},
    {dtype::float64, 0x5e65bc027c23b, "8.204733873567075e-309"},
    {dtype::float64, 0xc231e7772be6b9f3, "-76897790950.72636"},
    {dtype::float64, 0xc491abc79cd17, "1.7085179853969935e-308"},
    {dtype::float64, 0x3eec000000000000, "1.33514404296875e-05"},
    {dtype::float64, 0x1a6fc76677548b, "3.676466778979176e-308"},
    {dtype::float64, 0x3f83e7ea5584de61, "0.009719687208970375"},
    {dtype::float64, 0x3ee32c3002da4, "5.465980241813347e-309"},
    {dtype::float64, 0x3f15a7340aada156, "8.260016572381643e-05"},
    {dtype::float64, 0x98d6b33d64e8d, "1.328427088711025e-308"},
    {dtype::float64, 0xc1a2000000000000, "-150994944.0"},
    {dtype::float64, 0x11d4f266d51725, "2.479820305594953e-308"},
    {dtype::float64, 0x3e0a7a78de90edfa, "7.706230628729883e-10"},
    {dtype::float64, 0x1e5b658a367229, "4.221662965873483e-308"},
    {dtype::float64, 0x3db923ddb16782a9, "2.2864789131295155e-11"},
    {dtype::float64, 0x17fb1fa6d14ca2, "3.3349617977764537e-308"},
    {dtype::float64, 0xbd82000000000000, "-2.0463630789890885e-12"},
    {dtype::float64, 0xbd0a42d37c6a8, "1.6430786917237866e-308"},
    {dtype::float64, 0x4162bb46ee471e54, "9820727.446181454"},
    {dtype::float64, 0x193ed840f42e53, "3.5108171106078554e-308"},
    {dtype::float64, 0xc24981616f00208c, "-219089657344.25427"},
    {dtype::float64, 0x8f50685b684d8, "1.24564234559061e-308"},
    {dtype::float64, 0xc100000000000000, "-131072.0"},
    {dtype::float64, 0x10c5881e27106a, "2.3323791916009755e-308"},
    {dtype::float64, 0x426f3fca4847e738, "1073713660479.2256"},
    {dtype::float64, 0x1cd559acc9083f, "4.009777728727914e-308"},
    {dtype::float64, 0xbdbd03ee6704af90, "-2.6389312990583023e-11"},
    {dtype::float64, 0x2503e1aa27980, "3.217244906273857e-309"},
    {dtype::float64, 0xc148000000000000, "-3145728.0"},
    {dtype::float64, 0x12353824016c7e, "2.532118459928472e-308"},
    {dtype::float64, 0x40db741ab6ab01c1, "28112.417399169648"},
    {dtype::float64, 0x1b5836539c1b9f, "3.802731738227934e-308"},
    {dtype::float64, 0xbe621b7c7f3a96ca, "-3.37276019589509e-08"},
    {dtype::float64, 0xfe2a3b292c5ca, "2.209124296349077e-308"},
    {dtype::float64, 0xc240000000000000, "-137438953472.0"},
    {dtype::float64, 0x182696fea542f2, "3.3585739729526724e-308"},
    {dtype::float64, 0x3f07fccfa235b931, "4.5752607799142543e-05"},
    {dtype::float64, 0xbe3f2dad7eb88, "1.653567034113023e-308"},
    {dtype::float64, 0x3f4b78b74788b11d, "0.0008383650702561727"},
    {dtype::float64, 0x2aaf9b3df1d0d, "3.71013357051614e-309"},
    {dtype::float64, 0xbdf0000000000000, "-2.3283064365386963e-10"},
    {dtype::float64, 0x186ac92f7b940a, "3.395620180284936e-308"},
    {dtype::float64, 0xc247f2ac0c61960f, "-205711218883.17233"},
    {dtype::float64, 0x1eee0eebdea3db, "4.3013341073287137e-308"},
    {dtype::float64, 0xbe4691cd33061192, "-1.050975981308504e-08"},
    {dtype::float64, 0x12d1067769086c, "2.6167570753925035e-308"},
    {dtype::float64, 0xbfaa000000000000, "-0.05078125"},
    {dtype::float64, 0x1a5f50f7ef1f28, "3.6675237725106736e-308"},
    {dtype::float64, 0xbef616b817f67a48, "-2.106547026203335e-05"},
    {dtype::float64, 0x13ce73baebff8b, "2.7544263559295807e-308"},
    {dtype::float64, 0x3e762e96a66ae793, "8.263433813162547e-08"},
    {dtype::float64, 0xd8c736a3217d0, "1.884169748962106e-308"},
    {dtype::float64, 0xc0fc000000000000, "-114688.0"},
    {dtype::float64, 0xcd16ca59f3727, "1.7825712050734813e-308"},
    {dtype::float64, 0x40094eef78021f2c, "3.1635426879546653"},
    {dtype::float64, 0x1235ebaff03f8a, "2.5324994570853726e-308"},
    {dtype::float64, 0xc1a219183c3246db, "-151817246.09819683"},
    {dtype::float64, 0xb4a90328e2a1c, "1.5702433524371053e-308"},
    {dtype::float64, 0x4108000000000000, "196608.0"},
    {dtype::float16, 0x3852, "0.54"},
    {dtype::float16, 0xe980, "-2816.0"},
    {dtype::float16, 0xcabf, "-13.49"},
    {dtype::float16, 0xae9a, "-0.10315"},
    {dtype::float16, 0x4e78, "25.88"},
    {dtype::float16, 0x9997, "-0.00273"},
    {dtype::float16, 0x7058, "8900.0"},
    {dtype::float16, 0xf080, "-9220.0"},
    {dtype::float16, 0x2049, "0.00837"},
    {dtype::float16, 0x6295, "842.5"},
    {dtype::float16, 0x2ec1, "0.1055"},
    {dtype::float16, 0x4d6b, "21.67"},
    {dtype::float16, 0xd65c, "-101.75"},
    {dtype::float16, 0xbf80, "-1.875"},
    {dtype::float16, 0x9720, "-0.0017395"},
    {dtype::float16, 0x4ff1, "31.77"},
    {dtype::float16, 0xf782, "-30750.0"},
    {dtype::float16, 0xa461, "-0.0171"},
    {dtype::float16, 0x68c3, "2438.0"},
    {dtype::float16, 0x8400, "-6.104e-05"},
    {dtype::float16, 0xb4c, "0.0002227"},
    {dtype::float16, 0xacd2, "-0.0753"},
    {dtype::float16, 0x11d, "1.7e-05"},
    {dtype::float16, 0x8ff8, "-0.0004864"},
    {dtype::float16, 0x2638, "0.02429"},
    {dtype::float16, 0x3f00, "1.75"},
    {dtype::float16, 0x61e2, "753.0"},
    {dtype::float16, 0x2646, "0.0245"},
    {dtype::float16, 0x2281, "0.0127"},
    {dtype::float16, 0x8938, "-0.0001593"},
    {dtype::float16, 0x6c42, "4360.0"},
    {dtype::float16, 0x5c80, "288.0"},
    {dtype::float16, 0xb087, "-0.1415"},
    {dtype::float16, 0xcd83, "-22.05"},
    {dtype::float16, 0x7845, "34980.0"},
    {dtype::float16, 0xd34a, "-58.3"},
    {dtype::float16, 0x91df, "-0.0007167"},
    {dtype::float16, 0xf680, "-26620.0"},
    {dtype::float16, 0xb747, "-0.4548"},
    {dtype::float16, 0xe125, "-658.5"},
    {dtype::float16, 0x39f9, "0.7466"},
    {dtype::float16, 0x72d8, "14020.0"},
    {dtype::float16, 0xd897, "-146.9"},
    {dtype::float16, 0xc480, "-4.5"},
    {dtype::float16, 0xb772, "-0.4653"},
    {dtype::float16, 0x42e2, "3.441"},
    {dtype::float16, 0x2f2e, "0.1122"},
    {dtype::float16, 0x1a7f, "0.003172"},
    {dtype::float16, 0x30fd, "0.1559"},
    {dtype::float16, 0x8c00, "-0.0002441"},
    {dtype::float16, 0x1f8f, "0.00738"},
    {dtype::float16, 0x8f12, "-0.0004315"},
    {dtype::float16, 0x68ee, "2524.0"},
    {dtype::float16, 0x3bfe, "0.999"},
    {dtype::float16, 0xe4c1, "-1217.0"},
    {dtype::float16, 0xa380, "-0.01465"},
    {dtype::float16, 0xa26a, "-0.01253"},
    {dtype::float16, 0x8773, "-0.00011367"},
    {dtype::float16, 0xc36b, "-3.709"},
    {dtype::float16, 0x5c00, "256.0"},
    {dtype::float16, 0xeb2e, "-3676.0"},
    {dtype::float16, 0xf00, "0.0004272"},
    {dtype::float16, 0x8a10, "-0.000185"},
    {dtype::float16, 0x4ab5, "13.414"},
};

constexpr array_case array_cases[] = {
    {dtype::float32, {0xb167a398, 0x3ff00000, 0x19d24c19, 0xb686ed09, 0xe76e94cd, 0xb0a27ec7, 0x5e30394b, 0xbf500000},
     "[-3.3707916e-09  1.8750000e+00  2.1744227e-23 -4.0211057e-06\n -1.1266681e+24 -1.1823084e-09  3.1745658e+18 -8.1250000e-01]"},
    {dtype::float32, {0x48aaf553, 0x3c9636fd, 0x13631d2a, 0xaebb1e8c, 0x1f083f92, 0xb5300000, 0x115654ed, 0xcbec7691},
     "[ 3.5012259e+05  1.8336767e-02  2.8665807e-27 -8.5092017e-11\n  2.8851704e-20 -6.5565109e-07  1.6907793e-28 -3.0993698e+07]"},
    {dtype::float32, {0xeb02c5a9, 0x440b463a, 0xbca8b373, 0x42200000, 0x299347f9, 0xc4e8fe03, 0x5ae5753d, 0xacb3082e},
     "[-1.5809378e+26  5.5709729e+02 -2.0593381e-02  4.0000000e+01\n  6.5405967e-14 -1.8639379e+03  3.2293337e+16 -5.0883941e-12]"},
    {dtype::float32, {0x503bd553, 0xc6e00000, 0x4c39aa90, 0x5017d134, 0x2e46b7bf, 0x4013e86e, 0x328b6ac, 0xc3a00000},
     "[ 1.2605279e+10 -2.8672000e+04  4.8671296e+07  1.0188280e+10\n  4.5183187e-11  2.3110614e+00  4.9580460e-37 -3.2000000e+02]"},
    {dtype::float32, {0x4c1198ef, 0xb0b65985, 0x50c30b29, 0x453f1a53, 0x75013146, 0xc0200000, 0x22f28e74, 0x3f37f931},
     "[ 3.8167484e+07 -1.3267686e-09  2.6178308e+10  3.0576453e+03\n  1.6377092e+32 -2.5000000e+00  6.5745060e-18  7.1864611e-01]"},
    {dtype::float32, {0xce8ebc85, 0xbb99f092, 0x2372246a, 0x38400000, 0xdf12171a, 0xae0138a9, 0xdfcb9815, 0x301bf1c9},
     "[-1.1973597e+09 -4.6978677e-03  1.3126557e-17  4.5776367e-05\n -1.0526911e+19 -2.9381528e-11 -2.9340998e+19  5.6732269e-10]"},
    {dtype::float32, {0x73cf05, 0xbbb00000, 0xea82ad89, 0xc54e1938, 0x65fb9b6e, 0x393a1351, 0x4b976ada, 0x2c400000},
     "[ 1.06353467e-38 -5.37109375e-03 -7.89899266e+25 -3.29757617e+03\n  1.48522645e+23  1.77455382e-04  1.98465800e+07  2.72848411e-12]"},
    {dtype::float32, {0xe8d395c7, 0x31def066, 0x9666af43, 0xb44dba28, 0x5ea1379e, 0xac000000, 0x3838f755, 0xc59ecfa4},
     "[-7.9934579e+24  6.4883805e-09 -1.8634555e-25 -1.9159836e-07\n  5.8084637e+18 -1.8189894e-12  4.4099364e-05 -5.0819551e+03]"},
    {dtype::float32, {0x2b7c8809, 0x520b899b, 0x7185b55d, 0xc0d00000, 0x127e0bae, 0xb5828a1b, 0x2507ecdd, 0xca7010ca},
     "[ 8.9717171e-13  1.4982727e+11  1.3241844e+30 -6.5000000e+00\n  8.0162664e-28 -9.7259488e-07  1.1789636e-16 -3.9332345e+06]"},
    {dtype::float32, {0x4daef273, 0xb6900000, 0x7998c826, 0x32a8bbcd, 0xb326a5c8, 0xb8ce7204, 0x66b0a716, 0x33b00000},
     "[ 3.6689059e+08 -4.2915344e-06  9.9161077e+34  1.9643176e-08\n -3.8800664e-08 -9.8440825e-05  4.1710935e+23  8.1956387e-08]"},
    {dtype::float32, {0x30074294, 0x332e73df, 0x9230adf3, 0x2de255db, 0x2681b1c1, 0xcc100000, 0xd2602368, 0x4f265878},
     "[ 4.9207327e-10  4.0617916e-08 -5.5750217e-28  2.5731353e-11\n  8.9993534e-16 -3.7748736e+07 -2.4066667e+11  2.7908157e+09]"},
    {dtype::float32, {0x396bfa65, 0x309801cc, 0xf9fbf4a1, 0xc9f00000, 0x93cb1094, 0x326f935c, 0x92e57e86, 0xc7386094},
     "[ 2.2504626e-04  1.1059966e-09 -1.6352852e+35 -1.9660800e+06\n -5.1260752e-27  1.3945137e-08 -1.4483122e-27 -4.7200578e+04]"},
    {dtype::float32, {0xaf36cbc5, 0x2c000000, 0xfea4316, 0xb1fff072, 0x5a9cd7e4, 0x31fcb681, 0xe9ba79e7, 0x40e00000},
     "[-1.6625197e-10  1.8189894e-12  2.3100022e-29 -7.4488122e-09\n  2.2073735e+16  7.3549136e-09 -2.8179484e+25  7.0000000e+00]"},
    {dtype::float32, {0x12b85bfa, 0x3d92e457, 0xaa5272bf, 0xb6a3d385, 0x1de1b97d, 0xc6300000, 0x7eac894f, 0xbe708240},
     "[ 1.16347065e-27  7.17245862e-02 -1.86915574e-13 -4.88240266e-06\n  5.97487945e-21 -1.12640000e+04  1.14670081e+38 -2.34871864e-01]"},
    {dtype::float32, {0xbb9e2f36, 0x4af66144, 0xd0c8f112, 0x33100000, 0x34bc52d2, 0xbd7b33d5, 0xf27e847, 0xad71d614},
     "[-4.8274053e-03  8.0733780e+06 -2.6969936e+10  3.3527613e-08\n  3.5077989e-07 -6.1328728e-02  8.2784707e-30 -1.3746799e-11]"},
    {dtype::float32, {0x71aa3c0e, 0x2c000000, 0xd95be90c, 0x4fdfaff2, 0xb16e480, 0x5213ccab, 0xd1ee379f, 0x3fd00000},
     "[ 1.6859217e+30  1.8189894e-12 -3.8687036e+15  7.5056998e+09\n  2.9060853e-32  1.5869849e+11 -1.2789192e+11  1.6250000e+00]"},
    {dtype::float32, {0x2693a703, 0xb5d130dc, 0x8372b4b3, 0xc87dc006, 0x2ab6f1c8, 0xc4200000, 0x454a22f2, 0xc2c56019},
     "[ 1.0245443e-15 -1.5585933e-06 -7.1324841e-37 -2.5984009e+05\n  3.2497464e-13 -6.4000000e+02  3.2341841e+03 -9.8687691e+01]"},
    {dtype::float32, {0x4ad025fd, 0xc93be648, 0xf5961694, 0x4be00000, 0xb4584818, 0x4506f3da, 0x64998e21, 0x30ad4c3e},
     "[ 6.8206065e+06 -7.6963650e+05 -3.8051878e+32  2.9360128e+07\n -2.0142795e-07  2.1592407e+03  2.2660746e+22  1.2609076e-09]"},
    {dtype::float32, {0x356d8bca, 0xb2b00000, 0x47eebb45, 0xc6537cdc, 0x667aee82, 0x2ce0bccb, 0xf64fcad5, 0x2ee00000},
     "[ 8.8492800e-07 -2.0489097e-08  1.2223054e+05 -1.3535215e+04\n  2.9624783e+23  6.3874231e-12 -1.0536322e+33  1.0186341e-10]"},
    {dtype::float32, {0xe00afba2, 0xabeb45a5, 0xcb4f82e4, 0xb7902f87, 0xd5377d42, 0xacb00000, 0xcd595601, 0xaf714628},
     "[-4.0059105e+19 -1.6717085e-12 -1.3599460e+07 -1.7188269e-05\n -1.2609288e+13 -5.0022209e-12 -2.2789326e+08 -2.1943747e-10]"},
    {dtype::float32, {0x746944a4, 0x38614bc7, 0x4c291295, 0x3bb00000, 0x93955d3c, 0xbcba5725, 0x129d5d, 0xc7c57890},
     "[ 7.39256204e+31  5.37147534e-05  4.43213640e+07  5.37109375e-03\n -3.77048242e-27 -2.27466319e-02  1.70949024e-39 -1.01105125e+05]"},
    {dtype::float32, {0xf1e559, 0xc8d00000, 0x71cc2e06, 0xc1ebf408, 0xab866f7a, 0xbe95f614, 0x43cb4ceb, 0x31f00000},
     "[ 2.2214629e-38 -4.2598400e+05  2.0220986e+30 -2.9494156e+01\n -9.5522136e-13 -2.9289305e-01  4.0660092e+02  6.9849193e-09]"},
    {dtype::float32, {0xc4fc3730, 0xcb734290, 0xd4e858ed, 0xc656e5f9, 0x45d39cb1, 0x32200000, 0x5617a475, 0xcb13ee19},
     "[-2.0177246e+03 -1.5942288e+07 -7.9833947e+12 -1.3753493e+04\n  6.7715864e+03  9.3132257e-09  4.1683148e+13 -9.6947450e+06]"},
    {dtype::float32, {0xc804200, 0xaf34b7d7, 0xc43c4088, 0xc0e00000, 0xb6edccbb, 0x51859758, 0xacf9550b, 0x3e1f678d},
     "[ 1.9761245e-31 -1.6436218e-10 -7.5300830e+02 -7.0000000e+00\n -7.0869842e-06  7.1721222e+10 -7.0864473e-12  1.5566845e-01]"},
    {dtype::float32, {0x2d4eb788, 0x3a100000, 0xb3f56d1b, 0xbc0ea518, 0xb0bec61d, 0x2b898122, 0x14316688, 0xb0100000},
     "[ 1.1750496e-11  5.4931641e-04 -1.1428548e-07 -8.7063536e-03\n -1.3880627e-09  9.7702770e-13  8.9564371e-27 -5.2386895e-10]"},
    {dtype::float32, {0xdcd96f1, 0x348259a4, 0x4b44bb75, 0xb9b04793, 0x43d7582, 0x52a00000, 0x70d4a50e, 0xd20523a0},
     "[ 1.2670438e-30  2.4279609e-07  1.2893045e+07 -3.3622663e-04\n  2.2270800e-36  3.4359738e+11  5.2648289e+29 -1.4295708e+11]"},
    {dtype::float32, {0x56a0f849, 0xaba6d238, 0xb4351e6a, 0x43a00000, 0x8fb11d3e, 0xae4a467e, 0x24841684, 0xd3720142},
     "[ 8.8494119e+13 -1.1853357e-12 -1.6868003e-07  3.2000000e+02\n -1.7464811e-29 -4.5992092e-11  5.7284018e-17 -1.0394032e+12]"},
    {dtype::float32, {0x358f8008, 0x4f300000, 0x83da2858, 0x3ae8b2f4, 0x9836eccb, 0xc8fc9a76, 0x7f72f81e, 0xcc700000},
     "[ 1.0691592e-06  2.9527900e+09 -1.2822151e-36  1.7753527e-03\n -2.3642499e-24 -5.1733169e+05  3.2296147e+38 -6.2914560e+07]"},
    {dtype::float32, {0x1059fa8e, 0xb531d58f, 0xc73dca6, 0xc2349156, 0x4645804d, 0x50900000, 0xe3abc3d4, 0x2bfb78fa},
     "[ 4.2988724e-29 -6.6248407e-07  1.8786438e-31 -4.5141930e+01\n  1.2640075e+04  1.9327353e+10 -6.3370083e+21  1.7868200e-12]"},
    {dtype::float32, {0xda259fa2, 0x3d0982d0, 0x782d493f, 0x52400000, 0x3591c811, 0xc0cc5989, 0xb4cdbde9, 0x3a1915c3},
     "[-1.1654722e+16  3.3572018e-02  1.4058640e+34  2.0615843e+11\n  1.0861569e-06 -6.3859296e+00 -3.8322403e-07  5.8397296e-04]"},
    {dtype::float32, {0x95807df4, 0xcc000000, 0x71a3681b, 0xae24bc4c, 0x68e0d809, 0xb80734fb, 0x75c48a65, 0xc6f00000},
     "[-5.1897507e-26 -3.3554432e+07  1.6183012e+30 -3.7456524e-11\n  8.4943619e+24 -3.2235850e-05  4.9828963e+32 -3.0720000e+04]"},
    {dtype::float32, {0xfef8e9b, 0xbb9cc827, 0xa769c8b6, 0x4e15d98b, 0x61fa1f51, 0x31b00000, 0x91c34a9a, 0xb9a9836c},
     "[ 2.3622149e-29 -4.7846022e-03 -3.2444051e-15  6.2851552e+08\n  5.7674283e+20  5.1222742e-09 -3.0811552e-28 -3.2332109e-04]"},
    {dtype::float64, {0x73d98ba5df097, 0xbdf8000000000000, 0x17cdd5e94a8195, 0x41bd918704db808c, 0x196ddb051587ac, 0xbd7212d428f61ad4, 0x1dba8cc714c2a1, 0xc14c000000000000},
     "[ 1.00693099e-308 -3.49245965e-010  3.31035993e-308  4.96076549e+008\n  3.53635483e-308 -1.02736236e-012  4.13428605e-308 -3.67001600e+006]"},
    {dtype::float64, {0x1dab13d3accc4f, 0xbe37a51700b6337a, 0x165be24106e9c7, 0xbe8239940a4c8c19, 0xe0b6735c8fd06, 0xc22e000000000000, 0x106b40091a06dc, 0xc022711a0293dcb3},
     "[ 4.12588093e-308 -5.50525315e-009  3.10939068e-308 -1.35786199e-007\n  1.95313418e-308 -6.44245094e+010  2.28333545e-308 -9.22090157e+000]"},
    {dtype::float64, {0x127acf900b5f12, 0xc1a5f56b3198e0ec, 0x183edb04e69a60, 0xbfc4000000000000, 0x9ec8629a0dcf3, 0xc216cf666bb7b5ba, 0x15230b7b193175, 0xbd9ebfd6030e1fc2},
     "[ 2.56992271e-308 -1.84202649e+008  3.37175586e-308 -1.56250000e-001\n  1.38009124e-308 -2.44922191e+010  2.93944688e-308 -6.99159484e-012]"},
    {dtype::float64, {0x17b2f7a8a6ae99, 0xbd86000000000000, 0x96c85c06a37ff, 0x3f5921f19760a7e2, 0x1964602a36ce2d, 0xbeaed421f16184a2, 0x1f67bce7459fdd, 0x41dc000000000000},
     "[ 3.29576431e-308 -2.50111043e-012  1.31055681e-308  1.53397172e-003\n  3.53120506e-308 -9.18765155e-007  4.36743424e-308  1.87904819e+009]"},
    {dtype::float64, {0xdf0a973a86482, 0xc165d77b0f8bfe71, 0x248cfb6ff8449, 0x3dc0dfcef387121b, 0x13cb4455c28019, 0xbea0000000000000, 0x1bc2fa54b3384e, 0x3d8f59acd86bd336},
     "[ 1.93860751e-308 -1.14513525e+007  3.17687629e-309  3.06940848e-011\n  2.75269609e-308 -4.76837158e-007  3.86073014e-308  3.56411575e-012]"},
    {dtype::float64, {0x66a68746451d5, 0xbf4b79d6a5fceb83, 0x42fc5fd9c376b, 0xbdfc000000000000, 0x2315c1c7d242, 0x4173249f0e697427, 0x1a85a223ae3749, 0x41f92251dcbc3ed0},
     "[ 8.92206827e-309 -8.38498887e-004  5.82220453e-309 -4.07453626e-010\n  1.90592505e-310  2.00729449e+007  3.68833879e-308  6.74687329e+009]"},
    {dtype::float64, {0x8417ae6fc1a82, 0xbdda000000000000, 0x103cbf7aad219a, 0xc06f74fe87f30141, 0x193eb59fade3db, 0xbff4e0130b81839c, 0x1cd193ea390517, 0xbed8000000000000},
     "[ 1.14810774e-308 -9.45874490e-011  2.25807403e-308 -2.51656071e+002\n  3.51074363e-308 -1.30470566e+000  4.00772839e-308 -5.72204590e-006]"},
    {dtype::float64, {0x1afc9b49a888e1, 0x3e2f269ba2e5ca31, 0x169940cfcf1495, 0xc11d1dd77d2b235a, 0xa941b8eb28b40, 0x4068000000000000, 0x160bec3239934a, 0x3e53e85612b7433d},
     "[ 3.75296873e-308  3.62643184e-009  3.14272842e-308 -4.77045872e+005\n  1.47112781e-308  1.92000000e+002  3.06595330e-308  1.85403632e-008]"},
    {dtype::float64, {0xe28cdf840092f, 0x3fcf3459de73763c, 0xdd1e60e4f1521, 0x3d7c000000000000, 0x159a8589d5b575, 0xc1a0bcff6edf6750, 0x5e65bc027c23b, 0xc231e7772be6b9f3},
     "[ 1.96910593e-308  2.43785127e-001  1.92189595e-308  1.59161573e-012\n  3.00435037e-308 -1.40410807e+008  8.20473387e-309 -7.68977910e+010]"},
    {dtype::float64, {0xc491abc79cd17, 0x3eec000000000000, 0x1a6fc76677548b, 0x3f83e7ea5584de61, 0x3ee32c3002da4, 0x3f15a7340aada156, 0x98d6b33d64e8d, 0xc1a2000000000000},
     "[ 1.70851799e-308  1.33514404e-005  3.67646678e-308  9.71968721e-003\n  5.46598024e-309  8.26001657e-005  1.32842709e-308 -1.50994944e+008]"},
    {dtype::float64, {0x11d4f266d51725, 0x3e0a7a78de90edfa, 0x1e5b658a367229, 0x3db923ddb16782a9, 0x17fb1fa6d14ca2, 0xbd82000000000000, 0xbd0a42d37c6a8, 0x4162bb46ee471e54},
     "[ 2.47982031e-308  7.70623063e-010  4.22166297e-308  2.28647891e-011\n  3.33496180e-308 -2.04636308e-012  1.64307869e-308  9.82072745e+006]"},
    {dtype::float64, {0x193ed840f42e53, 0xc24981616f00208c, 0x8f50685b684d8, 0xc100000000000000, 0x10c5881e27106a, 0x426f3fca4847e738, 0x1cd559acc9083f, 0xbdbd03ee6704af90},
     "[ 3.51081711e-308 -2.19089657e+011  1.24564235e-308 -1.31072000e+005\n  2.33237919e-308  1.07371366e+012  4.00977773e-308 -2.63893130e-011]"},
    {dtype::float64, {0x2503e1aa27980, 0xc148000000000000, 0x12353824016c7e, 0x40db741ab6ab01c1, 0x1b5836539c1b9f, 0xbe621b7c7f3a96ca, 0xfe2a3b292c5ca, 0xc240000000000000},
     "[ 3.21724491e-309 -3.14572800e+006  2.53211846e-308  2.81124174e+004\n  3.80273174e-308 -3.37276020e-008  2.20912430e-308 -1.37438953e+011]"},
    {dtype::float64, {0x182696fea542f2, 0x3f07fccfa235b931, 0xbe3f2dad7eb88, 0x3f4b78b74788b11d, 0x2aaf9b3df1d0d, 0xbdf0000000000000, 0x186ac92f7b940a, 0xc247f2ac0c61960f},
     "[ 3.35857397e-308  4.57526078e-005  1.65356703e-308  8.38365070e-004\n  3.71013357e-309 -2.32830644e-010  3.39562018e-308 -2.05711219e+011]"},
    {dtype::float64, {0x1eee0eebdea3db, 0xbe4691cd33061192, 0x12d1067769086c, 0xbfaa000000000000, 0x1a5f50f7ef1f28, 0xbef616b817f67a48, 0x13ce73baebff8b, 0x3e762e96a66ae793},
     "[ 4.30133411e-308 -1.05097598e-008  2.61675708e-308 -5.07812500e-002\n  3.66752377e-308 -2.10654703e-005  2.75442636e-308  8.26343381e-008]"},
    {dtype::float64, {0xd8c736a3217d0, 0xc0fc000000000000, 0xcd16ca59f3727, 0x40094eef78021f2c, 0x1235ebaff03f8a, 0xc1a219183c3246db, 0xb4a90328e2a1c, 0x4108000000000000},
     "[ 1.88416975e-308 -1.14688000e+005  1.78257121e-308  3.16354269e+000\n  2.53249946e-308 -1.51817246e+008  1.57024335e-308  1.96608000e+005]"},
    {dtype::float16, {0x3852, 0xe980, 0xcabf, 0xae9a, 0x4e78, 0x9997, 0x7058, 0xf080},
     "[ 5.4004e-01 -2.8160e+03 -1.3492e+01 -1.0315e-01  2.5875e+01 -2.7294e-03\n  8.8960e+03 -9.2160e+03]"},
    {dtype::float16, {0x2049, 0x6295, 0x2ec1, 0x4d6b, 0xd65c, 0xbf80, 0x9720, 0x4ff1},
     "[ 8.3694e-03  8.4250e+02  1.0553e-01  2.1672e+01 -1.0175e+02 -1.8750e+00\n -1.7395e-03  3.1766e+01]"},
    {dtype::float16, {0xf782, 0xa461, 0x68c3, 0x8400, 0xb4c, 0xacd2, 0x11d, 0x8ff8},
     "[-3.075e+04 -1.711e-02  2.438e+03 -6.104e-05  2.227e-04 -7.532e-02\n  1.699e-05 -4.864e-04]"},
    {dtype::float16, {0x2638, 0x3f00, 0x61e2, 0x2646, 0x2281, 0x8938, 0x6c42, 0x5c80},
     "[ 2.429e-02  1.750e+00  7.530e+02  2.451e-02  1.270e-02 -1.593e-04\n  4.360e+03  2.880e+02]"},
    {dtype::float16, {0xb087, 0xcd83, 0x7845, 0xd34a, 0x91df, 0xf680, 0xb747, 0xe125},
     "[-1.415e-01 -2.205e+01  3.498e+04 -5.831e+01 -7.167e-04 -2.662e+04\n -4.548e-01 -6.585e+02]"},
    {dtype::float16, {0x39f9, 0x72d8, 0xd897, 0xc480, 0xb772, 0x42e2, 0x2f2e, 0x1a7f},
     "[ 7.466e-01  1.402e+04 -1.469e+02 -4.500e+00 -4.653e-01  3.441e+00\n  1.122e-01  3.172e-03]"},
    {dtype::float16, {0x30fd, 0x8c00, 0x1f8f, 0x8f12, 0x68ee, 0x3bfe, 0xe4c1, 0xa380},
     "[ 1.559e-01 -2.441e-04  7.381e-03 -4.315e-04  2.524e+03  9.990e-01\n -1.217e+03 -1.465e-02]"},
    {dtype::float16, {0xa26a, 0x8773, 0xc36b, 0x5c00, 0xeb2e, 0xf00, 0x8a10, 0x4ab5},
     "[-1.2527e-02 -1.1367e-04 -3.7090e+00  2.5600e+02 -3.6760e+03  4.2725e-04\n -1.8501e-04  1.3414e+01]"},
    {dtype::float32, {0x429423d7, 0xc2977ae1, 0xc28f851f, 0x424a851f, 0x41ef47ae, 0xc2ae4ccd, 0x421f3d71, 0xc2b070a4},
     "[ 74.07 -75.74 -71.76  50.63  29.91 -87.15  39.81 -88.22]"},
    {dtype::float32, {0x42b0c7ae, 0xc3d8c000, 0x40c03958, 0x403ba5e3, 0x43d7cccd, 0x4413e666, 0x446ea000, 0xc1a7c28f},
     "[  88.39  -433.5      6.007    2.932  431.6    591.6    954.5    -20.97 ]"},
    {dtype::float32, {0xc294c28f, 0x4196f5c3, 0xc1611eb8, 0xc2546666, 0xc241b852, 0xc3abd99a, 0x4212eb85, 0x4382199a},
     "[ -74.38   18.87  -14.07  -53.1   -48.43 -343.7    36.73  260.2 ]"},
    {dtype::float32, {0xc0660419, 0x4114e560, 0xc25351ec, 0x44146666, 0x4115e354, 0xc432accd, 0xc453f99a, 0xc2055c29},
     "[  -3.594    9.306  -52.83   593.6      9.368 -714.7   -847.9    -33.34 ]"},
    {dtype::float32, {0x40cbab9f, 0xbdabbfd7, 0x45822c00, 0x4639e800, 0x41f70625, 0xbdabed74, 0xc7425200, 0xc532099a},
     "[ 6.3647e+00 -8.3862e-02  4.1655e+03  1.1898e+04  3.0878e+01 -8.3949e-02\n -4.9746e+04 -2.8486e+03]"},
    {dtype::float32, {0x429adcac, 0x4294828f, 0xbd0304cd, 0x4608b19a, 0xc5c23733, 0x442d1c29, 0xc34263d7, 0xc64ac800},
     "[ 7.7431e+01  7.4255e+01 -3.1987e-02  8.7484e+03 -6.2149e+03  6.9244e+02\n -1.9439e+02 -1.2978e+04]"},
    {dtype::float32, {0x3d2c0831, 0x408d566d, 0x422554fe, 0x3ea3d46b, 0xc29e570a, 0x4605e8cd, 0x3d2bca53, 0x47ba3280},
     "[ 4.2000e-02  4.4168e+00  4.1333e+01  3.1998e-01 -7.9170e+01  8.5702e+03\n  4.1941e-02  9.5333e+04]"},
    {dtype::float32, {0x7fc00000, 0x47b3b500, 0xc2be9b23, 0x7f800000, 0xc386bae1, 0x45d59666, 0xff800000, 0x474ee700},
     "[      nan 92010.      -95.303       inf  -269.46   6834.8        -inf\n 52967.   ]"},
    {dtype::float64, {0x406af33333333333, 0x405208f5c28f5c29, 0x4058f66666666666, 0xc0323851eb851eb8, 0x4050d147ae147ae1, 0xc04a2e147ae147ae, 0xc08eea6666666666, 0xc03fdc28f5c28f5c},
     "[ 215.6    72.14   99.85  -18.22   67.27  -52.36 -989.3   -31.86]"},
    {dtype::float64, {0x40282e147ae147ae, 0x4020a7ef9db22d0e, 0xc019449ba5e353f8, 0xc07114cccccccccd, 0xc04caf5c28f5c28f, 0x408bd73333333333, 0x403d2e147ae147ae, 0xc03b800000000000},
     "[  12.09     8.328   -6.317 -273.3    -57.37   890.9     29.18   -27.5  ]"},
    {dtype::float64, {0xc04d30a3d70a3d71, 0xc03e400000000000, 0xc0789ccccccccccd, 0xc05213d70a3d70a4, 0xc04139999999999a, 0x4050047ae147ae14, 0x40516851eb851eb8, 0x4052d70a3d70a3d7},
     "[ -58.38  -30.25 -393.8   -72.31  -34.45   64.07   69.63   75.36]"},
    {dtype::float64, {0x4077d66666666666, 0x408eca6666666666, 0x4002645a1cac0831, 0x4074366666666666, 0x403aca3d70a3d70a, 0xc013bd70a3d70a3d, 0xc01470a3d70a3d71, 0x40118624dd2f1aa0},
     "[381.4   985.3     2.299 323.4    26.79   -4.935  -5.11    4.381]"},
    {dtype::float64, {0xc052f2e147ae147b, 0x404de28f5c28f5c3, 0x3fbdd63886594af5, 0xc084560000000000, 0xc0d2b7c000000000, 0xc06f33851eb851ec, 0xbf4cf7878b7a1c26, 0xc0f1579000000000},
     "[-7.5795e+01  5.9770e+01  1.1655e-01 -6.5075e+02 -1.9167e+04 -2.4961e+02\n -8.8400e-04 -7.1033e+04]"},
    {dtype::float64, {0xc081f1c28f5c28f6, 0xbfa7735c182ecaef, 0x40b5680000000000, 0xc0df7c8000000000, 0x3fb2264e48626f61, 0x4010e7ef9db22d0e, 0x404b9020c49ba5e3, 0xbf7d495182a9930c},
     "[-5.7422e+02 -4.5802e-02  5.4800e+03 -3.2242e+04  7.0897e-02  4.2265e+00\n  5.5126e+01 -7.1500e-03]"},
    {dtype::float64, {0x40499e76c8b43958, 0x40ee604000000000, 0x40cac28000000000, 0x408518cccccccccd, 0xc0a88f6666666666, 0xc0a9decccccccccd, 0xbfa9567dbb16c1e3, 0x40f4933000000000},
     "[ 5.1238e+01  6.2210e+04  1.3701e+04  6.7510e+02 -3.1437e+03 -3.3114e+03\n -4.9488e-02  8.4275e+04]"},
    {dtype::float64, {0x7ff8000000000000, 0x40123837b4a2339c, 0x3fee95810624dd2f, 0x7ff0000000000000, 0xbf9d549731098d47, 0xbfe9088509bf9c63, 0xfff0000000000000, 0x40ae80999999999a},
     "[        nan  4.5549e+00  9.5575e-01         inf -2.8643e-02 -7.8229e-01\n        -inf  3.9043e+03]"},
    {dtype::float16, {0xe0c7, 0x60be, 0xcc3f, 0x4cda, 0xca09, 0xd386, 0x53e3, 0x5e96},
     "[-611.5   607.    -16.98   19.4   -12.07  -60.2    63.1   421.5 ]"},
    {dtype::float16, {0x53a5, 0xde80, 0xd160, 0x5abe, 0xc85c, 0xc7c0, 0xd5d8, 0x45a1},
     "[  61.16 -416.    -43.    215.8    -8.72   -7.75  -93.5     5.63]"},
    {dtype::float16, {0x54d8, 0x601c, 0x5446, 0xe338, 0xd77e, 0x6015, 0xe2e9, 0xd361},
     "[  77.5   526.     68.4  -924.   -119.9   522.5  -884.5   -59.03]"},
    {dtype::float16, {0xd5fa, 0xe1f2, 0xd567, 0xe02e, 0x5c02, 0xc5b3, 0xd4f3, 0x63ac},
     "[ -95.6  -761.    -86.44 -535.    256.5    -5.7   -79.2   982.  ]"},
    {dtype::float16, {0xb19d, 0xc83b, 0x3465, 0xe17d, 0xd4ef, 0xdadc, 0x3a2c, 0x3942},
     "[-1.754e-01 -8.461e+00  2.747e-01 -7.025e+02 -7.894e+01 -2.195e+02\n  7.715e-01  6.572e-01]"},
    {dtype::float16, {0x3383, 0x5fea, 0xc015, 0xda6b, 0xb895, 0x45c8, 0xd1f9, 0xe04f},
     "[ 2.347e-01  5.065e+02 -2.041e+00 -2.054e+02 -5.728e-01  5.781e+00\n -4.778e+01 -5.515e+02]"},
    {dtype::float16, {0xa4bd, 0xbbff, 0xc63c, 0x610e, 0x3b72, 0x36f9, 0xd3d8, 0x5bc7},
     "[-1.851e-02 -9.995e-01 -6.234e+00  6.470e+02  9.307e-01  4.358e-01\n -6.275e+01  2.489e+02]"},
    {dtype::float16, {0x7e00, 0x431d, 0x3963, 0x7c00, 0x6108, 0xb57a, 0xfc00, 0xbc01},
     "[       nan  3.557e+00  6.733e-01        inf  6.440e+02 -3.423e-01\n       -inf -1.001e+00]"},
};

// The index of the first case printed differently, or -1. `load` reads a bit pattern.
template <class Load>
constexpr int first_scalar_mismatch(Load load) {
  for (std::size_t i = 0; i < std::size(scalar_cases); ++i) {
    ctff::detail::graph g;
    ctff::detail::lit l{};
    l.dt = scalar_cases[i].dt;
    g.vals.push_back(load(scalar_cases[i].bits));
    l.val_count = 1;
    std::array<char, 64> buf{};
    ctff::detail::text_sink s{buf.data()};
    ctff::detail::print_literal(ctff::detail::literal_of(g, l), s);
    if (std::string_view(buf.data(), s.n) != scalar_cases[i].text) return static_cast<int>(i);
  }
  return -1;
}

template <class Load>
constexpr int first_array_mismatch(Load load) {
  for (std::size_t i = 0; i < std::size(array_cases); ++i) {
    ctff::detail::graph g;
    ctff::detail::lit l{};
    l.dt = array_cases[i].dt;
    g.dims.push_back(8);
    l.dim_count = 1;
    for (auto b : array_cases[i].bits) g.vals.push_back(load(b));
    l.val_count = 8;
    std::array<char, 256> buf{};
    ctff::detail::text_sink s{buf.data()};
    ctff::detail::print_literal(ctff::detail::literal_of(g, l), s);
    if (std::string_view(buf.data(), s.n) != array_cases[i].text) return static_cast<int>(i);
  }
  return -1;
}

constexpr auto as_is = [](std::uint64_t b) { return b; };

std::uint64_t through_volatile(std::uint64_t b) {
  volatile std::uint64_t v = b;
  return v;
}

}  // namespace

TEST_CASE("literal text: numpy's text of many floats, at compile time and at run time",
          "[literal][numpy]") {
  STATIC_REQUIRE(first_scalar_mismatch(as_is) == -1);
  STATIC_REQUIRE(first_array_mismatch(as_is) == -1);
  CHECK(first_scalar_mismatch(through_volatile) == -1);
  CHECK(first_array_mismatch(through_volatile) == -1);
}
