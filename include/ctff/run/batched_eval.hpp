// A lambda called on every client's tensor at once (issue 45, batched per-client work): when its
// body is only tensor arithmetic (generic_plus, generic_multiply, generic_divide), selections,
// structs, blocks, literals and references, it is evaluated once over a column (run/value.hpp:
// the clients' tensors as the rows of one tensor) instead of once per client. Each value is then
// the same for every client, one row per client, or a struct of such. An operation is batched
// only where running it on the whole column gives, row by row, exactly what it gives per client
// (equal per-client shapes, or a one-element operand of no higher rank: the elementwise paths of
// run/arith.hpp); anything else, and any fault, gives up (nullopt) and the caller runs the lambda
// client by client, which then reports what is wrong where it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ctff/read/tree.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/budget.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/pointwise.hpp"
#include "ctff/run/scope.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/intrinsic_facts.hpp"

namespace ctff::detail {

// The arithmetic a batched body may call.
inline std::optional<binary_op> batched_op(std::string_view uri) {
  if (is_intrinsic<row::generic_plus>(uri)) return binary_op::plus;
  if (is_intrinsic<row::generic_multiply>(uri)) return binary_op::multiply;
  if (is_intrinsic<row::generic_divide>(uri)) return binary_op::divide;
  return std::nullopt;
}

// Whether building block i can be evaluated batched (program constants: literals' tensors).
inline bool batchable_node(const program& p, std::uint32_t i, int depth = 0) {
  const computation_tree& t = p.tree();
  if (i >= t.nodes.size() || depth > 256) return false;
  const block_node& n = t.node(i);
  switch (n.kind) {
    case block_kind::reference: return p.reference(i).up != no_index;
    case block_kind::literal: return static_cast<bool>(p.constant(i));
    case block_kind::selection:
    case block_kind::struct_:
    case block_kind::block:
      return for_each_child(t, i, [&](std::uint32_t k, const child_step&) { return batchable_node(p, k, depth + 1); });
    case block_kind::call:
      return n.b != no_index && n.a < t.nodes.size() && t.node(n.a).kind == block_kind::intrinsic &&
             batched_op(t.text(n.a)) && static_cast<bool>(p.constant(n.a)) && batchable_node(p, n.b, depth + 1);
    default: return false;
  }
}

// Per Lambda node: whether calling it can be batched (a parameter of tensor type, a batchable body).
inline std::vector<bool> batchable_lambdas(const program& p) {
  const computation_tree& t = p.tree();
  std::vector<bool> out(t.nodes.size(), false);
  for (std::uint32_t i = 0; i != t.nodes.size(); ++i) {
    const block_node& n = t.node(i);
    if (n.kind != block_kind::lambda || t.text(i).empty() || n.type == no_index) continue;
    const type_node& ft = t.types.node(n.type);
    if (ft.kind != type_kind::function || !ft.has_param) continue;
    if (t.types.node(t.types.kid(n.type, 0)).kind != type_kind::tensor) continue;
    out[i] = batchable_node(p, n.a);
  }
  return out;
}

// A value while a body runs batched: the same for every client, a row per client, or a struct.
struct batch_value {
  enum class form : std::uint8_t { same, rows, structure };
  form kind = form::same;
  dynamic_value same;
  std::shared_ptr<const tensor_data> rows;
  std::vector<batch_value> elements;
  std::vector<std::string> names;
};

class batched_evaluator {
 public:
  batched_evaluator(const program& p, const scope& outer, std::size_t n) : p_(p), outer_(outer), n_(n) {}

  // The body of lambda `node` with its parameter bound to `rows`; the nodes evaluated counted.
  batch_value call(std::uint32_t node, std::shared_ptr<const tensor_data> rows) {
    batch_value a;
    a.kind = batch_value::form::rows;
    a.rows = std::move(rows);
    frames_.push_back({std::move(a)});
    return eval(p_.tree().node(node).a);
  }
  std::uint64_t evaluated() const { return evaluated_; }

 private:
  struct no_batch {};  // an operation that has no batched form: the caller runs per client

