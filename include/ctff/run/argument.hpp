// An argument given as a dynamic value, checked against the parameter type before a run: kinds,
// dtypes, shapes (a `?` dimension takes any length), struct lengths and names, placements, and the
// number of clients every non-all_equal CLIENTS value agrees on (reference/execution.md §4).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/run/arith.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/data_reference.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// Why tensor x is not of the tensor type t (empty: it is). A `?` dimension takes any length.
inline std::string tensor_misfit(const tensor_data& x, typed t) {
  const type_node& tn = t.node();
  if (x.dt != tn.dt)
    return "expected " + std::string(dtype_name(tn.dt)) + ", got " + std::string(dtype_name(x.dt));
  if (element_count(x.shape) != static_cast<std::int64_t>(x.size()))
    return "the tensor's elements do not fill its shape";
  if (tn.unknown_rank) return {};
  if (x.shape.size() != tn.dim_count)
    return "expected rank " + std::to_string(tn.dim_count) + ", got " + std::to_string(x.shape.size());
  for (std::uint32_t k = 0; k != tn.dim_count; ++k) {
    const std::int64_t d = t.d->dims[tn.dim_begin + k];
    if (d >= 0 && d != x.shape[k])
      return "dimension " + std::to_string(k) + " is " + std::to_string(x.shape[k]) + ", expected " +
             std::to_string(d);
  }
  return {};
}

// Whether the rows of column c are members of tensor type t (their dtype and shape; anything
// else is checked, and reported, member by member).
inline bool column_fits(const tensor_data& c, typed t) {
  const type_node& tn = t.node();
  if (tn.kind != type_kind::tensor || c.dt != tn.dt || c.shape.empty() ||
      element_count(c.shape) != static_cast<std::int64_t>(c.size()))
    return false;
  if (tn.unknown_rank) return true;
  if (c.shape.size() != tn.dim_count + 1) return false;
  for (std::uint32_t k = 0; k != tn.dim_count; ++k) {
    const std::int64_t d = t.d->dims[tn.dim_begin + k];
    if (d >= 0 && d != c.shape[k + 1]) return false;
  }
  return true;
}

// Why v is not a value of t's kind (empty: it is): no value, another kind, a tensor misfit, a
// struct of another length. What v holds (names, members, placements) is each walk's to check.
inline std::string kind_misfit(const dynamic_value& v, typed t) {
  if (!v) return "no value";
  // (Data read elsewhere, by its own type: run/data_reference.hpp.)
  if (t.node().kind != type_kind::function && data_reference::of(v)) return {};
  switch (t.node().kind) {
    case type_kind::tensor:
      return v.is(value_kind::tensor) ? tensor_misfit(v.tensor(), t) : "expected a tensor";
    case type_kind::struct_: {
      if (!v.is(value_kind::struct_)) return "expected a struct";
      const std::size_t n = v.structure().elements.size();
      if (n != t.kids())
        return "expected " + std::to_string(t.kids()) + " elements, got " + std::to_string(n);
      return {};
    }
    case type_kind::sequence:
      return v.is(value_kind::sequence) ? "" : "expected a sequence";
    case type_kind::federated:
      return v.is(value_kind::federated) ? "" : "expected a federated value";
    case type_kind::function:
      return v.is(value_kind::function) ? "" : "expected a function";
    case type_kind::placement:
      return v.is(value_kind::placement) ? "" : "expected a placement";
    case type_kind::abstract:
      return {};  // any value: the type does not say
  }
  return "unknown type";
}

// Why element k of struct value s is not named `want`, its type's name (empty: it is, or s has no
// names: the type names it).
inline std::string name_misfit(const struct_data& s, std::uint32_t k, std::string_view want) {
  if (s.names.empty() || s.name(k) == want) return {};
  return "element " + std::to_string(k) + " is named '" + std::string(s.name(k)) + "', expected '" +
         std::string(want) + "'";
}

// Where and why v is not a value of type t, or nothing when it is: `where` is relative to v
// (".name", "[2]"; empty: v itself) and is spelled only for a misfit, so that checking a value
// that fits builds no string. A struct value without names fits a named struct type (the type
// names it). What a binding takes and returns is checked with it.
struct misfit {
  std::string where;
  std::string problem;
};
inline std::optional<misfit> find_misfit(const dynamic_value& v, typed t) {
  const type_node& tn = t.node();
  auto fail = [](std::string problem) { return std::optional<misfit>(misfit{{}, std::move(problem)}); };
  // A misfit inside element k, its step prepended.
  auto inside = [](std::optional<misfit> m, auto step) {
    if (m) m->where.insert(0, step());
    return m;
  };
  if (std::string p = kind_misfit(v, t); !p.empty()) return fail(std::move(p));
  if (data_reference::of(v)) return std::nullopt;
  switch (tn.kind) {
    case type_kind::struct_: {
      const struct_data& s = v.structure();
      for (std::uint32_t k = 0; k != t.kids(); ++k) {
        const std::string_view want = t.d->name(t.d->kid(t.i, k));
        if (std::string p = name_misfit(s, k, want); !p.empty()) return fail(std::move(p));
        if (auto m = find_misfit(s.elements[k], t.kid(k)))
          return inside(std::move(m), [&] { return step_text(want, k); });
      }
      return std::nullopt;
    }
    case type_kind::sequence: {
      const auto& e = v.sequence().elements;
      for (std::size_t k = 0; k != e.size(); ++k)
        if (auto m = find_misfit(e[k], t.member()))
          return inside(std::move(m), [&] { return step_text({}, k); });
      return std::nullopt;
    }
    case type_kind::federated: {
      const federated_data& f = v.federated();
      if (f.column) {
        if (tn.where == placement_kind::clients && !tn.all_equal && column_fits(*f.column, t.member()))
          return std::nullopt;
        return find_misfit(with_members(v), t);
      }
      if (f.where != tn.where)
        return fail("placed at " + std::string(placement_name(f.where)) + ", expected " +
                    std::string(placement_name(tn.where)));
      const bool listed = tn.where == placement_kind::clients && !tn.all_equal && !f.all_equal;
      if (!listed && f.members.size() != 1) return fail("expected one member");
      if (tn.all_equal && !f.all_equal) return fail("expected an all_equal value");
      for (std::size_t k = 0; k != f.members.size(); ++k)
        if (auto m = find_misfit(f.members[k], t.member()))
          return inside(std::move(m), [&] { return listed ? step_text({}, k) : std::string(); });
      return std::nullopt;
    }
    case type_kind::tensor:
    case type_kind::function:
    case type_kind::placement:
    case type_kind::abstract:
      return std::nullopt;  // (kind_misfit checked them whole)
  }
  return std::nullopt;
}

