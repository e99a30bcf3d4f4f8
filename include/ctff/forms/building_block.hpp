// The building blocks the form passes rewrite: an immutable, shared tree (each node a
// std::shared_ptr<const bb_node>) like federated_language's Python building blocks, so that a pass
// rebuilds only what it changes and may use one node in many places. Node identity matters as it
// does in Python: two References are the same value only when they are the same node, and the
// other kinds compare by structure (`same_block`), which is what decides, for instance, whether two
// uses of a free variable become one parameter element or two (forms/split_by_intrinsics.hpp).
//
// Types are indices into one type_desc owned by the `form_context` (which starts as a copy of the
// input tree's types and only grows). The kinds whose type Python recomputes when it reads a
// Computation (Selection, Struct, Call, Lambda, Block) get theirs from their parts here too; the
// others keep the type they were read with. TensorFlow, Xla, Data and Literal nodes are kept as
// their whole Computation message, as read. In and out of a computation_tree: forms/block_wire.hpp;
// walks: forms/block_traversal.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/relations.hpp"

namespace ctff::detail {

struct bb_node;
using bb = std::shared_ptr<const bb_node>;

// A struct element or a block local (name empty: an unnamed element).
struct bb_elem {
  std::string name;
  bb value;
};

struct bb_node {
  block_kind kind{};
  std::uint32_t type = no_index;        // in the context's types
  std::string text;                     // reference name, lambda parameter (empty: none), intrinsic
                                        // or placement uri; opaque kinds: the Computation message
  std::uint32_t param_type = no_index;  // lambda with a parameter
  bb a, b;                              // selection: source; call: function, argument (b may be
                                        // null); lambda, block: result
  std::int32_t index = 0;               // selection
  std::vector<bb_elem> elems;           // struct elements, block locals
};

inline bool kept_as_message(block_kind k) {
  return k == block_kind::tensorflow || k == block_kind::xla || k == block_kind::data ||
         k == block_kind::literal;
}

// How deep the passes recurse: deeper trees are refused (form_error `depth_limit`). The reader's
// trees are at most read_limits::max_depth messages deep, about half as many building blocks.
inline constexpr int max_form_depth = 1200;

class form_context;

class depth_guard {
 public:
  explicit depth_guard(int& d) : d_(d) {
    if (++d_ > max_form_depth)
      throw form_error("depth_limit", "", "the computation nests deeper than " +
                                              std::to_string(max_form_depth) + " building blocks");
  }
  ~depth_guard() { --d_; }
  depth_guard(const depth_guard&) = delete;
  depth_guard& operator=(const depth_guard&) = delete;

 private:
  int& d_;
};

// The types, the fresh names and the constructors of building blocks, for one conversion.
class form_context {
 public:
  type_desc types;
  int depth = 0;
  // Called with each intermediate result of the conversion, named as the goldens' stages
  // (`01-call_dominant`, ...; tests/forms/goldens/README.md), when set.
  std::function<void(const char*, const bb&)> on_stage;
  void stage(const char* name, const bb& n) const {
    if (on_stage) on_stage(name, n);
  }

  explicit form_context(type_desc t = {}) : types(std::move(t)) {}

  // ---- types ----
  const type_node& tn(std::uint32_t t) const { return types.nodes[t]; }
  type_kind kind_of(std::uint32_t t) const { return types.nodes[t].kind; }
  std::uint32_t kid(std::uint32_t t, std::uint32_t k) const { return types.kid(t, k); }
  std::uint32_t size_of(std::uint32_t t) const { return types.nodes[t].kid_count; }
  std::string name_of(std::uint32_t t) const { return std::string(types.name(t)); }
  bool is_struct(std::uint32_t t) const { return kind_of(t) == type_kind::struct_; }
  bool is_federated(std::uint32_t t) const { return kind_of(t) == type_kind::federated; }
  bool is_function(std::uint32_t t) const { return kind_of(t) == type_kind::function; }

