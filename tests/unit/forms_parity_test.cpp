// ctff::to_distribute_aggregate_form against TFF's own conversion (tests/forms/goldens/, made by
// tests/forms/python/make_goldens.py; README.md there): for every round TFF converts, each of the
// five parts, renamed in preorder, has TFF's bytes, compact text and type, and passes ctff's
// checker; so does every intermediate stage TFF recorded. Every round TFF refuses, ctff refuses
// with the rule named here (federated_aggregate and two select rounds, which TFF refuses, ctff
// splits: extensions).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

namespace {

const std::string goldens_dir = CTFF_FORMS_GOLDENS_DIR;

std::string read_golden(const std::string& file) {
  std::ifstream f(goldens_dir + "/" + file, std::ios::binary);
  REQUIRE(f.good());
  return {std::istreambuf_iterator<char>(f), {}};
}
bool has_golden(const std::string& file) { return std::filesystem::exists(goldens_dir + "/" + file); }
std::string chomp(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// The rounds: NAME.binpb without a part or stage in its name.
std::vector<std::string> rounds() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(goldens_dir)) {
    const std::string f = e.path().filename().string();
    if (f.size() > 6 && f.ends_with(".binpb") && f.find('.') == f.size() - 6)
      out.push_back(f.substr(0, f.size() - 6));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ctff's rule for each round TFF refuses (and TFF's exception, for the reader).
const std::map<std::string, std::string> expected_rules = {
    {"aggregation_arg_placed_inside", "aggregation_argument_placement"},  // TypeError
    {"data_at_server", "part_check"},                    // ValueError in DistributeAggregateForm
    {"result_at_clients", "part_check"},                 // ValueError in DistributeAggregateForm
    {"non_struct_result", "round_results"},              // TypeError
    {"one_result", "round_results"},                     // TypeError
    {"one_parameter", "round_parameters"},               // TypeError
    {"three_parameters", "round_parameters"},            // TypeError
    {"not_a_lambda", "round_lambda"},                    // UnexpectedBlockError
    {"secure_select_keys_from_clients", "unavailable_inputs"},  // UnavailableRequiredInputsError
    {"select_keys_from_clients", "unavailable_inputs"},         // UnavailableRequiredInputsError
    {"state_at_clients", "server_only"},                 // ValueError in DistributeAggregateForm
    {"state_type_changed", "server_state"},              // TypeError in DistributeAggregateForm
    {"two_rounds", "broadcast_after_aggregation"},       // ValueError
};
// Rounds TFF refuses that ctff splits (its extensions; docs/forms_conversion.md): TFF's
// NonAlignableAlongIntrinsicError (select_keys_broadcast) and ValueError in
// DistributeAggregateForm (select_keys_constant: server_prepare holds the keys at CLIENTS).
const std::set<std::string> extensions = {"aggregate", "select_keys_broadcast", "select_keys_constant"};
// Extensions whose conversion leaves TFF's from a stage on (TFF's stages from there on are those of
// the conversion it then refused): select_keys_constant's keys become a broadcast before the split.
const std::map<std::string, std::string> diverges_at = {{"select_keys_constant", "04"}};

const char* const part_names[] = {"server_prepare", "server_to_client_broadcast", "client_work",
                                  "client_to_server_aggregation", "server_result"};

// ctff's checker knows federated_language's intrinsics; TFF's backend adds one.
std::vector<ctff::check_error> check_part(const ctff::computation_tree& t) {
  std::vector<ctff::check_error> out;
  for (auto& e : ctff::check(t))
    if (e.problem.find("`federated_secure_modular_sum`") == std::string::npos) out.push_back(e);
  return out;
}

void compare_part(const std::string& round, const std::string& part, const ctff::computation_tree& got) {
  INFO(round << "." << part);
  const ctff::computation_tree r = ctff::rename_variables_in_preorder(got);
  CHECK(ctff::compact(r) == chomp(read_golden(round + "." + part + ".compact.txt")));
  CHECK(r.type_string(r.root) == chomp(read_golden(round + "." + part + ".type.txt")));
  CHECK(ctff::serialize(r) == read_golden(round + "." + part + ".binpb"));
  const auto errors = check_part(got);
  CHECK(errors.empty());
  for (const auto& e : errors) UNSCOPED_INFO(e.message());
}

}  // namespace

TEST_CASE("forms: every round TFF converts splits into TFF's five parts, byte for byte") {
  int converted = 0;
  for (const auto& round : rounds()) {
    if (has_golden(round + ".rejected.txt")) continue;
    INFO(round);
    const auto tree = ctff::read_computation(read_golden(round + ".binpb"));
    ctff::distribute_aggregate_form f;
    REQUIRE_NOTHROW(f = ctff::to_distribute_aggregate_form(tree));
    const ctff::computation_tree* parts[] = {&f.server_prepare, &f.server_to_client_broadcast,
                                             &f.client_work, &f.client_to_server_aggregation,
                                             &f.server_result};
    for (int i = 0; i != 5; ++i) compare_part(round, part_names[i], *parts[i]);
    // TFF's summary: one line per part, '{:<28}: {}'.
    if (has_golden(round + ".summary.txt")) {
      std::string summary;
      for (int i = 0; i != 5; ++i) {
        std::string label = part_names[i];
        label.resize(std::max<std::size_t>(label.size(), 28), ' ');
        summary += label + ": " + parts[i]->type_string(parts[i]->root) + "\n";
      }
      CHECK(chomp(summary) == chomp(read_golden(round + ".summary.txt")));
    }
    ++converted;
  }
  CHECK(converted >= 12);
}

