// Values on TFF's remote-execution wire (tensorflow_federated.v0.Value) and back: tensors as
// federated_language.Array (typed lists, as Python writes them, or raw row-major `content`, as
// TFF's C++ writes them; ctff writes as TFF's C++ does), structs with names, federated values (member
// type optional), sequences. A computation is the caller's to evaluate (it needs an executor).
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

#include "ctff/run/value.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {

// A value or request a worker or controller cannot use: what is wrong, and where in the value.
class remote_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

[[noreturn]] inline void remote_fail(const std::string& where, const std::string& what) {
  throw remote_error(where + ": " + what);
}

// Where in a value (`value.model[3]`), as a chain up to the root, spelled out only for an error:
// a string per element would copy a long name once for every element below it (quadratic in the
// message).
struct value_path {
  const value_path* parent = nullptr;  // none: the root, spelled `name`
  std::string_view name{};             // a struct element's name (empty: by index)
  std::size_t index = 0;
  value_path child(std::string_view n, std::size_t k) const { return {this, n, k}; }
  std::string text() const {
    if (!parent) return std::string(name);
    std::string s = parent->text();
    s += step_text(name, index);
    return s;
  }
};
[[noreturn]] inline void remote_fail(const value_path& where, const std::string& what) {
  remote_fail(where.text(), what);
}

// The number of elements of a shape (dims checked non-negative, the product bounded).
inline std::size_t shape_elements(const std::vector<std::int64_t>& shape, const value_path& where) {
  std::size_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) remote_fail(where, "a dimension of " + std::to_string(d) + " (Array.shape)");
    if (d != 0 && n > (std::size_t{1} << 48) / static_cast<std::size_t>(d))
      remote_fail(where, "the shape has more than 2^48 elements");
    n *= static_cast<std::size_t>(d);
  }
  return n;
}

// `[2,3]` (appended piece by piece: g++ -O3 warns -Wrestrict on `s + "," + ...`).
inline std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k != shape.size(); ++k) {
    if (k) s += ',';
    s += std::to_string(shape[k]);
  }
  s += ']';
  return s;
}

// One Array's typed list, as the repeated field that holds dtype D's elements.
template <dtype D>
auto& array_list(const federated_language::Array& a) {
  using enum dtype;
  if constexpr (D == bool_) return a.bool_list().value();
  else if constexpr (D == int8) return a.int8_list().value();
  else if constexpr (D == int16) return a.int16_list().value();
  else if constexpr (D == int32) return a.int32_list().value();
  else if constexpr (D == int64) return a.int64_list().value();
  else if constexpr (D == uint8) return a.uint8_list().value();
  else if constexpr (D == uint16) return a.uint16_list().value();
  else if constexpr (D == uint32) return a.uint32_list().value();
  else if constexpr (D == uint64) return a.uint64_list().value();
  else if constexpr (D == float16) return a.float16_list().value();
  else if constexpr (D == bfloat16) return a.bfloat16_list().value();
  else if constexpr (D == float32) return a.float32_list().value();
  else if constexpr (D == float64) return a.float64_list().value();
  else if constexpr (D == complex64) return a.complex64_list().value();
  else if constexpr (D == complex128) return a.complex128_list().value();
  else return a.string_list().value();
}
template <dtype D>
auto* mutable_array_list(federated_language::Array& a) {
  using enum dtype;
  if constexpr (D == bool_) return a.mutable_bool_list()->mutable_value();
  else if constexpr (D == int8) return a.mutable_int8_list()->mutable_value();
  else if constexpr (D == int16) return a.mutable_int16_list()->mutable_value();
  else if constexpr (D == int32) return a.mutable_int32_list()->mutable_value();
  else if constexpr (D == int64) return a.mutable_int64_list()->mutable_value();
  else if constexpr (D == uint8) return a.mutable_uint8_list()->mutable_value();
  else if constexpr (D == uint16) return a.mutable_uint16_list()->mutable_value();
  else if constexpr (D == uint32) return a.mutable_uint32_list()->mutable_value();
  else if constexpr (D == uint64) return a.mutable_uint64_list()->mutable_value();
  else if constexpr (D == float16) return a.mutable_float16_list()->mutable_value();
  else if constexpr (D == bfloat16) return a.mutable_bfloat16_list()->mutable_value();
  else if constexpr (D == float32) return a.mutable_float32_list()->mutable_value();
  else if constexpr (D == float64) return a.mutable_float64_list()->mutable_value();
  else if constexpr (D == complex64) return a.mutable_complex64_list()->mutable_value();
  else if constexpr (D == complex128) return a.mutable_complex128_list()->mutable_value();
  else return a.mutable_string_list()->mutable_value();
}
// The oneof case that holds dtype D's list.
template <dtype D>
constexpr federated_language::Array::KindCase array_kind() {
  using K = federated_language::Array;
  using enum dtype;
  if constexpr (D == bool_) return K::kBoolList;
  else if constexpr (D == int8) return K::kInt8List;
  else if constexpr (D == int16) return K::kInt16List;
  else if constexpr (D == int32) return K::kInt32List;
  else if constexpr (D == int64) return K::kInt64List;
  else if constexpr (D == uint8) return K::kUint8List;
  else if constexpr (D == uint16) return K::kUint16List;
  else if constexpr (D == uint32) return K::kUint32List;
  else if constexpr (D == uint64) return K::kUint64List;
  else if constexpr (D == float16) return K::kFloat16List;
  else if constexpr (D == bfloat16) return K::kBfloat16List;
  else if constexpr (D == float32) return K::kFloat32List;
  else if constexpr (D == float64) return K::kFloat64List;
  else if constexpr (D == complex64) return K::kComplex64List;
  else if constexpr (D == complex128) return K::kComplex128List;
  else return K::kStringList;
}

