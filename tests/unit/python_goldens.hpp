// Python's outputs for the unit tests' programs. tests/goldens/python/TEST.py holds the Python
// twins of the programs in tests/unit/TEST_test.cpp; federated_language 0.5.3 traced them and its
// outputs are the files tests/goldens/python/TEST/CASE.{binpb,type.txt,compact.txt,formatted.txt,
// structural.txt} (how: tests/goldens/README.md). Nothing here is written by ctff.
// A test that includes this header includes "parse_back.hpp" too, so that tests/CMakeLists.txt
// leaves it out of a build without protobuf.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "parse_back.hpp"

namespace ctff_test {

inline std::string python_golden(std::string_view test, std::string_view name, std::string_view ext) {
  std::string path(CTFF_GOLDENS_DIR);
  path.append("/python/").append(test).append("/").append(name).append(".").append(ext);
  std::ifstream f(path, std::ios::binary);
  INFO("golden file " << path);
  REQUIRE(f.good());
  std::string s{std::istreambuf_iterator<char>(f), {}};
  if (ext != "binpb")
    while (!s.empty() && s.back() == '\n') s.pop_back();  // Python's print adds one
  return s;
}

// c's bytes, type string, compact, formatted and structural forms equal Python's for the twin of
// the program (the bytes are parsed back too).
template <class C>
void check_python(std::string_view test, std::string_view name, const C& c) {
  INFO("python golden " << test << "/" << name);
  const std::string bytes = byte_string(c.bytes());
  require_parses_string(bytes);
  const std::string expected = python_golden(test, name, "binpb");
  INFO("ctff bytes:   " << hex(bytes) << "\npython bytes: " << hex(expected));
  CHECK(bytes == expected);
  CHECK(std::string(c.type_string()) == python_golden(test, name, "type.txt"));
  CHECK(std::string(c.compact()) == python_golden(test, name, "compact.txt"));
  CHECK(std::string(c.formatted()) == python_golden(test, name, "formatted.txt"));
  CHECK(std::string(c.structural()) == python_golden(test, name, "structural.txt"));
}

}  // namespace ctff_test
