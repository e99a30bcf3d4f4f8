// Values of a running computation (reference/execution.md §1): tensors, structs, federated values,
// sequences, functions and placements. A value is an immutable node behind a shared pointer, so
// copies share: an all_equal value broadcast to 10,000 clients is one member, and a selection
// returns the element itself, not a copy of it.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "ctff/run/clients_elsewhere.hpp"
#include "ctff/types/dtype.hpp"
#include "ctff/types/type.hpp"

namespace ctff {

// float16 and bfloat16 elements: their bit patterns (arithmetic widens to float and rounds back).
struct half_bits {
  std::uint16_t bits = 0;
  friend bool operator==(half_bits, half_bits) = default;
};
struct bfloat16_bits {
  std::uint16_t bits = 0;
  friend bool operator==(bfloat16_bits, bfloat16_bits) = default;
};

// The C++ element type that stores a dtype's elements (bool: one byte each).
template <dtype D> struct element_of;
template <> struct element_of<dtype::bool_> { using type = bool; };
template <> struct element_of<dtype::int8> { using type = std::int8_t; };
template <> struct element_of<dtype::int16> { using type = std::int16_t; };
template <> struct element_of<dtype::int32> { using type = std::int32_t; };
template <> struct element_of<dtype::int64> { using type = std::int64_t; };
template <> struct element_of<dtype::uint8> { using type = std::uint8_t; };
template <> struct element_of<dtype::uint16> { using type = std::uint16_t; };
template <> struct element_of<dtype::uint32> { using type = std::uint32_t; };
template <> struct element_of<dtype::uint64> { using type = std::uint64_t; };
template <> struct element_of<dtype::float16> { using type = half_bits; };
template <> struct element_of<dtype::bfloat16> { using type = bfloat16_bits; };
template <> struct element_of<dtype::float32> { using type = float; };
template <> struct element_of<dtype::float64> { using type = double; };
template <> struct element_of<dtype::complex64> { using type = std::complex<float>; };
template <> struct element_of<dtype::complex128> { using type = std::complex<double>; };
template <> struct element_of<dtype::str> { using type = std::string; };
template <dtype D> using element_t = typename element_of<D>::type;

// Calls f(std::integral_constant<dtype, D>{}) for the dtype d (which must be valid).
template <class F>
auto visit_dtype(dtype d, F&& f) {
  using enum dtype;
  switch (d) {
    case bool_: return f(std::integral_constant<dtype, bool_>{});
    case int8: return f(std::integral_constant<dtype, int8>{});
    case int16: return f(std::integral_constant<dtype, int16>{});
    case int32: return f(std::integral_constant<dtype, int32>{});
    case int64: return f(std::integral_constant<dtype, int64>{});
    case uint8: return f(std::integral_constant<dtype, uint8>{});
    case uint16: return f(std::integral_constant<dtype, uint16>{});
    case uint32: return f(std::integral_constant<dtype, uint32>{});
    case uint64: return f(std::integral_constant<dtype, uint64>{});
    case float16: return f(std::integral_constant<dtype, float16>{});
    case bfloat16: return f(std::integral_constant<dtype, bfloat16>{});
    case float32: return f(std::integral_constant<dtype, float32>{});
    case float64: return f(std::integral_constant<dtype, float64>{});
    case complex64: return f(std::integral_constant<dtype, complex64>{});
    case complex128: return f(std::integral_constant<dtype, complex128>{});
    case str: case invalid: break;
  }
  return f(std::integral_constant<dtype, str>{});
}

class dynamic_value;

// Elements of one dtype, row-major. One alternative per storage type; the dtype tells bool from
// uint8 apart (both one byte), so the vector of bools is a vector of unsigned char.
using tensor_elements =
    std::variant<std::vector<unsigned char>, std::vector<std::int8_t>, std::vector<std::int16_t>,
                 std::vector<std::int32_t>, std::vector<std::int64_t>, std::vector<std::uint16_t>,
                 std::vector<std::uint32_t>, std::vector<std::uint64_t>, std::vector<half_bits>,
                 std::vector<bfloat16_bits>, std::vector<float>, std::vector<double>,
                 std::vector<std::complex<float>>, std::vector<std::complex<double>>,
                 std::vector<std::string>>;

namespace detail {
template <class E> struct stored { using type = E; };
template <> struct stored<bool> { using type = unsigned char; };
template <> struct stored<std::uint8_t> { using type = unsigned char; };
}  // namespace detail
// The vector that holds a dtype's elements.
template <dtype D> using stored_t = std::vector<typename detail::stored<element_t<D>>::type>;

struct tensor_data {
  dtype dt = dtype::invalid;
  std::vector<std::int64_t> shape;  // empty: a scalar
  tensor_elements elements;

