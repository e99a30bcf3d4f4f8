// The validator of DistributeAggregateForms (forms/validate.hpp) and the composition
// (forms/compose.hpp): TFF's forms pass and compose to TFF's bytes; each rule of
// forms/form_rules.hpp is broken once, by a form altered from one of TFF's.
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

#include "forms_goldens.hpp"

namespace {

using ctff::block_kind;
using ctff::computation_tree;
using ctff::distribute_aggregate_form;
using ctff::form_error;
using ctff_test::first_of;
using ctff_test::golden_form;
using ctff_test::golden_round;
namespace b = ctff_test::bytes;

// The error validate throws; the same is form_errors' first.
form_error broken(const distribute_aggregate_form& f, const ctff::type_desc* round = nullptr) {
  const std::vector<form_error> all = round ? ctff::form_errors(f, *round) : ctff::form_errors(f);
  REQUIRE_FALSE(all.empty());
  try {
    if (round)
      ctff::validate(f, *round);
    else
      ctff::validate(f);
  } catch (const form_error& e) {
    CHECK(e.rule() == all.front().rule());
    CHECK(e.path() == all.front().path());
    CHECK(std::string(e.what()) == all.front().what());
    return e;
  }
  FAIL("validate did not throw");
  return form_error("", "", "");
}

// The type of node i's function type's parameter (side 0) or result (side 1), as a Type message.
std::string side(const computation_tree& t, int s) {
  return ctff::detail::type_message(t.types, t.types.kid(t.node(t.root).type, static_cast<std::uint32_t>(s)));
}

computation_tree read(const std::string& bytes) { return ctff::read_computation(bytes); }

// Every federated type of the part placed at `where` (all_equal): a consistent move of the part.
void place_all(computation_tree& t, ctff::placement_kind where) {
  for (ctff::type_node& n : t.types.nodes)
    if (n.kind == ctff::type_kind::federated) {
      n.where = where;
      n.all_equal = true;
    }
}

}  // namespace

TEST_CASE("forms: the rule table is in form_rule's order, its names unique, and docs/forms.md lists them") {
  std::set<std::string_view> names;
  for (std::size_t k = 0; k != ctff::form_rule_count; ++k) {
    CHECK(static_cast<std::size_t>(ctff::form_rules[k].rule) == k);
    CHECK(names.insert(ctff::form_rules[k].name).second);
    CHECK(ctff::rule_name(ctff::form_rules[k].rule) == ctff::form_rules[k].name);
  }
  // docs/forms.md: a table row `| `name` | ... |` per rule, and no other rule rows.
  std::istringstream doc(ctff_test::forms_file(std::string(CTFF_FORMS_GOLDENS_DIR) + "/../../../docs/forms.md"));
  std::set<std::string_view> documented_known;
  std::vector<std::string> rows;
  for (std::string line; std::getline(doc, line);)
    if (line.rfind("| `", 0) == 0) rows.push_back(line.substr(3, line.find('`', 3) - 3));
  for (const std::string& r : rows)
    if (names.count(r)) documented_known.insert(*names.find(r));
  CHECK(documented_known == names);
}

TEST_CASE("forms: every form TFF made passes, summarizes as TFF's, and composes to the round TFF composes") {
  const std::vector<std::string> rounds = ctff_test::converted_rounds();
  REQUIRE(rounds.size() >= 12);
  for (const std::string& name : rounds) {
    INFO("round " << name);
    const distribute_aggregate_form f = golden_form(name);
    const computation_tree round = golden_round(name);
    const ctff::type_desc round_type = round.type_of(round.root);
    for (const form_error& e : ctff::form_errors(f)) FAIL_CHECK(e.what());
    for (const form_error& e : ctff::form_errors(f, round_type)) FAIL_CHECK(e.what());
    CHECK_NOTHROW(ctff::validate(f));
    CHECK(ctff::form_summary(f) == ctff_test::forms_golden(name + ".summary.txt"));

    // TFF's get_computation_for_distribute_aggregate_form of this form (tests/forms/composed).
    const computation_tree composed = ctff::from_distribute_aggregate_form(f, round_type);
    CHECK(ctff::serialize(composed) ==
          ctff_test::forms_file(std::string(CTFF_FORMS_GOLDENS_DIR) + "/../composed/" + name + ".binpb"));
    // (Its result is an unnamed pair, which the round's type accepts.)
    CHECK(ctff::is_assignable(round_type, composed.type_of(composed.root)));
    CHECK(ctff::detail::type_text(composed.types, composed.types.kid(composed.node(composed.root).type, 0)) ==
          ctff::detail::type_text(round.types, round.types.kid(round.node(round.root).type, 0)));
    // Without the round's type: its parameter is the parts' <S,{D}@CLIENTS>, unnamed.
    const computation_tree plain = ctff::from_distribute_aggregate_form(f);
    const std::vector<ctff::check_error> errors = ctff::check(plain);
    for (const auto& e : errors)  // (the checker does not know TFF's federated_secure_modular_sum)
      CHECK(e.problem == "unknown intrinsic `federated_secure_modular_sum`");
    CHECK(ctff::compact(plain).rfind("(computation_arg -> (let fc_computation_symbol_0=(", 0) == 0);
  }
}

