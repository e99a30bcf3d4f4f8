// Splitting a Lambda in call-dominant form at the calls of some intrinsics into three Lambdas
// (TFF's transformations.divisive_force_align_and_split_by_intrinsics):
//   before:    the locals that depend on none of the intrinsics' results; returns
//              <intrinsic_args_from_before_comp=<...>, intermediate_state=<...>>
//   intrinsic: the calls of the intrinsics alone, their free parts taken from a new parameter
//              element `intrinsic_args_from_before_comp`; returns the struct of their results
//   after:     the rest, of <allowed parts..., intrinsic_results=<...>, intermediate_state=<...>>
// Which parts of the original parameter each may use is given as selection paths; what `after`
// needs beyond them travels through `intermediate_state`. A call of one of the intrinsics that
// depends on another's result cannot be split (form_error `intrinsics_not_alignable`), nor can a
// `before` that needs parameter parts it may not use (`unavailable_inputs`).
//
// Beyond TFF (`join_direct`, used for the broadcasts only): a call of one of the intrinsics whose
// argument takes another's result directly (an element of its argument, structs flattened, is a
// Reference to that call's local: federated_select's keys broadcast just before) joins the
// intrinsic part instead, after the call it depends on; the intrinsic part then keeps its calls in
// the order of the block. A dependence through anything else (a client computation between the
// two) still cannot be split.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/replace_selections.hpp"