  // t itself when it carries `name` as its element name, else a copy of its root that does.
  std::uint32_t named(std::uint32_t t, std::string_view name) {
    if (types.name(t) == name) return t;
    const std::string keep(name);
    type_node n = types.nodes[t];
    n.name_len = 0;
    n.name_begin = 0;
    n.name_at = nullptr;
    n.name_static = false;
    const std::uint32_t id = types.add(n);
    if (!keep.empty()) types.set_name(id, keep);
    return id;
  }
  std::uint32_t struct_type(const std::vector<std::pair<std::string, std::uint32_t>>& elems) {
    std::vector<std::uint32_t> ks;
    ks.reserve(elems.size());
    for (const auto& [name, t] : elems) ks.push_back(named(t, name));
    type_node n{.kind = type_kind::struct_};
    n.kid_begin = static_cast<std::uint32_t>(types.kids.size());
    n.kid_count = static_cast<std::uint32_t>(ks.size());
    for (auto k : ks) types.kids.push_back(k);
    return types.add(n);
  }
  std::uint32_t unnamed_struct_type(const std::vector<std::uint32_t>& ts) {
    std::vector<std::pair<std::string, std::uint32_t>> e;
    for (auto t : ts) e.emplace_back(std::string(), t);
    return struct_type(e);
  }
  // The elements of a struct type, with their names.
  std::vector<std::pair<std::string, std::uint32_t>> items(std::uint32_t t) const {
    std::vector<std::pair<std::string, std::uint32_t>> out;
    for (std::uint32_t k = 0; k != size_of(t); ++k) out.emplace_back(name_of(kid(t, k)), kid(t, k));
    return out;
  }
  std::uint32_t federated_type(std::uint32_t member, placement_kind where, bool all_equal) {
    const std::uint32_t m = named(member, "");
    type_node n{.kind = type_kind::federated, .all_equal = all_equal, .where = where};
    n.kid_begin = static_cast<std::uint32_t>(types.kids.size());
    n.kid_count = 1;
    types.kids.push_back(m);
    return types.add(n);
  }
  // FederatedType's default all_equal: true at the server, false at the clients.
  std::uint32_t federated_type(std::uint32_t member, placement_kind where) {
    return federated_type(member, where, where == placement_kind::server);
  }
  std::uint32_t function_type(std::uint32_t param, std::uint32_t result) {
    const std::uint32_t r = named(result, "");
    const std::uint32_t p = param == no_index ? no_index : named(param, "");
    type_node n{.kind = type_kind::function, .has_param = param != no_index};
    n.kid_begin = static_cast<std::uint32_t>(types.kids.size());
    if (p != no_index) types.kids.push_back(p);
    types.kids.push_back(r);
    n.kid_count = p != no_index ? 2 : 1;
    return types.add(n);
  }
  std::uint32_t param_of(std::uint32_t fn) const {
    return tn(fn).has_param ? kid(fn, 0) : no_index;
  }
  std::uint32_t result_of(std::uint32_t fn) const { return kid(fn, tn(fn).has_param ? 1 : 0); }

  // Python's Type equality: the same structure, element names included (a root's own element
  // name is its parent's business and not compared).
  bool same_type(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return true;
    const type_node& x = tn(a);
    const type_node& y = tn(b);
    if (x.kind != y.kind) return false;
    switch (x.kind) {
      case type_kind::tensor:
        if (x.dt != y.dt || x.unknown_rank != y.unknown_rank || x.dim_count != y.dim_count)
          return false;
        for (std::uint32_t k = 0; k != x.dim_count; ++k)
          if (types.dims[x.dim_begin + k] != types.dims[y.dim_begin + k]) return false;
        return true;
      case type_kind::struct_:
        if (x.kid_count != y.kid_count) return false;
        for (std::uint32_t k = 0; k != x.kid_count; ++k) {
          if (types.name(kid(a, k)) != types.name(kid(b, k))) return false;
          if (!same_type(kid(a, k), kid(b, k))) return false;
        }
        return true;
      case type_kind::function:
        if (x.has_param != y.has_param) return false;
        for (std::uint32_t k = 0; k != x.kid_count; ++k)
          if (!same_type(kid(a, k), kid(b, k))) return false;
        return true;
      case type_kind::federated:
        if (x.where != y.where || x.all_equal != y.all_equal) return false;
        return same_type(kid(a, 0), kid(b, 0));
      case type_kind::sequence:
        return same_type(kid(a, 0), kid(b, 0));
      case type_kind::placement:
        return true;
      case type_kind::abstract:
        return types.label(a) == types.label(b);
    }
    return false;
  }
  bool assignable(std::uint32_t to, std::uint32_t from) const {
    return detail::assignable(types, to, types, from);
  }
  bool equivalent(std::uint32_t a, std::uint32_t b) const {
    return assignable(a, b) && assignable(b, a);
  }
  // The type with every federated type replaced by its member (type_transformations.strip_placement).
  std::uint32_t strip_placement(std::uint32_t t) {
    if (is_federated(t)) return kid(t, 0);
    if (!is_struct(t)) return t;
    auto e = items(t);
    for (auto& [n, k] : e) k = strip_placement(k);
    return struct_type(e);
  }
  std::string type_string(std::uint32_t t) const { return type_text(types, t); }

  // ---- names ----
  // A name no input uses: `_f<N>`, or with more underscores if the input has names so formed.
  std::string fresh_name() { return prefix_ + std::to_string(++counter_); }
  void avoid_prefix_of(std::string_view name) {
    while (name.substr(0, prefix_.size()) == prefix_) prefix_.insert(0, "_");
  }

