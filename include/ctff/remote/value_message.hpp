// Values on TFF's remote-execution wire (tensorflow_federated.v0.Value) and back: tensors as
// federated_language.Array (typed lists, as Python writes them, or raw row-major `content`, as
// TFF's C++ writes them; ctff writes as TFF's C++ does), structs with names, federated values (member
// type optional), sequences. A computation is the caller's to evaluate (it needs an executor); a
// data reference (run/data_reference.hpp) goes as its Data computation, of its Data's type.
// Untrusted input: every count is checked against the shape and the bytes before anything is
// allocated, a sequence makes at most one value per byte it takes on the wire, and anything
// malformed is a remote_error naming where in the value it is (that name built only then).
#pragma once

#include <bit>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <federated_language/proto/computation.pb.h>
#include <tensorflow_federated/proto/v0/executor.pb.h>

#include "ctff/remote/array_message.hpp"
#include "ctff/remote/remote_error.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/data_reference.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {

namespace detail {

inline placement_kind placement_of_uri(const std::string& uri, const value_path& where) {
  if (uri == "clients") return placement_kind::clients;
  if (uri == "server") return placement_kind::server;
  remote_fail(where, "the placement `" + uri + "` (clients and server only)");
}

// The tensors of one sequence element, nested as its element type says (leaves depth first).
struct leaf_cursor {
  const google::protobuf::RepeatedPtrField<federated_language::Array>& leaves;
  int next = 0;
};
inline dynamic_value nest_leaves(const federated_language::Type& t, leaf_cursor& c, const value_path& where,
                                 int depth) {
  if (depth > 64) remote_fail(where, "a sequence element type nested more than 64 deep");
  if (t.has_struct_()) {
    std::vector<dynamic_value> e;
    std::vector<std::string> names;
    bool named = false;
    for (const auto& el : t.struct_().element()) {
      e.push_back(nest_leaves(el.value(), c, where, depth + 1));
      names.push_back(el.name());
      named = named || !el.name().empty();
    }
    if (!named) names.clear();
    return make_struct_value(std::move(e), std::move(names));
  }
  if (!t.has_tensor()) remote_fail(where, "a sequence element type that is not tensors and structs");
  if (c.next >= c.leaves.size()) remote_fail(where, "a sequence element with fewer tensors than its type");
  dynamic_value v = tensor_from_array(c.leaves[c.next], where.child({}, static_cast<std::size_t>(c.next)));
  ++c.next;
  if (static_cast<dtype>(t.tensor().dtype()) != v.tensor().dt)
    remote_fail(where, "a sequence element's tensor whose dtype is not its type's");
  return v;
}

// The values one sequence element of type t makes: its structs and tensors.
inline std::size_t type_nodes(const federated_language::Type& t, const value_path& where, int depth) {
  if (depth > 64) remote_fail(where, "a sequence element type nested more than 64 deep");
  std::size_t n = 1;
  if (t.has_struct_())
    for (const auto& el : t.struct_().element()) n += type_nodes(el.value(), where, depth + 1);
  return n;
}

}  // namespace detail

// Evaluates a Computation sent as a value (a worker: with its executor).
using computation_evaluator = std::function<dynamic_value(const federated_language::Computation&)>;

namespace detail {
inline dynamic_value from_message(const tensorflow_federated::v0::Value& m, const computation_evaluator& eval,
                                  const value_path& where, int depth) {
  using V = tensorflow_federated::v0::Value;
  if (depth > 100) remote_fail(where, "a value nested more than 100 deep");
  switch (m.value_case()) {
    case V::kArray: return tensor_from_array(m.array(), where);
    case V::kComputation:
      if (!eval) remote_fail(where, "a computation where only data is accepted");
      return eval(m.computation());
    case V::kStruct: {
      std::vector<dynamic_value> e;
      std::vector<std::string> names;
      bool named = false;
      int k = 0;
      for (const auto& el : m.struct_().element()) {
        e.push_back(from_message(el.value(), eval, where.child(el.name(), static_cast<std::size_t>(k++)), depth + 1));
        names.push_back(el.name());
        named = named || !el.name().empty();
      }
      if (!named) names.clear();
      return make_struct_value(std::move(e), std::move(names));
    }
    case V::kFederated: {
      const auto& f = m.federated();
      if (!f.type().placement().has_value()) remote_fail(where, "a federated value without placement");
      const placement_kind p = placement_of_uri(f.type().placement().value().uri(), where);
      std::vector<dynamic_value> members;
      members.reserve(static_cast<std::size_t>(f.value_size()));
      for (int k = 0; k != f.value_size(); ++k)
        members.push_back(from_message(f.value(k), eval, where.child({}, static_cast<std::size_t>(k)), depth + 1));
      const bool all_equal = p == placement_kind::server || f.type().all_equal();
      if (all_equal && members.size() != 1)
        remote_fail(where, "an all_equal federated value with " + std::to_string(members.size()) + " members");
      return make_federated(p, all_equal, std::move(members));
    }
    case V::kSequence: {
      const auto& s = m.sequence();
      // Every element makes a value per node of the element type, tensors or not: a type of many
      // empty structs times many empty elements would make billions of values from a few KB.
      if (s.element_size() != 0) {
        const std::size_t per = type_nodes(s.element_type(), where, 0);
        const std::size_t bytes = s.ByteSizeLong();
        if (per > bytes / static_cast<std::size_t>(s.element_size()))
          remote_fail(where, "a sequence of " + std::to_string(s.element_size()) + " elements of " + std::to_string(per) +
                                 " values each in " + std::to_string(bytes) + " bytes (at most one value per byte)");
      }
      std::vector<dynamic_value> e;
      e.reserve(static_cast<std::size_t>(s.element_size()));
      for (int k = 0; k != s.element_size(); ++k) {
        const value_path at = where.child({}, static_cast<std::size_t>(k));
        leaf_cursor c{s.element(k).flat_value()};
        e.push_back(nest_leaves(s.element_type(), c, at, 0));
        if (c.next != c.leaves.size()) remote_fail(at, "a sequence element with more tensors than its type");
      }
      return make_sequence(std::move(e));
    }
    case V::VALUE_NOT_SET: break;
  }
  remote_fail(where, "a Value with none of array, computation, struct, sequence, federated set");
}
}  // namespace detail

