// ctff: trace C++ functions into TensorFlow Federated computations at compile time.
// Everything but protobuf; ctff/proto.hpp adds ctff::to_proto.
#pragma once

// First, so that a failed check in selections and calls shows a short include chain.
#include "ctff/trace/call.hpp"

#include "ctff/intrinsics/federated.hpp"
#include "ctff/intrinsics/generic.hpp"
#include "ctff/reflect/reflect.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/computation.hpp"
#include "ctff/trace/opaque.hpp"
#include "ctff/trace/polymorphic.hpp"
#include "ctff/trace/struct_ops.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/type_string.hpp"