  // ---- building blocks ----
  bb reference(std::string name, std::uint32_t type) {
    return leaf(block_kind::reference, std::move(name), type);
  }
  bb selection(const bb& source, std::int64_t index) {
    if (!is_struct(source->type))
      throw form_error("type_mismatch", "", "a selection from a value of type " +
                                                type_string(source->type) + ", not a struct");
    if (index < 0 || index >= size_of(source->type))
      throw form_error("type_mismatch", "", "selection index " + std::to_string(index) +
                                                " out of range of " + type_string(source->type));
    auto n = std::make_shared<bb_node>();
    n->kind = block_kind::selection;
    n->a = source;
    n->index = static_cast<std::int32_t>(index);
    n->type = kid(source->type, static_cast<std::uint32_t>(index));
    return n;
  }
  bb struct_(std::vector<bb_elem> elems) {
    std::vector<std::pair<std::string, std::uint32_t>> ts;
    ts.reserve(elems.size());
    for (const auto& e : elems) ts.emplace_back(e.name, e.value->type);
    auto n = std::make_shared<bb_node>();
    n->kind = block_kind::struct_;
    n->type = struct_type(ts);
    n->elems = std::move(elems);
    return n;
  }
  bb unnamed_struct(const std::vector<bb>& values) {
    std::vector<bb_elem> e;
    e.reserve(values.size());
    for (const auto& v : values) e.push_back({std::string(), v});
    return struct_(std::move(e));
  }
  bb call(const bb& fn, const bb& arg) {
    if (!is_function(fn->type))
      throw form_error("type_mismatch", "", "a call of a value of type " + type_string(fn->type) +
                                                ", not a function");
    const std::uint32_t p = param_of(fn->type);
    if ((p == no_index) != (arg == nullptr))
      throw form_error("type_mismatch", "", "a call whose argument does not match the function's parameter");
    if (arg && !assignable(p, arg->type))
      throw form_error("type_mismatch", "", "a call with an argument of type " +
                                                type_string(arg->type) + " where " +
                                                type_string(p) + " is expected");
    auto n = std::make_shared<bb_node>();
    n->kind = block_kind::call;
    n->a = fn;
    n->b = arg;
    n->type = result_of(fn->type);
    return n;
  }
  bb lambda(std::string param, std::uint32_t param_type, const bb& result) {
    if (param.empty()) param_type = no_index;
    auto n = std::make_shared<bb_node>();
    n->kind = block_kind::lambda;
    n->text = std::move(param);
    n->param_type = param_type;
    n->a = result;
    n->type = function_type(param_type, result->type);
    return n;
  }
  bb block(std::vector<bb_elem> locals, const bb& result) {
    auto n = std::make_shared<bb_node>();
    n->kind = block_kind::block;
    n->elems = std::move(locals);
    n->a = result;
    n->type = result->type;
    return n;
  }
  bb intrinsic(std::string uri, std::uint32_t type) {
    return leaf(block_kind::intrinsic, std::move(uri), type);
  }
  bb leaf(block_kind k, std::string text, std::uint32_t type) {
    auto n = std::make_shared<bb_node>();
    n->kind = k;
    n->text = std::move(text);
    n->type = type;
    return n;
  }

 private:
  std::string prefix_ = "_f";
  std::uint64_t counter_ = 0;
};

// Python's == on building blocks: References equal only themselves, the rest by structure.
inline bool same_block(const form_context& c, const bb& x, const bb& y) {
  if (x == y) return true;
  if (!x || !y || x->kind != y->kind) return false;
  switch (x->kind) {
    case block_kind::reference:
      return false;
    case block_kind::selection:
      return x->index == y->index && same_block(c, x->a, y->a);
    case block_kind::struct_:
      if (!c.same_type(x->type, y->type) || x->elems.size() != y->elems.size()) return false;
      for (std::size_t k = 0; k != x->elems.size(); ++k)
        if (x->elems[k].name != y->elems[k].name ||
            !same_block(c, x->elems[k].value, y->elems[k].value))
          return false;
      return true;
    case block_kind::call:
      return same_block(c, x->a, y->a) && same_block(c, x->b, y->b);
    case block_kind::lambda:
      if (x->text != y->text) return false;
      if ((x->param_type == no_index) != (y->param_type == no_index)) return false;
      if (x->param_type != no_index && !c.same_type(x->param_type, y->param_type)) return false;
      return same_block(c, x->a, y->a);
    case block_kind::block:
      if (x->elems.size() != y->elems.size()) return false;
      for (std::size_t k = 0; k != x->elems.size(); ++k)
        if (x->elems[k].name != y->elems[k].name ||
            !same_block(c, x->elems[k].value, y->elems[k].value))
          return false;
      return same_block(c, x->a, y->a);
    case block_kind::intrinsic:
      return x->text == y->text && c.same_type(x->type, y->type);
    case block_kind::placement:
      return x->text == y->text;
    default:  // opaque: the whole message
      return x->text == y->text;
  }
}

}  // namespace ctff::detail