  std::size_t size() const {
    return std::visit([](const auto& v) { return v.size(); }, elements);
  }
  template <dtype D> const stored_t<D>& get() const { return std::get<stored_t<D>>(elements); }
  template <dtype D> stored_t<D>& get() { return std::get<stored_t<D>>(elements); }
};

// A struct: elements in order, each with its name ("" for none).
struct struct_data {
  std::vector<dynamic_value> elements;
  std::vector<std::string> names;  // empty, or one per element
  std::string_view name(std::size_t i) const {
    return i < names.size() ? std::string_view(names[i]) : std::string_view{};
  }
};

namespace detail {
// One step into a value, as error paths spell it: `.name`, or `[k]` where there is no name.
// (Appended piece by piece: g++ -O3 warns -Wrestrict on `"[" + std::to_string(k) + "]"`.)
inline std::string step_text(std::string_view name, std::size_t k) {
  std::string out(name.empty() ? "[" : ".");
  if (name.empty()) {
    out += std::to_string(k);
    out += ']';
  } else {
    out += name;
  }
  return out;
}
}  // namespace detail

// A federated value: SERVER and all_equal CLIENTS values have one member; others, one per client.
// A CLIENTS value that is not all_equal may hold its members another way, `members` then empty:
//   - `column`: inside a run, one tensor whose first dimension is the clients, row i client i's
//     member (run/client_column.hpp);
//   - `elsewhere`: held on workers (run/clients_elsewhere.hpp).
// Values a run returns, and what bindings are given, have members.
struct federated_data {
  placement_kind where = placement_kind::server;
  bool all_equal = true;
  std::vector<dynamic_value> members;
  std::shared_ptr<const tensor_data> column{};
  std::shared_ptr<const clients_elsewhere> elsewhere{};
};

struct sequence_data {
  std::vector<dynamic_value> elements;
};

// What a function value does when called; `arg` is null for a function without parameter.
class run_context;
class function_impl {
 public:
  virtual ~function_impl() = default;
  virtual dynamic_value call(const dynamic_value* arg, run_context& ctx) const = 0;
  // What errors name it by (a closure: its path; an intrinsic: its uri; a binding: its key).
  virtual std::string describe() const = 0;
  // An intrinsic's uri (anything else: empty), for a client_backend to pick its calls cheaply.
  virtual std::string_view intrinsic_uri() const { return {}; }
  // Whether a call works client by client (federated_map and kin: what progress reports count).
  virtual bool runs_per_client() const { return false; }
  // Whether a call does nothing but compute its result from its argument (tensor arithmetic, no
  // binding): calls with one argument may then be made once for all the clients that share it.
  virtual bool pure() const { return false; }
  // The function called with every row of `rows` (clients' tensors, the clients the first
  // dimension) in one pass, the results a CLIENTS value; nullopt: it cannot, call it per client.
  virtual std::optional<dynamic_value> call_rows(const std::shared_ptr<const tensor_data>& rows,
                                                 run_context& ctx) const;
};
struct function_data {
  std::shared_ptr<const function_impl> impl;
};

struct placement_data {
  placement_kind where = placement_kind::server;
};

enum class value_kind : std::uint8_t { tensor, struct_, federated, sequence, function, placement };

namespace detail {
bool values_equal(const dynamic_value& a, const dynamic_value& b);
}  // namespace detail

class dynamic_value {
 public:
  using node = std::variant<tensor_data, struct_data, federated_data, sequence_data,
                            function_data, placement_data>;

  dynamic_value() = default;  // null: no value (a call without argument)
  template <class V>
    requires std::is_constructible_v<node, V&&> && (!std::is_same_v<std::remove_cvref_t<V>, dynamic_value>)
  explicit dynamic_value(V&& v) : p_(std::make_shared<const node>(std::forward<V>(v))) {}

  explicit operator bool() const { return p_ != nullptr; }
  value_kind kind() const { return static_cast<value_kind>(p_->index()); }
  bool is(value_kind k) const { return p_ && kind() == k; }

  const tensor_data& tensor() const { return std::get<tensor_data>(*p_); }
  const struct_data& structure() const { return std::get<struct_data>(*p_); }
  const federated_data& federated() const { return std::get<federated_data>(*p_); }
  const sequence_data& sequence() const { return std::get<sequence_data>(*p_); }
  const function_data& function() const { return std::get<function_data>(*p_); }
  const placement_data& placement() const { return std::get<placement_data>(*p_); }

  // Whether two values are the same node (shared, not copied).
  bool shares(const dynamic_value& o) const { return p_ == o.p_; }
  // The node's address: equal exactly for values that share (while one of them lives).
  const void* identity() const { return p_.get(); }
  // Whether no other value shares the node (nor, for a CLIENTS column, the column): a cache
  // holding the only one can let it go.
  bool sole() const {
    return p_.use_count() == 1 && !(is(value_kind::federated) && federated().column.use_count() > 1);
  }

  // Element by element (NaN unequal to itself), names and placements included.
  friend bool operator==(const dynamic_value& a, const dynamic_value& b) {
    return detail::values_equal(a, b);
  }

