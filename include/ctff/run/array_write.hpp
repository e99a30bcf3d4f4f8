// Values to numpy arrays named by their paths, written by their TFF type: ctff-run's .npz / .npy
// result (`--output`). The layout is the one run/array_read.hpp reads, so a value written is read
// back the same: each tensor the array named by its path; `{T}@CLIENTS` of tensors (in structs)
// stacked, clients first, when every client's tensors have one shape (per client, `path[i]`,
// otherwise); str as numpy's bytes ('S', as long as the longest element: trailing NUL bytes of an
// element are lost, as in numpy); bfloat16 as 'V2' (its two bytes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ctff/numpy/npy.hpp"
#include "ctff/run/array_read.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/result_form.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"

namespace ctff {
namespace detail {

class array_writer {
 public:
  array_writer(const type_desc& types, std::optional<std::size_t> clients) : types_(types), clients_(clients) {}

  std::vector<std::pair<std::string, npy_array>> out;

  void write(const dynamic_value& v, std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    check_has_form(v, n, "array");
    switch (n.kind) {
      case type_kind::tensor: {
        const tensor_data& x = expect(v, value_kind::tensor, t).tensor();
        std::vector<const tensor_data*> one{&x};
        return add(path, one, {});
      }
      case type_kind::struct_: {
        const struct_data& s = expect(v, value_kind::struct_, t).structure();
        check_element_count(s, types_, t);
        for (std::uint32_t i = 0; i != n.kid_count; ++i)
          write(s.elements[i], types_.kid(t, i), path + step_text(types_.name(types_.kid(t, i)), i));
        return;
      }
      case type_kind::sequence: {
        const auto& s = expect(v, value_kind::sequence, t).sequence();
        for (std::size_t i = 0; i != s.elements.size(); ++i) write(s.elements[i], types_.kid(t, 0), path + step_text({}, i));
        return;
      }
      case type_kind::federated: return federated(expect(v, value_kind::federated, t).federated(), t, path);
      default: throw execution_error("", "a value of type " + message_type_text(types_, t) + " has no array form");
    }
  }

 private:
  const dynamic_value& expect(const dynamic_value& v, value_kind k, std::uint32_t t) const {
    return expect_kind(v, k, types_, t);
  }

  void federated(const federated_data& f, std::uint32_t t, const std::string& path) {
    const result_members m = members_of_result(f, types_, t, clients_);
    const std::uint32_t member = types_.kid(t, 0);
    if (!m.listed) return write(m[0], member, path);
    const std::size_t count = m.size;
    if (stackable(types_, member)) {
      // Each client's tensors in the order of the type; stacked when every tensor has one shape.
      std::vector<std::vector<const tensor_data*>> leaves(count);
      for (std::size_t c = 0; c != count; ++c) collect(m[c], member, leaves[c]);
      bool same = true;
      for (std::size_t c = 1; same && c < count; ++c)
        for (std::size_t k = 0; same && k != leaves[c].size(); ++k)
          same = leaves[c][k]->shape == leaves[0][k]->shape && leaves[c][k]->dt == leaves[0][k]->dt;
      if (same) {
        stack(member, path, leaves, 0);
        return;
      }
    }
    for (std::size_t i = 0; i != count; ++i) write(m[i], member, path + step_text({}, i));
  }

  void collect(const dynamic_value& v, std::uint32_t t, std::vector<const tensor_data*>& leaves) {
    const type_node& n = types_.node(t);
    if (n.kind == type_kind::tensor) {
      leaves.push_back(&expect(v, value_kind::tensor, t).tensor());
      return;
    }
    const struct_data& s = expect(v, value_kind::struct_, t).structure();
    check_element_count(s, types_, t);
    for (std::uint32_t i = 0; i != n.kid_count; ++i) collect(s.elements[i], types_.kid(t, i), leaves);
  }

