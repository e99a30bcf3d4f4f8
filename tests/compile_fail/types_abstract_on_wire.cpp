// The wire bytes of an abstract type (a type variable of an intrinsic's signature, which no
// Computation carries).
// expect: ctff: abstract types never reach the wire
#include <ctff/ctff.hpp>

constexpr auto b = ctff::type_bytes<ctff::abstract_t<"T">>();  // expect-line
