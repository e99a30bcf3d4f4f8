// `federated_language.Type` messages from ctff types: `ctff::type_proto<T>()` for a static type
// (protobuf's own parse of the constant `ctff::type_bytes<T>()`), and `ctff::to_proto(desc)`
// for a type description (built field by field through the protobuf API, independently of ctff's
// wire writer, so the two check each other).
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include <federated_language/proto/computation.pb.h>

#include "ctff/core/byte_view.hpp"
#include "ctff/proto/errors.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/type_string.hpp"

namespace ctff {
namespace detail {

inline void build_type_message(const type_desc& d, std::uint32_t i, federated_language::Type& out) {
  const type_node& n = d.node(i);
  switch (n.kind) {
    case type_kind::tensor: {
      auto* t = out.mutable_tensor();
      t->set_dtype(static_cast<federated_language::DataType>(static_cast<int>(n.dt)));
      for (std::uint32_t k = 0; k != n.dim_count; ++k) t->add_dims(d.dims[n.dim_begin + k]);
      if (n.unknown_rank) t->set_unknown_rank(true);
      return;
    }
    case type_kind::struct_: {
      auto* s = out.mutable_struct_();
      for (std::uint32_t k = 0; k != n.kid_count; ++k) {
        const auto c = d.kid(i, k);
        auto* e = s->add_element();
        if (auto nm = d.name(c); !nm.empty()) e->set_name(std::string(nm));
        build_type_message(d, c, *e->mutable_value());
      }
      return;
    }
    case type_kind::sequence:
      build_type_message(d, d.kid(i, 0), *out.mutable_sequence()->mutable_element());
      return;
    case type_kind::function: {
      auto* f = out.mutable_function();
      if (n.has_param) build_type_message(d, d.kid(i, 0), *f->mutable_parameter());
      build_type_message(d, d.kid(i, n.has_param ? 1 : 0), *f->mutable_result());
      return;
    }
    case type_kind::federated: {
      auto* f = out.mutable_federated();
      f->mutable_placement()->mutable_value()->set_uri(std::string(placement_uri(n.where)));
      f->set_all_equal(n.all_equal);
      build_type_message(d, d.kid(i, 0), *f->mutable_member());
      return;
    }
    case type_kind::placement:
      out.mutable_placement();
      return;
    case type_kind::abstract:
      out.mutable_abstract()->set_label(std::string(d.label(i)));
      return;
  }
}

}  // namespace detail

// The Type message of a type description (abstract types included; they are representable, but
// federated_language cannot read them back).
inline federated_language::Type to_proto(const type_desc& d) {
  federated_language::Type t;
  detail::build_type_message(d, d.root, t);
  return t;
}

// The Type message of a static type (a TFF type or a C++ type that maps to one), parsed by
// protobuf from `type_bytes<T>()`. Throws ctff::type_error if protobuf rejects the bytes.
template <class T>
federated_language::Type type_proto() {
  const byte_view b = type_bytes<T>();
  federated_language::Type t;
  if (b.size() > static_cast<std::size_t>(INT_MAX) ||
      !t.ParseFromArray(b.data(), static_cast<int>(b.size())))
    throw type_error({}, "protobuf cannot parse ctff::type_bytes<T>() for the type `" +
                             std::string(type_string<T>()) + "`");
  return t;
}

}  // namespace ctff
