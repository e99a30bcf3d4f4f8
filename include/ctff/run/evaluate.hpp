// Evaluating building blocks (reference/execution.md §2): lambdas close over their defining scope,
// blocks bind in order (a later local shadows), references look innermost first, opaque
// computations run through the user's bindings. Errors carry the path of the building block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/read/print.hpp"
#include "ctff/run/aggregation.hpp"
#include "ctff/run/argument.hpp"
#include "ctff/run/batched_eval.hpp"
#include "ctff/run/binding_key.hpp"
#include "ctff/run/call.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/intrinsics.hpp"
#include "ctff/run/scope.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// A value meeting the type it is used at: an all_equal CLIENTS value where a non-all_equal one is
// expected becomes n references to its member; the reverse is an error.
inline dynamic_value conform(const dynamic_value& v, typed t, std::size_t n) {
  if (!v) return v;
  const type_node& tn = t.node();
  if (tn.kind == type_kind::federated && v.is(value_kind::federated)) {
    const federated_data& f = v.federated();
    if (tn.where != f.where)
      throw run_fault(std::string("a ") + std::string(placement_name(f.where)) +
                      " value where the type places it at " + std::string(placement_name(tn.where)));
    if (tn.where == placement_kind::clients) {
      if (!tn.all_equal && f.all_equal)
        return make_federated(f.where, false, std::vector<dynamic_value>(n, f.members.front()));
      if (tn.all_equal && !f.all_equal)
        throw run_fault("a CLIENTS value that is not all_equal where the type says all_equal");
    }
    return v;
  }
  if (tn.kind == type_kind::struct_ && v.is(value_kind::struct_)) {
    const struct_data& s = v.structure();
    if (s.elements.size() != t.kids()) return v;
    // Names come from the type (reference §1) where the value has none: a pair the executor made
    // (federated_aggregate's <acc, x>, federated_select's <server value, key>, ...) meeting a
    // named parameter. Nothing is copied unless something changes (every closure call and
    // binding result comes here).
    std::vector<dynamic_value> e;  // the elements, once one of them changed
    bool changed = false;
    for (std::size_t k = 0; k != s.elements.size(); ++k) {
      dynamic_value c = conform(s.elements[k], t.kid(static_cast<std::uint32_t>(k)), n);
      if (!changed && !c.shares(s.elements[k])) {
        changed = true;
        e.assign(s.elements.begin(), s.elements.begin() + static_cast<std::ptrdiff_t>(k));
      }
      if (changed) e.push_back(std::move(c));
    }
    std::vector<std::string> type_names;
    if (s.names.empty()) type_names = struct_names(t);
    if (!changed && type_names.empty()) return v;
    if (!changed) e = s.elements;
    return make_struct_value(std::move(e), s.names.empty() ? std::move(type_names) : s.names);
  }
  return v;
}

// A literal's Array as a tensor.
inline dynamic_value literal_value(const computation_tree& t, std::uint32_t lit_index) {
  const lit& l = tree_access::pool(t).lits[lit_index];
  std::vector<std::int64_t> shape;
  for (std::uint32_t k = 0; k != l.dim_count; ++k) shape.push_back(tree_access::pool(t).dims[l.dim_begin + k]);
  const std::uint64_t* vals = tree_access::pool(t).vals.data() + l.val_begin;
  return visit_dtype(l.dt, [&](auto d) -> dynamic_value {
    constexpr dtype D = decltype(d)::value;
    stored_t<D> out;
    const std::uint32_t per = slots_per_value(D);
    charge_elements(l.val_count / per, 16);
    out.reserve(l.val_count / per);
    for (std::uint32_t k = 0; k + per <= l.val_count; k += per) {
      const std::uint64_t v = vals[k];
      if constexpr (D == dtype::str) {
        out.emplace_back(tree_access::pool(t).chars_at(static_cast<std::uint32_t>(v),
                                         static_cast<std::uint32_t>(vals[k + 1])));
      } else if constexpr (D == dtype::float32) {
        out.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(v)));
      } else if constexpr (D == dtype::float64) {
        out.push_back(std::bit_cast<double>(v));
      } else if constexpr (D == dtype::complex64) {
        out.emplace_back(std::bit_cast<float>(static_cast<std::uint32_t>(v)),
                         std::bit_cast<float>(static_cast<std::uint32_t>(vals[k + 1])));
      } else if constexpr (D == dtype::complex128) {
        out.emplace_back(std::bit_cast<double>(v), std::bit_cast<double>(vals[k + 1]));
      } else if constexpr (D == dtype::float16) {
        out.push_back(half_bits{static_cast<std::uint16_t>(v)});
      } else if constexpr (D == dtype::bfloat16) {
        out.push_back(bfloat16_bits{static_cast<std::uint16_t>(v)});
      } else {
        out.push_back(static_cast<typename stored_t<D>::value_type>(v));
      }
    }
    return make_tensor<D>(std::move(out), std::move(shape));
  });
}

