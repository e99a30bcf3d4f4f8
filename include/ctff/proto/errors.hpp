// Errors raised when reading federated_language messages back into ctff data.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace ctff {

// A `federated_language.Type` (message or bytes) that is not a valid TFF type, or that ctff cannot
// represent. `path()` locates the offending node from the top of the message, e.g.
// `function.parameter.struct[1](b).federated.member` (empty for the top-level Type itself);
// `problem()` says what is wrong there. `what()` holds both.
class type_error : public std::runtime_error {
 public:
  type_error(std::string path, std::string problem)
      : std::runtime_error(format(path, problem)),
        path_(std::move(path)),
        problem_(std::move(problem)) {}

  const std::string& path() const noexcept { return path_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  static std::string format(const std::string& path, const std::string& problem) {
    std::string m = "ctff: invalid federated_language.Type at ";
    m += path.empty() ? std::string("(top level)") : path;
    m += ": ";
    m += problem;
    return m;
  }

  std::string path_;
  std::string problem_;
};

}  // namespace ctff
