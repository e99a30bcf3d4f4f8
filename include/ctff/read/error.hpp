// Errors of reading serialized federated_language.Computation bytes (ctff/read/reader.hpp).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace ctff {

// Bytes that are not a Computation ctff can represent: malformed wire data (truncated, wrong wire
// type, a length past the end), a limit exceeded (ctff::read_limits), an unknown enum value or
// field. `path()` locates the message from the root, e.g. `lambda.result.block.local[2](x).call`
// (empty: the top-level message); `offset()` is the byte offset in the input where reading
// stopped; `problem()` says what is wrong. what() holds all three.
class read_error : public std::runtime_error {
 public:
  read_error(std::string path, std::size_t offset, std::string problem)
      : std::runtime_error(format(path, offset, problem)),
        path_(std::move(path)),
        offset_(offset),
        problem_(std::move(problem)) {}

  const std::string& path() const noexcept { return path_; }
  std::size_t offset() const noexcept { return offset_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  static std::string format(const std::string& path, std::size_t offset,
                            const std::string& problem) {
    return "ctff: cannot read the Computation at " + (path.empty() ? std::string("(top level)") : path) +
           " (byte " + std::to_string(offset) + "): " + problem;
  }

  std::string path_;
  std::size_t offset_;
  std::string problem_;
};

}  // namespace ctff
