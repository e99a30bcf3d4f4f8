// Reading a `federated_language.Type` (a protobuf message, or its serialized bytes) back into a
// ctff::type_desc, with the checks federated_language applies when it deserializes a type: a
// known dtype, well-formed shapes, `PlacementSpec.value` with the URI `clients` or `server`
// (placement labels are not supported), no federated or function type inside a federated type,
// no federated, function or sequence type inside a sequence type, unique struct element names.
// Every failure throws ctff::type_error naming the offending node, e.g.
// `function.parameter.struct[1](b).federated.member`.
//
// The description has the same layout as `ctff::describe<T>()` of the equal static type (children
// before parents, left to right; struct element names appended after the elements), so the two
// compare equal member by member.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <federated_language/proto/computation.pb.h>

#include "ctff/core/byte_view.hpp"
#include "ctff/proto/errors.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {
namespace detail {

// The innermost enclosing federated and sequence types of the node being read (their paths), for
// the nesting rules.
struct type_read_scope {
  const std::string* federated = nullptr;
  const std::string* sequence = nullptr;
};

inline std::string path_text(const std::string& path) {
  return path.empty() ? std::string("(top level)") : path;
}

// Appends `.seg` (or `seg` at the top) to `path`; the caller truncates it again.
inline void path_push(std::string& path, std::string_view seg) {
  if (!path.empty()) path += '.';
  path += seg;
}

class type_reader {
 public:
  explicit type_reader(type_desc& d) : d_(d) {}

  std::uint32_t read(const federated_language::Type& t, std::string& path, type_read_scope scope) {
    using federated_language::Type;
    switch (t.type_case()) {
      case Type::kTensor:
        return tensor(t.tensor(), path);
      case Type::kStruct:
        return struct_(t.struct_(), path, scope);
      case Type::kSequence:
        return sequence(t.sequence(), path, scope);
      case Type::kFunction:
        return function(t.function(), path, scope);
      case Type::kFederated:
        return federated(t.federated(), path, scope);
      case Type::kPlacement: {
        type_node n{};
        n.kind = type_kind::placement;
        return d_.add(n);
      }
      case Type::kAbstract:
        return abstract(t.abstract(), path);
      case Type::TYPE_NOT_SET:
        break;
    }
    throw type_error(path, "the Type has no kind (none of the fields of its `type` oneof is set)");
  }

 private:
  std::uint32_t tensor(const federated_language::TensorType& t, std::string& path) {
    const int dt = static_cast<int>(t.dtype());
    if (dt < 0 || !is_valid_dtype(static_cast<std::uint64_t>(dt))) {
      path_push(path, "tensor.dtype");
      throw type_error(path, "unknown dtype number " + std::to_string(dt) +
                                 (dt == 0 ? " (DT_INVALID)" : "") +
                                 "; federated_language knows 1-10, 14, 17-19, 22 and 23");
    }
    type_node n{};
    n.kind = type_kind::tensor;
    n.dt = static_cast<dtype>(dt);
    if (t.unknown_rank()) {
      if (t.dims_size() != 0) {
        path_push(path, "tensor");
        throw type_error(path, "unknown_rank is set together with " +
                                   std::to_string(t.dims_size()) +
                                   " dims; a shape of unknown rank has no dims");
      }
      n.unknown_rank = true;
    } else {
      n.dim_begin = static_cast<std::uint32_t>(d_.dims.size());
      n.dim_count = static_cast<std::uint32_t>(t.dims_size());
      for (int k = 0; k != t.dims_size(); ++k) {
        const std::int64_t v = t.dims(k);
        if (v < -1) {
          path_push(path, "tensor.dims[" + std::to_string(k) + "]");
          throw type_error(path, "dimension " + std::to_string(v) +
                                     " is invalid; a dimension is >= 0, or -1 when unknown");
        }
        d_.dims.push_back(v);
      }
    }
    return d_.add(n);
  }

  std::uint32_t struct_(const federated_language::StructType& t, std::string& path,
                        type_read_scope scope) {
    const int count = t.element_size();
    std::vector<std::uint32_t> ids;
    ids.reserve(static_cast<std::size_t>(count));
    const auto mark = path.size();
    for (int k = 0; k != count; ++k) {
      const auto& el = t.element(k);
      const std::string& name = el.name();
      std::string seg = "struct[" + std::to_string(k) + "]";
      if (!name.empty()) seg += "(" + name + ")";
      path_push(path, seg);
      if (!name.empty()) {
        for (int j = 0; j != k; ++j) {
          if (t.element(j).name() == name)
            throw type_error(path, "duplicate struct element name `" + name + "` (element " +
                                       std::to_string(j) + " has the same name)");
        }
      }
      if (!el.has_value())
        throw type_error(path, "the struct element has no type (StructType.Element.value is missing)");
      ids.push_back(read(el.value(), path, scope));
      path.resize(mark);
    }
    // Names after all elements, as describe<T>() does.
    for (int k = 0; k != count; ++k) {
      const std::string& name = t.element(k).name();
      if (!name.empty()) d_.set_name(ids[static_cast<std::size_t>(k)], name);
    }
    type_node n{};
    n.kind = type_kind::struct_;
    const auto id = d_.add(n);
    d_.nodes[id].kid_begin = static_cast<std::uint32_t>(d_.kids.size());
    d_.nodes[id].kid_count = static_cast<std::uint32_t>(count);
    for (auto c : ids) d_.kids.push_back(c);
    return id;
  }