 private:
  std::shared_ptr<const node> p_;
};

// Building values.
template <dtype D>
dynamic_value make_tensor(stored_t<D> elements, std::vector<std::int64_t> shape = {}) {
  return dynamic_value(tensor_data{D, std::move(shape), tensor_elements(std::move(elements))});
}
template <dtype D>
dynamic_value make_scalar(element_t<D> x) {
  stored_t<D> v;
  v.push_back(static_cast<typename stored_t<D>::value_type>(x));
  return make_tensor<D>(std::move(v));
}
inline dynamic_value make_struct_value(std::vector<dynamic_value> elements, std::vector<std::string> names = {}) {
  return dynamic_value(struct_data{std::move(elements), std::move(names)});
}
inline dynamic_value make_federated(placement_kind where, bool all_equal, std::vector<dynamic_value> members) {
  return dynamic_value(federated_data{where, all_equal, std::move(members)});
}
inline dynamic_value make_sequence(std::vector<dynamic_value> elements) {
  return dynamic_value(sequence_data{std::move(elements)});
}

inline std::optional<dynamic_value> function_impl::call_rows(const std::shared_ptr<const tensor_data>&,
                                                             run_context&) const {
  return std::nullopt;
}

namespace detail {
// The clients of a column (its first dimension).
inline std::size_t column_rows(const tensor_data& c) {
  return c.shape.empty() ? 0 : static_cast<std::size_t>(c.shape.front());
}
// Row i of a column: client i's member, a tensor of its own.
inline dynamic_value column_row(const tensor_data& c, std::size_t i) {
  const std::vector<std::int64_t> shape(c.shape.begin() + 1, c.shape.end());
  const std::size_t rows = column_rows(c), per = rows == 0 ? 0 : c.size() / rows;
  return std::visit(
      [&](const auto& e) {
        using V = std::remove_cvref_t<decltype(e)>;
        return dynamic_value(tensor_data{c.dt, shape,
                                         tensor_elements(V(e.begin() + static_cast<std::ptrdiff_t>(i * per),
                                                           e.begin() + static_cast<std::ptrdiff_t>((i + 1) * per)))});
      },
      c.elements);
}
// The members of f, however held (fetched from where they are, rows of its column).
inline std::vector<dynamic_value> listed_members(const federated_data& f) {
  if (f.elsewhere) return f.elsewhere->fetch();
  if (!f.column) return f.members;
  std::vector<dynamic_value> m;
  for (std::size_t i = 0, n = column_rows(*f.column); i != n; ++i) m.push_back(column_row(*f.column, i));
  return m;
}
// Client i's member of a non-all_equal CLIENTS value held here, whichever way.
inline dynamic_value client_member(const federated_data& f, std::size_t i) {
  if (f.column) return column_row(*f.column, i);
  return f.all_equal ? f.members.front() : f.members[i];
}

inline bool values_equal(const dynamic_value& a, const dynamic_value& b) {
  if (!a || !b) return !a && !b;
  if (a.shares(b)) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case value_kind::tensor: {
      const auto& x = a.tensor();
      const auto& y = b.tensor();
      return x.dt == y.dt && x.shape == y.shape && x.elements == y.elements;
    }
    case value_kind::struct_: {
      const auto& x = a.structure();
      const auto& y = b.structure();
      if (x.elements.size() != y.elements.size()) return false;
      for (std::size_t i = 0; i != x.elements.size(); ++i)
        if (x.name(i) != y.name(i) || !(x.elements[i] == y.elements[i])) return false;
      return true;
    }
    case value_kind::federated: {
      const auto& x = a.federated();
      const auto& y = b.federated();
      if (x.where != y.where || x.all_equal != y.all_equal) return false;
      if (!x.column && !y.column && !x.elsewhere && !y.elsewhere) return x.members == y.members;
      return listed_members(x) == listed_members(y);  // (as the members they stand for)
    }
    case value_kind::sequence: return a.sequence().elements == b.sequence().elements;
    case value_kind::function: return a.function().impl == b.function().impl;
    case value_kind::placement: return a.placement().where == b.placement().where;
  }
  return false;
}

// Whether v is, or a struct in v holds, a CLIENTS value whose members are elsewhere.
inline bool holds_elsewhere(const dynamic_value& v) {
  if (v.is(value_kind::federated)) return v.federated().elsewhere != nullptr;
  if (!v.is(value_kind::struct_)) return false;
  for (const dynamic_value& e : v.structure().elements)
    if (holds_elsewhere(e)) return true;
  return false;
}
// v with every such value's members fetched (in client order); the rest shared, not copied.
inline dynamic_value fetched(const dynamic_value& v) {
  if (v.is(value_kind::federated)) {
    const federated_data& f = v.federated();
    return f.elsewhere ? make_federated(f.where, false, f.elsewhere->fetch()) : v;
  }
  if (!v.is(value_kind::struct_) || !holds_elsewhere(v)) return v;
  std::vector<dynamic_value> e;
  for (const dynamic_value& x : v.structure().elements) e.push_back(fetched(x));
  return make_struct_value(std::move(e), v.structure().names);
}

}  // namespace detail

}  // namespace ctff
