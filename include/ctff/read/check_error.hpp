// What checking a computation tree reports (read/checker.hpp): one violated rule, `check_error`,
// and the exception listing them all, `check_failure`.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ctff {

// One violated rule: where (path from the root; empty for the root) and what.
struct check_error {
  std::string path;
  std::string problem;
  std::string message() const {
    return (path.empty() ? std::string("(top level)") : path) + ": " + problem;
  }
};

// Thrown by check_or_throw: every error, one per line, in what().
class check_failure : public std::runtime_error {
 public:
  explicit check_failure(std::vector<check_error> errors)
      : std::runtime_error(format(errors)), errors_(std::move(errors)) {}
  const std::vector<check_error>& errors() const noexcept { return errors_; }

 private:
  static std::string format(const std::vector<check_error>& errors) {
    std::string m = "ctff: the Computation is not valid:";
    for (const auto& e : errors) {
      m += "\n  ";
      m += e.message();
    }
    return m;
  }
  std::vector<check_error> errors_;
};

}  // namespace ctff