  std::uint32_t sequence(const federated_language::SequenceType& t, std::string& path,
                         type_read_scope scope) {
    if (scope.sequence)
      throw type_error(path, "a sequence type inside the sequence type at " +
                                 path_text(*scope.sequence) +
                                 "; a sequence cannot contain federated, function or sequence types");
    const std::string here = path;
    const auto mark = path.size();
    path_push(path, "sequence.element");
    if (!t.has_element())
      throw type_error(path, "the sequence type has no element type (SequenceType.element is missing)");
    type_read_scope inner = scope;
    inner.sequence = &here;
    const std::uint32_t k[] = {read(t.element(), path, inner)};
    path.resize(mark);
    type_node n{};
    n.kind = type_kind::sequence;
    const auto id = d_.add(n);
    d_.set_kids(id, k, 1);
    return id;
  }

  void check_not_nested(const char* what, const std::string& path, type_read_scope scope) {
    if (scope.federated)
      throw type_error(path, std::string("a ") + what + " type inside the federated type at " +
                                 path_text(*scope.federated) +
                                 "; a federated member cannot contain federated or function types");
    if (scope.sequence)
      throw type_error(path, std::string("a ") + what + " type inside the sequence type at " +
                                 path_text(*scope.sequence) +
                                 "; a sequence cannot contain federated, function or sequence types");
  }

  std::uint32_t function(const federated_language::FunctionType& t, std::string& path,
                         type_read_scope scope) {
    check_not_nested("function", path, scope);
    const auto mark = path.size();
    type_node n{};
    n.kind = type_kind::function;
    std::uint32_t k[2]{};
    std::size_t count = 0;
    if (t.has_parameter()) {
      path_push(path, "function.parameter");
      k[count++] = read(t.parameter(), path, scope);
      path.resize(mark);
      n.has_param = true;
    }
    path_push(path, "function.result");
    if (!t.has_result())
      throw type_error(path, "the function type has no result type (FunctionType.result is missing)");
    k[count++] = read(t.result(), path, scope);
    path.resize(mark);
    const auto id = d_.add(n);
    d_.set_kids(id, k, count);
    return id;
  }

  std::uint32_t federated(const federated_language::FederatedType& t, std::string& path,
                          type_read_scope scope) {
    check_not_nested("federated", path, scope);
    const std::string here = path;
    const auto mark = path.size();
    type_node n{};
    n.kind = type_kind::federated;
    n.all_equal = t.all_equal();

    path_push(path, "federated.placement");
    if (!t.has_placement())
      throw type_error(path, "the federated type has no placement (FederatedType.placement is missing)");
    const auto& spec = t.placement();
    switch (spec.placement_case()) {
      case federated_language::PlacementSpec::kValue: {
        const std::string& uri = spec.value().uri();
        if (uri == "clients") {
          n.where = placement_kind::clients;
        } else if (uri == "server") {
          n.where = placement_kind::server;
        } else {
          path += ".value.uri";
          throw type_error(path, "unknown placement URI `" + uri +
                                     "`; federated_language knows `clients` and `server`");
        }
        break;
      }
      case federated_language::PlacementSpec::kLabel:
        path += ".label";
        throw type_error(path, "the placement is given by a label (`" + spec.label().label() +
                                   "`); federated_language reads only PlacementSpec.value");
      case federated_language::PlacementSpec::PLACEMENT_NOT_SET:
        throw type_error(path, "the PlacementSpec is empty (neither `value` nor `label` is set)");
    }
    path.resize(mark);

    path_push(path, "federated.member");
    if (!t.has_member())
      throw type_error(path, "the federated type has no member type (FederatedType.member is missing)");
    type_read_scope inner = scope;
    inner.federated = &here;
    const std::uint32_t k[] = {read(t.member(), path, inner)};
    path.resize(mark);
    const auto id = d_.add(n);
    d_.set_kids(id, k, 1);
    return id;
  }

  std::uint32_t abstract(const federated_language::AbstractType& t, std::string& path) {
    if (t.label().empty()) {
      path_push(path, "abstract.label");
      throw type_error(path, "the abstract type has an empty label");
    }
    type_node n{};
    n.kind = type_kind::abstract;
    n.label_begin = d_.add_chars(t.label());
    n.label_len = static_cast<std::uint32_t>(t.label().size());
    return d_.add(n);
  }

  type_desc& d_;
};

}  // namespace detail

// The description of a Type message. `path` prefixes the locations in error messages (useful when
// the Type sits inside a larger message, e.g. "lambda.result.type").
inline type_desc read_type(const federated_language::Type& t, std::string_view path = {}) {
  type_desc d;
  std::string p(path);
  detail::type_reader r(d);
  d.root = r.read(t, p, {});
  return d;
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