  // The stacked arrays of the tensors of type t, from the k-th tensor of each client on; returns
  // the index after its last tensor.
  std::size_t stack(std::uint32_t t, const std::string& path, const std::vector<std::vector<const tensor_data*>>& leaves,
                    std::size_t k) {
    const type_node& n = types_.node(t);
    if (n.kind == type_kind::tensor) {
      std::vector<const tensor_data*> column;
      for (const auto& c : leaves) column.push_back(c[k]);
      // No client: the type's shape, its unknown dimensions 0 (unknown rank: 0-d).
      std::vector<std::int64_t> shape;
      if (leaves.empty())
        for (std::uint32_t d = 0; !n.unknown_rank && d != n.dim_count; ++d)
          shape.push_back(std::max<std::int64_t>(types_.dims[n.dim_begin + d], 0));
      add(path, column, std::optional<std::vector<std::int64_t>>(std::move(shape)), n.dt);
      return k + 1;
    }
    for (std::uint32_t i = 0; i != n.kid_count; ++i)
      k = stack(types_.kid(t, i), path + step_text(types_.name(types_.kid(t, i)), i), leaves, k);
    return k;
  }

  // One array of the tensors `parts`, all of one dtype and shape: stacked (a leading dimension of
  // their count) when `stacked_shape` is given (for no part: the shape of one), else parts[0].
  void add(const std::string& path, const std::vector<const tensor_data*>& parts,
           std::optional<std::vector<std::int64_t>> stacked_shape, dtype no_part_dt = dtype::invalid) {
    const dtype dt = parts.empty() ? no_part_dt : parts[0]->dt;
    std::size_t str_size = 1;
    for (const tensor_data* p : parts) {
      check_fills_shape(*p);
      if (const auto* s = std::get_if<std::vector<std::string>>(&p->elements))
        for (const std::string& e : *s) str_size = std::max(str_size, e.size());
    }
    npy_array a;
    std::tie(a.kind, a.itemsize) = npy_kind(dt, str_size);
    if (stacked_shape) {
      a.shape.push_back(static_cast<std::int64_t>(parts.size()));
      const auto& one = parts.empty() ? *stacked_shape : parts[0]->shape;
      a.shape.insert(a.shape.end(), one.begin(), one.end());
    } else {
      a.shape = parts[0]->shape;
    }
    for (const tensor_data* p : parts) {
      visit_dtype(dt, [&](auto d) {
        constexpr dtype D = decltype(d)::value;
        const auto* e = std::get_if<stored_t<D>>(&p->elements);
        if (!e || p->dt != dt) throw execution_error("", "a result tensor's elements do not match its dtype");
        const std::size_t at = a.storage.size();
        if constexpr (D == dtype::str) {
          a.storage.resize(at + e->size() * a.itemsize, '\0');
          for (std::size_t i = 0; i != e->size(); ++i)
            std::memcpy(a.storage.data() + at + i * a.itemsize, (*e)[i].data(), (*e)[i].size());
        } else {
          a.storage.resize(at + e->size() * a.itemsize);
          if (!e->empty()) std::memcpy(a.storage.data() + at, static_cast<const void*>(e->data()), e->size() * a.itemsize);
        }
      });
    }
    a.count = a.storage.size() / a.itemsize;
    a.data = std::string_view(a.storage.data(), a.storage.size());
    out.emplace_back(path, std::move(a));
  }

  const type_desc& types_;
  std::optional<std::size_t> clients_;
};

}  // namespace detail

// The arrays of v, read as the type node `type` of `types` (see the header comment), named from
// `path` (ctff-run: `result`), in the order of the type; write_npz writes them as an .npz.
// `clients` as value_to_json's. Throws execution_error for a function or placement value, or a
// value that does not match the type.
inline std::vector<std::pair<std::string, npy_array>> value_to_arrays(const dynamic_value& v, const type_desc& types,
                                                                      std::uint32_t type,
                                                                      std::optional<std::size_t> clients = {},
                                                                      std::string path = "result") {
  detail::array_writer w(types, clients);
  w.write(detail::with_members(v), type, path);
  return std::move(w.out);
}

}  // namespace ctff