// The bytes one element takes in Array.content (row-major, little-endian, as TFF's C++ writes).
template <dtype D>
constexpr std::size_t content_size() {
  return sizeof(typename stored_t<D>::value_type);
}

// A federated_language.Array as a tensor.
inline dynamic_value tensor_from_array(const federated_language::Array& a, const value_path& where) {
  static_assert(std::endian::native == std::endian::little, "ctff: Array.content is little-endian");
  if (!is_valid_dtype(static_cast<std::uint64_t>(a.dtype())))
    remote_fail(where, "Array.dtype " + std::to_string(static_cast<int>(a.dtype())) + " is not a dtype");
  if (a.shape().unknown_rank()) remote_fail(where, "an Array of unknown rank");
  std::vector<std::int64_t> shape(a.shape().dim().begin(), a.shape().dim().end());
  const std::size_t n = shape_elements(shape, where);
  return visit_dtype(static_cast<dtype>(a.dtype()), [&](auto d) -> dynamic_value {
    constexpr dtype D = decltype(d)::value;
    using E = typename stored_t<D>::value_type;
    stored_t<D> out;
    if (a.has_content()) {
      if constexpr (D == dtype::str) {
        remote_fail(where, "a string Array in raw content (strings travel in string_list)");
      } else {
        const std::string& c = a.content();
        if (c.size() != n * content_size<D>())
          remote_fail(where, "Array.content has " + std::to_string(c.size()) + " bytes; the shape needs " +
                                 std::to_string(n * content_size<D>()));
        out.resize(n);
        if (n != 0) std::memcpy(static_cast<void*>(out.data()), c.data(), c.size());
        if constexpr (D == dtype::bool_)
          for (E& b : out) b = b != 0;
      }
    } else {
      if (a.kind_case() != federated_language::Array::KIND_NOT_SET && a.kind_case() != array_kind<D>())
        remote_fail(where, "the Array's value list is not the one of its dtype " + std::string(dtype_name(D)));
      const auto& list = array_list<D>(a);
      constexpr std::size_t per = D == dtype::complex64 || D == dtype::complex128 ? 2 : 1;
      const auto got = static_cast<std::size_t>(list.size());
      if (got != n * per)
        remote_fail(where, "the Array holds " + std::to_string(got / per) + " values; its shape " +
                               shape_text(shape) + " needs " + std::to_string(n));
      out.reserve(n);
      for (std::size_t k = 0; k != n; ++k) {
        if constexpr (D == dtype::complex64 || D == dtype::complex128) {
          out.emplace_back(list[static_cast<int>(2 * k)], list[static_cast<int>(2 * k + 1)]);
        } else if constexpr (D == dtype::float16 || D == dtype::bfloat16) {
          const auto bits = list[static_cast<int>(k)];
          if (bits < 0 || bits > 0xffff) remote_fail(where, "a 16-bit float's bits out of range");
          out.push_back(E{static_cast<std::uint16_t>(bits)});
        } else if constexpr (D == dtype::str) {
          out.push_back(list[static_cast<int>(k)]);
        } else if constexpr (D == dtype::bool_) {
          out.push_back(list[static_cast<int>(k)] ? 1 : 0);
        } else if constexpr (std::is_floating_point_v<E>) {
          out.push_back(list[static_cast<int>(k)]);  // no range check: NaN != NaN
        } else {
          const auto x = list[static_cast<int>(k)];
          if (static_cast<decltype(x)>(static_cast<E>(x)) != x)
            remote_fail(where, "the value " + std::to_string(x) + " is out of range of " + std::string(dtype_name(D)));
          out.push_back(static_cast<E>(x));
        }
      }
    }
    return make_tensor<D>(std::move(out), std::move(shape));
  });
}

// A tensor as a federated_language.Array, as TFF's C++ writes it: a scalar or strings in the typed
// list of its dtype, any other tensor as raw row-major `content` (one copy, no per-element work;
// TFF's Python and C++ read both).
inline void array_of_tensor(const tensor_data& t, federated_language::Array& a) {
  a.set_dtype(static_cast<federated_language::DataType>(t.dt));
  auto* shape = a.mutable_shape();
  for (std::int64_t d : t.shape) shape->add_dim(d);
  visit_dtype(t.dt, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    const auto& v = t.get<D>();
    if constexpr (D != dtype::str) {
      if (!t.shape.empty()) {
        a.set_content(std::string(reinterpret_cast<const char*>(v.data()), v.size() * content_size<D>()));
        return;
      }
    }
    auto* list = mutable_array_list<D>(a);
    if constexpr (D == dtype::complex64 || D == dtype::complex128) {
      list->Reserve(static_cast<int>(2 * v.size()));
      for (const auto& x : v) list->Add(x.real()), list->Add(x.imag());
    } else if constexpr (D == dtype::str) {
      for (const auto& x : v) *list->Add() = x;
    } else {
      list->Reserve(static_cast<int>(v.size()));
      for (const auto& x : v) {
        if constexpr (D == dtype::float16 || D == dtype::bfloat16) list->Add(x.bits);
        else list->Add(x);
      }
    }
  });
}

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
      remote_fail(where, "a function value cannot be sent back (compute its result instead)");
    case value_kind::placement: remote_fail(where, "a placement value cannot be sent back");
  }
}
}  // namespace detail

// A dynamic_value as a wire Value (tensors in typed lists; federated values with their type).
inline tensorflow_federated::v0::Value to_message(const dynamic_value& v) {
  tensorflow_federated::v0::Value m;
  detail::to_message(v, m, detail::value_path{nullptr, "value"});
  return m;
}

}  // namespace ctff
