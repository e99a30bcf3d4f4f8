// Data computations on TFF's remote wire (docs/distributed.md, "Data on the workers"). A worker
// given a data directory reads a Data computation of non-function type sent as a value (alone, or
// as a member of a CLIENTS value) as TFF's DataExecutor does at CreateValue; a controller keeps it
// as a data_reference (run/data_reference.hpp), which goes on as the same Data computation
// (value_message.hpp), so that only URIs travel; and what the controller itself must read of it
// is read from its own data directory, or refused saying where the data lives.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/wrappers.pb.h>
#include <tensorflow_federated/proto/v0/executor.pb.h>

#include "ctff/read/reader.hpp"
#include "ctff/remote/value_message.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/data_reference.hpp"
#include "ctff/run/data_uri.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

// The URI a Data computation names: `data.uri`, or a `data.content` packing a
// google.protobuf.StringValue (what a federated_language Data made from a string holds).
inline std::optional<std::string> data_uri_of(const federated_language::Computation& c) {
  if (!c.has_data()) return std::nullopt;
  const federated_language::Data& d = c.data();
  if (d.data_case() == federated_language::Data::kUri) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // (TFF's DataExecutor still reads it)
    return d.uri();
#pragma GCC diagnostic pop
  }
  if (d.data_case() != federated_language::Data::kContent) return std::nullopt;
  google::protobuf::StringValue s;
  if (!d.content().UnpackTo(&s)) return std::nullopt;
  return s.value();
}

// A Data computation sent as a value (CreateValue): read from `dir` when given; else, with
// `keep`, a reference for the workers this one drives; nullopt when it is not a Data
// computation of non-function type naming a URI, or neither applies (then a binding may serve it).
// Throws data_error naming the URI and the file.
inline std::optional<dynamic_value> data_value(const federated_language::Computation& c, const data_dir* dir, bool keep,
                                               const run_limits& limits) {
  if (!c.has_data() || !c.has_type() || c.type().has_function()) return std::nullopt;
  std::optional<std::string> uri = data_uri_of(c);
  if (!uri || (!dir && !keep)) return std::nullopt;
  std::string bytes;
  if (!c.SerializeToString(&bytes)) throw data_error("data URI `" + *uri + "`: a Data computation that does not serialize");
  if (dir) {
    const computation_tree t = read_computation(bytes);
    return dir->resolve(*uri, t.types, t.node(t.root).type, limits);
  }
  return dynamic_value(function_data{std::make_shared<const data_reference>(std::move(*uri), std::move(bytes))});
}

// What the controller does with an intrinsic call whose argument holds data references, before
// its client_backend ships anything: a zip only moves them and a per-client intrinsic ships
// them (nullopt: go on), unless it could not be shipped (`read`); anything else reads them, from
// the controller's own `dir`, or fails saying where the data lives.
inline std::optional<dynamic_value> data_on_controller(std::string_view uri, const dynamic_value& fn,
                                                       const dynamic_value* arg, run_context& c, const data_dir* dir,
                                                       bool read = false) {
  if (!arg || !*arg || !holds_data_reference(*arg)) return std::nullopt;
  if (!read && (uri == row::federated_zip_at_clients::uri || ships_per_client(intrinsic_facts_of(uri)))) return std::nullopt;
  if (!dir) throw data_reference::not_here(first_data_reference(*arg)->uri(), uri);
  dynamic_value here;
  try {
    here = resolved(*arg, *dir, c.limits());
  } catch (const data_error& e) {
    throw run_fault(e.what());
  }
  return fn.function().impl->call(&here, c);
}

}  // namespace ctff::detail
