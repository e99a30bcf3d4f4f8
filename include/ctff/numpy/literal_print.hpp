// Literals as text: numpy 1.24's str() of the value. Scalars as numpy's scalar str (`10`, `2.5`,
// `True`, `b'hi'`, `(1+2j)`); arrays as array2string with numpy's defaults: precision 8,
// floatmode 'maxprec', linewidth 75, threshold 1000, edgeitems 3, separator ' '. Also the
// structural drawing's label of a literal, which differs for float and complex scalars.
#pragma once

#include <cstdint>

#include "ctff/core/enum_is.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/numpy/array_print.hpp"
#include "ctff/numpy/float_format.hpp"
#include "ctff/numpy/literal.hpp"
#include "ctff/numpy/python_repr.hpp"
#include "ctff/numpy/scalar_print.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff::detail {

// numpy's str() of a literal. A line break inside a literal is kept as is, even in the compact
// form (Python prints the same).
template <class D = void>
constexpr void print_literal(const literal_ref& l, text_sink& s) {
  if (l.rank == 0) {
    print_scalar<D>(l, s);
    return;
  }
  array_printer<D>(l, s).print();
}

// A literal's label in the structural drawing, `Lit(<value>)`: federated_language writes it with
// an f-string, and numpy's __format__ turns a float or complex scalar into Python's float or
// complex first (float16 and float32 widened to a double), so those print as Python's repr
// (`0.10000000149011612`, `1.0`, `(1+2j)`). Every other value (arrays included) as its str(). (A
// bfloat16 scalar is no numpy floating type, and ml_dtypes before 0.6, which federated_language
// 0.5.3 requires, gives it no __format__: numpy's falls back to its str(), ml_dtypes' text.)
template <class D = void>
constexpr void put_literal_label(const literal_ref& l, text_sink& s) {
  s.put("Lit(");
  if (l.rank != 0) {
    print_literal<D>(l, s);
  } else if (is(l.dt, dtype::float16, dtype::float32, dtype::float64)) {
    small_text t;
    put_python_float<D>(t, float_parts_of(l.dt, l.vals[0]), true, false);
    s.put(t.view());
  } else if (is(l.dt, dtype::complex64, dtype::complex128)) {
    const std::uint64_t* v = l.vals;
    small_text t;
    put_python_complex<D>(t, float_parts_of(l.dt, v[0]), float_parts_of(l.dt, v[1]));
    s.put(t.view());
  } else {
    print_scalar<D>(l, s);
  }
  s.put(')');
}

}  // namespace ctff::detail
