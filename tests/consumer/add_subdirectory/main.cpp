// A program using ctff as an external package would: the public API through the umbrella header.
#include <cstdint>
#include <cstdio>

#include <ctff/ctff.hpp>

static_assert(ctff::type_string<ctff::at_clients<std::int32_t>>() == "{int32}@CLIENTS");

int main() {
  std::puts("ctff consumer: ok");
  return 0;
}
