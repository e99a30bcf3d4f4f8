// A traced function returning a C++ object that is neither a traced value nor a constant.
// expect: ctff: computation: the traced function must return a traced value, a constant, or a tuple of them
#include <cstdint>

#include <ctff/ctff.hpp>

struct not_traced {
  int* p;
};
constexpr auto c = ctff::computation<"c", std::int32_t>([](auto) { return not_traced{}; });  // expect-line
