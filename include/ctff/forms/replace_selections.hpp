// Rebinding a Lambda's parameter by the parts of it the body selects (TFF's
// tree_transformations.replace_selections and as_function_of_some_subparameters, and
// building_block_factory.select_output_from_lambda): `x -> ...x[0][2]...x[1]...` becomes
// `p -> ...p[0]...p[1]...` for the paths (0,2) and (1). Only selections written out from the
// parameter's Reference are matched (in call-dominant form, every use of a parameter is one);
// selections along paths not given are left as they are, so that the result may have free
// references, which the caller treats as an error or fills in (forms/split_by_intrinsics.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/call_dominant.hpp"

namespace ctff::detail {

using selection_path = std::vector<std::int32_t>;

// Replaces `ref_name[i][j]...` by the building block given for the path (i, j, ...), when their
// types are equivalent; the same replacement node in every place.
inline bb replace_selections(form_context& c, const bb& n, const std::string& ref_name,
                             const std::map<selection_path, bb>& replacements) {
  return transform_postorder(c, n, [&](const bb& x) -> bb_change {
           selection_path path;
           const bb_node* s = x.get();
           while (s->kind == block_kind::selection) {
             path.push_back(s->index);
             s = s->a.get();
           }
           std::reverse(path.begin(), path.end());
           if (s->kind == block_kind::reference && s->text == ref_name) {
             auto it = replacements.find(path);
             if (it != replacements.end() && c.equivalent(it->second->type, x->type))
               return {it->second, true};
           }
           if (x->kind == block_kind::call && is_opaque_or_literal(x->a->kind) && x->b &&
               x->b->kind == block_kind::reference && x->b->text == ref_name)
             throw form_error("parameter_passed_whole", "",
                              "a compiled computation is called on the whole parameter `" +
                                  ref_name + "`, which cannot be rebound part by part");
           return {x, false};
         })
      .node;
}

inline void collect_local_names(form_context& c, const bb& n, std::set<std::string>& out) {
  visit_preorder(c, n, [&](const bb& x) {
    if (x->kind == block_kind::block)
      for (const auto& e : x->elems) out.insert(e.name);
  });
}

// `x -> ...` as a function of the struct of x's parts at `paths` (unused locals dropped; the
// result is a Block). Parts used beyond `paths` stay as free references to x.
inline bb as_function_of_some_subparameters(form_context& c, const bb& lam0,
                                            const std::vector<selection_path>& paths) {
  bb lam = remove_unused_locals(c, lam0);
  if (lam->kind != block_kind::lambda || lam->param_type == no_index)
    throw form_error("round_lambda", "", "expected a lambda with a parameter");
  std::vector<std::uint32_t> types;
  for (const auto& p : paths) {
    std::uint32_t t = lam->param_type;
    for (auto i : p) {
      if (!c.is_struct(t) || i < 0 || static_cast<std::uint32_t>(i) >= c.size_of(t))
        throw form_error("parameter_selection", "",
                         "a selection path that the parameter type " + c.type_string(lam->param_type) +
                             " does not have");
      t = c.kid(t, static_cast<std::uint32_t>(i));
    }
    types.push_back(t);
  }
  bb ref = c.reference(c.fresh_name(), c.unnamed_struct_type(types));
  std::map<selection_path, bb> repl;
  for (std::size_t i = 0; i != paths.size(); ++i)
    repl[paths[i]] = c.selection(ref, static_cast<std::int64_t>(i));
  bb body = replace_selections(c, lam->a, lam->text, repl);
  if (body->kind != block_kind::block) body = c.block({}, body);
  return c.lambda(ref->text, ref->type, body);
}

// The Lambda with its result's element `index` as its result (select_output_from_lambda with one
// index): the element itself when the result is a Struct, else a Selection.
inline bb select_output_from_lambda(form_context& c, const bb& lam, std::int32_t index) {
  if (!c.is_struct(c.result_of(lam->type)))
    throw form_error("round_results", "", "expected a lambda whose result is a struct");
  bb r = lam->a;
  if (r->kind == block_kind::struct_) {
    if (index < 0 || static_cast<std::size_t>(index) >= r->elems.size())
      throw form_error("round_results", "", "selection out of range of the result");
    r = r->elems[static_cast<std::size_t>(index)].value;
  } else {
    r = c.selection(r, index);
  }
  return c.lambda(lam->text, lam->param_type, r);
}

// `x -> ...x[0]...` for a parameter that is a struct of one element becomes `y -> ...y...`.
inline bb unnest_lambda_parameter(form_context& c, const bb& lam) {
  if (lam->kind != block_kind::lambda || lam->param_type == no_index ||
      !c.is_struct(lam->param_type) || c.size_of(lam->param_type) < 1)
    throw form_error("round_lambda", "", "expected a lambda of a struct parameter");
  const std::uint32_t t = c.kid(lam->param_type, 0);
  bb ref = c.reference(c.fresh_name(), t);
  bb body = replace_selections(c, lam->a, lam->text, {{selection_path{0}, ref}});
  bb out = c.lambda(ref->text, t, body);
  check_closed(c, out, "the unnested lambda");
  return out;
}

}  // namespace ctff::detail
