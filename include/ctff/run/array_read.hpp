// Values from numpy arrays named by their paths, interpreted by their TFF type (docs/running.md,
// "Values as numpy arrays"): ctff-run's .npz / .npy argument. Each tensor of the value is the
// array named by its path (`arg.model.bias`, `arg[0]`: the names of argument errors); the members
// of a `{T}@CLIENTS` value whose T is tensors (in structs) are one array per tensor with a leading
// client dimension (`arg.x` of shape [N, 32, 4]), else one value per client (`arg[3].x`); a
// sequence's elements are `arg[0]`, `arg[1]`, ...; T@SERVER and all_equal values are their member.
// Every mismatch (a missing or extra array, a dtype, a shape, a client count) is an argument_error
// naming the path; the tensors made are charged to run_limits::max_value_bytes before allocation.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/numpy/npy.hpp"
#include "ctff/numpy/npz.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"
#include "ctff/types/print.hpp"

namespace ctff {
namespace detail {

// An array's dtype and shape as messages show them: `'<f8' (float64) of shape (3, 4)`.
inline std::string npy_what(const npy_array& a) {
  std::string s = "'" + npy_descr(a.kind, a.itemsize) + "'";
  if (const dtype d = npy_dtype(a.kind, a.itemsize); d != dtype::invalid) s += " (" + std::string(dtype_name(d)) + ")";
  s += " of shape (";
  for (std::size_t k = 0; k != a.shape.size(); ++k) s += (k ? ", " : "") + std::to_string(a.shape[k]);
  return s + (a.shape.size() == 1 ? ",)" : ")");
}

// Whether a type is tensors in structs only: its `{T}@CLIENTS` values stack into arrays.
inline bool stackable(const type_desc& types, std::uint32_t t) {
  const type_node& n = types.node(t);
  if (n.kind == type_kind::tensor) return n.dt != dtype::invalid;
  if (n.kind != type_kind::struct_) return false;
  for (std::uint32_t i = 0; i != n.kid_count; ++i)
    if (!stackable(types, types.kid(t, i))) return false;
  return true;
}

// The path of the first tensor in a stackable type (none: structs without tensors).
inline std::optional<std::string> first_tensor(const type_desc& types, std::uint32_t t, const std::string& path) {
  const type_node& n = types.node(t);
  if (n.kind == type_kind::tensor) return path;
  for (std::uint32_t i = 0; i != n.kid_count; ++i)
    if (auto p = first_tensor(types, types.kid(t, i), path + step_text(types.name(types.kid(t, i)), i))) return p;
  return std::nullopt;
}

class array_reader {
 public:
  array_reader(const npz_arrays& arrays, const type_desc& types, std::optional<std::size_t>& clients,
               const run_limits& limits)
      : arrays_(arrays), types_(types), clients_(clients), limits_(limits), left_(limits.max_value_bytes) {}

  dynamic_value read(std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    switch (n.kind) {
      case type_kind::tensor: {
        const npy_array& a = find(t, path);
        check(a, t, path, 0);
        return tensor_from(a, t, 0, a.count, {a.shape.begin(), a.shape.end()}, path);
      }
      case type_kind::struct_: {
        std::vector<dynamic_value> elements;
        for (std::uint32_t i = 0; i != n.kid_count; ++i) {
          const std::uint32_t k = types_.kid(t, i);
          elements.push_back(read(k, path + step_text(types_.name(k), i)));
        }
        return make_struct_value(std::move(elements), struct_names({&types_, t}));
      }
      case type_kind::sequence: {
        std::vector<dynamic_value> elements;
        const std::size_t count = indexed_count(path);
        charge(count * 64, path);  // (elements without tensors cost memory too)
        for (std::size_t i = 0; i != count; ++i) elements.push_back(read(types_.kid(t, 0), path + step_text({}, i)));
        return make_sequence(std::move(elements));
      }
      case type_kind::federated: return federated(t, path);
      case type_kind::function: fail(path, "a function (" + message_type_text(types_, t) + ") cannot be given as arrays");
      case type_kind::placement: fail(path, "a placement cannot be given as arrays");
      case type_kind::abstract:
        fail(path, "a value of the abstract type " + message_type_text(types_, t) + " cannot be given as arrays");
    }
    fail(path, "unknown type");
  }

  // Every array must have been read: the first one left over is an error.
  void check_all_read(std::uint32_t t) const {
    for (const auto& [name, a] : arrays_)
      if (!read_.count(&a))
        fail(name, "an array that the type " + message_type_text(types_, t) + " has no place for (" + npy_what(a) + ")");
  }

 private:
  [[noreturn]] static void fail(const std::string& path, std::string problem) {
    throw argument_error(path, std::move(problem));
  }

  const npy_array& find(std::uint32_t t, const std::string& path) {
    const auto it = arrays_.find(path);
    if (it == arrays_.end()) fail(path, "no array of this name (the type is " + message_type_text(types_, t) + ")");
    read_.insert(&it->second);
    return it->second;
  }

