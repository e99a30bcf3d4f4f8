// Compile-time benchmark baseline (tools/compile_realistic.sh): ctff included, nothing traced.
#include <ctff/ctff.hpp>
