// A client's data named by URI and not read here: the member of a CLIENTS value a controller
// ships to its workers as a Data computation (`Computation{type, data{uri}}`) for them to read
// from their own storage (run/data_uri.hpp), as TFF's DataExecutor does. It may be moved about
// (zipped, selected into a struct, shipped with federated_map) but not read: a run that reads it
// here fails saying where the data lives, unless the caller reads it first (`resolved`, with a
// data_dir of its own: run/data_uri.hpp). An argument's check takes it for any non-function type
// (run/argument.hpp): whoever reads it checks what it reads against the Data's own type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/core/front_wire.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/writer.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/wire.hpp"

namespace ctff {

// The reference (a function value in form only: it is what a Data computation evaluates to
// where it is not read).
class data_reference final : public function_impl {
 public:
  // `computation`: the serialized `Computation{type, data{...}}` naming `uri`.
  data_reference(std::string uri, std::string computation) : uri_(std::move(uri)), bytes_(std::move(computation)) {}
  const std::string& uri() const { return uri_; }
  const std::string& computation() const { return bytes_; }
  std::string describe() const override { return "data " + uri_; }
  dynamic_value call(const dynamic_value*, run_context&) const override { throw not_here(uri_); }

  // The fault of reading it here (`by`: what reads it).
  static detail::run_fault not_here(const std::string& uri, std::string_view by = {}) {
    return detail::run_fault("the clients' data `" + uri + "` lives on the workers (a Data URI)" +
                             (by.empty() ? std::string() : ", and " + std::string(by) + " reads it here") +
                             ": run this on workers that have it (ctff-worker --data DIR), or give this side "
                             "the data too (ctff-run --data DIR)");
  }

  // The reference v is (null: v is not one).
  static const data_reference* of(const dynamic_value& v) {
    if (!v || !v.is(value_kind::function)) return nullptr;
    return dynamic_cast<const data_reference*>(v.function().impl.get());
  }

 private:
  std::string uri_, bytes_;
};

// A reference to the data at `uri`, of the type node `type` of `types` (not a function type).
inline dynamic_value data_reference_value(std::string uri, const type_desc& types, std::uint32_t type) {
  detail::growing_back_sink s(64);
  detail::write_type(types, type, s);
  const std::string type_bytes(reinterpret_cast<const char*>(s.data()), s.size());
  std::string body, bytes;
  detail::put_message(body, 1, uri);  // Data.uri
  detail::put_message(bytes, 1, type_bytes);
  detail::put_message(bytes, detail::computation_field::data, body);
  return dynamic_value(function_data{std::make_shared<const data_reference>(std::move(uri), std::move(bytes))});
}

namespace detail {

// The first data reference v holds (in its structs and federated members), or null.
inline const data_reference* first_data_reference(const dynamic_value& v, int depth = 0) {
  if (!v || depth > 100) return nullptr;
  if (const data_reference* d = data_reference::of(v)) return d;
  const std::vector<dynamic_value>* kids = v.is(value_kind::struct_) ? &v.structure().elements
                                           : v.is(value_kind::federated) && !v.federated().elsewhere
                                               ? &v.federated().members
                                               : nullptr;
  if (kids)
    for (const dynamic_value& k : *kids)
      if (const data_reference* d = first_data_reference(k, depth + 1)) return d;
  return nullptr;
}
inline bool holds_data_reference(const dynamic_value& v) { return first_data_reference(v) != nullptr; }

}  // namespace detail

}  // namespace ctff
