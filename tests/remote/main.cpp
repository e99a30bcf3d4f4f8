// The Catch2 runner for ctff_remote_tests (the worker and the Value messages; links gRPC).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
