// Shared by the generated program TUs of the differential tests (tests/differential/gen.py): each
// program registers one function filling the compile-time outputs of its main computation and one
// tracing the same bodies at run time. harness_main.cpp prints them and parses the bytes.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <ctff/ctff.hpp>

namespace ctff_diff {

struct outputs {
  std::string bytes, compact, formatted, structural, type;
  bool has_structural = false;
};

struct program {
  std::uint64_t seed;
  void (*ct)(outputs&);
  void (*rt)(outputs&);
  void (*inner)(outputs&);     // the callees made inside the compile-time main computation, or null
  void (*rt_inner)(outputs&);  // the same at run time, or null
};

std::vector<program>& registry();
inline bool add(program p) {
  registry().push_back(p);
  return true;
}

// A value the compiler cannot see through, so run-time lambdas really capture run-time state.
int runtime_int();
// The value a compile-time trace's lambdas capture (a call, so that clang does not call the
// capture unneeded).
constexpr int constant_int() { return 0; }

template <class C>
void fill(outputs& o, const C& c) {
  o.bytes = c.bytes().str();
  o.compact = std::string(c.compact());
  o.formatted = std::string(c.formatted());
  o.type = std::string(c.type_string());
  if constexpr (requires { c.structural(); }) {
    o.has_structural = true;
    o.structural = std::string(c.structural());
  }
}

// Forces every output of a captureless computation to be a constant expression.
template <class C>
consteval bool evaluated(const C&) {
  bool ok = C::bytes().size() > 0 && !C::compact().empty() && !C::formatted().empty();
  if constexpr (requires { C::structural(); }) ok = ok && !C::structural().empty();
  return ok;
}

// A long 1-D array literal (numpy summarises more than 1000 elements): start, start+1, ...
template <class T, std::size_t N>
constexpr std::array<T, N> ramp(int start) {
  std::array<T, N> a{};
  for (std::size_t i = 0; i != N; ++i) a[i] = static_cast<T>(start + static_cast<int>(i % 97));
  return a;
}

}  // namespace ctff_diff
