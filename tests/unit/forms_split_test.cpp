// The splitter of <ctff/forms.hpp> (ctff::to_distribute_aggregate_form and its passes), in one
// translation unit so that the forms code is compiled once for both: its parity with TFF's own
// conversion (tests/forms/goldens/), then the passes one by one. Each former file's tests and
// helpers stay together in a namespace of their own (forms_parity, forms_passes); the helpers they
// shared are ctff_test's (forms_goldens.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

#include "forms_goldens.hpp"

namespace {

// A golden's bytes (tests/forms/goldens/FILE), and text without its trailing newlines.
using ctff_test::chomp;
using ctff_test::forms_golden;

}  // namespace

// =============================================================================================
// Parity with TFF's conversion
// =============================================================================================
// ctff::to_distribute_aggregate_form against TFF's own conversion (tests/forms/goldens/, made by
// tests/forms/python/make_goldens.py; README.md there): for every round TFF converts, each of the
// five parts, renamed in preorder, has TFF's bytes, compact text and type, and passes ctff's
// checker; so does every intermediate stage TFF recorded. Every round TFF refuses, ctff refuses
// with the rule named here (federated_aggregate and two select rounds, which TFF refuses, ctff
// splits: extensions).
namespace forms_parity {

namespace {

const std::string goldens_dir = CTFF_FORMS_GOLDENS_DIR;

bool has_golden(const std::string& file) { return std::filesystem::exists(goldens_dir + "/" + file); }

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

void compare_part(const std::string& round, const std::string& part, const ctff::computation_tree& got) {
  INFO(round << "." << part);
  const ctff::computation_tree r = ctff::rename_variables_in_preorder(got);
  CHECK(ctff::compact(r) == chomp(forms_golden(round + "." + part + ".compact.txt")));
  CHECK(r.type_string(r.root) == chomp(forms_golden(round + "." + part + ".type.txt")));
  CHECK(ctff::serialize(r) == forms_golden(round + "." + part + ".binpb"));
  const auto errors = ctff::check(got);
  CHECK(errors.empty());
  for (const auto& e : errors) UNSCOPED_INFO(e.message());
}

}  // namespace

TEST_CASE("forms: every round TFF converts splits into TFF's five parts, byte for byte") {
  int converted = 0;
  for (const auto& round : rounds()) {
    if (has_golden(round + ".rejected.txt")) continue;
    INFO(round);
    const auto tree = ctff::read_computation(forms_golden(round + ".binpb"));
    ctff::distribute_aggregate_form f;
    REQUIRE_NOTHROW(f = ctff::to_distribute_aggregate_form(tree));
    const auto parts = f.parts();  // (TFF's order and names)
    for (int i = 0; i != 5; ++i) {
      CHECK(parts[i].name == part_names[i]);
      compare_part(round, part_names[i], *parts[i].tree);
    }
    // TFF's summary: one line per part, '{:<28}: {}'.
    if (has_golden(round + ".summary.txt")) {
      std::string summary;
      for (int i = 0; i != 5; ++i) {
        std::string label = part_names[i];
        label.resize(std::max<std::size_t>(label.size(), 28), ' ');
        summary += label + ": " + parts[i].tree->type_string(parts[i].tree->root) + "\n";
      }
      CHECK(chomp(summary) == chomp(forms_golden(round + ".summary.txt")));
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
    const auto tree = ctff::read_computation(forms_golden(round + ".binpb"));
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
      CHECK(ctff::compact(r) == chomp(forms_golden(file)));
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
    INFO(round << ": TFF: " << forms_golden(round + ".rejected.txt").substr(0, 200));
    const auto tree = ctff::read_computation(forms_golden(round + ".binpb"));
    if (extensions.count(round)) {
      ctff::distribute_aggregate_form f;
      REQUIRE_NOTHROW(f = ctff::to_distribute_aggregate_form(tree));
      for (const auto& p : f.parts()) CHECK(ctff::check(*p.tree).empty());
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
  const auto tree = ctff::read_computation(forms_golden("aggregate.binpb"));
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
    const std::string bytes = forms_golden(std::string(round) + ".binpb");
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

}  // namespace forms_parity

// =============================================================================================
// The passes one by one
// =============================================================================================
// The passes of <ctff/forms.hpp> one by one, on small hand-built building blocks and on the
// goldens' rounds against TFF's intermediate stages (tests/forms/goldens/README.md).
namespace forms_passes {

namespace {

using ctff::detail::bb;
using ctff::detail::form_context;

// A context with a few types to build with.
struct fixture {
  form_context c;
  std::uint32_t i32, f32, pair, i32_clients, i32_server, round_param, sum_type;
  fixture() {
    i32 = c.types.add(ctff::type_node{.kind = ctff::type_kind::tensor, .dt = ctff::dtype::int32});
    f32 = c.types.add(ctff::type_node{.kind = ctff::type_kind::tensor, .dt = ctff::dtype::float32});
    pair = c.unnamed_struct_type({i32, f32});
    i32_clients = c.federated_type(i32, ctff::placement_kind::clients);
    i32_server = c.federated_type(i32, ctff::placement_kind::server);
    round_param = c.struct_type({{"state", i32_server}, {"data", i32_clients}});
    sum_type = c.function_type(i32_clients, i32_server);
  }
  std::string text(const bb& n) { return ctff::compact(ctff::detail::to_tree(c, n)); }
  std::string renamed(const bb& n) {
    return ctff::compact(ctff::rename_variables_in_preorder(ctff::detail::to_tree(c, n)));
  }
};

// "a<i>". (Appended, not `"a" + std::to_string(i)`: g++-12 -O2 warns -Wrestrict on that in a
// loop, a false positive of its own.)
std::string local_name(int i) {
  std::string s = "a";
  s += std::to_string(i);
  return s;
}

}  // namespace

TEST_CASE("forms: building blocks go out as Computation bytes the reader and checker accept") {
  fixture f;
  auto& c = f.c;
  bb x = c.reference("x", f.pair);
  bb lam = c.lambda("x", f.pair, c.struct_({{"a", c.selection(x, 1)}, {"", c.selection(x, 0)}}));
  const auto t = ctff::detail::to_tree(c, lam);
  CHECK(ctff::compact(t) == "(x -> <a=x[1],x[0]>)");
  CHECK(t.type_string(t.root) == "(<int32,float32> -> <a=float32,int32>)");
  CHECK(ctff::check(t).empty());
  // and back: from_tree, to bytes again, the same bytes
  form_context c2(t.types);
  CHECK(ctff::detail::to_bytes(c2, ctff::detail::from_tree(c2, t)) == ctff::serialize(t));
  // Python's equality: a Reference equals only itself; the rest by structure
  bb y = c.reference("x", f.pair);
  CHECK(ctff::detail::same_block(c, c.selection(x, 0), c.selection(x, 0)));
  CHECK(!ctff::detail::same_block(c, c.selection(x, 0), c.selection(y, 0)));
  CHECK(!ctff::detail::same_block(c, c.selection(x, 0), c.selection(x, 1)));
  // a call whose argument does not fit is refused
  CHECK_THROWS_AS(c.call(c.intrinsic("federated_sum", f.sum_type), x), ctff::form_error);
  CHECK_THROWS_AS(c.selection(x, 2), ctff::form_error);
}

TEST_CASE("forms: rename_variables_in_preorder numbers binders in preorder, one counter") {
  fixture f;
  auto& c = f.c;
  // (x -> (let a=(x -> x)(x[0]), b=a, a=<b> in a)): locals before their values, shadowing gone
  bb x = c.reference("x", f.pair);
  bb inner = c.lambda("x", f.i32, c.reference("x", f.i32));
  bb a = c.call(inner, c.selection(x, 0));
  bb blk = c.block({{"a", a}, {"b", c.reference("a", f.i32)}, {"a", c.unnamed_struct({c.reference("b", f.i32)})}},
                   c.reference("a", c.unnamed_struct_type({f.i32})));
  bb lam = c.lambda("x", f.pair, blk);
  CHECK(f.text(lam) == "(x -> (let a=(x -> x)(x[0]),b=a,a=<b> in a))");
  CHECK(f.renamed(lam) == "(_v1 -> (let _v2=(_v3 -> _v3)(_v1[0]),_v4=_v2,_v5=<_v4> in _v5))");
  // a lambda without parameter takes no number; free references stay
  bb noparam = c.lambda("", ctff::no_index, c.struct_({{"", c.reference("free", f.i32)}, {"", lam}}));
  CHECK(f.renamed(noparam) ==
        "( -> <free,(_v1 -> (let _v2=(_v3 -> _v3)(_v1[0]),_v4=_v2,_v5=<_v4> in _v5))>)");
  // or numbered on request, each free name once
  bb two_free = c.unnamed_struct({c.reference("free", f.i32), c.reference("other", f.i32),
                                  c.reference("free", f.i32), noparam});
  CHECK(ctff::compact(ctff::rename_variables_in_preorder(ctff::detail::to_tree(c, two_free), true)) ==
        "<_u1,_u2,_u1,( -> <_u1,(_v1 -> (let _v2=(_v3 -> _v3)(_v1[0]),_v4=_v2,_v5=<_v4> in _v5))>)>");
  // a golden round: its own names become _vN, everything else the same bytes
  const auto round = ctff::read_computation(forms_golden("fedavg.binpb"));
  const auto r = ctff::rename_variables_in_preorder(round);
  CHECK(ctff::compact(r).starts_with("(_v1 -> (let _v2=federated_broadcast(_v1[0]),_v3=federated_zip_at_clients(<_v2,_v1[1]>)"));
  CHECK(ctff::check(r).empty());
  CHECK(ctff::serialize(ctff::rename_variables_in_preorder(r)) == ctff::serialize(r));
}

TEST_CASE("forms: call-dominant form inlines called lambdas and binds each call once") {
  fixture f;
  auto& c = f.c;
  bb x = c.reference("x", f.round_param);
  bb sum = c.intrinsic("federated_sum", f.sum_type);
  // (x -> (y -> <federated_sum(y), y>)(x[1])[0])  becomes  (x -> (let v=federated_sum(x[1]) in v))
  bb y = c.reference("y", f.i32_clients);
  bb inner = c.lambda("y", f.i32_clients, c.unnamed_struct({c.call(sum, y), y}));
  bb lam = c.lambda("x", f.round_param, c.selection(c.call(inner, c.selection(x, 1)), 0));
  bb cdf = ctff::detail::to_call_dominant(c, lam);
  CHECK(f.renamed(cdf) == "(_v1 -> (let _v2=federated_sum(_v1[1]) in _v2))");
  // blocks flatten, unused locals go, a call used twice is bound once
  bb s = c.reference("s", f.i32_server);
  bb blk = c.block({{"s", c.call(sum, c.selection(x, 1))}, {"unused", c.call(sum, c.selection(x, 1))}},
                   c.unnamed_struct({s, s}));
  bb lam2 = c.lambda("x", f.round_param, blk);
  CHECK(f.renamed(ctff::detail::to_call_dominant(c, lam2)) ==
        "(_v1 -> (let _v2=federated_sum(_v1[1]) in <_v2,_v2>))");
  // the public function, on the goldens: TFF's first two stages
  for (const char* round : {"fedavg", "fedeval", "analytics", "secure_sum_bitwidth_literal"}) {
    INFO(round);
    const auto t = ctff::read_computation(forms_golden(std::string(round) + ".binpb"));
    const auto cd = ctff::to_call_dominant(t);
    CHECK(ctff::check(cd).empty());
    CHECK(ctff::compact(ctff::rename_variables_in_preorder(cd)) ==
          chomp(forms_golden(std::string(round) + ".stage.01-call_dominant.compact.txt")));
    CHECK(ctff::compact(ctff::rename_variables_in_preorder(ctff::uniquify_reference_names(cd))) ==
          chomp(forms_golden(std::string(round) + ".stage.02-uniquified.compact.txt")));
  }
}

TEST_CASE("forms: uniquify_reference_names renames only what repeats") {
  fixture f;
  auto& c = f.c;
  // <(x -> x), (x -> x)>: the second x is renamed, the first kept; references follow
  bb id1 = c.lambda("x", f.i32, c.reference("x", f.i32));
  bb id2 = c.lambda("x", f.i32, c.reference("x", f.i32));
  bb s = c.unnamed_struct({id1, id2});
  bb u = ctff::detail::uniquify_names(c, s);
  const std::string text = f.text(u);
  CHECK(text.starts_with("<(x -> x),("));
  CHECK(text != "<(x -> x),(x -> x)>");
  CHECK(f.renamed(u) == "<(_v1 -> _v1),(_v2 -> _v2)>");
  CHECK(ctff::detail::uniquify_names(c, id1) == id1);  // nothing to do: the same node
}

TEST_CASE("forms: replace_selections and as_function_of_some_subparameters") {
  fixture f;
  auto& c = f.c;
  const std::uint32_t nested = c.unnamed_struct_type({f.pair, f.i32});
  bb x = c.reference("x", nested);
  bb body = c.unnamed_struct({c.selection(c.selection(x, 0), 1), c.selection(x, 1), c.selection(x, 0)});
  bb r = c.reference("r", f.f32);
  CHECK(f.text(ctff::detail::replace_selections(c, body, "x", {{{0, 1}, r}})) == "<r,x[1],x[0]>");
  // a replacement of another type is not made
  CHECK(f.text(ctff::detail::replace_selections(c, body, "x", {{{1}, r}})) == "<x[0][1],x[1],x[0]>");
  // only selections from the named reference
  CHECK(f.text(ctff::detail::replace_selections(c, body, "z", {{{0, 1}, r}})) == "<x[0][1],x[1],x[0]>");
  bb lam = c.lambda("x", nested, body);
  bb sub = ctff::detail::as_function_of_some_subparameters(c, lam, {{0}, {1}});
  CHECK(f.renamed(sub) == "(_v1 -> (let  in <_v1[0][1],_v1[1],_v1[0]>))");
  CHECK(ctff::compact(ctff::detail::to_tree(c, sub)).find("x") == std::string::npos);
  // a path the parameter does not have
  CHECK_THROWS_AS(ctff::detail::as_function_of_some_subparameters(c, lam, {{2}}), ctff::form_error);
  // parts not given stay as free references to the old parameter
  bb part = ctff::detail::as_function_of_some_subparameters(c, lam, {{1}});
  CHECK(ctff::detail::free_names(c, part) == std::set<std::string>{"x"});
  // select_output_from_lambda: the element itself from a struct result
  CHECK(f.text(ctff::detail::select_output_from_lambda(c, lam, 1)) == "(x -> x[1])");
  bb lam2 = c.lambda("x", nested, x);
  CHECK(f.text(ctff::detail::select_output_from_lambda(c, lam2, 1)) == "(x -> x[1])");
}

TEST_CASE("forms: split_by_intrinsics on a small round") {
  fixture f;
  auto& c = f.c;
  // (x -> (let s=federated_sum(x[1]) in <x[0], s>)) split at the sums
  bb x = c.reference("x", f.round_param);
  bb sum = c.intrinsic("federated_sum", f.sum_type);
  bb lam = c.lambda("x", f.round_param,
                    c.block({{"s", c.call(sum, c.selection(x, 1))}},
                            c.unnamed_struct({c.selection(x, 0), c.reference("s", f.i32_server)})));
  auto parts = ctff::detail::split_by_intrinsics(c, lam, {"federated_sum"}, {{1}}, {}, {{0}});
  CHECK(f.renamed(parts.before) ==
        "(_v1 -> (let  in <intrinsic_args_from_before_comp=<_v1[0]>,intermediate_state=<>>))");
  CHECK(f.renamed(parts.intrinsic) == "(_v1 -> (let _v2=federated_sum(_v1[0][0]) in <_v2>))");
  CHECK(f.renamed(parts.after) == "(_v1 -> (let  in <_v1[0],_v1[1][0]>))");
  // an intrinsic whose argument needs another's result cannot be split at both
  bb s = c.reference("s", f.i32_server);
  const std::uint32_t bcast_type =
      c.function_type(f.i32_server, c.federated_type(f.i32, ctff::placement_kind::clients, true));
  bb twice = c.lambda("x", f.round_param,
                      c.block({{"s", c.call(sum, c.selection(x, 1))},
                               {"b", c.call(c.intrinsic("federated_broadcast", bcast_type), s)}},
                              c.reference("b", c.federated_type(f.i32, ctff::placement_kind::clients, true))));
  try {
    ctff::detail::split_by_intrinsics(c, twice, {"federated_sum", "federated_broadcast"}, {{0}}, {}, {{1}});
    FAIL("expected a form_error");
  } catch (const ctff::form_error& e) {
    CHECK(e.rule() == "intrinsics_not_alignable");
  }
}

TEST_CASE("forms: what cannot be split is a form_error naming the rule") {
  fixture f;
  auto& c = f.c;
  auto rule_of = [&](const bb& round) {
    try {
      ctff::to_distribute_aggregate_form(ctff::detail::to_tree(c, round));
    } catch (const ctff::form_error& e) {
      return e.rule();
    }
    return std::string("(split)");
  };
  bb x = c.reference("x", f.round_param);
  CHECK(rule_of(c.lambda("x", f.round_param, c.selection(x, 0))) == "round_results");
  CHECK(rule_of(c.lambda("x", f.i32_server, c.unnamed_struct({c.reference("x", f.i32_server),
                                                                c.reference("x", f.i32_server)}))) ==
        "round_parameters");
  // the right type, but a selection of a lambda rather than a lambda
  CHECK(rule_of(c.selection(c.unnamed_struct({c.lambda("x", f.round_param, x)}), 0)) == "round_lambda");
  CHECK(rule_of(c.intrinsic("federated_sum", f.sum_type)) == "round_parameters");
  // a reference the round does not bind: the checker's rule
  CHECK(rule_of(c.lambda("x", f.round_param, c.unnamed_struct({c.reference("y", f.i32_server),
                                                                 c.selection(x, 0)}))) ==
        "valid_computation");
  // an empty tree
  CHECK_THROWS_AS(ctff::to_distribute_aggregate_form(ctff::computation_tree{}), ctff::form_error);
  // the smallest round that splits: state through, the sum of the clients' values out
  bb sum = c.intrinsic("federated_sum", f.sum_type);
  bb ok = c.lambda("x", f.round_param, c.unnamed_struct({c.selection(x, 0), c.call(sum, c.selection(x, 1))}));
  CHECK(rule_of(ok) == "(split)");
  const auto form = ctff::to_distribute_aggregate_form(ctff::detail::to_tree(c, ok));
  CHECK(ctff::compact(ctff::rename_variables_in_preorder(form.client_to_server_aggregation)) ==
        "(_v1 -> (let _v2=federated_sum(_v1[1][0]) in <_v2>))");
}

TEST_CASE("forms: recursion is bounded") {
  fixture f;
  auto& c = f.c;
  {
    // (x -> (let a0=<x>, a1=<a0>, ... in a4999)): shallow as written, 5000 deep once inlined
    std::vector<ctff::detail::bb_elem> locals;
    bb prev = c.reference("x", f.i32);
    for (int i = 0; i != 5000; ++i) {
      bb s = c.unnamed_struct({prev});
      locals.push_back({local_name(i), s});
      prev = c.reference(local_name(i), s->type);
    }
    try {
      ctff::detail::to_call_dominant(c, c.lambda("x", f.i32, c.block(locals, prev)));
      FAIL("expected a form_error");
    } catch (const ctff::form_error& e) {
      CHECK(e.rule() == "depth_limit");
    }
  }
  bb n = c.reference("x", f.i32);
  for (int i = 0; i != 1500; ++i) n = c.unnamed_struct({n});
  bb lam = c.lambda("x", f.i32, n);
  try {
    ctff::detail::to_call_dominant(c, lam);
    FAIL("expected a form_error");
  } catch (const ctff::form_error& e) {
    CHECK(e.rule() == "depth_limit");
  }
}

TEST_CASE("forms: a tree that inlining would make exponentially large is refused") {
  fixture f;
  auto& c = f.c;
  // (x -> (let a0=<x,x>, a1=<a0,a0>, ..., a59=<a58,a58> in a59)): 2^60 blocks once inlined
  std::vector<ctff::detail::bb_elem> locals;
  bb prev = c.reference("x", f.i32);
  for (int i = 0; i != 60; ++i) {
    bb s = c.unnamed_struct({prev, prev});
    const std::string name = local_name(i);
    locals.push_back({name, s});
    prev = c.reference(name, s->type);
  }
  bb lam = c.lambda("x", f.i32, c.block(locals, prev));
  try {
    ctff::detail::to_call_dominant(c, lam);
    FAIL("expected a form_error");
  } catch (const ctff::form_error& e) {
    CHECK(e.rule() == "size_limit");
  }
}

TEST_CASE("forms: federated_aggregate with a computed zero and a function that captures it") {
  // From the goldens' `aggregate` round (which TFF refuses): its accumulate, merge and report.
  const auto t = ctff::read_computation(forms_golden("aggregate.binpb"));
  form_context c(t.types);
  const bb root = ctff::detail::from_tree(c, t);
  const bb call = root->a->elems[0].value;
  const auto& a = call->b->elems;
  const bb lit0 = a[1].value, acc = a[2].value, merge = a[3].value, report = a[4].value;
  // (arg -> (let z=acc(<0,0>), s=federated_aggregate(<arg[1], z, (p -> acc(<p[0],z>)), merge,
  //  report>) in <arg[0], s>)): the zero computed on the server, the accumulate closing over it
  const bb z = c.reference("z", lit0->type);
  const std::uint32_t pt = c.param_of(acc->type);
  const bb lam = c.lambda("p", pt, c.call(acc, c.unnamed_struct({c.selection(c.reference("p", pt), 0), z})));
  const bb agg = c.call(call->a, c.unnamed_struct({a[0].value, z, lam, merge, report}));
  const bb arg = c.reference(root->text, root->param_type);
  const bb round = c.lambda(root->text, root->param_type,
                            c.block({{"z", c.call(acc, c.unnamed_struct({lit0, lit0}))}, {"s", agg}},
                                    c.unnamed_struct({c.selection(arg, 0), c.reference("s", agg->type)})));
  const auto form = ctff::to_distribute_aggregate_form(ctff::detail::to_tree(c, round));
  auto text = [](const ctff::computation_tree& p) {
    CHECK(ctff::check(p).empty());
    return ctff::compact(ctff::rename_variables_in_preorder(p));
  };
  // z is computed in server_prepare and reaches the aggregation through T
  CHECK(text(form.server_prepare) ==
        "(_v1 -> (let _v2=comp#bea41ec2(<0,0>),_v3=federated_value_at_server(_v2),"
        "_v4=federated_value_at_server(_v2),_v5=federated_zip_at_server(<_v3,_v4>),"
        "_v6=federated_apply(<(_v7 -> <>),_v5>) in <intrinsic_args_from_before_comp=<_v6>,"
        "intermediate_state=<_v1,_v2>>))");
  CHECK(text(form.client_to_server_aggregation) ==
        "(_v1 -> (let _v2=federated_aggregate(<_v1[1][0],_v1[0][1],(_v3 -> (let "
        "_v4=comp#bea41ec2(<_v3[0],_v1[0][1]>) in _v4)),comp#eb891c95,comp#13f219f7>) in <_v2>))");
  CHECK(text(form.server_result) == "(_v1 -> (let  in <_v1[0][0],_v1[1][0]>))");
  CHECK(text(form.client_work) ==
        "(_v1 -> (let  in <intrinsic_args_from_before_comp=<_v1[0]>,intermediate_state=<>>)[0])");
}

}  // namespace forms_passes
