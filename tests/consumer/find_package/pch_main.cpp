// Built with ctff_precompile_headers(consumer_pch): <ctff/ctff.hpp> comes from the precompiled
// header alone. This file includes nothing of ctff, so it compiles only if the header is applied.
#include <cstdint>
#include <cstdio>

constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });
static_assert(add_one.type_string() == "(int32 -> int32)");
static_assert(!add_one.compact().empty());

int main() {
  std::puts("ctff pch consumer: ok");
  return 0;
}
