// A TensorFlow computation whose parameter binding is a tensor binding, where its parameter type
// is a struct of two tensors: one error naming both shapes at the user's line.
// expect: ctff: opaque computation: the binding does not have the shape of the type it binds
// expect: <reading=float32,threshold=float32>
// expect: binding: tf_tensor
#include <ctff/ctff.hpp>

using ctff::field;
using F = ctff::function<ctff::struct_<field<"reading", float>, field<"threshold", float>>, float>;
constexpr auto t = ctff::tensorflow_computation<F>("", ctff::tf_tensor("reading:0"),  // expect-line
                                                   ctff::tf_tensor("result:0"));
static_assert(!t.compact().empty());
