// Opaque local computations with a declared type, usable wherever a function value (or, for Data,
// a value) is: federated_map / apply / aggregate arguments, calls inside a trace, struct elements.
//
//   ctff::tensorflow_computation<F>(graph_def, [parameter,] result [, ctff::tf_options{...}])
//       Computation.tensorflow: graph_def packed as google.protobuf.Any
//       (type.googleapis.com/tensorflow.GraphDef), TensorFlow.Binding for parameter and result
//       (ctff::tf_tensor, ctff::tf_struct, ctff::tf_sequence, ctff::tf_sequence_graph_def),
//       initialize_op, cache_key, session_token_tensor_name.
//   ctff::xla_computation<F>(hlo_module, [parameter,] result)
//       Computation.xla: hlo_module as Any (type.googleapis.com/xla.HloModuleProto), Xla.Binding
//       (ctff::xla_index, ctff::xla_struct).
//   ctff::data<T>(type_url, value)
//       Computation.data: Data.content = Any{type_url, value}, of declared type T.
//
// The parameter binding is given exactly when F has a parameter; bindings must mirror the
// structure of the types they bind (checked on construction). TensorFlow types hold tensors,
// structs and sequences only; XLA types tensors and structs only.
//
// Storage. Given views (string literals, std::string_view, ctff::byte_view, `unsigned char`
// arrays), the object only refers to them: it is a literal type, so `constexpr` objects made from
// literals are usable in compile-time traces. Given a std::string or std::vector<unsigned char>
// as the graph_def / hlo_module / value, the object owns a copy of every string it uses (binding
// names and options included), for run-time construction.
//
// Printing: TensorFlow and XLA print as Python prints a CompiledComputation, `comp#<adler32 of the
// serialized Computation, lowercase hex, no zero padding>`. Python prints Data as the id() of its
// content object, which is not reproducible; ctff prints the decimal adler32 of the serialized
// Computation instead (docs/opaque_computations.md).
#pragma once

#include "ctff/trace/opaque/make.hpp"
