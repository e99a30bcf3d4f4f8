// A federated round split into the five parts of TFF's DistributeAggregateForm (TFF's
// backends/mapreduce/forms.py), for a round of type
// (<S@SERVER,{D}@CLIENTS> -> <S@SERVER,X@SERVER>):
//   server_prepare:               S -> <B_I, T>         (server only)
//   server_to_client_broadcast:   B_I -> B_O            (broadcast, select, secure_select calls)
//   client_work:                  <D, B_O> -> A_I       (clients only)
//   client_to_server_aggregation: <T, A_I> -> A_O       (aggregation calls of the parameter)
//   server_result:                <T, A_O> -> <S, X>    (server only)
// T is the server's intermediate state: what the aggregation and the result need from before the
// broadcast (a secure sum's bound, say). Each part is a Computation of its own, as read from bytes.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "ctff/read/tree.hpp"

namespace ctff {

namespace detail {
// The parts in the order a round runs them (and TFF lists them), as paths and summaries name them.
inline constexpr std::array<std::string_view, 5> form_part_names = {
    "server_prepare", "server_to_client_broadcast", "client_work", "client_to_server_aggregation",
    "server_result"};
}  // namespace detail

// A part of a form as `distribute_aggregate_form::parts()` lists it: its name and its computation
// (Tree: computation_tree, or const computation_tree).
template <class Tree>
struct form_part {
  std::string_view name;
  Tree* tree;
};

namespace detail {
// A form's parts, each named by `names` in order (a form's parts() lists them so).
template <class Tree, std::size_t N, class... Parts>
std::array<form_part<Tree>, N> named_parts(const std::array<std::string_view, N>& names, Parts&... parts) {
  static_assert(sizeof...(Parts) == N);
  std::size_t k = 0;
  return {{form_part<Tree>{names[k++], &parts}...}};
}
}  // namespace detail

struct distribute_aggregate_form {
  computation_tree server_prepare;
  computation_tree server_to_client_broadcast;
  computation_tree client_work;
  computation_tree client_to_server_aggregation;
  computation_tree server_result;

  // The five parts in the order a round runs them (and TFF lists them).
  std::array<form_part<const computation_tree>, 5> parts() const { return parts_of<const computation_tree>(*this); }
  std::array<form_part<computation_tree>, 5> parts() { return parts_of<computation_tree>(*this); }

 private:
  template <class Tree, class Form>
  static std::array<form_part<Tree>, 5> parts_of(Form& f) {
    return detail::named_parts<Tree>(detail::form_part_names, f.server_prepare, f.server_to_client_broadcast,
                                     f.client_work, f.client_to_server_aggregation, f.server_result);
  }
};

// A round that cannot be split, or five parts that are not a DistributeAggregateForm. `rule()`
// names the rule broken (the same names in the splitter, the validator and docs/forms.md),
// `path()` the building block it was found at, as the checker spells paths
// (`client_work.lambda.result`; empty: the whole computation); what() holds both and the problem.
class form_error : public std::invalid_argument {
 public:
  form_error(std::string rule, std::string path, std::string problem)
      : std::invalid_argument("ctff: " + rule + (path.empty() ? std::string() : " at " + path) +
                              ": " + problem),
        rule_(std::move(rule)),
        path_(std::move(path)),
        problem_(std::move(problem)) {}
  const std::string& rule() const noexcept { return rule_; }
  const std::string& path() const noexcept { return path_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string rule_, path_, problem_;
};

}  // namespace ctff
