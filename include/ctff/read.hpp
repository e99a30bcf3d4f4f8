// Reading any federated_language.Computation: wire bytes -> ctff::computation_tree, printed,
// written back and checked (no protobuf needed). ctff/proto.hpp adds reading the protobuf message
// and ctff::from_proto.
#pragma once

#include "ctff/read/checker.hpp"
#include "ctff/read/error.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/read/structural.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/writer.hpp"
