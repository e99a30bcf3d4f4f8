// libFuzzer target over ctff/forms: the DistributeAggregateForm splitter on every Computation the
// reader accepts. Invariants besides "no crash, no leak, no undefined behaviour, no unbounded
// recursion": the only exception is ctff::form_error (with a rule name); every part of a split
// is a closed Lambda that ctff's checker accepts (but for TFF's own federated_secure_modular_sum,
// which it does not know), and renaming it in preorder twice changes nothing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ctff::computation_tree t;
  try {
    t = ctff::read_computation(ctff::byte_view(data, size));
  } catch (const ctff::read_error&) {
    return 0;
  }
  ctff::distribute_aggregate_form f;
  try {
    f = ctff::to_distribute_aggregate_form(t);
  } catch (const ctff::form_error& e) {
    if (e.rule().empty()) std::abort();
    return 0;
  }
  for (const auto* p : {&f.server_prepare, &f.server_to_client_broadcast, &f.client_work,
                        &f.client_to_server_aggregation, &f.server_result}) {
    if (p->nodes[p->root].kind != ctff::block_kind::lambda) std::abort();
    for (const auto& e : ctff::check(*p))
      if (e.problem.find("`federated_secure_modular_sum`") == std::string::npos) std::abort();
    const auto r = ctff::rename_variables_in_preorder(*p);
    if (ctff::serialize(ctff::rename_variables_in_preorder(r)) != ctff::serialize(r)) std::abort();
  }
  return 0;
}