namespace ctff::detail {

struct intrinsic_dependencies {
  std::vector<std::pair<std::string, std::vector<bb_elem>>> by_uri;  // in order of first call
  std::vector<bb_elem> dependent, independent;
  std::vector<bb_elem> calls_in_order;  // every call split, in block order
  bool joined = false;                   // a call takes another's result (join_direct)
};

inline bool is_call_of(const bb& x, const std::set<std::string>& uris) {
  return x->kind == block_kind::call && x->a->kind == block_kind::intrinsic &&
         uris.count(x->a->text) != 0;
}

// The elements of a call's argument, structs flattened.
inline void flatten_argument(const bb& x, std::vector<bb>& out) {
  if (x->kind == block_kind::struct_) {
    for (const auto& e : x->elems) flatten_argument(e.value, out);
  } else {
    out.push_back(x);
  }
}

inline intrinsic_dependencies find_intrinsic_dependencies(form_context& c,
                                                          const std::set<std::string>& uris,
                                                          const std::string& param,
                                                          const std::vector<bb_elem>& locals,
                                                          bool join_direct = false) {
  intrinsic_dependencies out;
  std::map<std::string, std::set<std::string>> deps_of;
  std::set<std::string> split_calls;  // the locals that are calls split here
  deps_of[param] = {};
  auto deps_in = [&](const bb& value) {
    std::set<std::string> deps;
    visit_preorder(c, value, [&](const bb& x) {
      if (x->kind == block_kind::reference) {
        auto it = deps_of.find(x->text);
        if (it == deps_of.end())
          throw form_error("unbound_references", "", "cannot resolve `" + x->text + "`");
        deps.insert(it->second.begin(), it->second.end());
      } else if (x->kind == block_kind::lambda) {
        deps_of[x->text] = {};
      } else if (x->kind == block_kind::block) {
        for (const auto& e : x->elems) deps_of[e.name] = {};
      }
    });
    return deps;
  };
  for (const auto& local : locals) {
    std::set<std::string> deps = deps_in(local.value);
    if (is_call_of(local.value, uris)) {
      const std::string& uri = local.value->a->text;
      if (!deps.empty()) {
        // The extension: allowed when every element that depends on a split call is that call's
        // result itself.
        bool direct = join_direct && local.value->b != nullptr;
        if (direct) {
          std::vector<bb> elems;
          flatten_argument(local.value->b, elems);
          for (const auto& e : elems) {
            if (e->kind == block_kind::reference && split_calls.count(e->text)) continue;
            if (!deps_in(e).empty()) direct = false;
          }
        }
        if (!direct)
          throw form_error("intrinsics_not_alignable", "",
                           "the call of " + uri + " depends on the result of " + *deps.begin() +
                               ", which is split at the same point" +
                               (join_direct ? " (only a call that takes another's result as an argument, "
                                              "with nothing computed between them, joins its part)"
                                            : ""));
        out.joined = true;
      }
      deps_of[local.name] = {uri};
      split_calls.insert(local.name);
      out.calls_in_order.push_back(local);
      auto it = std::find_if(out.by_uri.begin(), out.by_uri.end(),
                             [&](const auto& p) { return p.first == uri; });
      if (it == out.by_uri.end()) {
        out.by_uri.emplace_back(uri, std::vector<bb_elem>{});
        it = out.by_uri.end() - 1;
      }
      it->second.push_back(local);
    } else {
      const bool dep = !deps.empty();
      deps_of[local.name] = std::move(deps);
      (dep ? out.dependent : out.independent).push_back(local);
    }
  }
  return out;
}

// Each free part of the Lambda (a free Reference, or a chain of selections from one) becomes an
// element of a new last parameter element `extension`; returns the new Lambda and the parts, in
// order of first use (equal parts, as same_block compares them, share an element). The Lambda's
// parameter must be a struct used only through selections.
inline std::pair<bb, std::vector<bb>> augment_with_parameter_for_free_parts(form_context& c,
                                                                           const bb& lam,
                                                                           const std::string& extension) {
  if (lam->kind != block_kind::lambda || lam->param_type == no_index || !c.is_struct(lam->param_type))
    throw form_error("round_lambda", "", "expected a lambda of a struct parameter");
  const std::string& param = lam->text;
  transform_preorder(c, lam, [&](const bb& x) -> bb_change {
    if (x->kind == block_kind::selection && x->a->kind == block_kind::reference && x->a->text == param)
      return {x, true};
    if (x->kind == block_kind::reference && x->text == param)
      throw form_error("parameter_used_whole", "",
                       "the parameter is used without an immediate selection");
    return {x, false};
  });
  const std::set<std::string> top = free_names(c, lam);
  std::function<bool(const bb&)> candidate = [&](const bb& x) -> bool {
    if (x->kind == block_kind::reference) return top.count(x->text) != 0;
    if (x->kind == block_kind::selection) return candidate(x->a);
    return false;
  };
  std::vector<bb> parts;
  auto index_of = [&](const bb& x) -> std::size_t {
    for (std::size_t k = 0; k != parts.size(); ++k)
      if (same_block(c, parts[k], x)) return k;
    return parts.size();
  };
  transform_preorder(c, lam, [&](const bb& x) -> bb_change {
    if (!candidate(x)) return {x, false};
    if (index_of(x) == parts.size()) parts.push_back(x);
    return {x, true};
  });
  auto elems = c.items(lam->param_type);
  std::vector<std::uint32_t> part_types;
  for (const auto& p : parts) part_types.push_back(p->type);
  elems.emplace_back(extension, c.unnamed_struct_type(part_types));
  const std::uint32_t new_type = c.struct_type(elems);
  bb body = transform_preorder(c, lam->a, [&](const bb& x) -> bb_change {
              if (!candidate(x)) return {x, false};
              bb ref = c.reference(param, new_type);
              bb outer = c.selection(ref, static_cast<std::int64_t>(elems.size() - 1));
              return {c.selection(outer, static_cast<std::int64_t>(index_of(x))), true};
            }).node;
  return {c.lambda(param, new_type, body), parts};
}

// References named `name` replaced by `replacement` (the same node everywhere).
inline bb replace_references(form_context& c, const bb& n, const std::string& name, const bb& replacement) {
  return transform_postorder(c, n, [&](const bb& x) -> bb_change {
           if (x->kind == block_kind::reference && x->text == name) return {replacement, true};
           return {x, false};
         })
      .node;
}

struct split_parts {
  bb before, intrinsic, after;
};

inline split_parts split_by_intrinsics(form_context& c, const bb& comp0, const std::set<std::string>& uris,
                                       const std::vector<selection_path>& before_paths,
                                       const std::vector<selection_path>& intrinsic_paths,
                                       const std::vector<selection_path>& after_paths,
                                       bool join_direct = false) {
  if (comp0->kind != block_kind::lambda || comp0->text.empty())
    throw form_error("round_lambda", "", "expected a lambda with a parameter");
  const bb comp = normalized_call_dominant_lambda(c, comp0);
  const std::string& param = comp->text;
  const std::uint32_t param_type = comp->param_type;
  const bb& body = comp->a;  // a Block
  auto deps = find_intrinsic_dependencies(c, uris, param, body->elems, join_direct);

  // (TFF's order, by URI; with a joined call, the block's order, which has every call after
  // those it takes results from.)
  std::vector<bb_elem> intrinsic_locals;
  if (deps.joined) {
    intrinsic_locals = deps.calls_in_order;
  } else {
    for (const auto& [uri, ls] : deps.by_uri)
      for (const auto& l : ls) intrinsic_locals.push_back(l);
  }
  std::vector<bb> intrinsic_results;
  std::vector<std::uint32_t> intrinsic_types;
  for (const auto& l : intrinsic_locals) {
    intrinsic_results.push_back(c.reference(l.name, l.value->type));
    intrinsic_types.push_back(l.value->type);
  }
  bb intrinsic_comp =
      c.lambda(param, param_type, c.block(intrinsic_locals, c.unnamed_struct(intrinsic_results)));
  intrinsic_comp = as_function_of_some_subparameters(c, intrinsic_comp, intrinsic_paths);
  const std::size_t intrinsic_params = c.size_of(intrinsic_comp->param_type);
  auto [intrinsic_aug, from_before] =
      augment_with_parameter_for_free_parts(c, intrinsic_comp, "intrinsic_args_from_before_comp");
  if (c.size_of(intrinsic_aug->param_type) != intrinsic_params + 1)
    throw form_error("internal", "", "the intrinsic part's parameter did not grow by one");
  check_closed(c, intrinsic_aug, "the intrinsic part");

  const std::string after_param = c.fresh_name();
  const std::uint32_t after_type = c.struct_type(
      {{"original_arg", param_type}, {"intrinsic_results", c.unnamed_struct_type(intrinsic_types)}});
  std::vector<bb_elem> after_locals;
  for (std::size_t i = 0; i != intrinsic_locals.size(); ++i)
    after_locals.push_back(
        {intrinsic_locals[i].name,
         c.selection(c.selection(c.reference(after_param, after_type), 1), static_cast<std::int64_t>(i))});
  for (const auto& l : deps.independent) after_locals.push_back(l);
  for (const auto& l : deps.dependent) after_locals.push_back(l);
  bb after = c.lambda(
      after_param, after_type,
      replace_references(c, c.block(after_locals, body->a), param,
                         c.selection(c.reference(after_param, after_type), 0)));
  std::vector<selection_path> after_allowed;
  for (const auto& p : after_paths) {
    selection_path q{0};
    q.insert(q.end(), p.begin(), p.end());
    after_allowed.push_back(q);
  }
  after_allowed.push_back({1});
  after = as_function_of_some_subparameters(c, after, after_allowed);
  after = replace_selections(c, after, after_param, {{selection_path{0}, c.reference(param, param_type)}});
  auto [after_aug, intermediate] = augment_with_parameter_for_free_parts(c, after, "intermediate_state");
  check_closed(c, after_aug, "the after part");

  bb before = c.lambda(
      param, param_type,
      c.block(deps.independent,
              c.struct_({{"intrinsic_args_from_before_comp", c.unnamed_struct(from_before)},
                         {"intermediate_state", c.unnamed_struct(intermediate)}})));
  before = as_function_of_some_subparameters(c, before, before_paths);
  if (!free_names(c, before).empty())
    throw form_error("unavailable_inputs", "",
                     "the part before the split needs parts of the parameter it may not use (`" +
                         *free_names(c, before).begin() + "`)");
  std::set<std::string> after_local_names;
  for (const auto& l : after_aug->a->elems) after_local_names.insert(l.name);
  std::vector<bb_elem> duplicated;
  for (const auto& l : before->a->elems)
    if (after_local_names.count(l.name)) duplicated.push_back(l);
  const bb& before_result = before->a->a;  // the struct of the two elements
  if (before_result->kind != block_kind::struct_ || before_result->elems.size() != 2 ||
      before_result->elems[1].value->kind != block_kind::struct_)
    throw form_error("internal", "", "the part before the split lost its result struct");
  std::vector<bb_elem> before_elems = before_result->elems;
  std::vector<bb_elem> state = before_elems[1].value->elems;
  for (const auto& d : duplicated) state.push_back({std::string(), c.reference(d.name, d.value->type)});
  bb extended_state = c.struct_(state);
  before_elems[1] = {before_elems[1].name, extended_state};
  bb before_comp = c.lambda(before->text, before->param_type, c.block(before->a->elems, c.struct_(before_elems)));
  check_closed(c, before_comp, "the before part");

  auto after_items = c.items(after_aug->param_type);
  after_items[after_items.size() - 2].first = "intrinsic_results";
  std::vector<std::uint32_t> state_types;
  for (const auto& e : state) state_types.push_back(e.value->type);
  after_items[after_items.size() - 1] = {"intermediate_state", c.unnamed_struct_type(state_types)};
  const std::uint32_t after_sig = c.struct_type(after_items);
  bb after_body = replace_references(c, after_aug->a, after_aug->text, c.reference(after_aug->text, after_sig));
  std::vector<bb_elem> block_locals;
  std::set<std::string> dup_names;
  for (const auto& d : duplicated) dup_names.insert(d.name);
  const std::int64_t state_index = static_cast<std::int64_t>(after_items.size() - 1);
  std::int64_t dup_index = static_cast<std::int64_t>(intermediate.size());
  if (after_body->kind != block_kind::block)
    throw form_error("internal", "", "the part after the split lost its block");
  for (const auto& l : after_body->elems) {
    if (dup_names.count(l.name)) {
      block_locals.push_back(
          {l.name, c.selection(c.selection(c.reference(after_aug->text, after_sig), state_index), dup_index)});
      ++dup_index;
    } else {
      block_locals.push_back(l);
    }
  }
  bb after_comp = c.lambda(after_aug->text, after_sig, c.block(block_locals, after_body->a));
  check_closed(c, after_comp, "the after part");

  split_parts out;
  out.before = normalized_call_dominant_lambda(c, before_comp);
  out.intrinsic = normalized_call_dominant_lambda(c, intrinsic_aug);
  out.after = normalized_call_dominant_lambda(c, after_comp);
  return out;
}

}  // namespace ctff::detail
