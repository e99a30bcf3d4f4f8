// Clients' tensors as one column on the wire, between ctff's controller and ctff's workers: a
// CLIENTS value whose members are tensors of one dtype and shape goes as a `Value.federated` of one
// member, the tensor of all the rows (shape [clients, ...]), instead of one `Value` per client;
// 200,000 int32 clients are then one 800 KB array rather than 200,000 messages to build and parse.
// Only by agreement: a ctff-worker says it reads columns (trailing metadata `ctff-columns` on its
// GetExecutor answer); the controller then marks a column it sends (metadata `ctff-column` on
// CreateValue) and asks for columns back (`ctff-column` on Compute, answered with `ctff-column` in
// the trailing metadata when the answer is one). TFF's clients and workers never see one.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <tensorflow_federated/proto/v0/executor.pb.h>

#include "ctff/remote/remote_error.hpp"
#include "ctff/remote/value_message.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

inline constexpr const char* columns_key = "ctff-columns";  // a worker that reads columns
inline constexpr const char* column_key = "ctff-column";    // this value is (or: answer with) one

// Rows [begin, end) of a column, a column of their own.
inline tensor_data column_slice(const tensor_data& c, std::size_t begin, std::size_t end) {
  const std::size_t rows = column_rows(c), per = rows == 0 ? 0 : c.size() / rows;
  std::vector<std::int64_t> shape = c.shape;
  shape.front() = static_cast<std::int64_t>(end - begin);
  return std::visit(
      [&](const auto& e) {
        using V = std::remove_cvref_t<decltype(e)>;
        return tensor_data{c.dt, std::move(shape),
                           tensor_elements(V(e.begin() + static_cast<std::ptrdiff_t>(begin * per),
                                             e.begin() + static_cast<std::ptrdiff_t>(end * per)))};
      },
      c.elements);
}

// Columns (shape [rows, ...]) of one dtype and row shape, one after the other; nullopt when
// they differ.
inline std::optional<tensor_data> column_concat(const std::vector<const tensor_data*>& parts) {
  const auto row_shape = [](const tensor_data& p) { return std::vector<std::int64_t>(p.shape.begin() + 1, p.shape.end()); };
  if (parts.empty() || parts.front()->shape.empty()) return std::nullopt;
  const tensor_data& p0 = *parts.front();
  std::int64_t n = 0;
  for (const tensor_data* p : parts) {
    if (p->dt != p0.dt || p->elements.index() != p0.elements.index() || p->shape.empty() || row_shape(*p) != row_shape(p0))
      return std::nullopt;
    n += p->shape.front();
  }
  tensor_data out{p0.dt, p0.shape, {}};
  out.shape.front() = n;
  out.elements = std::visit(
      [&](const auto& first) {
        using V = std::remove_cvref_t<decltype(first)>;
        V all;
        std::size_t size = 0;
        for (const tensor_data* p : parts) size += std::get<V>(p->elements).size();
        all.reserve(size);
        for (const tensor_data* p : parts) {
          const V& e = std::get<V>(p->elements);
          all.insert(all.end(), e.begin(), e.end());
        }
        return tensor_elements(std::move(all));
      },
      p0.elements);
  return out;
}

// A column as the wire Value marked `ctff-column`: {T}@CLIENTS of one member, the column.
inline tensorflow_federated::v0::Value column_message(const tensor_data& c) {
  tensorflow_federated::v0::Value m;
  auto* f = m.mutable_federated();
  auto* t = f->mutable_type();
  t->mutable_placement()->mutable_value()->set_uri(std::string(placement_uri(placement_kind::clients)));
  t->set_all_equal(false);
  auto* member = t->mutable_member()->mutable_tensor();
  member->set_dtype(static_cast<federated_language::DataType>(c.dt));
  for (std::size_t k = 1; k < c.shape.size(); ++k) member->add_dims(c.shape[k]);
  array_of_tensor(c, *f->add_value()->mutable_array());
  return m;
}

// The column a `ctff-column` Value carries, of `rows` clients: a remote_error naming what is wrong
// when it is not one.
inline std::shared_ptr<const tensor_data> column_of_message(const tensorflow_federated::v0::Value& m, std::size_t rows,
                                                            const char* where) {
  if (!m.has_federated() || m.federated().value_size() != 1 || !m.federated().value(0).has_array() ||
      m.federated().type().all_equal() || !m.federated().type().has_placement() ||
      m.federated().type().placement().value().uri() != placement_uri(placement_kind::clients))
    remote_fail(where, "a value marked ctff-column that is not a CLIENTS value of one array");
  const dynamic_value a = ctff::from_message(m.federated().value(0));
  const tensor_data& c = a.tensor();
  if (c.shape.empty() || c.shape.front() != static_cast<std::int64_t>(rows))
    remote_fail(where, "a column of " + std::to_string(c.shape.empty() ? 0 : c.shape.front()) + " rows for " +
                           std::to_string(rows) + " clients");
  const auto& member = m.federated().type().member();
  if (member.has_tensor()) {
    const auto& tt = member.tensor();
    bool same = static_cast<int>(tt.dtype()) == static_cast<int>(c.dt) &&
                static_cast<std::size_t>(tt.dims_size()) + 1 == c.shape.size();
    for (int k = 0; same && k < tt.dims_size(); ++k) same = tt.dims(k) == c.shape[static_cast<std::size_t>(k) + 1];
    if (!same) remote_fail(where, "a column whose rows are not of its member type");
  }
  return std::make_shared<const tensor_data>(c);
}

}  // namespace ctff::detail
