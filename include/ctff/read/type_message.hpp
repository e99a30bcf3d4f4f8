// Reading a federated_language.Type message into a type_desc: children before parents, names after
// the elements, the layout of ctff::describe<T>(). The one Type reader: of a computation_tree's
// types (read/reader.hpp reads the rest) and of a Type alone (`read_type_message`, behind
// proto/type_reader.hpp). Rejected with a read_error: an empty or doubled oneof, a missing
// field, unknown dtypes, placement URIs other than `clients` and `server`, placement labels.
// The type system's rules (nesting, names, dims) are read/type_rules.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/read/tree.hpp"
#include "ctff/read/wire_reader.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

class type_message_reader : public wire_reader {
 protected:
  using wire_reader::wire_reader;

  std::uint32_t add_chars(std::string_view s) {
    auto& chars = tree_access::pool(t_).chars;
    const auto at = static_cast<std::uint32_t>(chars.size());
    chars.append(s.data(), s.size());
    return at;
  }

  // Reads a Type message into t_.types (children before parents, names after the elements: the
  // layout of ctff::describe<T>()).
  std::uint32_t type(ptr p, ptr end) {
    std::uint32_t id = no_index;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number < 1 || f.number > 7) unknown(f, "Type");
      if (id != no_index) fail(f.at, "a second kind (field " + std::to_string(f.number) + "): the Type's `type` oneof is already set");
      ptr e = delimited(f, p, end, "the Type's kind");
      switch (f.number) {
        case 1: id = function_type(p, e); break;
        case 2: id = struct_type(p, e); break;
        case 3: id = sequence_type(p, e); break;
        case 4: id = tensor_type(p, e); break;
        case 5: id = abstract_type(p, e); break;
        case 6: id = placement_type(p, e); break;
        default: id = federated_type(p, e); break;
      }
      p = e;
    }
    if (id == no_index) fail(end, "the Type has no kind (its `type` oneof is empty)");
    return id;
  }
  std::uint32_t nested_type(const field& f, ptr& p, ptr end, const char* what) {
    ptr e = delimited(f, p, end, what);
    push(what);
    const std::uint32_t id = type(p, e);
    pop();
    p = e;
    return id;
  }

  std::uint32_t function_type(ptr p, ptr end) {
    type_node n{};
    n.kind = type_kind::function;
    std::uint32_t k[2] = {no_index, no_index};
    bool seen_param = false, seen_result = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_param, f, "FunctionType.parameter");
        k[0] = nested_type(f, p, end, "function.parameter");
      } else if (f.number == 2) {
        once(seen_result, f, "FunctionType.result");
        k[1] = nested_type(f, p, end, "function.result");
      } else {
        unknown(f, "FunctionType");
      }
    }
    if (!seen_result) {
      push("function.result");
      fail(end, "the function type has no result type (FunctionType.result is missing)");
    }
    n.has_param = seen_param;
    const std::uint32_t id = t_.types.add(n);
    if (seen_param) {
      t_.types.set_kids(id, k, 2);
    } else {
      const std::uint32_t r[1] = {k[1]};
      t_.types.set_kids(id, r, 1);
    }
    return id;
  }

  std::uint32_t struct_type(ptr p, ptr end) {
    struct el {
      std::uint32_t id;
      std::string_view name;
    };
    const std::size_t mark = type_scratch_.size();
    std::int64_t k = 0;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "StructType");
      ptr e = delimited(f, p, end, "StructType.element");
      std::string_view name;
      std::uint32_t id = no_index;
      bool seen_name = false;
      ptr q = p;
      while (q != e) {
        at_ = q;
        const field g = tag(q, e);
        if (g.number == 1) {
          once(seen_name, g, "the element's name");
          name = string(g, q, e, "the element's name");
        } else if (g.number == 2) {
          if (id != no_index) fail(g.at, "the element's value is given twice");
          ptr ve = delimited(g, q, e, "the element's type");
          push("struct", k, name);
          id = type(q, ve);
          pop();
          q = ve;
        } else {
          unknown(g, "StructType.Element");
        }
      }
      if (id == no_index) {
        push("struct", k, name);
        fail(e, "the struct element has no type (StructType.Element.value is missing)");
      }
      type_scratch_.push_back(id);
      name_scratch_.push_back(name);
      p = e;
      ++k;
    }
    const std::size_t count = type_scratch_.size() - mark;
    for (std::size_t j = 0; j != count; ++j)
      if (!name_scratch_[mark + j].empty()) t_.types.set_name(type_scratch_[mark + j], name_scratch_[mark + j]);
    type_node n{};
    n.kind = type_kind::struct_;
    const std::uint32_t id = t_.types.add(n);
    t_.types.nodes[id].kid_begin = static_cast<std::uint32_t>(t_.types.kids.size());
    t_.types.nodes[id].kid_count = static_cast<std::uint32_t>(count);
    t_.types.kids.insert(t_.types.kids.end(), type_scratch_.begin() + static_cast<std::ptrdiff_t>(mark), type_scratch_.end());
    type_scratch_.resize(mark);
    name_scratch_.resize(mark);
    return id;
  }

  std::uint32_t sequence_type(ptr p, ptr end) {
    std::uint32_t k[1] = {no_index};
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "SequenceType");
      if (k[0] != no_index) fail(f.at, "SequenceType.element is given twice");
      k[0] = nested_type(f, p, end, "sequence.element");
    }
    if (k[0] == no_index) {
      push("sequence.element");
      fail(end, "the sequence type has no element type (SequenceType.element is missing)");
    }
    type_node n{};
    n.kind = type_kind::sequence;
    const std::uint32_t id = t_.types.add(n);
    t_.types.set_kids(id, k, 1);
    return id;
  }

  std::uint32_t tensor_type(ptr p, ptr end) {
    type_desc& d = t_.types;
    type_node n{};
    n.kind = type_kind::tensor;
    n.dim_begin = static_cast<std::uint32_t>(d.dims.size());
    std::uint64_t dt = 0;
    bool seen_dtype = false, seen_rank = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_dtype, f, "TensorType.dtype");
        dt = scalar(f, p, end, "TensorType.dtype");
      } else if (f.number == 2) {
        if (f.wire == 2) {
          ptr e = delimited(f, p, end, "TensorType.dims");
          while (p != e) d.dims.push_back(static_cast<std::int64_t>(varint(p, e)));
        } else {
          d.dims.push_back(static_cast<std::int64_t>(scalar(f, p, end, "TensorType.dims")));
        }
      } else if (f.number == 3) {
        once(seen_rank, f, "TensorType.unknown_rank");
        n.unknown_rank = scalar(f, p, end, "TensorType.unknown_rank") != 0;
      } else {
        unknown(f, "TensorType");
      }
    }
    if (!is_valid_dtype(dt)) {
      push("tensor.dtype");
      // An enum is an int32 on the wire: a negative one is sign-extended to 64 bits.
      const std::string number = dt > 0x7fffffffffffffffu ? std::to_string(static_cast<std::int64_t>(dt))
                                                           : std::to_string(dt);
      fail(end, "unknown dtype number " + number + (dt == 0 ? " (DT_INVALID)" : "") +
                    "; federated_language knows 1-10, 14, 17-19, 22 and 23");
    }
    n.dt = static_cast<dtype>(dt);
    n.dim_count = static_cast<std::uint32_t>(d.dims.size() - n.dim_begin);
    if (n.dim_count == 0) n.dim_begin = 0;
    return d.add(n);
  }

  std::uint32_t abstract_type(ptr p, ptr end) {
    type_node n{};
    n.kind = type_kind::abstract;
    bool seen = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "AbstractType");
      once(seen, f, "AbstractType.label");
      const std::string_view s = string(f, p, end, "AbstractType.label");
      n.label_begin = t_.types.add_chars(s);
      n.label_len = static_cast<std::uint32_t>(s.size());
    }
    return t_.types.add(n);
  }

  // PlacementType.instance_label (field 1): a Type read alone skips it, as federated_language
  // does; a Computation's tree, written back byte for byte, has no room for it and rejects it.
  std::uint32_t placement_type(ptr p, ptr end) {
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number != 1) unknown(f, "PlacementType");
      if (!skip_instance_label_) {
        push("placement");
        fail(f.at, "PlacementType.instance_label is set; federated_language writes the placement type empty");
      }
      p = delimited(f, p, end, "PlacementType.instance_label");
    }
    type_node n{};
    n.kind = type_kind::placement;
    return t_.types.add(n);
  }

  std::uint32_t federated_type(ptr p, ptr end) {
    type_node n{};
    n.kind = type_kind::federated;
    std::uint32_t k[1] = {no_index};
    bool seen_placement = false, seen_all_equal = false;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) {
        once(seen_placement, f, "FederatedType.placement");
        ptr e = delimited(f, p, end, "FederatedType.placement");
        push("federated.placement");
        n.where = placement_spec(p, e);
        pop();
        p = e;
      } else if (f.number == 2) {
        once(seen_all_equal, f, "FederatedType.all_equal");
        n.all_equal = scalar(f, p, end, "FederatedType.all_equal") != 0;
      } else if (f.number == 3) {
        if (k[0] != no_index) fail(f.at, "FederatedType.member is given twice");
        k[0] = nested_type(f, p, end, "federated.member");
      } else {
        unknown(f, "FederatedType");
      }
    }
    if (!seen_placement) {
      push("federated.placement");
      fail(end, "the federated type has no placement (FederatedType.placement is missing)");
    }
    if (k[0] == no_index) {
      push("federated.member");
      fail(end, "the federated type has no member type (FederatedType.member is missing)");
    }
    const std::uint32_t id = t_.types.add(n);
    t_.types.set_kids(id, k, 1);
    return id;
  }

  placement_kind placement_spec(ptr p, ptr end) {
    bool seen = false;
    placement_kind where = placement_kind::clients;
    while (p != end) {
      at_ = p;
      const field f = tag(p, end);
      if (f.number == 1) label(f, p, end);
      if (f.number != 2) unknown(f, "PlacementSpec");
      once(seen, f, "PlacementSpec.value");
      ptr e = delimited(f, p, end, "PlacementSpec.value");
      const std::string_view uri = only_string(p, e, "Placement", "Placement.uri");
      if (uri == "clients") {
        where = placement_kind::clients;
      } else if (uri == "server") {
        where = placement_kind::server;
      } else {
        push("value.uri");
        fail(e, "unknown placement URI `" + std::string(uri) + "`; federated_language knows `clients` and `server`");
      }
    }
    if (!seen) fail(end, "the PlacementSpec is empty (neither `value` nor `label` is set)");
    return where;
  }

  // A message [p, e) whose one field, 1, is a string (Placement{uri}, PlacementLabel{label}).
  std::string_view only_string(ptr& p, ptr e, const char* message, const char* what) {
    std::string_view text;
    while (p != e) {
      at_ = p;
      const field g = tag(p, e);
      if (g.number != 1) unknown(g, message);
      text = string(g, p, e, what);
    }
    return text;
  }

  // PlacementSpec.label (a PlacementLabel{label = 1}): read only to name it in the error.
  [[noreturn]] void label(const field& f, ptr& p, ptr end) {
    push("label");
    ptr e = delimited(f, p, end, "PlacementSpec.label");
    const std::string_view text = only_string(p, e, "PlacementLabel", "PlacementLabel.label");
    fail(f.at, "the placement is given by a label (`" + std::string(text) +
                   "`); federated_language reads only PlacementSpec.value");
  }

  computation_tree t_;
  bool skip_instance_label_ = false;
  std::vector<std::uint32_t> type_scratch_;
  std::vector<std::string_view> name_scratch_;
};

// A Type message alone, into a type_desc. Throws read_error as the Computation reader does.
class lone_type_reader : public type_message_reader {
 public:
  lone_type_reader(const unsigned char* data, std::size_t size, read_limits limits)
      : type_message_reader(data, size, limits) {
    skip_instance_label_ = true;
  }

  type_desc run() {
    check_size();
    at_ = base_;
    const std::uint32_t root = type(base_, base_ + size_);
    t_.types.root = root;
    return std::move(t_.types);
  }
};

inline type_desc read_type_message(const unsigned char* data, std::size_t size, read_limits limits = {}) {
  return lone_type_reader(data, size, limits).run();
}

}  // namespace ctff::detail
