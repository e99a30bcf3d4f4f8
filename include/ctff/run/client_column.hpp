// CLIENTS values held as one column (run/value.hpp, federated_data::column): a tensor whose first
// dimension is the clients, so that N clients' scalars are one allocation and per-client tensor
// work runs as one loop (run/batched_eval.hpp). Made where the members' type is known to be one
// tensor shape (a typed argument, a batched federated_map); turned back into members wherever
// something reads members one by one (`with_members`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "ctff/run/budget.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// A CLIENTS value of `rows` clients held as the column c (shape [rows, ...]).
inline dynamic_value make_column_value(std::shared_ptr<const tensor_data> c) {
  return dynamic_value(federated_data{placement_kind::clients, false, {}, std::move(c)});
}
inline dynamic_value make_column_value(tensor_data c) {
  return make_column_value(std::make_shared<const tensor_data>(std::move(c)));
}

// Whether v holds a column anywhere a call would look (itself, or inside its structs).
inline bool holds_column(const dynamic_value& v) {
  if (!v) return false;
  switch (v.kind()) {
    case value_kind::federated: return v.federated().column != nullptr;
    case value_kind::struct_:
      for (const dynamic_value& e : v.structure().elements)
        if (holds_column(e)) return true;
      return false;
    default: return false;
  }
}

// v with every column turned into members (v itself when it holds none).
inline dynamic_value with_members(const dynamic_value& v) {
  if (!holds_column(v)) return v;
  if (v.is(value_kind::federated)) {
    const federated_data& f = v.federated();
    const std::size_t n = column_rows(*f.column);
    charge_elements(n, sizeof(dynamic_value) + sizeof(tensor_data) + 32);
    std::vector<dynamic_value> m;
    m.reserve(n);
    for (std::size_t i = 0; i != n; ++i) m.push_back(column_row(*f.column, i));
    return make_federated(f.where, false, std::move(m));
  }
  const struct_data& s = v.structure();
  std::vector<dynamic_value> e;
  e.reserve(s.elements.size());
  for (const dynamic_value& x : s.elements) e.push_back(with_members(x));
  return make_struct_value(std::move(e), s.names);
}

// The members of f (not all_equal, n of them) as one column, when they are tensors of one dtype
// and shape (else null): what batched work reads.
inline std::shared_ptr<const tensor_data> as_column(const federated_data& f, std::size_t n) {
  if (f.column) return f.column;
  if (f.all_equal || n == 0 || f.members.size() != n || !f.members.front().is(value_kind::tensor)) return nullptr;
  const tensor_data& t0 = f.members.front().tensor();
  if (t0.dt == dtype::str) return nullptr;
  for (const dynamic_value& m : f.members)
    if (!m.is(value_kind::tensor) || m.tensor().dt != t0.dt || m.tensor().shape != t0.shape) return nullptr;
  const std::size_t per = t0.size();
  charge_elements(n * per, 16);
  return std::visit(
      [&](const auto& first) -> std::shared_ptr<const tensor_data> {
        using V = std::remove_cvref_t<decltype(first)>;
        V out;
        out.reserve(n * per);
        for (const dynamic_value& m : f.members) {
          const V& e = std::get<V>(m.tensor().elements);
          out.insert(out.end(), e.begin(), e.end());
        }
        std::vector<std::int64_t> shape{static_cast<std::int64_t>(n)};
        shape.insert(shape.end(), t0.shape.begin(), t0.shape.end());
        return std::make_shared<const tensor_data>(tensor_data{t0.dt, std::move(shape), tensor_elements(std::move(out))});
      },
      t0.elements);
}

}  // namespace ctff::detail
