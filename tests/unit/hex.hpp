// Bytes written as hex in tests: the digits' pairs, anything else (spaces) skipped.
#pragma once

#include <string>
#include <string_view>

namespace ctff_test {

inline std::string unhex(std::string_view h) {
  std::string out;
  int hi = -1;
  for (char c : h) {
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (v < 0) continue;
    if (hi < 0) {
      hi = v;
    } else {
      out += static_cast<char>(hi * 16 + v);
      hi = -1;
    }
  }
  return out;
}

}  // namespace ctff_test