TEST_CASE("forms: each intermediate stage is TFF's, refused rounds' stages too") {
  int stages = 0;
  for (const auto& round : rounds()) {
    INFO(round);
    const bool extension = extensions.count(round) != 0;
    const auto tree = ctff::read_computation(read_golden(round + ".binpb"));
    ctff::detail::form_context c(tree.types);
    std::set<std::string> seen;
    c.on_stage = [&](const char* stage, const ctff::detail::bb& n) {
      const std::string file = round + ".stage." + stage + ".compact.txt";
      seen.insert(file);
      INFO(file);
      if (!extension) CHECK(has_golden(file));  // (past where TFF stopped, nothing to compare)
      if (!has_golden(file)) return;
      if (auto d = diverges_at.find(round); d != diverges_at.end() && std::string(stage) >= d->second) return;
      const auto r = ctff::rename_variables_in_preorder(ctff::detail::to_tree(c, n), true);
      CHECK(ctff::compact(r) == chomp(read_golden(file)));
      ++stages;
    };
    if (has_golden(round + ".rejected.txt") && !extension) {
      CHECK_THROWS_AS(ctff::detail::split_tree(c, tree), ctff::form_error);
    } else {
      ctff::detail::split_tree(c, tree);
    }
    // Every stage TFF recorded was produced.
    for (const auto& e : std::filesystem::directory_iterator(goldens_dir)) {
      const std::string f = e.path().filename().string();
      if (f.starts_with(round + ".stage.")) CHECK(seen.count(f) == 1);
    }
  }
  CHECK(stages >= 300);
}

TEST_CASE("forms: every round TFF refuses, ctff refuses with the rule's name") {
  int rejected = 0;
  for (const auto& round : rounds()) {
    if (!has_golden(round + ".rejected.txt")) continue;
    INFO(round << ": TFF: " << read_golden(round + ".rejected.txt").substr(0, 200));
    const auto tree = ctff::read_computation(read_golden(round + ".binpb"));
    if (extensions.count(round)) {
      ctff::distribute_aggregate_form f;
      REQUIRE_NOTHROW(f = ctff::to_distribute_aggregate_form(tree));
      for (const auto* p : {&f.server_prepare, &f.server_to_client_broadcast, &f.client_work,
                            &f.client_to_server_aggregation, &f.server_result})
        CHECK(check_part(*p).empty());
      continue;
    }
    std::string rule;
    try {
      ctff::to_distribute_aggregate_form(tree);
    } catch (const ctff::form_error& e) {
      rule = e.rule();
      CHECK(std::string(e.what()).starts_with("ctff: " + rule));
    }
    auto it = expected_rules.find(round);
    if (it != expected_rules.end()) {
      CHECK(rule == it->second);
    } else {
      WARN("no expected rule listed for " << round << "; ctff said `" << rule << "`");
      CHECK(!rule.empty());
    }
    ++rejected;
  }
  CHECK(rejected >= 10);
}

TEST_CASE("forms: federated_aggregate splits (an extension over TFF)") {
  const auto tree = ctff::read_computation(read_golden("aggregate.binpb"));
  const auto f = ctff::to_distribute_aggregate_form(tree);
  CHECK(ctff::compact(ctff::rename_variables_in_preorder(f.client_to_server_aggregation)) ==
        "(_v1 -> (let _v2=federated_aggregate(<_v1[1][0],0,comp#bea41ec2,comp#eb891c95,comp#13f219f7>) in <_v2>))");
  CHECK(ctff::compact(ctff::rename_variables_in_preorder(f.server_result)) ==
        "(_v1 -> (let  in <_v1[0][0],_v1[1][0]>))");
}

TEST_CASE("forms: damaged rounds are an error, never a crash") {
  // Every golden round with bytes changed one at a time: whatever the reader accepts, the
  // splitter splits or refuses with a form_error.
  std::size_t tried = 0, refused = 0;
  for (const auto& round : {"fedavg", "fedeval", "secure_sum_bitwidth_literal", "aggregate"}) {
    if (!has_golden(std::string(round) + ".binpb")) continue;
    const std::string bytes = read_golden(std::string(round) + ".binpb");
    for (std::size_t i = 0; i < bytes.size(); i += 7) {
      for (unsigned char delta : {1, 0x40, 0x80}) {
        std::string b = bytes;
        b[i] = static_cast<char>(static_cast<unsigned char>(b[i]) ^ delta);
        ctff::computation_tree t;
        try {
          t = ctff::read_computation(b);
        } catch (const ctff::read_error&) {
          continue;
        }
        ++tried;
        try {
          ctff::to_distribute_aggregate_form(t);
        } catch (const ctff::form_error& e) {
          ++refused;
          CHECK(!e.rule().empty());
        }
      }
    }
  }
  CHECK(tried > 0);
  CHECK(refused > 0);
}
