// Running computations without Python or TensorFlow: ctff::executor runs any Computation (read
// with ctff::read_computation, or traced by ctff), with N clients on T threads. No protobuf.
#pragma once

#include "ctff/run/error.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/value.hpp"
