// A MergeableCompForm (forms/mergeable_comp_form.hpp) run in subrounds, as TFF's
// MergeableCompExecutionContext runs one, but in a fixed order: the clients of the argument cut
// into consecutive subrounds of at most K; up_to_merge run on each subround's slice of the
// argument (values not per client, and all_equal ones, go to every subround whole); the partial
// results merged in subround order, ((p0 + p1) + p2) + ...; then after_merge of a slice and the
// merged result: once, with the first subround's slice, when its result holds no per-client
// value (after_merge aggregates nothing, so SERVER results cannot depend on the clients'), else
// once per subround, the per-client results joined in subround order. Each run is one
// executor::run: on a ctff::remote_executor, on the workers (and their failover).
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/mergeable_comp_form.hpp"
#include "ctff/forms/simulate.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

// The clients [first, first + count) of one subround.
struct subround {
  std::size_t first = 0, count = 0;
};

// N clients cut into consecutive subrounds of at most k (k >= 1); no clients: one empty subround.
inline std::vector<subround> subrounds_of(std::size_t n, std::size_t k) {
  if (k == 0) throw argument_error("max_clients", "a subround must take at least one client");
  std::vector<subround> out;
  for (std::size_t i = 0; i < n; i += k) out.push_back({i, n - i < k ? n - i : k});
  if (out.empty()) out.push_back({0, 0});
  return out;
}

namespace detail {

inline bool is_per_client(const dynamic_value& v) {
  return v.is(value_kind::federated) && v.federated().where == placement_kind::clients && !v.federated().all_equal;
}
inline std::size_t clients_held(const federated_data& f) {
  if (f.column) return column_rows(*f.column);
  if (f.elsewhere) return f.elsewhere->clients();
  return f.members.size();
}

// How many clients the per-client values of v hold (all must agree); nullopt: v holds none.
inline void count_clients(const dynamic_value& v, std::optional<std::size_t>& n, const std::string& path) {
  if (is_per_client(v)) {
    const std::size_t m = clients_held(v.federated());
    if (n && *n != m)
      throw argument_error(path, "holds " + std::to_string(m) + " clients where another CLIENTS value holds " +
                                     std::to_string(*n));
    n = m;
  } else if (v.is(value_kind::struct_)) {
    const struct_data& s = v.structure();
    for (std::size_t k = 0; k != s.elements.size(); ++k) count_clients(s.elements[k], n, path + step_text(s.name(k), k));
  }
}

// v with each per-client value cut to the clients of s.
inline dynamic_value subround_slice(const dynamic_value& v, const subround& s) {
  if (is_per_client(v)) {
    const federated_data& f = v.federated();
    std::vector<dynamic_value> m;
    m.reserve(s.count);
    if (f.elsewhere) {
      const std::vector<dynamic_value> all = listed_members(f);
      m.assign(all.begin() + static_cast<std::ptrdiff_t>(s.first),
               all.begin() + static_cast<std::ptrdiff_t>(s.first + s.count));
    } else {
      for (std::size_t i = s.first; i != s.first + s.count; ++i) m.push_back(client_member(f, i));
    }
    return make_federated(placement_kind::clients, false, std::move(m));
  }
  if (!v.is(value_kind::struct_)) return v;
  std::vector<dynamic_value> e;
  for (const dynamic_value& x : v.structure().elements) e.push_back(subround_slice(x, s));
  return make_struct_value(std::move(e), v.structure().names);
}

// The subrounds' results as one (TFF's _repackage_partitioned_values): per-client values joined
// in subround order, any other value as the first subround has it.
inline dynamic_value joined_subrounds(const std::vector<dynamic_value>& parts, const std::string& path) {
  const dynamic_value& first = parts.front();
  if (is_per_client(first)) {
    std::vector<dynamic_value> m;
    for (const dynamic_value& p : parts) {
      if (!is_per_client(p)) throw execution_error(path, "a subround's after_merge gave a value of another shape");
      for (dynamic_value& x : listed_members(p.federated())) m.push_back(std::move(x));
    }
    return make_federated(placement_kind::clients, false, std::move(m));
  }
  if (!first.is(value_kind::struct_)) return first;
  const std::size_t n = first.structure().elements.size();
  std::vector<dynamic_value> e;
  for (std::size_t k = 0; k != n; ++k) {
    std::vector<dynamic_value> column;
    for (const dynamic_value& p : parts) {
      if (!p.is(value_kind::struct_) || p.structure().elements.size() != n)
        throw execution_error(path, "a subround's after_merge gave a value of another shape");
      column.push_back(p.structure().elements[k]);
    }
    e.push_back(joined_subrounds(column, path + step_text(first.structure().name(k), k)));
  }
  return make_struct_value(std::move(e), first.structure().names);
}

// Whether type ty holds a per-client (non-all_equal CLIENTS) type.
inline bool holds_per_client(const type_desc& d, std::uint32_t ty) {
  const type_node& n = d.node(ty);
  if (n.kind == type_kind::federated) return n.where == placement_kind::clients && !n.all_equal;
  if (n.kind != type_kind::struct_) return false;
  for (std::uint32_t k = 0; k != n.kid_count; ++k)
    if (holds_per_client(d, d.kid(ty, k))) return true;
  return false;
}

// One run of a part for subround k, its errors naming the subround.
inline dynamic_value run_subround(executor& ex, const std::shared_ptr<const computation_tree>& part, const char* name,
                                  const dynamic_value& arg, const std::vector<subround>& s, std::size_t k) {
  try {
    return run_part(ex, part, name, arg, s[k].count);
  } catch (const execution_error& e) {
    const std::string which = "subround " + std::to_string(k) + " of " + std::to_string(s.size()) + " (clients " +
                              std::to_string(s[k].first) + ".." + std::to_string(s[k].first + s[k].count) + "): ";
    std::throw_with_nested(execution_error(e.path(), which + e.problem()));
  }
}

}  // namespace detail