  // Whether an array is named `path` or lies inside it (`path.x`, `path[0]`): the names sort
  // right after `path` itself.
  bool has_prefix(const std::string& path) const {
    const auto it = arrays_.lower_bound(path);
    return it != arrays_.end() && std::string_view(it->first).substr(0, path.size()) == path &&
           (it->first.size() == path.size() || it->first[path.size()] == '.' || it->first[path.size()] == '[');
  }

  // One more than the largest index i of the arrays named `path[i]...`: the elements of a sequence
  // or the values of the clients, one per index (an element without arrays of its own, like an
  // empty sequence, is counted by the ones after it).
  std::size_t indexed_count(const std::string& path) const {
    const std::string head = path + "[";
    std::size_t count = 0;
    for (auto it = arrays_.lower_bound(head); it != arrays_.end() && it->first.compare(0, head.size(), head) == 0; ++it) {
      std::size_t i = 0, k = head.size();
      while (k < it->first.size() && it->first[k] >= '0' && it->first[k] <= '9' && i < (std::size_t{1} << 40))
        i = i * 10 + static_cast<std::size_t>(it->first[k++] - '0');
      if (k > head.size() && k < it->first.size() && it->first[k] == ']') count = std::max(count, i + 1);
    }
    return count;
  }

  // The array fits the tensor type t behind `lead` leading (client) dimensions.
  void check(const npy_array& a, std::uint32_t t, const std::string& path, std::size_t lead) const {
    const type_node& n = types_.node(t);
    const dtype got = npy_dtype(a.kind, a.itemsize);
    if (n.dt == dtype::invalid) fail(path, "a tensor of invalid dtype cannot be given");
    bool ok = got == n.dt && a.shape.size() >= lead && (n.unknown_rank || a.shape.size() - lead == n.dim_count);
    for (std::uint32_t k = 0; ok && !n.unknown_rank && k != n.dim_count; ++k) {
      const std::int64_t want = types_.dims[n.dim_begin + k];
      ok = want < 0 || want == a.shape[lead + k];
    }
    if (!ok)
      fail(path, "an array of " + npy_what(a) + " where the type is " + (lead ? "{" : "") + message_type_text(types_, t) +
                     (lead ? "}@CLIENTS, stacked: the clients first" : ""));
  }

  void charge(std::uint64_t bytes, const std::string& path) {
    if (bytes > left_)
      fail(path, "the arrays make more than run_limits::max_value_bytes (" + std::to_string(limits_.max_value_bytes) +
                     ") bytes of tensors");
    left_ -= bytes;
  }

  // A tensor of the elements [from, from + n) of an array.
  dynamic_value tensor_from(const npy_array& a, std::uint32_t t, std::size_t from, std::size_t n,
                            std::vector<std::int64_t> shape, const std::string& path) {
    return visit_dtype(types_.node(t).dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      using S = typename stored_t<D>::value_type;
      charge(n * (sizeof(S) + (D == dtype::str ? a.itemsize : 0)) + 64, path);
      stored_t<D> out;
      const char* p = a.data.data() + from * a.itemsize;
      if constexpr (D == dtype::str) {
        out.reserve(n);
        for (std::size_t i = 0; i != n; ++i, p += a.itemsize) out.push_back(string_at(a, p, path));
      } else if constexpr (D == dtype::bool_) {
        out.resize(n);
        for (std::size_t i = 0; i != n; ++i) out[i] = p[i] != 0;  // numpy's bools are 0 or 1: any other byte is true
      } else {
        static_assert(sizeof(S) == sizeof(element_t<D>));
        out.resize(n);
        if (n) std::memcpy(static_cast<void*>(out.data()), p, n * sizeof(S));
      }
      return make_tensor<D>(std::move(out), std::move(shape));
    });
  }

