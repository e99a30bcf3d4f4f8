// The error of type E that f throws; fails the test when f throws none.
#pragma once

#include <catch2/catch.hpp>

template <class E, class F>
E error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  }
  FAIL("the expected error was not thrown");
  return E("", "");
}
