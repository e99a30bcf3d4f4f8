// from_proto declared with a type that is not a function type.
// expect: ctff: from_proto: declare the computation's type as ctff::function<P, R>
#include <string_view>

#include <ctff/ctff.hpp>
#include <ctff/import/from_proto.hpp>

int main() {
  const std::string_view bytes;
  const auto c = ctff::from_proto<float>(bytes);  // expect-line
  return static_cast<int>(c.bytes().size());
}
