// Every Computation the forms code writes, parsed back by protobuf: the five parts the splitter
// makes of each golden round (TFF's conversions and ctff's extensions) and the round composed back
// from them. (A TU of its own: parse_back.hpp needs ctff::proto, which the libc++ tree lacks.)
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

#include "forms_goldens.hpp"
#include "parse_back.hpp"

TEST_CASE("forms: every part the splitter writes, and the round composed back, parse with protobuf") {
  std::vector<std::string> rounds = ctff_test::converted_rounds();
  for (const char* extension : {"aggregate", "select_keys_broadcast", "select_keys_constant"})
    rounds.push_back(extension);
  REQUIRE(rounds.size() >= 34);
  for (const auto& name : rounds) {
    INFO("round " << name);
    const ctff::computation_tree round = ctff_test::golden_round(name);
    const ctff::distribute_aggregate_form f = ctff::to_distribute_aggregate_form(round);
    for (const auto& part : f.parts()) ctff_test::require_parses_string(ctff::serialize(*part.tree));
    ctff_test::require_parses_string(ctff::serialize(ctff::rename_variables_in_preorder(f.client_work)));
    ctff::type_desc round_type = round.types;
    round_type.root = round.node(round.root).type;
    ctff_test::require_parses_string(ctff::serialize(ctff::from_distribute_aggregate_form(f, round_type)));
  }
}
