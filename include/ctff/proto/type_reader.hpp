// Reading a `federated_language.Type` (a protobuf message, or its serialized bytes) back into a
// ctff::type_desc, with the checks federated_language applies when it deserializes a type: a
// known dtype, well-formed shapes, `PlacementSpec.value` with the URI `clients` or `server`
// (placement labels are not supported), no federated or function type inside a federated type,
// no federated, function or sequence type inside a sequence type, unique struct element names.
// Every failure throws ctff::type_error naming the offending node, e.g.
// `function.parameter.struct[1](b).federated.member`.
//
// The message is serialized and read by the reader of read/ (read/type_message.hpp: the one Type
// reader), then checked by its type rules (read/type_rules.hpp); bytes are parsed by protobuf
// first, so what protobuf accepts is accepted (a field given twice: the last one). The
// description has the same layout as `ctff::describe<T>()` of the equal static type (children
// before parents, left to right; struct element names after the elements), so the two compare
// equal member by member.
#pragma once

#include <climits>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <federated_language/proto/computation.pb.h>

#include "ctff/core/byte_view.hpp"
#include "ctff/proto/errors.hpp"
#include "ctff/read/type_message.hpp"
#include "ctff/read/type_rules.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {
namespace detail {

// `prefix`.`path` (either may be empty).
inline std::string joined_path(std::string_view prefix, const std::string& path) {
  if (prefix.empty()) return path;
  if (path.empty()) return std::string(prefix);
  return std::string(prefix) + "." + path;
}

// The description of a Type message's canonical bytes; `path` prefixes error paths.
inline type_desc read_type_bytes(std::string_view bytes, std::string_view path) {
  type_desc d;
  try {
    d = read_type_message(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  } catch (const read_error& e) {
    throw type_error(joined_path(path, e.path()), e.problem());
  }
  std::vector<path_frame> frames;
  const std::string prefix(path);
  if (!prefix.empty()) frames.push_back(path_frame{prefix.c_str(), -1, {}});
  check_type_rules(d, d.root, frames, /*abstract_allowed=*/true,
                   [&](const std::string& problem) { throw type_error(path_string(frames), problem); });
  return d;
}

}  // namespace detail

// The description of a Type message. `path` prefixes the locations in error messages (useful when
// the Type sits inside a larger message, e.g. "lambda.result.type").
inline type_desc read_type(const federated_language::Type& t, std::string_view path = {}) {
  return detail::read_type_bytes(t.SerializeAsString(), path);
}

// The description of a serialized Type message.
inline type_desc parse_type(std::string_view bytes, std::string_view path = {}) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX))
    throw type_error(std::string(path), "the serialized Type is too large to parse");
  federated_language::Type t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw type_error(std::string(path),
                     "the bytes (" + std::to_string(bytes.size()) +
                         ") do not parse as a federated_language.Type message");
  return read_type(t, path);
}

inline type_desc parse_type(byte_view bytes, std::string_view path = {}) {
  return parse_type(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

}  // namespace ctff
