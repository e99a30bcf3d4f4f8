// Every computation a test emits is parsed back: ctff_test::require_parses(bytes) parses the bytes
// with protobuf as a federated_language.Computation (the test fails if protobuf rejects them),
// checks that protobuf writes exactly the same bytes again, and returns the message.
//
// The round trip is byte-identical because ctff writes what upb and protobuf C++ write for the
// same message: fields in number order, packed repeated scalars, set submessages kept even when
// empty. Python's bytes of any computation we reproduce are such a canonical serialization too, so
// a difference is a ctff defect, not a legitimate variant.
#pragma once

#include <federated_language/proto/computation.pb.h>

#include <catch2/catch.hpp>
#include <ctff/read.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace ctff_test {

// The bytes as a string (std::string, std::vector<unsigned char>, std::array, ctff::byte_view).
template <class Bytes>
std::string byte_string(const Bytes& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Hex of the bytes (to show a failed comparison).
inline std::string hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

inline federated_language::Computation require_parses_string(const std::string& bytes) {
  federated_language::Computation c;
  INFO("bytes: " << hex(bytes));
  REQUIRE(c.ParseFromString(bytes));  // what `protoc --decode` and every runtime do first
  std::string again;
  REQUIRE(c.SerializeToString(&again));
  INFO("protobuf writes: " << hex(again));
  REQUIRE(again == bytes);
  // ctff's own reader (ctff/read) reads it too, writes the same bytes back, and its checker
  // finds nothing wrong.
  const ctff::computation_tree tree = ctff::read_computation(bytes);
  REQUIRE(ctff::serialize(tree) == bytes);
  const auto errors = ctff::check(tree);
  INFO("checker: " << (errors.empty() ? std::string() : errors.front().message()));
  REQUIRE(errors.empty());
  return c;
}

// Fails the current test unless `bytes` is the canonical serialization of a Computation.
template <class Bytes>
federated_language::Computation require_parses(const Bytes& bytes) {
  return require_parses_string(byte_string(bytes));
}

// Two computations with the same four outputs (a's bytes parsed back): e.g. one traced at run time
// and one at compile time, or a polymorphic instance and a computation.
template <class A, class B>
void require_same_outputs(const A& a, const B& b) {
  require_parses(a.bytes());
  CHECK(a.bytes() == b.bytes());
  CHECK(a.compact() == b.compact());
  CHECK(a.formatted() == b.formatted());
  CHECK(a.structural() == b.structural());
}

}  // namespace ctff_test
