// ctff: trace C++ functions into TensorFlow Federated computations at compile time.
#pragma once

#include "ctff/reflect/scalar.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/type_string.hpp"