struct evaluator {
  std::shared_ptr<const program> prog;
  run_context& ctx;

  const computation_tree& tree() const { return prog->tree(); }

  dynamic_value eval(std::uint32_t i, const scope& s) const;
  dynamic_value eval_untapped(std::uint32_t i, const scope& s) const;
};

// A lambda and the scope it was made in.
class closure final : public function_impl {
 public:
  closure(std::shared_ptr<const program> p, std::uint32_t node, scope s)
      : prog_(std::move(p)), node_(node), scope_(std::move(s)) {}
  std::string describe() const override { return prog_->path(node_); }
  dynamic_value call(const dynamic_value* arg, run_context& c) const override {
    const run_context::depth_guard depth(c);
    const computation_tree& t = prog_->tree();
    const block_node& n = t.node(node_);
    const std::string_view param = t.text(node_);
    const evaluator e{prog_, c};
    if (param.empty()) return e.eval(n.a, scope_);  // (an argument nothing can name is dropped)
    if (!arg || !*arg)
      throw run_fault("a lambda with parameter " + std::string(param) + " called without argument");
    dynamic_value a = *arg;
    if (n.type != no_index && t.types.node(n.type).has_param)
      a = conform(a, typed{&t.types, t.types.kid(n.type, 0)}, c.clients());
    return e.eval(n.a, bind_in(scope_, new_frame(scope_, 1), std::move(a)));
  }
  bool pure() const override { return prog_->batchable(node_); }
  std::optional<dynamic_value> call_rows(const std::shared_ptr<const tensor_data>& rows,
                                         run_context& c) const override {
    // (In a run with taps, every call is made client by client, each value given to them.)
    if (!prog_->batchable(node_) || c.taps()) return std::nullopt;
    return batched_call(*prog_, node_, scope_, rows, c);
  }
  // Its parts, for writing it out as a Computation (run/function_computation.hpp).
  const std::shared_ptr<const program>& prog() const { return prog_; }
  std::uint32_t lambda() const { return node_; }
  const scope& made_in() const { return scope_; }

 private:
  std::shared_ptr<const program> prog_;
  std::uint32_t node_;
  scope scope_;
};

// Runs a user's binding for the opaque computation `key` of type t (a function type, or the
// type of a Data value). What it takes and returns is checked against t (a struct it returns
// without names gets the type's), and what it throws arrives as an error naming the client and
// the key, the original nested.
inline dynamic_value run_binding(const opaque_binding& fn, const dynamic_value* arg, const std::string& key,
                                 typed t, std::size_t clients) {
  dynamic_value listed;  // (a binding reads members: a column it is given becomes them)
  if (arg && holds_column(*arg)) arg = &(listed = with_members(*arg));
  const bool typed_fn = t.i != no_index && t.node().kind == type_kind::function;
  auto who = [&] {
    const std::optional<std::size_t> c = run_context::current_client();
    return (c ? "client " + std::to_string(*c) + ": " : std::string()) + "the binding of " + key;
  };
  // role: "argument" or "result"; what: "parameter" or "result".
  auto check = [&](const dynamic_value& v, typed vt, const char* role, const char* what) {
    if (auto m = find_misfit(v, vt))
      throw run_fault(who() + ": its " + role + " is not of its " + what + " type " +
                      message_type_text(*vt.d, vt.i) + ": at " + role + m->where + ": " + m->problem);
  };
  if (typed_fn && t.node().has_param && arg) check(*arg, t.param(), "argument", "parameter");
  dynamic_value r;
  try {
    r = fn(arg);
  } catch (const run_fault&) {
    throw;  // a limit of the run, reached inside it
  } catch (const std::exception& e) {
    std::throw_with_nested(run_fault(who() + " threw: " + e.what()));
  } catch (...) {
    std::throw_with_nested(run_fault(who() + " threw an exception that is not a std::exception"));
  }
  if (!r) throw run_fault(who() + " returned no value");
  if (t.i == no_index) return r;
  const typed rt = typed_fn ? t.result() : t;
  check(r, rt, "result", "result");
  return conform(r, rt, clients);
}

