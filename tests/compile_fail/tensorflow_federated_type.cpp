// tensorflow_computation over a federated type (TensorFlow computes on local values only).
// expect: ctff: tensorflow_computation: parameter and result may hold only tensors, structs and sequences
#include <ctff/ctff.hpp>

using F = ctff::function<ctff::at_clients<float>, float>;
constexpr auto t = ctff::tensorflow_computation<F>("", ctff::tf_tensor("x:0"),  // expect-line
                                                   ctff::tf_tensor("y:0"));
