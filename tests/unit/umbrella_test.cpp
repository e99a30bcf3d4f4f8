// ctff::from_proto through the umbrella header alone: <ctff/proto.hpp> provides both overloads
// (serialized bytes, federated_language::Computation message), as ctff/read.hpp's comment says.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <ctff/proto.hpp>

TEST_CASE("umbrella: ctff/proto.hpp provides from_proto (bytes and message)", "[import]") {
  constexpr auto add_one =
      ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });
  const std::string bytes = add_one.bytes().str();
  using F = ctff::function<std::int32_t, std::int32_t>;
  const auto from_bytes = ctff::from_proto<F>(bytes);
  const auto from_message = ctff::from_proto<F>(ctff::to_proto(add_one));
  CHECK(from_bytes.bytes().str() == bytes);
  CHECK(from_message.bytes().str() == bytes);
  CHECK(from_message.type_string() == "(int32 -> int32)");
}