  batch_value eval(std::uint32_t i) {
    ++evaluated_;
    const computation_tree& t = p_.tree();
    const block_node& n = t.node(i);
    switch (n.kind) {
      case block_kind::literal: return same(p_.constant(i));
      case block_kind::reference: return lookup(p_.reference(i));
      case block_kind::selection: {
        batch_value s = eval(n.a);
        if (s.kind == batch_value::form::same) {
          if (!s.same.is(value_kind::struct_) || n.index < 0 ||
              static_cast<std::size_t>(n.index) >= s.same.structure().elements.size())
            throw no_batch{};
          return same(s.same.structure().elements[static_cast<std::size_t>(n.index)]);
        }
        if (s.kind != batch_value::form::structure || n.index < 0 ||
            static_cast<std::size_t>(n.index) >= s.elements.size())
          throw no_batch{};
        return std::move(s.elements[static_cast<std::size_t>(n.index)]);
      }
      case block_kind::struct_: {
        batch_value out;
        out.kind = batch_value::form::structure;
        bool named = false;
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const block_elem& e = t.elem(i, k);
          out.elements.push_back(eval(e.value));
          out.names.emplace_back(t.name(e));
          named = named || !out.names.back().empty();
        }
        if (!named) out.names.clear();
        return out;
      }
      case block_kind::block: {
        if (n.count == 0) return eval(n.a);
        std::vector<batch_value> frame;
        frame.push_back(eval(t.elem(i, 0).value));  // (the first local sees the outer scope)
        frames_.push_back(std::move(frame));
        for (std::uint32_t k = 1; k != n.count; ++k) {
          batch_value v = eval(t.elem(i, k).value);
          frames_.back().push_back(std::move(v));
        }
        batch_value r = eval(n.a);
        frames_.pop_back();
        return r;
      }
      case block_kind::call: {
        ++evaluated_;  // (the intrinsic, a constant)
        const binary_op op = *batched_op(t.text(n.a));
        const typed fn{&t.types, t.node(n.a).type};
        batch_value a = eval(n.b);
        if (a.kind == batch_value::form::same) {
          if (!a.same.is(value_kind::struct_) || a.same.structure().elements.size() != 2) throw no_batch{};
          return combine(op, same(a.same.structure().elements[0]), same(a.same.structure().elements[1]),
                         fn.result());
        }
        if (a.kind != batch_value::form::structure || a.elements.size() != 2) throw no_batch{};
        return combine(op, a.elements[0], a.elements[1], fn.result());
      }
      default: throw no_batch{};
    }
  }

  static batch_value same(dynamic_value v) {
    batch_value b;
    b.same = std::move(v);
    return b;
  }

  batch_value lookup(const frame_slot& at) {
    if (at.up < frames_.size()) {
      const std::vector<batch_value>& f = frames_[frames_.size() - 1 - at.up];
      if (at.slot >= f.size()) throw no_batch{};
      return f[at.slot];
    }
    const scope_node* s = outer_.get();
    for (std::size_t k = frames_.size(); s && k != at.up; ++k) s = s->frame->entry;
    if (!s || at.slot >= s->frame->slots.size()) throw no_batch{};
    return same(s->frame->slots[at.slot]->v);
  }

  // A struct that is the same for every client, as a struct of values that are.
  static batch_value spread(const batch_value& v) {
    if (v.kind != batch_value::form::same || !v.same.is(value_kind::struct_)) return v;
    batch_value out;
    out.kind = batch_value::form::structure;
    out.names = v.same.structure().names;
    for (const dynamic_value& e : v.same.structure().elements) out.elements.push_back(same(e));
    return out;
  }