  // An 'S' element (bytes) or a 'U' element (UTF-32, written as UTF-8), its trailing NULs dropped
  // as numpy drops them.
  static std::string string_at(const npy_array& a, const char* p, const std::string& path) {
    if (a.kind == 'S') {
      std::size_t len = a.itemsize;
      while (len && p[len - 1] == '\0') --len;
      return std::string(p, len);
    }
    std::size_t len = a.itemsize / 4;
    const auto unit = [&](std::size_t i) {
      std::uint32_t c;
      std::memcpy(&c, p + 4 * i, 4);
      return c;
    };
    while (len && unit(len - 1) == 0) --len;
    std::string s;
    for (std::size_t i = 0; i != len; ++i) {
      const std::uint32_t c = unit(i);
      if (c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
        fail(path, "a 'U' string holding " + std::to_string(c) + ", which is no Unicode code point");
      if (c < 0x80) {
        s += static_cast<char>(c);
      } else if (c < 0x800) {
        s += static_cast<char>(0xc0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3f));
      } else if (c < 0x10000) {
        s += static_cast<char>(0xe0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        s += static_cast<char>(0x80 | (c & 0x3f));
      } else {
        s += static_cast<char>(0xf0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        s += static_cast<char>(0x80 | (c & 0x3f));
      }
    }
    return s;
  }

  dynamic_value federated(std::uint32_t t, const std::string& path) {
    const type_node& n = types_.node(t);
    const std::uint32_t member = types_.kid(t, 0);
    if (n.all_equal || n.where == placement_kind::server) return make_federated(n.where, true, {read(member, path)});
    std::vector<dynamic_value> members;
    if (stackable(types_, member)) {
      const std::optional<std::string> first = first_tensor(types_, member, path);
      if (!first || arrays_.count(*first)) {
        std::size_t count = clients_.value_or(0);
        if (first) {
          const npy_array& a = arrays_.find(*first)->second;
          if (a.shape.empty())
            fail(*first, "a 0-d array where the clients' values need a leading client dimension (the type is " +
                             message_type_text(types_, t) + ")");
          count = static_cast<std::size_t>(a.shape[0]);
        }
        set_clients(count, first ? *first : path, "an array of " + std::to_string(count) + " client values (its first dimension)");
        const type_node& m = types_.node(member);
        if (m.kind == type_kind::tensor && count != 0 && m.dt != dtype::str) {
          // One array of tensors, the clients first: the array as it is, one column
          // (run/client_column.hpp), instead of a tensor per client.
          const npy_array& a = find(member, path);
          check(a, member, path, 1);
          return make_column_value(tensor_from(a, member, 0, a.count, a.shape, path).tensor());
        }
        members = stacked(member, path, count);
        return make_federated(placement_kind::clients, false, std::move(members));
      }
      if (!has_prefix(path + step_text({}, 0)) && clients_.value_or(1) != 0)
        fail(*first, "no array of this name (the clients' values of " + message_type_text(types_, t) +
                         ", stacked: the clients first)");
    }
    // One value per client: path[0], path[1], ...
    const std::size_t count = clients_ ? *clients_ : indexed_count(path);
    set_clients(count, path, "");
    charge(count * 64, path);
    members.reserve(count);
    for (std::size_t i = 0; i != count; ++i) members.push_back(read(member, path + step_text({}, i)));
    return make_federated(placement_kind::clients, false, std::move(members));
  }

  void set_clients(std::size_t count, const std::string& path, const std::string& what) {
    if (count > limits_.max_clients)
      fail(path, what + ": more clients than run_limits::max_clients (" + std::to_string(limits_.max_clients) + ")");
    if (!clients_) clients_ = count;
    else if (*clients_ != count)
      fail(path, what + ", but the number of clients is " + std::to_string(*clients_));
  }

  // The `count` members of a stacked `{T}@CLIENTS` value: one array per tensor of T, clients first.
  std::vector<dynamic_value> stacked(std::uint32_t t, const std::string& path, std::size_t count) {
    const type_node& n = types_.node(t);
    std::vector<dynamic_value> out;
    out.reserve(count);
    if (n.kind == type_kind::tensor) {
      const npy_array& a = find(t, path);
      check(a, t, path, 1);
      if (static_cast<std::size_t>(a.shape[0]) != count)
        fail(path, "an array of " + std::to_string(a.shape[0]) + " client values (its first dimension), but the number of clients is " +
                       std::to_string(count));
      const std::size_t per = count ? a.count / count : 0;
      for (std::size_t i = 0; i != count; ++i)
        out.push_back(tensor_from(a, t, i * per, per, {a.shape.begin() + 1, a.shape.end()}, path));
      return out;
    }
    std::vector<std::vector<dynamic_value>> kids;
    for (std::uint32_t i = 0; i != n.kid_count; ++i) {
      const std::uint32_t k = types_.kid(t, i);
      kids.push_back(stacked(k, path + step_text(types_.name(k), i), count));
    }
    const std::vector<std::string> names = struct_names({&types_, t});
    for (std::size_t c = 0; c != count; ++c) {
      charge(64, path);  // (a member without tensors: <>@CLIENTS)
      std::vector<dynamic_value> elements;
      elements.reserve(kids.size());
      for (auto& k : kids) elements.push_back(std::move(k[c]));
      out.push_back(make_struct_value(std::move(elements), names));
    }
    return out;
  }

  const npz_arrays& arrays_;
  const type_desc& types_;
  std::optional<std::size_t>& clients_;
  const run_limits& limits_;
  std::uint64_t left_;
  std::set<const npy_array*> read_;
};

}  // namespace detail

// Reads the arrays (read_npz; a lone .npy: one array named `path`) as a value of the type node
// `type` of `types` (see the header comment). `clients` as value_from_json's: set by the first
// `{T}@CLIENTS` value when unset, else each must agree with it. Every array must find its place.
// Throws argument_error naming the path in the value.
inline dynamic_value value_from_arrays(const npz_arrays& arrays, const type_desc& types, std::uint32_t type,
                                       std::optional<std::size_t>& clients, std::string path = "arg",
                                       const run_limits& limits = {}) {
  detail::array_reader r(arrays, types, clients, limits);
  dynamic_value v = r.read(type, path);
  r.check_all_read(type);
  return v;
}

}  // namespace ctff