// The fault of running an opaque computation nobody bound.
inline run_fault unbound_fault(block_kind k, const std::string& key) {
  return run_fault("the " + std::string(block_kind_name(k)) + " computation " + key + " has no binding (executor::bind)");
}

// A user's C++ callable for an opaque computation (its tree kept alive for its type). Without a
// callable (fn null: unbound here, with a client_backend that may ship it to workers that bind
// it), a call is the unbound fault.
class bound_fn final : public function_impl {
 public:
  bound_fn(const opaque_binding* fn, std::string key, std::shared_ptr<const computation_tree> tree,
           std::uint32_t node)
      : fn_(fn), key_(std::move(key)), tree_(std::move(tree)), node_(node) {}
  std::string describe() const override { return key_; }
  dynamic_value call(const dynamic_value* arg, run_context& c) const override {
    if (!fn_) throw unbound_fault(tree_->node(node_).kind, key_);
    return run_binding(*fn_, arg && *arg ? arg : nullptr, key_, typed{&tree_->types, tree_->node(node_).type},
                       c.clients());
  }
  // The opaque building block it runs for (its payload and type).
  const computation_tree& tree() const { return *tree_; }
  std::uint32_t node() const { return node_; }

 private:
  const opaque_binding* fn_;
  std::string key_;
  std::shared_ptr<const computation_tree> tree_;
  std::uint32_t node_;
};

// An intrinsic function value keeping its tree alive (not its program, which caches it).
class tree_intrinsic final : public function_impl {
 public:
  tree_intrinsic(std::shared_ptr<const computation_tree> t, std::uint32_t node)
      : tree_(std::move(t)), node_(node), fn_(tree_->text(node), typed{&tree_->types, tree_->node(node).type}) {}
  std::string describe() const override { return fn_.describe(); }
  std::string_view intrinsic_uri() const override { return fn_.intrinsic_uri(); }
  bool runs_per_client() const override { return fn_.runs_per_client(); }
  dynamic_value call(const dynamic_value* arg, run_context& c) const override { return fn_.call(arg, c); }
  // The Intrinsic building block (uri and type).
  const computation_tree& tree() const { return *tree_; }
  std::uint32_t node() const { return node_; }

 private:
  std::shared_ptr<const computation_tree> tree_;
  std::uint32_t node_;
  intrinsic_fn fn_;
};

// A program with its constants made: every literal's tensor, every intrinsic's function value.
inline std::shared_ptr<const program> prepare(std::shared_ptr<const computation_tree> t) {
  auto p = std::make_shared<program>(t);
  for (std::uint32_t i = 0; i != t->nodes.size(); ++i) {
    const block_node& n = t->node(i);
    if (n.kind == block_kind::literal && n.b < tree_access::pool(*t).lits.size()) {
      p->set_constant(i, literal_value(*t, n.b));
    } else if (n.kind == block_kind::intrinsic && n.type != no_index &&
               t->types.node(n.type).kind == type_kind::function) {
      p->set_constant(i, dynamic_value(function_data{std::make_shared<const tree_intrinsic>(t, i)}));
    } else if (is_opaque(n.kind)) {
      p->set_key(i, binding_key(*t, i));
    }
  }
  p->set_batchable(batchable_lambdas(*p));
  return p;
}

inline dynamic_value evaluator::eval(std::uint32_t i, const scope& s) const {
  if (ctx.taps()) [[unlikely]] {
    if (const tap_marks* m = ctx.marks(*prog); m && m->tapped[i]) {
      dynamic_value v = eval_untapped(i, s);
      ctx.tap(*prog, i, v);
      return v;
    }
  }
  return eval_untapped(i, s);
}

