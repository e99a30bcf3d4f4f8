// Pointwise arithmetic over structures, for the intrinsics: two values combined leaf by leaf, and a
// fold's accumulator that updates the tensors of a value in place, client after client.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "ctff/run/arith.hpp"
#include "ctff/run/fault.hpp"
#include "ctff/run/intrinsic_operands.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/value.hpp"

namespace ctff::detail {

// Combines two values leaf by leaf: structs element by element, federated values member by
// member (all_equal with all_equal stays one member), tensors with `leaf(a, b, result type)`.
template <class Leaf>
dynamic_value pointwise(const dynamic_value& a, const dynamic_value& b, typed result, std::size_t n, const Leaf& leaf) {
  if (a.kind() != b.kind()) throw run_fault("operands of different kinds");
  switch (a.kind()) {
    case value_kind::tensor: return dynamic_value(leaf(a.tensor(), b.tensor(), result));
    case value_kind::struct_: {
      const auto& x = a.structure();
      const auto& y = b.structure();
      if (x.elements.size() != y.elements.size()) throw run_fault("structs of different lengths");
      const bool typed_struct = result.node().kind == type_kind::struct_ &&
                                result.kids() == x.elements.size();
      std::vector<dynamic_value> e;
      for (std::size_t k = 0; k != x.elements.size(); ++k)
        e.push_back(pointwise(x.elements[k], y.elements[k],
                              typed_struct ? result.kid(static_cast<std::uint32_t>(k)) : result, n,
                              leaf));
      return make_struct_value(std::move(e), x.names);
    }
    case value_kind::federated: {
      const auto& x = a.federated();
      const auto& y = b.federated();
      if (x.where != y.where) throw run_fault("federated operands of different placements");
      const typed m = result.node().kind == type_kind::federated ? result.member() : result;
      if ((x.all_equal && y.all_equal) || x.where == placement_kind::server)
        return make_federated(x.where, true,
                                    {pointwise(member(x, 0), member(y, 0), m, n, leaf)});
      std::vector<dynamic_value> out(n);
      for (std::size_t i = 0; i != n; ++i) out[i] = pointwise(member(x, i), member(y, i), m, n, leaf);
      return make_federated(x.where, false, std::move(out));
    }
    default: throw run_fault("arithmetic on a value that is not a tensor, struct or federated value");
  }
}

// A fold's accumulator: the tensors of a (struct) value, updated in place client after client,
// and the value rebuilt around them at the end.
class leaf_accumulator {
 public:
  explicit leaf_accumulator(dynamic_value start) : shape_(std::move(start)) { collect(shape_); }
  // f(accumulated leaf, x's leaf) for every leaf, in order.
  template <class F>
  void update(const dynamic_value& x, const F& f) {
    std::size_t k = 0;
    walk(shape_, x, k, f);
  }
  // The one leaf of a start that is a tensor (not a struct), or null.
  tensor_data* leaf() { return shape_.is(value_kind::struct_) ? nullptr : &leaves_.front(); }
  dynamic_value result() {
    std::size_t k = 0;
    return rebuild(shape_, k);
  }

 private:
  void collect(const dynamic_value& v) {
    if (v.is(value_kind::struct_)) {
      for (const dynamic_value& e : v.structure().elements) collect(e);
    } else {
      leaves_.push_back(tensor_of(v, "an aggregation"));
    }
  }
  template <class F>
  void walk(const dynamic_value& s, const dynamic_value& x, std::size_t& k, const F& f) {
    if (s.is(value_kind::struct_)) {
      const auto& se = s.structure().elements;
      if (!x.is(value_kind::struct_) || x.structure().elements.size() != se.size())
        throw run_fault("an aggregation of members of different structures");
      for (std::size_t i = 0; i != se.size(); ++i) walk(se[i], x.structure().elements[i], k, f);
    } else {
      f(leaves_[k++], tensor_of(x, "an aggregation"));
    }
  }
  dynamic_value rebuild(const dynamic_value& s, std::size_t& k) {
    if (!s.is(value_kind::struct_)) return dynamic_value(std::move(leaves_[k++]));
    std::vector<dynamic_value> e;
    for (const dynamic_value& x : s.structure().elements) e.push_back(rebuild(x, k));
    return make_struct_value(std::move(e), s.structure().names);
  }

  dynamic_value shape_;
  std::vector<tensor_data> leaves_;
};

inline void add_leaf(tensor_data& acc, const tensor_data& x) { tensor_op_into(binary_op::plus, acc, x); }

}  // namespace ctff::detail
