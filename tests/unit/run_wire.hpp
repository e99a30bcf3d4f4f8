// Hand-written federated_language.Computation messages for the executor's tests, as wire bytes
// (tff-language.md §1: field numbers of Computation, Type and their parts), without protobuf: for
// programs ctff's tracing does not make (a block local shadowing another, a lambda that reads its
// enclosing computation's values, generic_divide with a float result from integer operands, a
// federated generic_zero).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace run_wire {

inline std::string varint(std::uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
// A length-delimited field (wire type 2) and a varint field (wire type 0).
inline std::string field(std::uint32_t number, const std::string& payload) {
  return varint(std::uint64_t{number} << 3 | 2) + varint(payload.size()) + payload;
}
inline std::string field_varint(std::uint32_t number, std::uint64_t v) {
  return varint(std::uint64_t{number} << 3) + varint(v);
}

using named = std::pair<std::string, std::string>;  // (name or "", Type or Computation bytes)

// ---- Type messages -----------------------------------------------------------------------------
// DataType numbers: float32 1, float64 2, int32 3, int16 5, bool 10.
inline std::string tensor(std::uint64_t dtype) { return field(4, field_varint(1, dtype)); }
// With dims (-1: unknown), packed.
inline std::string tensor(std::uint64_t dtype, std::initializer_list<std::int64_t> dims) {
  std::string packed;
  for (std::int64_t d : dims) packed += varint(static_cast<std::uint64_t>(d));
  return field(4, field_varint(1, dtype) + field(2, packed));
}
inline std::string struct_type(std::initializer_list<named> elements) {
  std::string s;
  for (const auto& [name, t] : elements)
    s += field(1, (name.empty() ? std::string() : field(1, name)) + field(2, t));
  return field(2, s);
}
inline std::string federated(const std::string& member, const std::string& uri, bool all_equal) {
  return field(7, field(1, field(2, field(1, uri))) + (all_equal ? field_varint(2, 1) : std::string()) +
                      field(3, member));
}
inline std::string at_clients(const std::string& m) { return federated(m, "clients", false); }
inline std::string at_server(const std::string& m) { return federated(m, "server", true); }
inline std::string function(const std::string& param, const std::string& result) {
  return field(1, field(1, param) + field(2, result));
}
inline std::string function0(const std::string& result) { return field(1, field(2, result)); }

// ---- Computation messages (each with its type) ---------------------------------------------------
inline std::string comp(const std::string& type, const std::string& body) { return field(1, type) + body; }
inline std::string ref(const std::string& type, const std::string& name) {
  return comp(type, field(6, field(1, name)));
}
inline std::string intrinsic(const std::string& type, const std::string& uri) {
  return comp(type, field(3, field(1, uri)));
}
inline std::string lambda(const std::string& type, const std::string& param, const std::string& result) {
  return comp(type, field(4, (param.empty() ? std::string() : field(1, param)) + field(2, result)));
}
template <class Locals = std::initializer_list<named>>
inline std::string block(const std::string& type, const Locals& locals, const std::string& result) {
  std::string s;
  for (const auto& [name, value] : locals) s += field(1, field(1, name) + field(2, value));
  return comp(type, field(5, s + field(2, result)));
}
inline std::string call(const std::string& type, const std::string& fn, const std::string& arg) {
  return comp(type, field(7, field(1, fn) + field(2, arg)));
}
inline std::string strct(const std::string& type, std::initializer_list<named> elements) {
  std::string s;
  for (const auto& [name, value] : elements)
    s += field(1, (name.empty() ? std::string() : field(1, name)) + field(2, value));
  return comp(type, field(8, s));
}
// (a -> uri(a)) of type (param -> result).
inline std::string apply_intrinsic(const std::string& param, const std::string& result, const std::string& uri) {
  return lambda(function(param, result), "a", call(result, intrinsic(function(param, result), uri), ref(param, "a")));
}
inline std::string sel(const std::string& type, const std::string& source, int index) {
  return comp(type, field(9, field(1, source) + (index ? field_varint(3, static_cast<std::uint64_t>(index))
                                                       : std::string())));
}

}  // namespace run_wire
