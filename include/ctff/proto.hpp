// ctff::to_proto: computations and types as federated_language protobuf messages (links
// ctff::proto). ctff/ctff.hpp stays free of protobuf.
#pragma once

#include "ctff/ctff.hpp"
#include "ctff/proto/computation_message.hpp"