TEST_CASE("forms: each rule broken once") {
  const distribute_aggregate_form good = golden_form("fedavg");
  const distribute_aggregate_form other = golden_form("secure_sum_bitwidth_literal");
  const computation_tree& bcast = good.server_to_client_broadcast;
  const computation_tree& result = good.server_result;
  auto check_rule = [](const form_error& e, const char* rule, const std::string& path) {
    INFO(e.what());
    CHECK(e.rule() == rule);
    CHECK(e.path() == path);
  };

  SECTION("part_check: the checker's errors, at their paths in the part") {
    distribute_aggregate_form f = good;
    f.client_work.nodes[f.client_work.root].type = f.client_work.node(f.client_work.node(f.client_work.root).a).type;
    const form_error e = broken(f);
    check_rule(e, "part_check", "client_work");
    CHECK(e.problem().find("is not a function type") != std::string::npos);
  }
  SECTION("part_check: an error after a federated_secure_modular_sum (which the checker does not know)") {
    distribute_aggregate_form f = golden_form("secure_modular_sum");
    computation_tree& a = f.client_to_server_aggregation;
    const std::uint32_t block = a.node(a.root).a, literal = first_of(a, block_kind::literal);
    a.nodes[a.node(block).a].type = a.node(literal).type;  // the Block's result declared int32
    const form_error e = broken(f);
    check_rule(e, "part_check", "client_to_server_aggregation.lambda.result.block.result");
  }
  SECTION("part_lambda: an empty part, an Intrinsic") {
    distribute_aggregate_form f = good;
    f.server_prepare = computation_tree{};
    check_rule(broken(f), "part_lambda", "server_prepare");
    f = good;
    f.server_result = read(ctff::serialize(result, first_of(result, block_kind::intrinsic)));
    const form_error e = broken(f);
    check_rule(e, "part_lambda", "server_result");
    CHECK(e.problem() == "the part is an Intrinsic, not a Lambda");
  }
  SECTION("part_parameter: a Lambda of no parameter") {
    const std::uint32_t zip = first_of(result, block_kind::intrinsic);
    distribute_aggregate_form f = good;
    f.server_result = read(b::lambda("", ctff::serialize(result, zip), b::function_type("", b::type_of(result, zip))));
    check_rule(broken(f), "part_parameter", "server_result");
  }
  SECTION("unique_names: (_v1 -> server_prepare(_v1)) binds _v1 twice") {
    const computation_tree& p = good.server_prepare;
    distribute_aggregate_form f = good;
    f.server_prepare = read(b::lambda("_v1", b::call(ctff::serialize(p), b::reference("_v1", side(p, 0)), side(p, 1)),
                                      b::type_of(p, p.root)));
    REQUIRE(ctff::check(f.server_prepare).empty());
    const form_error e = broken(f);
    check_rule(e, "unique_names", "server_prepare.lambda.result.call.function");
    CHECK(e.problem() == "`_v1` is bound a second time in the part");
  }
  SECTION("parameter_pair: server_prepare as client_work") {
    distribute_aggregate_form f = good;
    f.client_work = good.server_prepare;
    check_rule(broken(f), "parameter_pair", "client_work");
  }
  SECTION("result_pair: the broadcast as server_prepare") {
    distribute_aggregate_form f = good;
    f.server_prepare = bcast;
    check_rule(broken(f), "result_pair", "server_prepare");
  }
  SECTION("server_only: server_prepare moved to the clients") {
    distribute_aggregate_form f = good;
    place_all(f.server_prepare, ctff::placement_kind::clients);
    REQUIRE(ctff::check(f.server_prepare).empty());
    const form_error e = broken(f);
    check_rule(e, "server_only",
               "server_prepare.lambda.result.block.result.struct[0](intrinsic_args_from_before_comp).struct[0]");
    CHECK(e.problem().find("<weights=float32[2],bias=float32>@CLIENTS") != std::string::npos);
  }
  SECTION("clients_only: client_work moved to the server") {
    distribute_aggregate_form f = other;
    place_all(f.client_work, ctff::placement_kind::server);
    REQUIRE(ctff::check(f.client_work).empty());
    check_rule(broken(f), "clients_only", "client_work.lambda.result.selection.source.block.result.struct[0](intrinsic_args_from_before_comp).struct[0]");
  }
  SECTION("intrinsic_block: client_work (a Selection) as the broadcast") {
    distribute_aggregate_form f = good;
    f.server_to_client_broadcast = good.client_work;
    check_rule(broken(f), "intrinsic_block", "server_to_client_broadcast.lambda.result");
  }
  SECTION("intrinsic_call: (_x -> (let _y=broadcast(_x) in _y)) calls a Lambda") {
    distribute_aggregate_form f = good;
    const std::string param = side(bcast, 0), res = side(bcast, 1);
    f.server_to_client_broadcast =
        read(b::lambda("_x",
                       b::block("_y", b::call(ctff::serialize(bcast), b::reference("_x", param), res),
                                b::reference("_y", res), res),
                       b::type_of(bcast, bcast.root)));
    REQUIRE(ctff::check(f.server_to_client_broadcast).empty());
    check_rule(broken(f), "intrinsic_call", "server_to_client_broadcast.lambda.result.block.local[0](_y)");
  }
  SECTION("broadcast_only: the aggregation as the broadcast") {
    distribute_aggregate_form f = good;
    f.server_to_client_broadcast = good.client_to_server_aggregation;
    const form_error e = broken(f);
    check_rule(e, "broadcast_only", "server_to_client_broadcast.lambda.result.block.local[0](_v2)");
    CHECK(e.problem() == "`federated_weighted_mean` is not a broadcast intrinsic");
  }
  SECTION("aggregation_only: server_result as the aggregation") {
    distribute_aggregate_form f = good;
    f.client_to_server_aggregation = result;
    const form_error e = broken(f);
    check_rule(e, "aggregation_only", "client_to_server_aggregation.lambda.result.block.local[0](_v2)");
    CHECK(e.problem() == "`federated_zip_at_server` is not an aggregation intrinsic");
  }
  SECTION("intrinsic_argument: federated_broadcast(_x), the parameter itself") {
    const std::uint32_t intrinsic = first_of(bcast, block_kind::intrinsic, "federated_broadcast");
    const std::uint32_t call = first_of(bcast, block_kind::call);
    const std::uint32_t selected = first_of(bcast, block_kind::selection);
    const std::string s = b::type_of(bcast, selected), c = b::type_of(bcast, call), out = b::struct_type({c});
    distribute_aggregate_form f = good;
    f.server_to_client_broadcast = read(b::lambda(
        "_x",
        b::block("_y", b::call(ctff::serialize(bcast, intrinsic), b::reference("_x", s), c),
                 b::structure({b::reference("_y", c)}, out), out),
        b::function_type(s, out)));
    REQUIRE(ctff::check(f.server_to_client_broadcast).empty());
    const form_error e = broken(f);
    check_rule(e, "intrinsic_argument", "server_to_client_broadcast.lambda.result.block.local[0](_y).call.argument");
    CHECK(e.problem() ==
          "a Reference; an intrinsic takes only Selections from the parameter `_x` and Literals");
  }
  SECTION("returns_locals: (_x -> (let _y=federated_broadcast(_x[0]) in <_y,_y>))") {
    const std::uint32_t intrinsic = first_of(bcast, block_kind::intrinsic, "federated_broadcast");
    const std::uint32_t call = first_of(bcast, block_kind::call);
    const std::string param = side(bcast, 0), c = b::type_of(bcast, call), out = b::struct_type({c, c});
    const std::string s = b::type_of(bcast, first_of(bcast, block_kind::selection));
    distribute_aggregate_form f = good;
    f.server_to_client_broadcast = read(b::lambda(
        "_x",
        b::block("_y", b::call(ctff::serialize(bcast, intrinsic), b::selection(b::reference("_x", param), 0, s), c),
                 b::structure({b::reference("_y", c), b::reference("_y", c)}, out), out),
        b::function_type(param, out)));
    REQUIRE(ctff::check(f.server_to_client_broadcast).empty());
    check_rule(broken(f), "returns_locals", "server_to_client_broadcast.lambda.result.block.result");
  }
  SECTION("broadcast_input, broadcast_output, aggregation_input, aggregation_output: a part of another form") {
    distribute_aggregate_form f = good;
    f.server_to_client_broadcast = other.server_to_client_broadcast;
    check_rule(broken(f), "broadcast_input", "server_to_client_broadcast");
    f = good;
    f.client_work = other.client_work;
    check_rule(broken(f), "broadcast_output", "client_work");
    f = good;
    f.client_to_server_aggregation = other.client_to_server_aggregation;
    check_rule(broken(f), "aggregation_input", "client_to_server_aggregation");
    f = good;
    f.server_result = other.server_result;
    const form_error e = broken(f);
    check_rule(e, "aggregation_output", "server_result");
    CHECK(e.problem() ==
          "server_result's parameter[1] of type <int32@SERVER> does not accept client_to_server_aggregation's "
          "result of type <<weights=float32[2],bias=float32>@SERVER,float32@SERVER>");
  }
  SECTION("intermediate_state: (_x -> <<_x>,<>>) as server_prepare") {
    const std::string s = side(good.server_prepare, 0), one = b::struct_type({s}), none = b::struct_type({}),
                      out = b::struct_type({one, none});
    distribute_aggregate_form f = good;
    f.server_prepare = read(b::lambda(
        "_x", b::structure({b::structure({b::reference("_x", s)}, one), b::structure({}, none)}, out),
        b::function_type(s, out)));
    REQUIRE(ctff::check(f.server_prepare).empty());
    check_rule(broken(f), "intermediate_state", "client_to_server_aggregation");
  }
  SECTION("server_state: a result of another state; the round's state not that of the parts") {
    // (_z -> <_z[1][1],_z[1][1]>): fedavg's server_result returning its float loss as the state.
    const ctff::type_desc& d = result.types;
    const std::uint32_t param = d.kid(result.node(result.root).type, 0), aggregated = d.kid(param, 1);
    const std::string p = ctff::detail::type_message(d, param), a = ctff::detail::type_message(d, aggregated),
                      loss = ctff::detail::type_message(d, d.kid(aggregated, 1)), out = b::struct_type({loss, loss});
    const std::string pick = b::selection(b::selection(b::reference("_z", p), 1, a), 1, loss);
    distribute_aggregate_form f = good;
    f.server_result = read(b::lambda("_z", b::structure({pick, pick}, out), b::function_type(p, out)));
    REQUIRE(ctff::check(f.server_result).empty());
    check_rule(broken(f), "server_state", "server_result");

    const computation_tree analytics = golden_round("analytics");
    const ctff::type_desc t = analytics.type_of(analytics.root);
    check_rule(broken(good, &t), "server_state", "server_prepare");
  }
  SECTION("client_data, server_output, round_type: the round's type against the parts") {
    const computation_tree unused = golden_round("broadcast_unused"), fedeval = golden_round("fedeval"),
                           one = golden_round("one_parameter");
    const ctff::type_desc t1 = unused.type_of(unused.root), t2 = fedeval.type_of(fedeval.root),
                          t3 = one.type_of(one.root);
    check_rule(broken(good, &t1), "client_data", "client_work");
    check_rule(broken(good, &t2), "server_output", "server_result");
    const form_error e = broken(good, &t3);
    check_rule(e, "round_type", "");
    CHECK(std::string(e.what()) ==
          "ctff: round_type: the round's type (int32@SERVER -> <int32@SERVER,int32@SERVER>) is not a function of a "
          "struct of two elements to a struct of two elements");
  }
}

