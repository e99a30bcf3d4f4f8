// Reading any federated_language.Computation: wire bytes -> ctff::computation_tree, printed,
// written back and checked (no protobuf needed). ctff::from_proto, a computation read from bytes
// and used inside traces, is ctff/import/from_proto.hpp (no protobuf; it includes the tracer), and
// ctff/proto.hpp with the protobuf message overload.
#pragma once

#include "ctff/read/block_paths.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/read/error.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/read/structural.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/writer.hpp"