// A wire Value as a dynamic_value; computations through `eval` (none: an error).
inline dynamic_value from_message(const tensorflow_federated::v0::Value& m, const computation_evaluator& eval = {}) {
  return detail::from_message(m, eval, detail::value_path{nullptr, "value"}, 0);
}

namespace detail {
// The type of a value, as federated_language writes it (an empty CLIENTS value: no member type).
inline bool type_of_value(const dynamic_value& v, federated_language::Type& t) {
  switch (v.kind()) {
    case value_kind::tensor: {
      auto* tt = t.mutable_tensor();
      tt->set_dtype(static_cast<federated_language::DataType>(v.tensor().dt));
      for (std::int64_t d : v.tensor().shape) tt->add_dims(d);
      return true;
    }
    case value_kind::struct_: {
      auto* st = t.mutable_struct_();
      const struct_data& s = v.structure();
      for (std::size_t k = 0; k != s.elements.size(); ++k) {
        auto* e = st->add_element();
        e->set_name(std::string(s.name(k)));
        if (!type_of_value(s.elements[k], *e->mutable_value())) return false;
      }
      return true;
    }
    case value_kind::federated: {
      auto* ft = t.mutable_federated();
      const federated_data& f = v.federated();
      ft->mutable_placement()->mutable_value()->set_uri(std::string(placement_uri(f.where)));
      ft->set_all_equal(f.all_equal);
      return f.members.empty() || type_of_value(f.members.front(), *ft->mutable_member());
    }
    case value_kind::sequence: {
      auto* sq = t.mutable_sequence();
      const sequence_data& s = v.sequence();
      return !s.elements.empty() && type_of_value(s.elements.front(), *sq->mutable_element());
    }
    case value_kind::function:
      if (const data_reference* d = data_reference::of(v)) {
        federated_language::Computation c;
        if (!c.ParseFromString(d->computation())) return false;
        t = c.type();
        return true;
      }
      break;
    case value_kind::placement: break;
  }
  return false;
}

inline void flat_leaves(const dynamic_value& v, tensorflow_federated::v0::Value_Sequence_Element& e) {
  if (v.is(value_kind::struct_)) {
    for (const dynamic_value& x : v.structure().elements) flat_leaves(x, e);
  } else {
    array_of_tensor(v.tensor(), *e.add_flat_value());
  }
}

inline void to_message(const dynamic_value& v, tensorflow_federated::v0::Value& m, const value_path& where) {
  if (!v) remote_fail(where, "no value (the result of a call without result)");
  switch (v.kind()) {
    case value_kind::tensor: array_of_tensor(v.tensor(), *m.mutable_array()); return;
    case value_kind::struct_: {
      auto* s = m.mutable_struct_();
      const struct_data& d = v.structure();
      for (std::size_t k = 0; k != d.elements.size(); ++k) {
        auto* e = s->add_element();
        e->set_name(std::string(d.name(k)));
        to_message(d.elements[k], *e->mutable_value(), where.child(d.name(k), k));
      }
      return;
    }
    case value_kind::federated: {
      auto* f = m.mutable_federated();
      const federated_data& d = v.federated();
      auto* t = f->mutable_type();
      t->mutable_placement()->mutable_value()->set_uri(std::string(placement_uri(d.where)));
      t->set_all_equal(d.all_equal);
      if (!d.members.empty()) {
        federated_language::Type member;
        if (type_of_value(d.members.front(), member)) *t->mutable_member() = std::move(member);
      }
      for (std::size_t k = 0; k != d.members.size(); ++k)
        to_message(d.members[k], *f->add_value(), where.child({}, k));
      return;
    }
    case value_kind::sequence: {
      auto* s = m.mutable_sequence();
      const sequence_data& d = v.sequence();
      if (!d.elements.empty()) type_of_value(d.elements.front(), *s->mutable_element_type());
      for (const dynamic_value& e : d.elements) flat_leaves(e, *s->add_element());
      return;
    }
    case value_kind::function:
      if (const data_reference* d = data_reference::of(v)) {
        if (!m.mutable_computation()->ParseFromString(d->computation()))
          remote_fail(where, "the Data computation of `" + d->uri() + "` does not parse");
        return;
      }
      remote_fail(where, "a function value cannot be sent back (compute its result instead)");
    case value_kind::placement: remote_fail(where, "a placement value cannot be sent back");
  }
}
}  // namespace detail

// A dynamic_value as a wire Value (tensors in typed lists; federated values with their type).
inline tensorflow_federated::v0::Value to_message(const dynamic_value& v) {
  tensorflow_federated::v0::Value m;
  detail::to_message(detail::with_members(v), m, detail::value_path{nullptr, "value"});
  return m;
}

}  // namespace ctff
