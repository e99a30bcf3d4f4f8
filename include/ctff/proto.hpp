// ctff::to_proto: computations and types as federated_language protobuf messages, Type messages
// read back into type descriptions, and ctff::from_proto: a Computation made elsewhere (bytes or
// message) used inside traces (links ctff::proto). ctff/ctff.hpp stays free of protobuf.
#pragma once

#include "ctff/ctff.hpp"
#include "ctff/proto/computation_message.hpp"
#include "ctff/proto/errors.hpp"
#include "ctff/proto/import.hpp"
#include "ctff/proto/type_message.hpp"
#include "ctff/proto/type_reader.hpp"
