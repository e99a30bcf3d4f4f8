// What the form validator (forms/validate.hpp) has found so far: the rules broken (at most
// max_errors of them) and the path of the building block being checked, as the checker spells
// paths (`client_work.lambda.result.block.local[0](_v3)`): the part's name, then a frame a step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_rules.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/print.hpp"

namespace ctff::detail {

// The parts' indices in form_part_names' order.
struct part_at {
  static constexpr std::size_t prepare = 0, broadcast = 1, client_work = 2, aggregation = 3, result = 4;
};

class form_report {
 public:
  explicit form_report(std::size_t max_errors) : max_(max_errors) {}

  std::size_t max_errors() const { return max_; }
  void error(form_rule r, std::string path, std::string problem) {
    if (errors_.size() < max_) errors_.emplace_back(std::string(rule_name(r)), std::move(path), std::move(problem));
  }
  // The frames reset to part k (form_part_names' order), and the path they spell.
  void at_part(std::size_t k) { frames.assign(1, path_frame{form_part_names[k].data(), -1, {}}); }
  std::string here() const { return path_string(frames); }
  std::vector<form_error> take() { return std::move(errors_); }

  std::vector<path_frame> frames;

 private:
  std::size_t max_;
  std::vector<form_error> errors_;
};

// The text of type ty of t, "(no type)" for none.
inline std::string part_type_text(const computation_tree& t, std::uint32_t ty) {
  return ty == no_index ? std::string("(no type)") : type_text(t.types, ty);
}

}  // namespace ctff::detail
