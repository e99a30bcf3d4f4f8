// The Catch2 runner for ctff_tests; every other tests/unit/*.cpp adds test cases to it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