inline dynamic_value evaluator::eval_untapped(std::uint32_t i, const scope& s) const {
  ctx.step();
  if (const dynamic_value& c = prog->constant(i)) return c;
  const computation_tree& t = tree();
  const block_node& n = t.node(i);
  try {
    switch (n.kind) {
      case block_kind::reference: {
        const frame_slot at = prog->reference(i);
        const scope_node* p = at.up == no_index ? nullptr : s.get();
        for (std::uint32_t k = 0; p && k != at.up; ++k) p = p->frame->entry;
        if (!p || at.slot >= p->frame->slots.size())
          throw run_fault("the reference " + std::string(t.text(i)) + " is not bound");
        return p->frame->slots[at.slot]->v;
      }
      case block_kind::selection: {
        const dynamic_value src = eval(n.a, s);
        if (!src.is(value_kind::struct_)) throw run_fault("selection from a value that is not a struct");
        const auto& e = src.structure().elements;
        if (n.index < 0 || static_cast<std::size_t>(n.index) >= e.size())
          throw run_fault("selection of element " + std::to_string(n.index) + " of a struct of " +
                          std::to_string(e.size()));
        return e[static_cast<std::size_t>(n.index)];
      }
      case block_kind::struct_: {
        std::vector<dynamic_value> e;
        std::vector<std::string> names;
        bool named = false;
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const block_elem& el = t.elem(i, k);
          e.push_back(eval(el.value, s));
          names.emplace_back(t.name(el));
          named = named || !names.back().empty();
        }
        if (!named) names.clear();
        return make_struct_value(std::move(e), std::move(names));
      }
      case block_kind::call: {
        const dynamic_value f = eval(n.a, s);
        const dynamic_value a = n.b == no_index ? dynamic_value{} : eval(n.b, s);
        if (ctx.reporting()) [[unlikely]] {  // (progress reports name this Call)
          run_context::call_site& site = run_context::current_call();
          struct restore {
            run_context::call_site& s;
            run_context::call_site was;
            ~restore() { s = was; }
          } put_back{site, site};
          site = run_context::call_site{prog.get(), i};
          return detail::call(f, n.b == no_index ? nullptr : &a, ctx);
        }
        return detail::call(f, n.b == no_index ? nullptr : &a, ctx);
      }
      case block_kind::lambda:
        return dynamic_value(function_data{std::make_shared<const closure>(prog, i, s)});
      case block_kind::block: {
        if (n.count == 0) return eval(n.a, s);
        const std::shared_ptr<scope_frame> f = new_frame(s, n.count);
        scope inner = s;
        for (std::uint32_t k = 0; k != n.count; ++k) {
          dynamic_value v = eval(t.elem(i, k).value, inner);
          inner = bind_in(std::move(inner), f, std::move(v));
        }
        return eval(n.a, inner);
      }
      case block_kind::intrinsic: {
        if (is_value_intrinsic(t.text(i))) {
          if (n.type == no_index) throw run_fault("generic_zero without a type");
          return zero_of(typed{&t.types, n.type}, ctx.clients());
        }
        throw run_fault("the intrinsic " + std::string(t.text(i)) + " has no function type");
      }
      case block_kind::placement: {
        const std::string_view uri = t.text(i);
        if (uri == "clients") return dynamic_value(placement_data{placement_kind::clients});
        if (uri == "server") return dynamic_value(placement_data{placement_kind::server});
        throw run_fault("unknown placement " + std::string(uri));
      }
      case block_kind::literal: throw run_fault("a literal without its Array");
      case block_kind::data:
      case block_kind::tensorflow:
      case block_kind::xla: {
        std::string key = prog->key(i);
        const opaque_binding* b = ctx.binding(key);
        const bool is_function = n.type != no_index && t.types.node(n.type).kind == type_kind::function;
        if (!b && !(is_function && ctx.backend())) throw unbound_fault(n.kind, key);
        if (is_function)
          return dynamic_value(function_data{
              std::make_shared<const bound_fn>(b, std::move(key), prog->shared_tree(), i)});
        return run_binding(*b, nullptr, key, typed{&t.types, n.type}, ctx.clients());
      }
    }
  } catch (const run_fault& f) {
    throw_at(f, prog->path(i));
  }
  throw execution_error(prog->path(i), "unknown building block");
}

}  // namespace ctff::detail
