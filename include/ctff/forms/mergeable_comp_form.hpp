// A computation with one logical aggregation as TFF's MergeableCompForm (TFF's
// impl/execution_contexts/mergeable_comp_execution_context.py), three computations such that
// running up_to_merge on subsets of the clients, merging the results in turn and giving the
// merged value to after_merge gives the computation's result:
//   up_to_merge:  P -> M@SERVER               (the clients' work and partial aggregates)
//   merge:        <M, M> -> M                 (unplaced: two partial aggregates as one)
//   after_merge:  <P, M@SERVER> -> R          (the aggregations' reports and the work after them)
// The rules the parts keep are TFF's MergeableCompForm.__init__ checks, in its order
// (`mergeable_form_rules`); mergeable_form_errors lists the ones broken.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/relations.hpp"

namespace ctff {

namespace detail {
inline constexpr std::array<std::string_view, 3> mergeable_part_names = {"up_to_merge", "merge", "after_merge"};
}  // namespace detail

struct mergeable_comp_form {
  computation_tree up_to_merge;
  computation_tree merge;
  computation_tree after_merge;

  // The three parts in the order a round runs them (form_part: forms/distribute_aggregate_form.hpp).
  auto parts() const {
    return detail::named_parts<const computation_tree>(detail::mergeable_part_names, up_to_merge, merge, after_merge);
  }
  auto parts() { return detail::named_parts<computation_tree>(detail::mergeable_part_names, up_to_merge, merge, after_merge); }
};

struct mergeable_rule_entry {
  std::string_view name;  // as form_error::rule() spells it
  std::string_view what;  // what it asks (TFF's exception, when TFF checks it)
};

// The rules, in the order they are checked (docs/distributed.md, "Subrounds", lists them).
inline constexpr mergeable_rule_entry mergeable_form_rules[] = {
    {"part_check", "every part passes ctff's checker (read/checker.hpp) and is a function"},
    {"up_to_merge_result", "up_to_merge returns one value placed at SERVER, M@SERVER (UpToMergeTypeError)"},
    {"merge_parameter", "merge's parameter is assignable from <M, M> (MergeTypeNotAssignableError)"},
    {"merge_result", "each element of merge's parameter is assignable from merge's result (MergeTypeNotAssignableError)"},
    {"after_merge_parameter",
     "after_merge's parameter is assignable from <P, R@SERVER>, P up_to_merge's parameter and R merge's result "
     "(R@SERVER when up_to_merge takes none; TypeError)"},
    {"after_merge_aggregation",
     "after_merge calls no intrinsic whose parameter holds a CLIENTS value and whose result a SERVER value "
     "(AfterMergeStructureError)"},
    {"round_type",
     "with the round: up_to_merge's parameter is the round's and after_merge's result is assignable to the round's"},
};

namespace detail {

// Whether a federated type placed at `where` occurs in type ty (type_analysis.contains).
inline bool holds_placement(const type_desc& d, std::uint32_t ty, placement_kind where) {
  const type_node& n = d.node(ty);
  if (n.kind == type_kind::federated && n.where == where) return true;
  for (std::uint32_t k = 0; k != n.kid_count; ++k)
    if (holds_placement(d, d.kid(ty, k), where)) return true;
  return false;
}

class mergeable_checker {
 public:
  mergeable_checker(const mergeable_comp_form& f, std::size_t max_errors) : f_(f), max_(max_errors) {}

  std::vector<form_error> run(const computation_tree* round) {
    for (const auto& [name, t] : f_.parts()) part(name, *t);
    if (!errors_.empty()) return errors_;
    const type_desc &u = f_.up_to_merge.types, &m = f_.merge.types, &a = f_.after_merge.types;
    const std::uint32_t uf = root_type(f_.up_to_merge), mf = root_type(f_.merge), af = root_type(f_.after_merge);
    const std::uint32_t result = result_of(u, uf);
    if (u.node(result).kind != type_kind::federated || u.node(result).where != placement_kind::server)
      return fail("up_to_merge_result", "up_to_merge",
                  "up_to_merge returns " + type_text(u, result) + ", not one value placed at SERVER");
    const std::uint32_t member = u.kid(result, 0);
    const std::uint32_t mp = param_of(m, mf), mr = result_of(m, mf);
    if (mp == no_index || m.node(mp).kind != type_kind::struct_ || m.node(mp).kid_count != 2 ||
        !assignable(m, m.kid(mp, 0), u, member) || !assignable(m, m.kid(mp, 1), u, member))
      return fail("merge_parameter", "merge",
                  "merge's parameter " + (mp == no_index ? std::string("(none)") : type_text(m, mp)) +
                      " is not assignable from <" + type_text(u, member) + "," + type_text(u, member) + ">");
    if (!assignable(m, m.kid(mp, 0), m, mr) || !assignable(m, m.kid(mp, 1), m, mr))
      return fail("merge_result", "merge",
                  "merge's result " + type_text(m, mr) + " is not assignable to each element of its parameter " +
                      type_text(m, mp));
    after_merge_parameter(u, param_of(u, uf), m, mr, a, param_of(a, af));
    if (errors_.empty()) after_merge_aggregation();
    if (errors_.empty() && round) round_type(*round);
    return errors_;
  }

