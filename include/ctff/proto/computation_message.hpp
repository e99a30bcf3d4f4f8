// Lowering a traced computation to the protobuf C++ message: one parse of its wire bytes.
#pragma once

#include <stdexcept>
#include <string>

#include <federated_language/proto/computation.pb.h>

#include "ctff/core/byte_view.hpp"

namespace ctff {

// Parses serialized Computation bytes; throws std::invalid_argument naming the failure.
inline federated_language::Computation computation_from_bytes(byte_view bytes) {
  federated_language::Computation c;
  if (!c.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw std::invalid_argument("ctff: to_proto: the bytes (" + std::to_string(bytes.size()) +
                                ") do not parse as federated_language.Computation");
  return c;
}

// The federated_language::Computation of a computation traced by ctff.
template <class C>
  requires requires(const C& c) { c.bytes(); }
federated_language::Computation to_proto(const C& c) {
  return computation_from_bytes(c.bytes());
}

}  // namespace ctff
