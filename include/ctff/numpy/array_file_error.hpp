// The error of reading numpy's files (.npy, .npz: numpy/npy.hpp, numpy/zip_archive.hpp): bytes
// that are not what they claim to be, named by the member of the archive they came from.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace ctff {

// `member()`: the archive member (`arg.model.bias.npy`), empty for a lone .npy or the archive
// itself; `problem()`: what is wrong; what() holds both.
class array_file_error : public std::runtime_error {
 public:
  array_file_error(std::string member, std::string problem)
      : std::runtime_error(member.empty() ? problem : "member `" + member + "`: " + problem),
        member_(std::move(member)),
        problem_(std::move(problem)) {}
  const std::string& member() const noexcept { return member_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string member_, problem_;
};

}  // namespace ctff
