// A computation with one logical aggregation split into TFF's MergeableCompForm
// (forms/mergeable_comp_form.hpp), as TFF's mergeable_comp_compiler.compile_to_mergeable_comp_form
// splits it, but with every local computation kept as federated_language building blocks (TFF
// lowers them to TensorFlow):
//   1. the computation must be a Lambda with a parameter (`round_lambda`, `round_parameters`);
//   2. its body in call-dominant form, bound names unique (forms/call_dominant.hpp);
//   3. it must aggregate (`no_aggregation`), and no aggregation may depend on another's result
//      (`aggregation_after_aggregation`, TFF's check_aggregate_not_dependent_on_aggregate); parallel
//      aggregations are one logical aggregation, their partial results one struct M;
//   4. each aggregation becomes partial results in up_to_merge, their merge, and a report in
//      after_merge (`mergeable_aggregation` below); one that has none is refused
//      (`aggregation_not_mergeable`);
//   5. up_to_merge: the locals the aggregations need, then the partial results zipped at SERVER;
//      merge: element by element; after_merge: the round again from <top_level_arg, merge_result>,
//      each aggregation's local now its report of merge_result (what no longer feeds the result
//      dropped), as TFF's after_merge calls its after-aggregation part with the original argument;
//   6. the parts checked as TFF's MergeableCompForm constructor checks them, and against the round.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/forms/mergeable_comp_form.hpp"
#include "ctff/forms/to_distribute_aggregate_form.hpp"
#include "ctff/run/arith.hpp"
#include "ctff/run/function_computation.hpp"

namespace ctff {
namespace detail {

// One aggregation in mergeable pieces: partial results (SERVER values in up_to_merge), the merge
// of each (null: generic_plus), and the report of the merged partials (unplaced, in after_merge).
struct mergeable_aggregation {
  std::vector<bb> partials;
  std::vector<bb> merges;
  std::function<bb(const std::vector<bb>&)> report;
};

class mergeable_builder {
 public:
  explicit mergeable_builder(form_context& c) : c_(c) {}

  mergeable_aggregation pieces(const bb& call) {
    const std::string& uri = call->a->text;
    const intrinsic_facts& f = intrinsic_facts_of(uri);
    if (f.secure)
      refuse(uri, "a secure aggregation run in subrounds would show the server each subround's partial result");
    switch (f.aggregation) {
      case aggregation_kind::sum: return {{call}, {nullptr}, [](const std::vector<bb>& e) { return e[0]; }};
      case aggregation_kind::mean: return mean(call);
      case aggregation_kind::weighted_mean: return weighted_mean(call);
      case aggregation_kind::aggregate: return aggregate(call);
      default:
        refuse(uri, "merging two partial results needs a minimum or maximum of two values, which no "
                    "federated_language intrinsic computes outside an aggregation");
    }
    return {};
  }

  bb generic(std::string_view uri, const bb& x, const bb& y) {
    const std::uint32_t t = x->type;
    return c_.call(c_.intrinsic(std::string(uri), c_.function_type(c_.unnamed_struct_type({t, t}), t)), c_.unnamed_struct({x, y}));
  }

 private:
  [[noreturn]] static void refuse(const std::string& uri, const std::string& why) {
    throw form_error("aggregation_not_mergeable", "", uri + " cannot be merged from subrounds: " + why);
  }

  bb sum(const bb& v) {
    const std::uint32_t t = c_.kid(v->type, 0);
    const std::uint32_t p = c_.federated_type(t, placement_kind::clients, false);
    return c_.call(c_.intrinsic(std::string(row::federated_sum::uri), c_.function_type(p, c_.federated_type(t, placement_kind::server))), v);
  }
  bb map(const bb& fn, const bb& v) {
    const std::uint32_t p = c_.unnamed_struct_type({fn->type, c_.federated_type(c_.param_of(fn->type), placement_kind::clients, false)});
    const std::uint32_t r = c_.federated_type(c_.result_of(fn->type), placement_kind::clients, false);
    return c_.call(c_.intrinsic(std::string(row::federated_map::uri), c_.function_type(p, r)), c_.unnamed_struct({fn, v}));
  }
  // A value of type t made leaf by leaf: leaf(path, tensor type) for each tensor of t.
  bb build_like(std::uint32_t t, const std::function<bb(const std::vector<std::int64_t>&, std::uint32_t)>& leaf,
                std::vector<std::int64_t> path = {}) {
    if (!c_.is_struct(t)) return leaf(path, t);
    std::vector<bb_elem> e;
    for (std::uint32_t k = 0; k != c_.size_of(t); ++k) {
      path.push_back(k);
      e.push_back({c_.name_of(c_.kid(t, k)), build_like(c_.kid(t, k), leaf, path)});
      path.pop_back();
    }
    return c_.struct_(std::move(e));
  }
  // Element k of an intrinsic's argument: the Struct's element itself when it is written as one.
  bb arg_at(const bb& arg, std::int64_t k) {
    if (arg->kind == block_kind::struct_ && k < static_cast<std::int64_t>(arg->elems.size()))
      return arg->elems[static_cast<std::size_t>(k)].value;
    return c_.selection(arg, k);
  }
  bb select(bb x, const std::vector<std::int64_t>& path) {
    for (std::int64_t k : path) x = c_.selection(x, k);
    return x;
  }
  // A Literal of ones of tensor type t (known shape, a floating or complex dtype), else nullptr.
  bb ones(std::uint32_t t) {
    const type_node& n = c_.tn(t);
    if (n.kind != type_kind::tensor || n.unknown_rank || !(is_floating(n.dt) || is_complex(n.dt))) return nullptr;
    std::vector<std::int64_t> shape;
    for (std::uint32_t k = 0; k != n.dim_count; ++k) shape.push_back(c_.types.dims[n.dim_begin + k]);
    for (std::int64_t d : shape)
      if (d < 0) return nullptr;
    const auto count = static_cast<std::size_t>(element_count(shape));
    const tensor_data one = cast_tensor(store_tensor<dtype::int32>(std::vector<compute_t<dtype::int32>>(count, 1), shape), n.dt);
    const auto w = function_writer(std::size_t{1} << 24).value(dynamic_value(one));
    if (!w) return nullptr;
    return c_.leaf(block_kind::literal, w->bytes, t);
  }