  // op(a, b) per client, result type r: as the intrinsic does (run/intrinsics.hpp, pointwise).
  batch_value combine(binary_op op, const batch_value& a, const batch_value& b, typed r) {
    using form = batch_value::form;
    auto leaf = [op](const tensor_data& x, const tensor_data& y, typed rt) {
      if (op != binary_op::divide) return tensor_op(op, x, y);
      return divide_tensor(x, y, rt.node().kind == type_kind::tensor ? rt.node().dt : x.dt);
    };
    if (a.kind == form::same && b.kind == form::same)
      return same(pointwise(a.same, b.same, r, n_, leaf));
    if (a.kind == form::structure || b.kind == form::structure ||
        (a.kind == form::same && a.same.is(value_kind::struct_)) ||
        (b.kind == form::same && b.same.is(value_kind::struct_))) {
      const batch_value x = spread(a), y = spread(b);
      if (x.kind != form::structure || y.kind != form::structure || x.elements.size() != y.elements.size())
        throw no_batch{};
      const bool typed_struct = r.node().kind == type_kind::struct_ && r.kids() == x.elements.size();
      batch_value out;
      out.kind = form::structure;
      out.names = x.names;
      for (std::size_t k = 0; k != x.elements.size(); ++k)
        out.elements.push_back(
            combine(op, x.elements[k], y.elements[k], typed_struct ? r.kid(static_cast<std::uint32_t>(k)) : r));
      return out;
    }
    // Tensors, at least one of them a row per client.
    if ((a.kind == form::same && !a.same.is(value_kind::tensor)) ||
        (b.kind == form::same && !b.same.is(value_kind::tensor)))
      throw no_batch{};
    const tensor_data& x = a.kind == form::rows ? *a.rows : a.same.tensor();
    const tensor_data& y = b.kind == form::rows ? *b.rows : b.same.tensor();
    const std::vector<std::int64_t> sx = per_client(a, x), sy = per_client(b, y);
    batch_value out;
    out.kind = form::rows;
    if (a.kind == form::rows && b.kind == form::same && y.size() == 1 && y.shape.size() <= sx.size()) {
      out.rows = std::make_shared<const tensor_data>(leaf(x, y, r));  // b's one element with every row
    } else if (sx == sy) {
      out.rows = std::make_shared<const tensor_data>(
          leaf(a.kind == form::rows ? x : tile(x), b.kind == form::rows ? y : tile(y), r));
    } else {
      throw no_batch{};
    }
    return out;
  }

  static std::vector<std::int64_t> per_client(const batch_value& v, const tensor_data& t) {
    if (v.kind != batch_value::form::rows) return t.shape;
    return std::vector<std::int64_t>(t.shape.begin() + 1, t.shape.end());
  }

  // t repeated as the row of every client.
  tensor_data tile(const tensor_data& t) const {
    charge_elements(n_ * t.size(), 16);
    std::vector<std::int64_t> shape{static_cast<std::int64_t>(n_)};
    shape.insert(shape.end(), t.shape.begin(), t.shape.end());
    return std::visit(
        [&](const auto& e) {
          std::remove_cvref_t<decltype(e)> out;
          out.reserve(n_ * e.size());
          for (std::size_t i = 0; i != n_; ++i) out.insert(out.end(), e.begin(), e.end());
          return tensor_data{t.dt, std::move(shape), tensor_elements(std::move(out))};
        },
        t.elements);
  }

  const program& p_;
  const scope& outer_;
  std::size_t n_;
  std::vector<std::vector<batch_value>> frames_;
  std::uint64_t evaluated_ = 0;

  friend std::optional<dynamic_value> batched_call(const program&, std::uint32_t, const scope&,
                                                   const std::shared_ptr<const tensor_data>&, run_context&);
};

// The per-client results of a batched value, as a CLIENTS value of n clients.
inline dynamic_value batched_result(const batch_value& v, std::size_t n) {
  switch (v.kind) {
    case batch_value::form::rows: return make_column_value(v.rows);
    case batch_value::form::same: return make_federated(placement_kind::clients, false, std::vector<dynamic_value>(n, v.same));
    case batch_value::form::structure: break;
  }
  std::vector<dynamic_value> per(n);
  std::vector<dynamic_value> parts;
  for (const batch_value& e : v.elements) parts.push_back(batched_result(e, n));
  for (std::size_t i = 0; i != n; ++i) {
    std::vector<dynamic_value> e;
    e.reserve(parts.size());
    for (const dynamic_value& p : parts) e.push_back(client_member(p.federated(), i));
    per[i] = make_struct_value(std::move(e), v.names);
  }
  return make_federated(placement_kind::clients, false, std::move(per));
}

// Lambda `node` of p (made in `outer`) called on every row of `rows` at once; nullopt when some
// operation has no batched form or faults (the caller then calls it per client).
inline std::optional<dynamic_value> batched_call(const program& p, std::uint32_t node, const scope& outer,
                                                 const std::shared_ptr<const tensor_data>& rows, run_context& c) {
  const std::size_t n = column_rows(*rows);
  if (n == 0) return std::nullopt;
  batched_evaluator e(p, outer, n);
  dynamic_value out;
  try {
    out = batched_result(e.call(node, rows), n);
  } catch (const batched_evaluator::no_batch&) {
    return std::nullopt;
  } catch (const run_fault&) {
    return std::nullopt;  // (per client, the same fault is reported with its client and path)
  }
  c.step(e.evaluated() * n);  // as many building blocks as per client
  return out;
}

}  // namespace ctff::detail
