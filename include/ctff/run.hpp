// Running computations without Python or TensorFlow: ctff::executor runs any Computation (read
// with ctff::read_computation, or traced by ctff), with N clients on T threads; values print as
// TFF's Python prints them (ctff::to_string, <<, std::format). No protobuf.
#pragma once

#include "ctff/run/binding_key.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/signature.hpp"
#include "ctff/run/tap.hpp"
#include "ctff/run/tap_summary.hpp"
#include "ctff/run/value.hpp"
#include "ctff/run/value_print.hpp"