  // <sum(v), sum(ones like v)>, reported as their quotient.
  mergeable_aggregation mean(const bb& call) {
    const bb& v = call->b;
    const std::uint32_t t = c_.kid(v->type, 0);
    const std::string x = c_.fresh_name();
    const bb count = build_like(t, [&](const std::vector<std::int64_t>&, std::uint32_t leaf) {
      bb one = ones(leaf);
      if (!one)
        refuse(call->a->text, "its member " + c_.type_string(t) +
                                  " has a tensor of unknown shape, whose count of clients no Literal can hold");
      return one;
    });
    return {{sum(v), sum(map(c_.lambda(x, t, count), v))},
            {nullptr, nullptr},
            [this](const std::vector<bb>& e) { return generic(row::generic_divide::uri, e[0], e[1]); }};
  }

  // <sum(v * w), sum(w)>, reported as their quotient: only when every tensor of v has w's type
  // (generic_multiply is <T,T> -> T, and no federated_language intrinsic scales a tensor by a
  // scalar).
  mergeable_aggregation weighted_mean(const bb& call) {
    const bb v = arg_at(call->b, 0), w = arg_at(call->b, 1);
    const std::uint32_t t = c_.kid(v->type, 0), wt = c_.kid(w->type, 0);
    const bb zipped = federated_zip(c_, c_.unnamed_struct({v, w}));
    const std::string p = c_.fresh_name();
    const bb pr = c_.reference(p, c_.kid(zipped->type, 0));
    const bb product = build_like(t, [&](const std::vector<std::int64_t>& path, std::uint32_t leaf) {
      if (!c_.same_type(leaf, wt))
        refuse(call->a->text, "the value " + c_.type_string(t) + " has a tensor of type " + c_.type_string(leaf) +
                                  ", not the weight's " + c_.type_string(wt) +
                                  " (generic_multiply takes two values of one type; a weighted mean of "
                                  "tensors needs a TensorFlow computation to scale them)");
      return generic(row::generic_multiply::uri, select(c_.selection(pr, 0), path), c_.selection(pr, 1));
    });
    return {{sum(map(c_.lambda(p, pr->type, product), zipped)), sum(w)},
            {nullptr, nullptr},
            [this, t](const std::vector<bb>& e) {
              const bb total = e[1];
              return generic(row::generic_divide::uri, e[0],
                             build_like(t, [&](const std::vector<std::int64_t>&, std::uint32_t) { return total; }));
            }};
  }

  // TFF's: federated_aggregate with an identity report, its merge, its report.
  mergeable_aggregation aggregate(const bb& call) {
    std::vector<bb> args;
    for (std::int64_t k = 0; k != 5; ++k) args.push_back(arg_at(call->b, k));
    if (const auto free = free_names(c_, args[3]); !free.empty())
      throw form_error("merge_not_closed", "",
                       "federated_aggregate's merge uses `" + *free.begin() +
                           "` from outside, but merge runs on its two arguments alone");
    const std::uint32_t u = c_.result_of(args[3]->type);
    const std::string a = c_.fresh_name();
    const bb identity = c_.lambda(a, u, c_.reference(a, u));
    std::vector<std::uint32_t> ts;
    for (std::size_t k = 0; k != 4; ++k) ts.push_back(args[k]->type);
    ts.push_back(identity->type);
    const std::uint32_t ft = c_.function_type(c_.unnamed_struct_type(ts), c_.federated_type(u, placement_kind::server));
    const bb partial = c_.call(c_.intrinsic(std::string(row::federated_aggregate::uri), ft),
                               c_.unnamed_struct({args[0], args[1], args[2], args[3], identity}));
    const bb report = args[4];
    return {{partial}, {args[3]}, [this, report](const std::vector<bb>& e) { return c_.call(report, e[0]); }};
  }

