// Errors and limits of running a computation (ctff/run.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace ctff {

namespace detail {

// A std exception (`Base`) that names a place, `path()`, and what is wrong there, `problem()`;
// what() holds both, as the derived error spells them.
template <class Base>
class located_error : public Base {
 public:
  const std::string& path() const noexcept { return path_; }
  const std::string& problem() const noexcept { return problem_; }

 protected:
  located_error(const std::string& what, std::string&& path, std::string&& problem)
      : Base(what), path_(std::move(path)), problem_(std::move(problem)) {}

 private:
  std::string path_, problem_;
};

}  // namespace detail

// A run that cannot go on: an unbound opaque computation, integer division by zero, a secure-sum
// bound exceeded, a limit reached... `path()` locates the building block from the root of the
// Computation, as the checker spells it (`lambda.result.call.argument`; empty: the root),
// `problem()` says what is wrong; what() holds both.
class execution_error : public detail::located_error<std::runtime_error> {
 public:
  execution_error(std::string path, std::string problem)
      : located_error("ctff: execution error at " +
                          (path.empty() ? std::string("(top level)") : path) + ": " + problem,
                      std::move(path), std::move(problem)) {}
};

// An argument that does not fit the computation: a value of the wrong type or shape, client
// counts that disagree, an argument for a computation without parameter (or none for one with).
// `path()` names the place in the value: `arg.model.bias[3]`.
class argument_error : public detail::located_error<std::invalid_argument> {
 public:
  argument_error(std::string path, std::string problem)
      : located_error("ctff: bad argument at " + path + ": " + problem, std::move(path),
                      std::move(problem)) {}
};

// Bounds that turn a runaway run (a fuzzed computation, a typo in a client count) into an
// execution_error instead of a crash, a hang or an out-of-memory kill.
struct run_limits {
  std::size_t max_depth = 1000;                    // nested calls
  std::uint64_t max_value_bytes = std::uint64_t{8} << 30;  // bytes of tensors made by one run
  std::size_t max_clients = std::size_t{1} << 24;  // N
  std::uint64_t max_steps = std::uint64_t{1} << 40;  // building blocks evaluated by one run
};

}  // namespace ctff
