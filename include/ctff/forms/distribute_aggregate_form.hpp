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

#include <stdexcept>
#include <string>
#include <utility>

#include "ctff/read/tree.hpp"

namespace ctff {

struct distribute_aggregate_form {
  computation_tree server_prepare;
  computation_tree server_to_client_broadcast;
  computation_tree client_work;
  computation_tree client_to_server_aggregation;
  computation_tree server_result;
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