 private:
  static std::uint32_t root_type(const computation_tree& t) { return t.node(t.root).type; }
  static std::uint32_t param_of(const type_desc& d, std::uint32_t fn) {
    return d.node(fn).has_param ? d.kid(fn, 0) : no_index;
  }
  static std::uint32_t result_of(const type_desc& d, std::uint32_t fn) {
    return d.kid(fn, d.node(fn).has_param ? 1 : 0);
  }
  std::vector<form_error> fail(const char* rule, std::string path, std::string problem) {
    if (errors_.size() < max_) errors_.emplace_back(rule, std::move(path), std::move(problem));
    return errors_;
  }

  void part(std::string_view name, const computation_tree& t) {
    const std::string n(name);
    if (t.root == no_index || t.root >= t.nodes.size()) {
      fail("part_check", n, "the part is empty");
      return;
    }
    const auto e = ctff::check(t, 1);
    if (!e.empty()) {
      fail("part_check", e.front().path.empty() ? n : n + "." + e.front().path, e.front().problem);
    } else if (t.types.node(root_type(t)).kind != type_kind::function) {
      fail("part_check", n, "the part is of type " + type_text(t.types, root_type(t)) + ", not a function");
    }
  }

  // P and R@SERVER (R alone without P) assignable to after_merge's parameter ap.
  void after_merge_parameter(const type_desc& u, std::uint32_t p, const type_desc& m, std::uint32_t r,
                             const type_desc& a, std::uint32_t ap) {
    const std::string wanted =
        (p == no_index ? "" : "<" + type_text(u, p) + ",") + type_text(m, r) + "@SERVER" + (p == no_index ? "" : ">");
    auto takes_merged = [&](std::uint32_t x) {
      const type_node& n = a.node(x);
      return n.kind == type_kind::federated && n.where == placement_kind::server && assignable(a, a.kid(x, 0), m, r);
    };
    bool ok = ap != no_index;
    if (ok && p == no_index) {
      ok = takes_merged(ap);
    } else if (ok) {
      const type_node& n = a.node(ap);
      ok = n.kind == type_kind::struct_ && n.kid_count == 2 && assignable(a, a.kid(ap, 0), u, p) && takes_merged(a.kid(ap, 1));
    }
    if (!ok)
      fail("after_merge_parameter", "after_merge",
           "after_merge's parameter " + (ap == no_index ? std::string("(none)") : type_text(a, ap)) +
               " is not assignable from " + wanted);
  }

  void after_merge_aggregation() {
    const computation_tree& t = f_.after_merge;
    for (std::uint32_t i = 0; i != t.nodes.size(); ++i) {
      const block_node& n = t.node(i);
      if (n.kind != block_kind::intrinsic || t.types.node(n.type).kind != type_kind::function) continue;
      const std::uint32_t p = param_of(t.types, n.type);
      if (p != no_index && holds_placement(t.types, p, placement_kind::clients) &&
          holds_placement(t.types, result_of(t.types, n.type), placement_kind::server)) {
        fail("after_merge_aggregation", "after_merge",
             "after_merge calls " + std::string(t.text(i)) + " of type " + type_text(t.types, n.type) +
                 ", which takes CLIENTS values to SERVER: after_merge may not aggregate");
        return;
      }
    }
  }

  void round_type(const computation_tree& round) {
    const type_desc& r = round.types;
    const std::uint32_t rf = round.node(round.root).type;
    const type_desc &u = f_.up_to_merge.types, &a = f_.after_merge.types;
    const std::uint32_t up = param_of(u, root_type(f_.up_to_merge)), rp = param_of(r, rf);
    const bool same_param = (up == no_index) == (rp == no_index) &&
                            (up == no_index || (assignable(u, up, r, rp) && assignable(r, rp, u, up)));
    const std::uint32_t ar = result_of(a, root_type(f_.after_merge)), rr = result_of(r, rf);
    if (!same_param)
      fail("round_type", "up_to_merge", "up_to_merge's parameter is not the round's, " +
                                            (rp == no_index ? std::string("(none)") : type_text(r, rp)));
    else if (!assignable(r, rr, a, ar))
      fail("round_type", "after_merge",
           "after_merge's result " + type_text(a, ar) + " is not assignable to the round's " + type_text(r, rr));
  }

  const mergeable_comp_form& f_;
  std::size_t max_;
  std::vector<form_error> errors_;
};

}  // namespace detail

// Every rule of mergeable_form_rules the form breaks (at most max_errors); empty when it is a
// MergeableCompForm. With `round`, the form must also be a form of it (round_type).
inline std::vector<form_error> mergeable_form_errors(const mergeable_comp_form& f, std::size_t max_errors = 100) {
  return detail::mergeable_checker(f, max_errors).run(nullptr);
}
inline std::vector<form_error> mergeable_form_errors(const mergeable_comp_form& f, const computation_tree& round,
                                                     std::size_t max_errors = 100) {
  return detail::mergeable_checker(f, max_errors).run(&round);
}

// Throws the first form_error unless the parts are a MergeableCompForm (of the round).
inline void validate(const mergeable_comp_form& f) {
  if (auto e = mergeable_form_errors(f, 1); !e.empty()) throw e.front();
}
inline void validate(const mergeable_comp_form& f, const computation_tree& round) {
  if (auto e = mergeable_form_errors(f, round, 1); !e.empty()) throw e.front();
}

}  // namespace ctff