// Runs f in subrounds of at most max_clients of n clients on ex (see the top), up_to_merge's
// argument for the clients of a subround s made by arg_of(s) only when s runs (null: none), so
// that what is held at once follows max_clients, not n; returns after_merge's result. n not
// given: one subround with run_options::clients clients. Throws form_error when f is no
// MergeableCompForm, argument_error for a max_clients of 0, execution_error as the runs do,
// naming the part and the subround.
inline dynamic_value run_in_subrounds(executor& ex, const mergeable_comp_form& f, std::optional<std::size_t> n,
                                      const std::function<dynamic_value(const subround&)>& arg_of,
                                      std::size_t max_clients) {
  validate(f);
  std::vector<subround> cuts = subrounds_of(n.value_or(0), max_clients);
  if (!n) cuts.front().count = ex.options().clients.value_or(0);
  auto part = [](const computation_tree& t) { return std::make_shared<const computation_tree>(t); };
  const auto up_to_merge = part(f.up_to_merge), merge = part(f.merge), after_merge = part(f.after_merge);
  dynamic_value merged, first;
  for (std::size_t k = 0; k != cuts.size(); ++k) {
    const dynamic_value slice = arg_of(cuts[k]);
    if (k == 0) first = slice;
    const dynamic_value partial = detail::run_subround(ex, up_to_merge, "up_to_merge", slice, cuts, k);
    if (!partial.is(value_kind::federated) || partial.federated().members.empty())
      throw execution_error("up_to_merge", "the result is not a value placed at SERVER");
    const dynamic_value& member = partial.federated().members.front();
    merged = k == 0 ? member
                    : detail::run_subround(ex, merge, "merge", make_struct_value({merged, member}), cuts, k);
  }
  const dynamic_value at_server = make_federated(placement_kind::server, true, {merged});
  auto after = [&](std::size_t k) {
    const dynamic_value slice = k == 0 ? first : arg_of(cuts[k]);
    const dynamic_value a = slice ? make_struct_value({slice, at_server}) : at_server;
    return detail::run_subround(ex, after_merge, "after_merge", a, cuts, k);
  };
  const type_desc& d = f.after_merge.types;
  const std::uint32_t fn = f.after_merge.node(f.after_merge.root).type;
  if (!detail::holds_per_client(d, d.kid(fn, d.node(fn).has_param ? 1 : 0))) return after(0);
  std::vector<dynamic_value> results;
  for (std::size_t k = 0; k != cuts.size(); ++k) results.push_back(after(k));
  return detail::joined_subrounds(results, "after_merge");
}

// The same with the whole argument (up_to_merge's parameter; null: none), cut into the subrounds'
// slices; without per-client values in arg, one subround runs with run_options::clients clients.
// Also an argument_error for an arg whose CLIENTS values disagree on the clients.
inline dynamic_value run_in_subrounds(executor& ex, const mergeable_comp_form& f, const dynamic_value& arg,
                                      std::size_t max_clients) {
  std::optional<std::size_t> n;
  if (arg) detail::count_clients(arg, n, "arg");
  return run_in_subrounds(
      ex, f, n, [&](const subround& s) { return n && arg ? detail::subround_slice(arg, s) : arg; },
      max_clients);
}

}  // namespace ctff