  form_context& c_;
};

struct mergeable_blocks {
  bb up_to_merge, merge, after_merge;
};

inline mergeable_blocks split_mergeable(form_context& c, const bb& round) {
  const std::uint32_t t = round->type;
  if (!c.is_function(t)) throw form_error("round_type", "", "the computation is not a function");
  if (round->kind != block_kind::lambda)
    throw form_error("round_lambda", "", "the computation is a " + std::string(block_kind_name(round->kind)) + ", not a lambda");
  if (c.param_of(t) == no_index)
    throw form_error("round_parameters", "",
                     "the computation takes no argument, so no clients to cut into subrounds");
  const bb comp = normalized_call_dominant_lambda(c, round);
  c.stage("01-call_dominant", comp);
  const std::string& param = comp->text;
  const std::vector<bb_elem>& locals = comp->a->elems;
  intrinsic_dependencies deps;
  try {
    deps = find_intrinsic_dependencies(c, aggregation_uris(), param, locals);
  } catch (const form_error& e) {
    if (e.rule() != "intrinsics_not_alignable") throw;
    throw form_error("aggregation_after_aggregation", "", e.problem() + ": one logical aggregation only");
  }
  if (deps.calls_in_order.empty())
    throw form_error("no_aggregation", "", "the computation aggregates nothing, so there is nothing to merge");

  mergeable_builder build(c);
  std::vector<mergeable_aggregation> aggs;
  std::vector<bb_elem> before = deps.independent;
  std::vector<bb> partial_refs, merges;
  for (const auto& l : deps.calls_in_order) {
    aggs.push_back(build.pieces(l.value));
    for (std::size_t k = 0; k != aggs.back().partials.size(); ++k) {
      const bb& p = aggs.back().partials[k];
      before.push_back({c.fresh_name(), p});
      partial_refs.push_back(c.reference(before.back().name, p->type));
      merges.push_back(aggs.back().merges[k]);
    }
  }
  const bb zipped = federated_zip(c, c.unnamed_struct(partial_refs));
  const bb up_to_merge = normalized_call_dominant_lambda(c, c.lambda(param, comp->param_type, c.block(before, zipped)));

  const std::uint32_t m = c.kid(zipped->type, 0);
  const std::string q = c.fresh_name();
  const bb qr = c.reference(q, c.unnamed_struct_type({m, m}));
  std::vector<bb> merged;
  for (std::size_t j = 0; j != merges.size(); ++j) {
    const bb x = c.selection(c.selection(qr, 0), static_cast<std::int64_t>(j));
    const bb y = c.selection(c.selection(qr, 1), static_cast<std::int64_t>(j));
    merged.push_back(merges[j] ? c.call(merges[j], c.unnamed_struct({x, y})) : build.generic(row::generic_plus::uri, x, y));
  }
  const bb merge = normalized_call_dominant_lambda(c, c.lambda(q, qr->type, c.unnamed_struct(merged)));

  const std::string r = c.fresh_name();
  const std::uint32_t rt = c.struct_type(
      {{"top_level_arg", comp->param_type}, {"merge_result", c.federated_type(m, placement_kind::server)}});
  const bb rr = c.reference(r, rt);
  std::vector<bb_elem> after;
  std::size_t next = 0, j = 0;
  for (const auto& l : locals) {
    if (next == deps.calls_in_order.size() || l.name != deps.calls_in_order[next].name) {
      after.push_back(l);
      continue;
    }
    const mergeable_aggregation& a = aggs[next++];
    const std::string x = c.fresh_name();
    const bb xr = c.reference(x, m);
    std::vector<bb> elems;
    for (std::size_t k = 0; k != a.partials.size(); ++k) elems.push_back(c.selection(xr, static_cast<std::int64_t>(j++)));
    after.push_back({l.name, federated_apply(c, c.lambda(x, m, a.report(elems)), c.selection(rr, 1))});
  }
  const bb body = replace_references(c, c.block(after, comp->a->a), param, c.selection(rr, 0));
  const bb after_merge = normalized_call_dominant_lambda(c, c.lambda(r, rt, body));
  return {up_to_merge, merge, after_merge};
}

}  // namespace detail

// The computation split into TFF's MergeableCompForm (see the top of this header); throws
// ctff::form_error naming the rule when it cannot be split, when the parts break a rule of
// mergeable_form_rules, or when the tree is not a valid typed computation (`valid_computation`).
inline mergeable_comp_form to_mergeable_comp_form(const computation_tree& round) {
  detail::form_context c(round.types);
  const detail::mergeable_blocks b = detail::split_mergeable(c, detail::checked_round(c, round));
  mergeable_comp_form f{detail::to_tree(c, b.up_to_merge), detail::to_tree(c, b.merge), detail::to_tree(c, b.after_merge)};
  validate(f, round);
  return f;
}

}  // namespace ctff