TEST_CASE("forms: form_errors lists every rule broken, at most max_errors; composing a non-form throws") {
  const distribute_aggregate_form good = golden_form("fedavg");
  distribute_aggregate_form f = good;
  std::swap(f.server_prepare, f.server_result);  // both break rules of their own and links
  const std::vector<form_error> all = ctff::form_errors(f);
  std::set<std::string> rules;
  for (const form_error& e : all) rules.insert(e.rule());
  CHECK(rules.count("server_state") == 1);
  CHECK(rules.count("broadcast_input") == 1);
  CHECK(rules.count("intermediate_state") == 1);
  REQUIRE(all.size() >= 3);
  CHECK(ctff::form_errors(f, 2).size() == 2);
  const form_error e = broken(f);
  CHECK(std::string(e.what()).rfind("ctff: " + e.rule() + " at " + e.path() + ": ", 0) == 0);
  CHECK_THROWS_AS(ctff::from_distribute_aggregate_form(f), form_error);
}

// The extension of intrinsic_argument: federated_aggregate's functions stay in the aggregation.
TEST_CASE("forms: federated_aggregate's functions pass intrinsic_argument when they need only the parameter's unplaced values") {
  using ctff::detail::bb;
  using ctff::detail::form_context;
  // The golden round `aggregate` (TFF refuses to split it; ctff splits it): closed functions.
  const computation_tree round = golden_round("aggregate");
  const distribute_aggregate_form plain = ctff::to_distribute_aggregate_form(round);
  const ctff::type_desc round_type = round.type_of(round.root);
  CHECK(ctff::form_errors(plain).empty());
  CHECK(ctff::form_errors(plain, round_type).empty());
  CHECK_NOTHROW(ctff::from_distribute_aggregate_form(plain, round_type));

  // The same round with a zero computed on the server that accumulate captures:
  // (arg -> (let z=acc(<0,0>), s=federated_aggregate(<arg[1], z, (p -> acc(<p[0],z>)), merge,
  // report>) in <arg[0], s>)). Its accumulate refers to the aggregation's parameter, _v1[0][1].
  form_context c(round.types);
  const bb root = ctff::detail::from_tree(c, round);
  const bb call = root->a->elems[0].value;
  const auto& a = call->b->elems;
  const bb lit0 = a[1].value, acc = a[2].value, merge = a[3].value, report = a[4].value;
  const bb z = c.reference("z", lit0->type);
  const std::uint32_t pt = c.param_of(acc->type);
  const bb captures = c.lambda("p", pt, c.call(acc, c.unnamed_struct({c.selection(c.reference("p", pt), 0), z})));
  const bb agg = c.call(call->a, c.unnamed_struct({a[0].value, z, captures, merge, report}));
  const bb arg = c.reference(root->text, root->param_type);
  const distribute_aggregate_form good = ctff::to_distribute_aggregate_form(ctff::detail::to_tree(
      c, c.lambda(root->text, root->param_type,
                  c.block({{"z", c.call(acc, c.unnamed_struct({lit0, lit0}))}, {"s", agg}},
                          c.unnamed_struct({c.selection(arg, 0), c.reference("s", agg->type)})))));
  CHECK(ctff::form_errors(good).empty());
  CHECK(ctff::form_errors(good, round_type).empty());

  // The aggregation part again, with its accumulate replaced by `fn(p, x)`: p its parameter, x the
  // part's parameter.
  const computation_tree& part = good.client_to_server_aggregation;
  form_context pc(part.types);
  const bb lam = ctff::detail::from_tree(pc, part);
  const bb x = pc.reference(lam->text, lam->param_type);
  const bb aggregate = lam->a->elems[0].value;
  const bb old_acc = aggregate->b->elems[2].value;  // (p -> (let q=acc(<p[0],x[0][1]>) in q))
  const bb acc_fn = old_acc->a->elems[0].value->a;
  auto with_accumulate = [&](const bb& fn) {
    auto args = aggregate->b->elems;
    args[2].value = fn;
    const bb call2 = pc.call(aggregate->a, pc.struct_(args));
    distribute_aggregate_form f = good;
    f.client_to_server_aggregation = ctff::detail::to_tree(
        pc, pc.lambda(lam->text, lam->param_type,
                      pc.block({{lam->a->elems[0].name, call2}},
                               pc.unnamed_struct({pc.reference(lam->a->elems[0].name, call2->type)}))));
    REQUIRE(ctff::check(f.client_to_server_aggregation).empty());
    return f;
  };
  const std::uint32_t p_type = old_acc->param_type;
  const bb p = pc.reference("p", p_type);
  // Binding `u` to what is tested leaves accumulate's type as it is: (p -> (let u=... in acc(p))).
  auto accumulate_binding = [&](const bb& u) {
    return pc.lambda("p", p_type, pc.block({{"u", u}}, pc.call(acc_fn, p)));
  };
  const std::string at = "client_to_server_aggregation.lambda.result.block.local[0](" +
                         std::string(lam->a->elems[0].name) + ").call.argument.struct[2]";

  SECTION("a closed function, and one that captures the parameter's unplaced values, pass") {
    CHECK(ctff::form_errors(with_accumulate(pc.lambda("p", p_type, pc.call(acc_fn, p)))).empty());
    CHECK(ctff::form_errors(with_accumulate(accumulate_binding(pc.selection(pc.selection(x, 0), 1)))).empty());
  }
  SECTION("a free reference: the parameter whole") {
    const form_error e = broken(with_accumulate(accumulate_binding(x)));
    CHECK(e.rule() == "intrinsic_argument");
    CHECK(e.path() == at + ".lambda.result.block.local[0](u)");
    CHECK(e.problem().rfind("a free reference to `" + std::string(lam->text) + "`", 0) == 0);
  }
  SECTION("a federated value: the state, selected from the parameter") {
    const form_error e = broken(with_accumulate(accumulate_binding(pc.selection(pc.selection(x, 0), 0))));
    CHECK(e.rule() == "intrinsic_argument");
    CHECK(e.path() == at + ".lambda.result.block.local[0](u)");
    CHECK(e.problem().find("which holds a federated type") != std::string::npos);
  }
  SECTION("a federated value made inside: federated_value_at_server(p[0])") {
    const std::uint32_t u_type = pc.kid(p_type, 0);
    const bb at_server = pc.intrinsic(
        "federated_value_at_server", pc.function_type(u_type, pc.federated_type(u_type, ctff::placement_kind::server, true)));
    const form_error e = broken(with_accumulate(accumulate_binding(pc.call(at_server, pc.selection(p, 0)))));
    CHECK(e.rule() == "intrinsic_argument");
    CHECK(e.path() == at + ".lambda.result.block.local[0](u)");
    CHECK(e.problem().find("a Call of type int32@SERVER, which holds a federated type") == 0);
  }
  SECTION("federated_aggregate's zero keeps TFF's rule: a Call is refused") {
    // federated_aggregate's zero (not a function) still must be a Selection or a Literal.
    auto args = aggregate->b->elems;
    args[1].value = pc.call(acc_fn, pc.unnamed_struct({pc.selection(pc.selection(x, 0), 1), pc.selection(pc.selection(x, 0), 1)}));
    const bb call2 = pc.call(aggregate->a, pc.struct_(args));
    distribute_aggregate_form f = good;
    f.client_to_server_aggregation = ctff::detail::to_tree(
        pc, pc.lambda(lam->text, lam->param_type,
                      pc.block({{lam->a->elems[0].name, call2}},
                               pc.unnamed_struct({pc.reference(lam->a->elems[0].name, call2->type)}))));
    REQUIRE(ctff::check(f.client_to_server_aggregation).empty());
    const form_error e = broken(f);
    CHECK(e.rule() == "intrinsic_argument");
    CHECK(e.path() == "client_to_server_aggregation.lambda.result.block.local[0](" +
                          std::string(lam->a->elems[0].name) + ").call.argument.struct[1]");
  }
}