// Where in an argument a check is: the steps from the root, on the stack, spelled
// (`arg.model.bias[3]`) only for an error, so that checking an argument that fits builds no string.
struct argument_path {
  const argument_path* up = nullptr;
  std::string_view root{};   // the root's name (no up)
  std::string_view name{};   // a struct element's name, or ...
  std::size_t index = 0;     // ... its index ([k]: no name)
  bool same = false;         // the step adds nothing (an all_equal value's member)

  std::string text() const {
    if (!up) return std::string(root);
    std::string out = up->text();
    if (!same) out += step_text(name, index);
    return out;
  }
};

// Checks v against t; returns v with the type's struct names where v has none. `clients`: set by
// the first CLIENTS list, then checked.
inline dynamic_value check_argument(const dynamic_value& v, typed t, const argument_path& path,
                                    std::optional<std::size_t>& clients) {
  const type_node& tn = t.node();
  auto fail = [&](const std::string& problem) -> dynamic_value { throw argument_error(path.text(), problem); };
  if (std::string p = kind_misfit(v, t); !p.empty()) return fail(p);
  if (data_reference::of(v)) return v;
  switch (tn.kind) {
    case type_kind::tensor:
      return v;
    case type_kind::struct_: {
      const struct_data& s = v.structure();
      std::vector<std::string> names = struct_names(t);
      std::vector<dynamic_value> e;
      bool changed = !s.names.empty() ? false : !names.empty();
      for (std::uint32_t k = 0; k != t.kids(); ++k) {
        const std::string_view want = names.empty() ? std::string_view{} : std::string_view(names[k]);
        if (std::string p = name_misfit(s, k, want); !p.empty()) fail(p);
        e.push_back(check_argument(s.elements[k], t.kid(k), argument_path{&path, {}, want, k}, clients));
        changed = changed || !e.back().shares(s.elements[k]);
      }
      return changed ? make_struct_value(std::move(e), std::move(names)) : v;
    }
    case type_kind::sequence: {
      std::vector<dynamic_value> e;
      const auto& s = v.sequence().elements;
      bool changed = false;
      for (std::size_t k = 0; k != s.size(); ++k) {
        e.push_back(check_argument(s[k], t.member(), argument_path{&path, {}, {}, k}, clients));
        changed = changed || !e.back().shares(s[k]);
      }
      return changed ? make_sequence(std::move(e)) : v;
    }
    case type_kind::federated: {
      const federated_data& f = v.federated();
      if (f.column) {  // rows that fit are counted, not visited; else as members, to say where
        const std::size_t rows = column_rows(*f.column);
        if (tn.where != placement_kind::clients || tn.all_equal || !column_fits(*f.column, t.member()) ||
            (clients && *clients != rows))
          return check_argument(with_members(v), t, path, clients);
        clients = rows;
        return v;
      }
      if (f.where != tn.where)
        return fail("placed at " + std::string(placement_name(f.where)) + ", expected " +
                    std::string(placement_name(tn.where)));
      const bool listed = tn.where == placement_kind::clients && !tn.all_equal;
      if (!listed && f.members.size() != 1) return fail("expected one member");
      if (tn.where == placement_kind::clients && tn.all_equal && !f.all_equal)
        return fail("expected an all_equal value");
      if (listed && f.all_equal) {
        if (f.members.size() != 1) return fail("an all_equal value with several members");
      } else if (listed) {
        if (clients && *clients != f.members.size())
          return fail(std::to_string(f.members.size()) + " clients, but the run has " +
                      std::to_string(*clients));
        clients = f.members.size();
      }
      std::vector<dynamic_value> m;
      bool changed = false;
      const bool per_client = listed && !f.all_equal;
      for (std::size_t k = 0; k != f.members.size(); ++k) {
        m.push_back(check_argument(f.members[k], t.member(), argument_path{&path, {}, {}, k, !per_client}, clients));
        changed = changed || !m.back().shares(f.members[k]);
      }
      return changed ? make_federated(f.where, f.all_equal, std::move(m)) : v;
    }
    case type_kind::function:
    case type_kind::placement:
      return v;
    case type_kind::abstract: return fail("a value of an abstract type");
  }
  return v;
}
inline dynamic_value check_argument(const dynamic_value& v, typed t, std::string_view root,
                                    std::optional<std::size_t>& clients) {
  return check_argument(v, t, argument_path{nullptr, root}, clients);
}

}  // namespace ctff::detail
