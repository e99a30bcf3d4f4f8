// What needs the validator, the composition and the executor of <ctff/forms.hpp>, in one
// translation unit so that the forms and executor code is compiled once for all of it: the
// validator and the composition, select rounds split, and the semantics of a form (its round run
// whole, part by part and composed back). Each former file's tests and helpers stay together in a
// namespace of their own (forms_validate, forms_select, forms_semantics); the helpers they shared
// are below, and ctff_test's (forms_goldens.hpp).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/forms.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>
#include <nlohmann/json.hpp>

#include "forms_goldens.hpp"
#include "hex.hpp"

namespace {

using ctff::dtype;
using ctff::dynamic_value;
using ctff::placement_kind;
using ctff::value_kind;

// ---- comparing results ----------------------------------------------------------------------
// Equal element by element, numbers bit for bit; struct names not compared (the round's result
// type may name <S,X>, the form's does not). (Shared by forms_select and forms_semantics, as is
// at_server below.)
bool same_bits(const dynamic_value& a, const dynamic_value& b) {
  if (!a || !b) return !a && !b;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case value_kind::tensor: {
      const auto& x = a.tensor();
      const auto& y = b.tensor();
      if (x.dt != y.dt || x.shape != y.shape || x.elements.index() != y.elements.index()) return false;
      return std::visit(
          [&](const auto& xe) {
            using V = std::remove_cvref_t<decltype(xe)>;
            const V& ye = std::get<V>(y.elements);
            if constexpr (!std::is_same_v<typename V::value_type, std::string>) {  // (complex, halves: bits too)
              return xe.size() == ye.size() &&
                     (xe.empty() || std::memcmp(xe.data(), ye.data(), xe.size() * sizeof(xe[0])) == 0);
            } else {
              return xe == ye;
            }
          },
          x.elements);
    }
    case value_kind::struct_: {
      const auto& x = a.structure().elements;
      const auto& y = b.structure().elements;
      if (x.size() != y.size()) return false;
      for (std::size_t k = 0; k != x.size(); ++k)
        if (!same_bits(x[k], y[k])) return false;
      return true;
    }
    case value_kind::federated: {
      const auto& x = a.federated();
      const auto& y = b.federated();
      if (x.where != y.where || x.all_equal != y.all_equal || x.members.size() != y.members.size()) return false;
      for (std::size_t k = 0; k != x.members.size(); ++k)
        if (!same_bits(x.members[k], y.members[k])) return false;
      return true;
    }
    case value_kind::sequence: {
      const auto& x = a.sequence().elements;
      const auto& y = b.sequence().elements;
      if (x.size() != y.size()) return false;
      for (std::size_t k = 0; k != x.size(); ++k)
        if (!same_bits(x[k], y[k])) return false;
      return true;
    }
    default: return false;
  }
}

dynamic_value at_server(dynamic_value v) { return ctff::make_federated(placement_kind::server, true, {std::move(v)}); }

}  // namespace

// =============================================================================================
// The validator and the composition
// =============================================================================================
// The validator of DistributeAggregateForms (forms/validate.hpp) and the composition
// (forms/compose.hpp): TFF's forms pass and compose to TFF's bytes; each rule of
// forms/form_rules.hpp is broken once, by a form altered from one of TFF's.
namespace forms_validate {

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
    for (const ctff::check_error& e : ctff::check(plain)) FAIL_CHECK(e.message());
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
  SECTION("part_check: an error in a part calling TFF's federated_secure_modular_sum") {
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

}  // namespace forms_validate

// =============================================================================================
// Select rounds
// =============================================================================================
// Select rounds split (ctff's extension over TFF, docs/forms_conversion.md): TFF refuses every
// round with federated_select. ctff splits those whose keys reach the clients from the server —
// keys broadcast from the state (select_keys_broadcast) or a constant made at the clients
// (select_keys_constant, its keys rewritten as a broadcast of the constant) — and a
// federated_secure_select variant; keys from the client data stay refused. The parts pass the
// checker and the validator, and the round, its parts run one by one (simulate_deployment) and
// the form composed back give the same result bit for bit, and what a plain loop computes.
namespace forms_select {

namespace {

std::string renamed(const ctff::computation_tree& t) {
  return ctff::compact(ctff::rename_variables_in_preorder(t));
}

// The golden round with its federated_select calls turned into federated_secure_select (the same
// signature).
ctff::computation_tree as_secure_select(const ctff::computation_tree& t) {
  ctff::detail::form_context c(t.types);
  const ctff::detail::bb r = ctff::detail::from_tree(c, t);
  const ctff::detail::bb s =
      ctff::detail::transform_postorder(c, r, [&](const ctff::detail::bb& x) -> ctff::detail::bb_change {
        if (x->kind == ctff::block_kind::intrinsic && x->text == "federated_select")
          return {c.intrinsic("federated_secure_select", x->type), true};
        return {x, false};
      }).node;
  return ctff::detail::to_tree(c, s);
}

struct select_round {
  std::string name;
  ctff::computation_tree round;
};
std::vector<select_round> select_rounds() {
  return {{"select_keys_broadcast", ctff_test::golden_round("select_keys_broadcast")},
          {"select_keys_constant", ctff_test::golden_round("select_keys_constant")},
          {"secure select_keys_broadcast", as_secure_select(ctff_test::golden_round("select_keys_broadcast"))}};
}

// ---- the opaque functions, bound by key ------------------------------------------------------
// slice: (<float32[8], int32> -> float32), the table's element at the key (0 out of range);
// reduce_selected: ({float32}* -> float32), the sum of the sequence in order from 0.
// (The functions run on the executor's threads: no Catch2 assertion there; get<> throws on a
// value of another dtype, which the run reports.)
const std::vector<float>& floats_of(const dynamic_value& v) { return v.tensor().get<dtype::float32>(); }
void bind_select_functions(ctff::executor& ex, const ctff::computation_tree& t) {
  for (std::uint32_t i : ctff::opaque_nodes(t)) {
    const std::string key = ctff::binding_key(t, i);
    if (ex.bound(key)) continue;
    const std::uint32_t fn = t.node(i).type;
    REQUIRE(t.types.node(fn).has_param);
    const bool reduce = t.types.node(t.types.kid(fn, 0)).kind == ctff::type_kind::sequence;
    if (reduce) {
      ex.bind(key, [](const dynamic_value* arg) {
        float sum = 0;
        for (const dynamic_value& e : arg->sequence().elements) sum += floats_of(e).at(0);
        return ctff::make_scalar<dtype::float32>(sum);
      });
    } else {
      ex.bind(key, [](const dynamic_value* arg) {
        const auto& table = floats_of(arg->structure().elements.at(0));
        const std::int32_t k = arg->structure().elements.at(1).tensor().get<dtype::int32>().at(0);
        const float v = k >= 0 && static_cast<std::size_t>(k) < table.size() ? table[static_cast<std::size_t>(k)] : 0.0f;
        return ctff::make_scalar<dtype::float32>(v);
      });
    }
  }
}

// ---- arguments (at_server: the TU's, shared with forms_semantics) --------------------------
// The state <table=float32[8], max_key=int32[, keys=int32[3]]>.
dynamic_value make_state(const std::vector<float>& table, std::int32_t max_key, const std::vector<std::int32_t>* keys) {
  std::vector<dynamic_value> e{ctff::make_tensor<dtype::float32>(ctff::stored_t<dtype::float32>(table.begin(), table.end()), {8}),
                               ctff::make_scalar<dtype::int32>(max_key)};
  std::vector<std::string> names{"table", "max_key"};
  if (keys) {
    e.push_back(ctff::make_tensor<dtype::int32>(ctff::stored_t<dtype::int32>(keys->begin(), keys->end()), {3}));
    names.emplace_back("keys");
  }
  return at_server(ctff::make_struct_value(std::move(e), std::move(names)));
}
dynamic_value client_values(const std::vector<float>& v) {
  std::vector<dynamic_value> m;
  for (float x : v) m.push_back(ctff::make_scalar<dtype::float32>(x));
  return ctff::make_federated(placement_kind::clients, false, std::move(m));
}
bool has_keys(const ctff::computation_tree& round) {
  const std::string t = round.type_string(round.root);
  return t.find("keys=") != std::string::npos;
}

}  // namespace

TEST_CASE("forms select: rounds whose keys come from the server split (beyond TFF)") {
  const std::string broadcast_part =
      "(_v1 -> (let _v2=federated_broadcast(_v1[0]),_v3=federated_select(<_v2,_v1[1],_v1[2],comp#3b31cc1>) in "
      "<_v2,_v3>))";
  for (const select_round& r : select_rounds()) {
    INFO(r.name);
    ctff::distribute_aggregate_form f;
    REQUIRE_NOTHROW(f = ctff::to_distribute_aggregate_form(r.round));
    for (const ctff::computation_tree* p : {&f.server_prepare, &f.server_to_client_broadcast, &f.client_work,
                                            &f.client_to_server_aggregation, &f.server_result}) {
      const auto errors = ctff::check(*p);
      CHECK(errors.empty());
      for (const auto& e : errors) UNSCOPED_INFO(e.message());
    }
    const auto errors = ctff::form_errors(f, r.round.type_of(r.round.root));
    CHECK(errors.empty());
    for (const auto& e : errors) UNSCOPED_INFO(e.what());
    CHECK_NOTHROW(ctff::validate(f));

    // The broadcast part: the keys broadcast, then the select taking them, both in B_O.
    std::string expected = broadcast_part;
    if (r.name.starts_with("secure"))
      expected.replace(expected.find("federated_select"), 16, "federated_secure_select");
    CHECK(renamed(f.server_to_client_broadcast) == expected);
    CHECK(renamed(f.client_work) ==
          "(_v1 -> (let _v2=federated_map(<comp#693b1df0,_v1[1][1]>) in "
          "<intrinsic_args_from_before_comp=<_v2>,intermediate_state=<>>)[0])");
    CHECK(renamed(f.client_to_server_aggregation) == "(_v1 -> (let _v2=federated_sum(_v1[1][0]) in <_v2>))");
    CHECK(renamed(f.server_result) == "(_v1 -> (let  in <_v1[0][0],_v1[1][0]>))");
    // B_I: the keys (broadcast from the state, or the constant made at the server), max_key and
    // the table, all computed by server_prepare; T the state.
    if (r.name == "select_keys_constant") {
      CHECK(renamed(f.server_prepare) ==
            "(_v1 -> (let _v2=federated_value_at_server([0 1 2]),_v3=federated_apply(<(_v4 -> _v4[1]),_v1>),"
            "_v5=federated_apply(<(_v6 -> _v6[0]),_v1>) in "
            "<intrinsic_args_from_before_comp=<_v2,_v3,_v5>,intermediate_state=<_v1>>))");
    } else {
      CHECK(renamed(f.server_prepare) ==
            "(_v1 -> (let _v2=federated_apply(<(_v3 -> _v3[2]),_v1>),_v4=federated_apply(<(_v5 -> _v5[1]),_v1>),"
            "_v6=federated_apply(<(_v7 -> _v7[0]),_v1>) in "
            "<intrinsic_args_from_before_comp=<_v2,_v4,_v6>,intermediate_state=<_v1>>))");
    }
    const auto& b = f.server_to_client_broadcast;
    CHECK(b.type_string(b.root) ==
          "(<int32[3]@SERVER,int32@SERVER,float32[8]@SERVER> -> <int32[3]@CLIENTS,{float32*}@CLIENTS>)");
    // Composed back, it is a round of the original's type.
    const ctff::computation_tree composed = ctff::from_distribute_aggregate_form(f, r.round.type_of(r.round.root));
    CHECK(ctff::check(composed).empty());
    CHECK(composed.type_string(composed.root) == r.round.type_string(r.round.root));
  }
}

TEST_CASE("forms select: keys from the client data stay refused, and why") {
  for (const char* name : {"select_keys_from_clients", "secure_select_keys_from_clients"}) {
    INFO(name);
    try {
      ctff::to_distribute_aggregate_form(ctff_test::golden_round(name));
      FAIL("split");
    } catch (const ctff::form_error& e) {
      CHECK(e.rule() == "unavailable_inputs");
      CHECK(std::string(e.what()).find("no part of the form runs at the clients before the broadcast") !=
            std::string::npos);
    }
  }
}

TEST_CASE("forms select: the validator takes a select's keys only from an earlier broadcast of its part") {
  // The split form of select_keys_broadcast with its broadcast part altered: the two calls
  // swapped (the select refers to a local bound after it: the checker's error), and the keys'
  // broadcast written inside the select's argument (a Call: intrinsic_argument).
  const ctff::distribute_aggregate_form f =
      ctff::to_distribute_aggregate_form(ctff_test::golden_round("select_keys_broadcast"));
  ctff::detail::form_context c(f.server_to_client_broadcast.types);
  using ctff::detail::bb;
  const bb lam = ctff::detail::from_tree(c, f.server_to_client_broadcast);
  const bb& block = lam->a;
  REQUIRE(block->elems.size() == 2);
  {
    ctff::distribute_aggregate_form g = f;
    std::vector<ctff::detail::bb_elem> locals{block->elems[1], block->elems[0]};
    g.server_to_client_broadcast = ctff::detail::to_tree(c, c.lambda(lam->text, lam->param_type, c.block(locals, block->a)));
    const auto errors = ctff::form_errors(g);
    REQUIRE(!errors.empty());
    CHECK(errors.front().rule() == "part_check");
  }
  // A select whose keys are computed in its argument (a Call, not an earlier local's result).
  {
    const bb bcast = block->elems[0].value;
    const bb select = block->elems[1].value;
    std::vector<ctff::detail::bb_elem> args = select->b->elems;
    args[0] = {std::string(), bcast};
    const bb call = c.call(select->a, c.struct_(args));
    ctff::distribute_aggregate_form g = f;
    g.server_to_client_broadcast = ctff::detail::to_tree(
        c, c.lambda(lam->text, lam->param_type, c.block({{"s", call}}, c.unnamed_struct({c.reference("s", call->type)}))));
    const auto errors = ctff::form_errors(g);
    REQUIRE(!errors.empty());
    CHECK(errors.front().rule() == "intrinsic_argument");
    CHECK(errors.front().path().starts_with("server_to_client_broadcast.lambda.result.block.local[0](s).call.argument"));
  }
}

TEST_CASE("forms select: the round, its parts one by one and the form composed back agree, 0-8 clients, 1-8 threads") {
  const std::size_t plan[][2] = {{0, 1}, {1, 8}, {2, 3}, {3, 2}, {5, 1}, {8, 8}, {7, 4}};
  std::size_t runs = 0;
  for (const select_round& r : select_rounds()) {
    const ctff::distribute_aggregate_form f = ctff::to_distribute_aggregate_form(r.round);
    const ctff::computation_tree composed = ctff::from_distribute_aggregate_form(f, r.round.type_of(r.round.root));
    const ctff::computation_tree plain = ctff::from_distribute_aggregate_form(f);
    for (std::size_t k = 0; k != std::size(plan); ++k) {
      const std::size_t clients = plan[k][0];
      const auto threads = static_cast<unsigned>(plan[k][1]);
      INFO(r.name << ", " << clients << " clients, " << threads << " threads");
      std::mt19937 rng(static_cast<std::mt19937::result_type>(4600 + 17 * k + r.name.size()));
      auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
      std::vector<float> table(8), values(clients);
      for (float& x : table) x = static_cast<float>(uniform(-1000, 1000)) / static_cast<float>(uniform(1, 97));
      for (float& x : values) x = static_cast<float>(uniform(-1000, 1000)) / static_cast<float>(uniform(1, 97));
      const std::vector<std::int32_t> keys{uniform(0, 7), uniform(0, 7), uniform(0, 7)};
      const dynamic_value state = make_state(table, 8, has_keys(r.round) ? &keys : nullptr);
      const dynamic_value data = client_values(values);
      ctff::executor ex({.threads = threads});
      for (const ctff::computation_tree* t : {&r.round, &f.server_prepare, &f.server_to_client_broadcast,
                                              &f.client_work, &f.client_to_server_aggregation, &f.server_result,
                                              &composed, &plain})
        bind_select_functions(ex, *t);
      const dynamic_value whole = ex.run(r.round, ctff::make_struct_value({state, data}));
      const dynamic_value parts = ctff::simulate_deployment(ex, f, state, data);
      const dynamic_value back = ex.run(composed, ctff::make_struct_value({state, data}));
      const dynamic_value back_plain = ex.run(plain, ctff::make_struct_value({state, data}));
      INFO("round: " << whole << "\nparts: " << parts << "\ncomposed: " << back);
      CHECK(same_bits(whole, parts));
      CHECK(same_bits(whole, back));
      CHECK(same_bits(whole, back_plain));
      CHECK(same_bits(whole.structure().elements.at(0), state));  // the state, unchanged
      ++runs;
    }
  }
  CHECK(runs == 3 * std::size(plan));
}

TEST_CASE("forms select: run part by part, a select round gives what a plain loop computes") {
  std::mt19937 rng(46);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (const select_round& r : select_rounds()) {
    INFO(r.name);
    const std::size_t clients = 6;
    // Whole numbers: every sum below is exact, whatever order a run adds in.
    std::vector<float> table(8), values(clients);
    for (float& x : table) x = static_cast<float>(uniform(-100, 100));
    for (float& x : values) x = static_cast<float>(uniform(-100, 100));
    const std::vector<std::int32_t> keys =
        has_keys(r.round) ? std::vector<std::int32_t>{uniform(0, 7), uniform(0, 7), uniform(0, 7)}
                          : std::vector<std::int32_t>{0, 1, 2};  // (select_keys_constant's literal)
    float expected = 0;
    for (std::size_t i = 0; i != clients; ++i) {  // every client selects the same keys
      float selected = 0;
      for (std::int32_t k : keys) selected += table[static_cast<std::size_t>(k)];
      expected += selected;
    }
    const ctff::distribute_aggregate_form f = ctff::to_distribute_aggregate_form(r.round);
    ctff::executor ex({.threads = 3});
    for (const ctff::computation_tree* t : {&f.server_prepare, &f.server_to_client_broadcast, &f.client_work,
                                            &f.client_to_server_aggregation, &f.server_result})
      bind_select_functions(ex, *t);
    const dynamic_value out =
        ctff::simulate_deployment(ex, f, make_state(table, 8, has_keys(r.round) ? &keys : nullptr), client_values(values));
    const dynamic_value& x = out.structure().elements.at(1);
    REQUIRE(x.is(value_kind::federated));
    REQUIRE(x.federated().members.at(0).is(value_kind::tensor));
    CHECK(floats_of(x.federated().members.at(0)).at(0) == expected);
  }
}

TEST_CASE("forms select: the split joins only a call that takes another's result directly, and keeps block order") {
  using ctff::detail::bb;
  ctff::detail::form_context c;
  const std::uint32_t i32 = c.types.add(ctff::type_node{.kind = ctff::type_kind::tensor, .dt = dtype::int32});
  const std::uint32_t at_s = c.federated_type(i32, placement_kind::server);
  const std::uint32_t at_c_same = c.federated_type(i32, placement_kind::clients, true);
  const std::uint32_t at_c = c.federated_type(i32, placement_kind::clients);
  const std::uint32_t param_t = c.struct_type({{"state", at_s}, {"data", at_c}});
  // (The pass looks at URIs and references only: the intrinsics' types are simplified.)
  const bb bcast = c.intrinsic("federated_broadcast", c.function_type(at_s, at_c_same));
  const bb select_s = c.intrinsic("federated_select", c.function_type(at_s, at_c));
  const bb select_c = c.intrinsic("federated_select", c.function_type(at_c_same, at_c));
  const bb compute_c = c.intrinsic("federated_zip_at_clients", c.function_type(at_c_same, at_c_same));
  const bb p = c.reference("p", param_t);
  auto ref = [&](const char* n, std::uint32_t t) { return c.reference(n, t); };
  auto round = [&](std::vector<ctff::detail::bb_elem> locals, const bb& last) {
    return c.lambda("p", param_t, c.block(std::move(locals), c.unnamed_struct({c.selection(p, 0), last})));
  };
  const std::set<std::string> uris{"federated_broadcast", "federated_select", "federated_secure_select"};
  auto rule_of = [&](const bb& r, bool join) {
    try {
      ctff::detail::split_by_intrinsics(c, r, uris, {{0}, {1}}, {}, {{1}}, join);
    } catch (const ctff::form_error& e) {
      return e.rule();
    }
    return std::string();
  };
  // s0 = select(state) (independent), k = broadcast(state), s1 = select(k): joined.
  const bb direct = round({{"s0", c.call(select_s, c.selection(p, 0))},
                           {"k", c.call(bcast, c.selection(p, 0))},
                           {"s1", c.call(select_c, ref("k", at_c_same))}},
                          c.unnamed_struct({ref("s0", at_c), ref("s1", at_c)}));
  CHECK(rule_of(direct, false) == "intrinsics_not_alignable");  // TFF's split
  CHECK(rule_of(direct, true).empty());
  const auto parts = ctff::detail::split_by_intrinsics(c, direct, uris, {{0}, {1}}, {}, {{1}}, true);
  const bb& block = parts.intrinsic->a;
  REQUIRE(block->kind == ctff::block_kind::block);
  std::vector<std::string> order;
  for (const auto& l : block->elems) order.push_back(l.value->a->text);
  // Block order (TFF's grouping by URI would put the dependent select before the broadcast).
  CHECK(order == std::vector<std::string>{"federated_select", "federated_broadcast", "federated_select"});
  // k computed on at the clients before the select: no part can hold that computation.
  const bb through_map = round({{"k", c.call(bcast, c.selection(p, 0))},
                                {"m", c.call(compute_c, ref("k", at_c_same))},
                                {"s1", c.call(select_c, ref("m", at_c_same))}},
                               ref("s1", at_c));
  CHECK(rule_of(through_map, true) == "intrinsics_not_alignable");
}

}  // namespace forms_select

// =============================================================================================
// The semantics of a form
// =============================================================================================
// A DistributeAggregateForm computes its round: for TFF's forms (tests/forms/goldens), on seeded
// random arguments, the original round, the five parts run one by one (simulate_deployment) and
// the form composed back (from_distribute_aggregate_form, with and without the round's type)
// give the same result, integers exactly and floats bit for bit, for 0-8 clients and 1-8 threads;
// the same for federated_aggregate rounds, which ctff splits beyond TFF (the golden `aggregate` and
// a traced round whose zero is computed on the server); and for a few rounds the result a plain
// C++ loop computes. The rounds' opaque functions (TensorFlow stand-ins) are bound by key
// to one deterministic function of their argument (`stand_in`).
namespace forms_semantics {

namespace {

using ctff::type_desc;
using ctff::type_kind;

// ---- the stand-in for every opaque function ----------------------------------------------------
// Folds every number of the argument, in order, into an integer (x31 + v, wrapping) and a float
// (x0.5 + v); the result, of the function's result type, holds at leaf element k the integer
// + k + 1 (integer dtypes, wrapping) or the float + k/4 + (integer mod 7) (float dtypes). So an
// (int32 -> int32) function is x + 1 and a (float32 -> int32) function is 1.
struct folded {
  std::uint64_t i = 0;
  float f = 0;
};

void fold(const dynamic_value& v, folded& acc) {
  if (!v) return;
  switch (v.kind()) {
    case value_kind::tensor:
      std::visit(
          [&](const auto& elems) {
            using E = typename std::remove_cvref_t<decltype(elems)>::value_type;
            for (const auto& e : elems) {
              if constexpr (std::is_floating_point_v<E>) {
                acc.f = acc.f * 0.5f + static_cast<float>(e);
              } else if constexpr (std::is_integral_v<E>) {
                acc.i = acc.i * 31 + static_cast<std::uint64_t>(e);
              } else {
                FAIL("a stand-in argument of an unexpected dtype");
              }
            }
          },
          v.tensor().elements);
      return;
    case value_kind::struct_:
      for (const dynamic_value& e : v.structure().elements) fold(e, acc);
      return;
    case value_kind::sequence:
      for (const dynamic_value& e : v.sequence().elements) fold(e, acc);
      return;
    case value_kind::federated:
      for (const dynamic_value& e : v.federated().members) fold(e, acc);
      return;
    default: FAIL("a stand-in argument of an unexpected kind");
  }
}

// A value of type ty: leaf(std::integral_constant<dtype, D>) makes each tensor element (in the
// dtype's stored type), length() each sequence's length; a {T}@CLIENTS value has `clients`
// members. (Unknown dimensions are 2.)
template <class Leaf, class Length>
dynamic_value value_of_type(const type_desc& d, std::uint32_t ty, std::size_t clients, Leaf& leaf, Length& length) {
  const ctff::type_node& n = d.node(ty);
  switch (n.kind) {
    case type_kind::tensor: {
      std::vector<std::int64_t> shape;
      std::size_t count = 1;
      for (std::uint32_t k = 0; !n.unknown_rank && k != n.dim_count; ++k) {
        shape.push_back(d.dims[n.dim_begin + k] < 0 ? 2 : d.dims[n.dim_begin + k]);
        count *= static_cast<std::size_t>(shape.back());
      }
      return ctff::visit_dtype(n.dt, [&](auto dt) -> dynamic_value {
        constexpr dtype D = decltype(dt)::value;
        ctff::stored_t<D> e;
        for (std::size_t j = 0; j != count; ++j) e.push_back(leaf(dt));
        return ctff::make_tensor<D>(std::move(e), std::move(shape));
      });
    }
    case type_kind::struct_: {
      std::vector<dynamic_value> e;
      std::vector<std::string> names;
      for (std::uint32_t j = 0; j != n.kid_count; ++j) {
        e.push_back(value_of_type(d, d.kid(ty, j), clients, leaf, length));
        names.emplace_back(d.name(d.kid(ty, j)));
      }
      return ctff::make_struct_value(std::move(e), std::move(names));
    }
    case type_kind::sequence: {
      std::vector<dynamic_value> e;
      for (std::size_t j = length(); j-- > 0;) e.push_back(value_of_type(d, d.kid(ty, 0), clients, leaf, length));
      return ctff::make_sequence(std::move(e));
    }
    case type_kind::federated: {
      const bool listed = n.where == placement_kind::clients && !n.all_equal;
      std::vector<dynamic_value> m;
      for (std::size_t j = 0, count = listed ? clients : 1; j != count; ++j)
        m.push_back(value_of_type(d, d.kid(ty, 0), clients, leaf, length));
      return ctff::make_federated(n.where, !listed, std::move(m));
    }
    default: FAIL("a value of an unexpected type");
  }
  return {};
}

// The stand-in's result of type ty for the folded argument acc.
dynamic_value stand_in_result(const type_desc& d, std::uint32_t ty, const folded& acc) {
  std::uint64_t k = 0;
  auto integer = [&] { return acc.i + k++ + 1; };
  auto real = [&] { return acc.f + static_cast<float>(k++) * 0.25f + static_cast<float>(acc.i % 7); };
  auto leaf = [&](auto dt) -> typename ctff::stored_t<decltype(dt)::value>::value_type {
    using E = ctff::element_t<decltype(dt)::value>;
    if constexpr (std::is_same_v<E, bool>) {
      return static_cast<unsigned char>(integer() & 1);
    } else if constexpr (std::is_integral_v<E>) {
      return static_cast<E>(integer());
    } else if constexpr (std::is_floating_point_v<E>) {
      return static_cast<E>(real());
    } else {
      FAIL("a stand-in result of an unexpected dtype");
      return {};
    }
  };
  auto length = [&] { return static_cast<std::size_t>(acc.i % 3); };
  return value_of_type(d, ty, 0, leaf, length);
}

// Binds every opaque function of t on ex.
void bind_stand_ins(ctff::executor& ex, const ctff::computation_tree& t) {
  for (std::uint32_t i : ctff::opaque_nodes(t)) {
    const std::string key = ctff::binding_key(t, i);
    if (ex.bound(key)) continue;
    auto types = std::make_shared<const type_desc>(t.types);
    const std::uint32_t fn = t.node(i).type;
    const std::uint32_t result = types->kid(fn, types->node(fn).has_param ? 1 : 0);
    ex.bind(key, [types, result](const dynamic_value* arg) {
      folded acc;
      if (arg) fold(*arg, acc);
      return stand_in_result(*types, result, acc);
    });
  }
}

// ---- random arguments -----------------------------------------------------------------------
dynamic_value random_value(const type_desc& d, std::uint32_t ty, std::mt19937& rng, std::size_t clients) {
  auto small = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto ratio = [&] { return static_cast<double>(small(-1000, 1000)) / small(1, 97); };
  auto leaf = [&](auto dt) -> typename ctff::stored_t<decltype(dt)::value>::value_type {
    constexpr dtype D = decltype(dt)::value;
    using E = ctff::element_t<D>;
    if constexpr (std::is_same_v<E, bool>) {
      return static_cast<unsigned char>(small(0, 1));
    } else if constexpr (std::is_integral_v<E>) {
      return static_cast<E>(small(0, 20));  // (small, not negative: mostly within secure sums' bounds)
    } else if constexpr (std::is_floating_point_v<E>) {
      return static_cast<E>(ratio());  // (any bits: the four ways must agree on them)
    } else if constexpr (D == dtype::float16) {
      return E{static_cast<std::uint16_t>(small(0, 0x7bff))};  // (finite, not negative)
    } else if constexpr (D == dtype::bfloat16) {
      return E{static_cast<std::uint16_t>(small(0, 0x7f7f))};
    } else if constexpr (D == dtype::str) {
      std::string x = "s";
      x += std::to_string(small(0, 99));
      return x;
    } else {  // complex
      using R = typename E::value_type;
      return E(static_cast<R>(ratio()), static_cast<R>(ratio()));
    }
  };
  auto length = [&] { return static_cast<std::size_t>(small(0, 3)); };
  return value_of_type(d, ty, clients, leaf, length);
}

struct prepared_round {
  ctff::computation_tree round;
  ctff::distribute_aggregate_form form;
  ctff::computation_tree composed;  // with the round's type (TFF's bytes)
  ctff::computation_tree plain;     // without: its parameter unnamed
  ctff::computation_tree dominant;  // the round in call-dominant form: without its unused values
};
void compose(prepared_round& p) {
  p.composed = ctff::from_distribute_aggregate_form(p.form, p.round.type_of(p.round.root));
  p.plain = ctff::from_distribute_aggregate_form(p.form);
  p.dominant = ctff::to_call_dominant(p.round);
}
prepared_round prepare(const std::string& name) {
  prepared_round p{ctff_test::golden_round(name), ctff_test::golden_form(name), {}, {}, {}};
  compose(p);
  return p;
}
void bind_all(ctff::executor& ex, const prepared_round& p) {
  bind_stand_ins(ex, p.round);
  for (const ctff::computation_tree* t :
       {&p.form.server_prepare, &p.form.server_to_client_broadcast, &p.form.client_work,
        &p.form.client_to_server_aggregation, &p.form.server_result, &p.composed, &p.plain, &p.dominant})
    bind_stand_ins(ex, *t);
}

template <dtype D>
auto scalar_of(const dynamic_value& v) {
  const dynamic_value& x = v.is(value_kind::federated) ? v.federated().members.front() : v;
  REQUIRE(x.is(value_kind::tensor));
  return x.tensor().get<D>().at(0);
}
dynamic_value at_clients(std::vector<dynamic_value> v) {
  return ctff::make_federated(placement_kind::clients, false, std::move(v));
}

// (clients, threads): each golden round runs three of them, the rounds between them all of them.
constexpr std::size_t plan[][2] = {{0, 1}, {1, 8}, {2, 3}, {3, 2}, {4, 5}, {5, 1}, {6, 7}, {7, 4}, {8, 8}};

// Runs p four ways on random arguments for plan[pick] (seeded by r and pick): the round,
// simulate_deployment, the composition with and without the round's type; all must agree bit for
// bit, or all fail. Except for one difference: a form, like TFF's, leaves out the values its round
// computes and never uses, so where the round fails only in such a value (a secure sum out of its
// bounds, a division by zero) the parts may succeed: they must then agree with the round in
// call-dominant form, which leaves them out too (`dead`). Counts the runs in `compared`, `failed`
// or `dead`.
struct run_counts {
  std::size_t compared = 0, failed = 0, dead = 0;
};
void four_ways(const prepared_round& p, const std::string& name, std::size_t r, std::size_t pick, run_counts& n) {
  const type_desc& types = p.round.types;
  const std::uint32_t param = types.kid(p.round.node(p.round.root).type, 0);
  const std::size_t clients = plan[pick][0];
  const auto threads = static_cast<unsigned>(plan[pick][1]);
  INFO("round " << name << ", " << clients << " clients, " << threads << " threads");
  std::mt19937 rng(static_cast<std::mt19937::result_type>(1000 * r + pick));
  const dynamic_value state = random_value(types, types.kid(param, 0), rng, clients);
  const dynamic_value data = random_value(types, types.kid(param, 1), rng, clients);
  ctff::executor ex({.threads = threads});
  bind_all(ex, p);
  auto outcome = [&](auto run) -> std::pair<dynamic_value, std::string> {
    try {
      return {run(), ""};
    } catch (const ctff::execution_error& e) {
      return {dynamic_value{}, e.problem()};
    }
  };
  const dynamic_value arg = ctff::make_struct_value({state, data});
  const auto whole = outcome([&] { return ex.run(p.round, arg); });
  const auto parts = outcome([&] { return ctff::simulate_deployment(ex, p.form, state, data); });
  const auto composed = outcome([&] { return ex.run(p.composed, arg); });
  const auto plain = outcome([&] { return ex.run(p.plain, arg); });
  const bool dead = !whole.first && parts.first;
  const auto& expected = dead ? outcome([&] { return ex.run(p.dominant, arg); }) : whole;
  INFO("round: " << whole.first << " " << whole.second << "\nparts: " << parts.first << " " << parts.second
                 << "\ncomposed: " << composed.first << " " << composed.second
                 << "\nexpected: " << expected.first << " " << expected.second);
  CHECK(same_bits(expected.first, parts.first));
  CHECK(same_bits(expected.first, composed.first));
  CHECK(same_bits(expected.first, plain.first));
  CHECK(expected.second.empty() == parts.second.empty());
  CHECK(expected.second.empty() == composed.second.empty());
  CHECK(expected.second.empty() == plain.second.empty());
  ++(dead ? n.dead : whole.first ? n.compared : n.failed);
}

// ---- federated_aggregate rounds (split by ctff: TFF refuses them) -----------------------------
// A round TFF has no parts for: its form is ctff's split, which the validator must accept.
prepared_round prepare_split(ctff::computation_tree round) {
  prepared_round p{std::move(round), {}, {}, {}, {}};
  p.form = ctff::to_distribute_aggregate_form(p.round);
  REQUIRE(ctff::form_errors(p.form, p.round.type_of(p.round.root)).empty());
  compose(p);
  return p;
}

using i32 = std::int32_t;
// The zero: computed in the round from a constant, on the server side (federated_aggregate's zero
// is unplaced, so it cannot come from the S@SERVER state): the splitter computes it in
// server_prepare and passes it to the aggregation through T.
constexpr auto make_zero = ctff::computation<"make_zero", i32>([](auto c) { return c * 2 + 1; });
constexpr auto accumulate = ctff::computation<"accumulate", i32, i32>([](auto a, auto v) { return a * 3 + v; });
constexpr auto merge = ctff::computation<"merge", i32, i32>([](auto a, auto b) { return a + b; });
constexpr auto report = ctff::computation<"report", i32>([](auto a) { return a * 2; });
constexpr auto add = ctff::computation<"add", i32, i32>([](auto a, auto b) { return a + b; });
// <state + X, X>, X = report(accumulate(...accumulate(make_zero(7), v0)..., vN-1)).
constexpr auto aggregate_round = ctff::computation<"aggregate_round", ctff::at_server<i32>, ctff::at_clients<i32>>(
    [](auto state, auto values) {
      auto total = ctff::federated_aggregate(values, make_zero(7), accumulate, merge, report);
      return ctff::make_struct(ctff::federated_map(add, ctff::federated_zip(ctff::make_struct(state, total))),
                               total);
    });

ctff::computation_tree traced_aggregate_round() { return ctff::read_computation(aggregate_round.bytes().str()); }

// aggregate_round with an accumulate that captures the zero z (tracing makes no closures, so it is
// built from the traced round's blocks): (p -> accumulate(<p[0], merge(<p[1], z>)>)), so that
// X = report(... accumulate(acc, v + z) ...).
ctff::computation_tree capturing_aggregate_round() {
  using ctff::detail::bb;
  const ctff::computation_tree t = traced_aggregate_round();
  ctff::detail::form_context c(t.types);
  const bb root = ctff::detail::from_tree(c, t);
  std::vector<ctff::detail::bb_elem> locals = root->a->elems;
  REQUIRE(locals.size() >= 2);
  const ctff::detail::bb_elem& zero = locals[0];
  const bb aggregate = locals[1].value;
  REQUIRE(aggregate->kind == ctff::block_kind::call);
  auto args = aggregate->b->elems;
  const bb acc = args[2].value, mrg = args[3].value;
  const std::uint32_t pt = c.param_of(acc->type);
  const bb p = c.reference("p", pt);
  const bb z = c.reference(zero.name, zero.value->type);
  args[2].value = c.lambda(
      "p", pt, c.call(acc, c.unnamed_struct({c.selection(p, 0), c.call(mrg, c.unnamed_struct({c.selection(p, 1), z}))})));
  locals[1].value = c.call(aggregate->a, c.struct_(args));
  ctff::computation_tree out =
      ctff::detail::to_tree(c, c.lambda(root->text, root->param_type, c.block(locals, root->a->a)));
  REQUIRE(ctff::check(out).empty());
  return out;
}

// What aggregate_round computes, by a plain loop (`captured`: the capturing variant).
std::pair<i32, i32> aggregate_round_expected(i32 state, const std::vector<i32>& values, bool captured) {
  const i32 zero = 7 * 2 + 1;
  i32 acc = zero;
  for (i32 v : values) acc = acc * 3 + (captured ? v + zero : v);
  const i32 x = acc * 2;
  return {state + x, x};
}

}  // namespace

TEST_CASE("forms: the round, its parts one by one and the form composed back agree, 0-8 clients, 1-8 threads") {
  const std::vector<std::string> rounds = ctff_test::converted_rounds();
  run_counts n;
  std::size_t r = 0;
  for (const std::string& name : rounds) {
    const prepared_round p = prepare(name);
    for (std::size_t pick : {r % 9, (r + 3) % 9, (r + 6) % 9}) four_ways(p, name, r, pick, n);
    ++r;
  }
  CHECK(n.compared >= 3 * 20);
  CHECK(n.failed <= n.compared / 8);
  CHECK(n.dead == 0);
}

TEST_CASE("forms: TFF's secure_modular_sum round, run whole, part by part and composed: the values' sum mod 97") {
  const prepared_round p = prepare("secure_modular_sum");
  ctff::executor ex({.threads = 2});
  bind_all(ex, p);
  const dynamic_value state = ctff::make_federated(placement_kind::server, true, {ctff::make_scalar<dtype::int32>(1)});
  const dynamic_value data = at_clients({ctff::make_scalar<dtype::int32>(50), ctff::make_scalar<dtype::int32>(60),
                                         ctff::make_scalar<dtype::int32>(90)});
  const dynamic_value arg = ctff::make_struct_value({state, data});
  // 50 + 60 + 90 = 200 = 2 * 97 + 6.
  CHECK(scalar_of<dtype::int32>(ex.run(p.round, arg).structure().elements.at(1)) == 6);
  CHECK(scalar_of<dtype::int32>(ctff::simulate_deployment(ex, p.form, state, data).structure().elements.at(1)) == 6);
  CHECK(scalar_of<dtype::int32>(ex.run(p.composed, arg).structure().elements.at(1)) == 6);
}

TEST_CASE("forms: federated_aggregate rounds split by ctff run four ways alike, 0-8 clients, 1-8 threads") {
  const std::pair<std::string, ctff::computation_tree> rounds[] = {
      {"aggregate (golden)", ctff_test::golden_round("aggregate")},
      {"aggregate_round (traced)", traced_aggregate_round()},
      {"aggregate_round, accumulate capturing the zero", capturing_aggregate_round()}};
  run_counts n;
  std::size_t r = 100;
  for (const auto& [name, round] : rounds) {
    const prepared_round p = prepare_split(round);
    for (std::size_t pick = 0; pick != 9; ++pick) four_ways(p, name, r, pick, n);
    ++r;
  }
  CHECK(n.compared == 3 * 9);
  CHECK(n.failed + n.dead == 0);
}

TEST_CASE("forms: a federated_aggregate round with a server-computed zero, part by part, gives what a plain loop computes") {
  std::mt19937 rng(4646);
  for (const bool captured : {false, true}) {
    const prepared_round p = prepare_split(captured ? capturing_aggregate_round() : traced_aggregate_round());
    for (std::size_t clients : {0, 1, 5, 8}) {
      INFO((captured ? "capturing" : "plain") << " accumulate, " << clients << " clients");
      const i32 s = std::uniform_int_distribution<i32>(-1000, 1000)(rng);
      std::vector<i32> v;
      std::vector<dynamic_value> values;
      for (std::size_t i = 0; i != clients; ++i) {
        v.push_back(std::uniform_int_distribution<i32>(-20, 20)(rng));  // (8 clients: 3^8 * 35 fits int32)
        values.push_back(ctff::make_scalar<dtype::int32>(v.back()));
      }
      const auto [next, x] = aggregate_round_expected(s, v, captured);
      ctff::executor ex({.threads = static_cast<unsigned>(1 + clients % 4)});
      const dynamic_value r =
          ctff::simulate_deployment(ex, p.form, at_server(ctff::make_scalar<dtype::int32>(s)), at_clients(values));
      CHECK(scalar_of<dtype::int32>(r.structure().elements.at(0)) == next);
      CHECK(scalar_of<dtype::int32>(r.structure().elements.at(1)) == x);
    }
  }
}

namespace {

// ---- the differential generator's rounds ------------------------------------------------------
// tests/differential/python/rounds.jsonl: the rounds `gen.py --round` makes, as Python traces them
// (the differential test checks that ctff traces each to the same bytes, and runs it against the
// generator's own evaluation, oracle.py); tests/forms/goldens/generated_rounds.jsonl: TFF's
// conversion of each (make_goldens.py).
std::vector<nlohmann::json> json_lines(const std::string& path) {
  std::istringstream in(ctff_test::forms_file(path));
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}
// ctff's rule for a round TFF refuses, by the start of TFF's message; none: a federated_aggregate
// round, which ctff splits (its extension: TFF's conversion wraps the aggregation's functions in
// federated values, which federated_language refuses).
const std::pair<std::string_view, std::string_view> generated_refusals[] = {
    {"Detected broadcast dependent on aggregate", "broadcast_after_aggregation"},
    {"Expected a `federated_language.FederatedType` to not contain", ""},
};

}  // namespace

TEST_CASE("forms: the differential generator's rounds split as TFF splits them, and their parts compute the round") {
  const std::vector<nlohmann::json> programs = json_lines(CTFF_FORMS_GOLDENS_DIR "/../../differential/python/rounds.jsonl");
  const std::vector<nlohmann::json> verdicts = json_lines(CTFF_FORMS_GOLDENS_DIR "/generated_rounds.jsonl");
  REQUIRE(programs.size() == verdicts.size());
  const char* const part_names[] = {"server_prepare", "server_to_client_broadcast", "client_work",
                                    "client_to_server_aggregation", "server_result"};
  std::size_t converted = 0, refused = 0, extended = 0;
  run_counts n;
  for (std::size_t i = 1; i != programs.size(); ++i) {  // (line 0: the files' headers)
    const nlohmann::json& v = verdicts[i];
    REQUIRE(programs[i].at("seed") == v.at("seed"));
    const std::string name = "rounds.jsonl seed " + std::to_string(v.at("seed").get<int>());
    INFO(name << ": TFF: " << v.value("tff", "") << " " << v.value("message", ""));
    const ctff::computation_tree round = ctff::read_computation(ctff_test::unhex(programs[i].at("hex").get<std::string>()));
    std::string_view rule = "(none listed)";
    if (v.at("tff") != "converted") {
      const std::string message = v.at("message");
      for (const auto& [start, r] : generated_refusals)
        if (message.starts_with(start)) rule = r;
    }
    const bool aggregate =
        ctff_test::first_of(round, ctff::block_kind::intrinsic, "federated_aggregate") != ctff::no_index;
    if (v.at("tff") == "converted" || (rule.empty() && aggregate)) {
      const prepared_round p = prepare_split(round);
      if (v.at("tff") == "converted") {
        const ctff::computation_tree* parts[] = {&p.form.server_prepare, &p.form.server_to_client_broadcast,
                                                 &p.form.client_work, &p.form.client_to_server_aggregation,
                                                 &p.form.server_result};
        for (int k = 0; k != 5; ++k) {
          INFO(part_names[k]);
          CHECK(ctff::serialize(ctff::rename_variables_in_preorder(*parts[k])) ==
                ctff_test::unhex(v.at("parts").at(part_names[k]).get<std::string>()));
        }
        CHECK(ctff_test::chomp(ctff::form_summary(p.form)) == v.at("summary").get<std::string>());
        ++converted;
      } else {
        ++extended;
      }
      for (std::size_t pick : {i % 9, (i + 3) % 9, (i + 6) % 9}) four_ways(p, name, 300 + i, pick, n);
    } else {
      std::string got = "(split)";
      try {
        ctff::to_distribute_aggregate_form(round);
      } catch (const ctff::form_error& e) {
        got = e.rule();
      }
      CHECK(got == rule);
      ++refused;
    }
  }
  CHECK(converted >= 40);
  CHECK(refused >= 1);
  CHECK(extended >= 1);
  // (not compared: a run that fails four ways alike, e.g. a secure sum out of its bounds)
  CHECK(n.compared + n.dead >= (converted + extended) * 3 / 2);
}

TEST_CASE("forms: rounds run part by part give what a plain loop computes") {
  std::mt19937 rng(46);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::size_t clients = 6;

  SECTION("secure_sum_bitwidth_literal: <state + 1, the clients' sum>") {
    const prepared_round p = prepare("secure_sum_bitwidth_literal");
    const std::int32_t s = uniform(-1000, 1000);
    std::vector<dynamic_value> values;
    std::int32_t sum = 0;
    for (std::size_t i = 0; i != clients; ++i) {
      const std::int32_t v = uniform(0, 40);  // (6 clients: the sum stays within the 8-bit width)
      values.push_back(ctff::make_scalar<dtype::int32>(v));
      sum += v;
    }
    ctff::executor ex({.threads = 3});
    bind_all(ex, p);
    const dynamic_value r = ctff::simulate_deployment(ex, p.form, at_server(ctff::make_scalar<dtype::int32>(s)),
                                                      at_clients(values));
    CHECK(scalar_of<dtype::int32>(r.structure().elements.at(0)) == s + 1);  // the stand-in of (int32 -> int32)
    CHECK(scalar_of<dtype::int32>(r.structure().elements.at(1)) == sum);
  }
  SECTION("client_value_count: <state, <clients, the clients' sum>>") {
    const prepared_round p = prepare("client_value_count");
    const std::int32_t s = uniform(-1000, 1000);
    std::vector<dynamic_value> values;
    float sum = 0;
    for (std::size_t i = 0; i != clients; ++i) {
      const float v = static_cast<float>(uniform(-50, 50));  // (whole numbers: any order sums them exactly)
      values.push_back(ctff::make_scalar<dtype::float32>(v));
      sum += v;
    }
    ctff::executor ex({.threads = 2});
    bind_all(ex, p);
    const dynamic_value r = ctff::simulate_deployment(ex, p.form, at_server(ctff::make_scalar<dtype::int32>(s)),
                                                      at_clients(values));
    CHECK(scalar_of<dtype::int32>(r.structure().elements.at(0)) == s);
    const dynamic_value& x = r.structure().elements.at(1).federated().members.at(0);
    CHECK(scalar_of<dtype::int32>(x.structure().elements.at(0)) == static_cast<std::int32_t>(clients));
    CHECK(scalar_of<dtype::float32>(x.structure().elements.at(1)) == sum);
  }
  SECTION("server_only: <state + 1, state>, whatever the clients hold") {
    const prepared_round p = prepare("server_only");
    const std::int32_t s = uniform(-1000, 1000);
    std::vector<dynamic_value> values;
    for (std::size_t i = 0; i != clients; ++i) values.push_back(ctff::make_scalar<dtype::float32>(0.5f));
    ctff::executor ex({.threads = 1});
    bind_all(ex, p);
    const dynamic_value r = ctff::simulate_deployment(ex, p.form, at_server(ctff::make_scalar<dtype::int32>(s)),
                                                      at_clients(values));
    CHECK(scalar_of<dtype::int32>(r.structure().elements.at(0)) == s + 1);
    CHECK(scalar_of<dtype::int32>(r.structure().elements.at(1)) == s);
  }
}

TEST_CASE("forms: simulate_deployment refuses a non-form and client data it cannot count, names the part that fails") {
  const prepared_round p = prepare("server_only");
  ctff::executor ex({.threads = 1});
    bind_all(ex, p);
  const dynamic_value s = at_server(ctff::make_scalar<dtype::int32>(1));
  CHECK_THROWS_AS(ctff::simulate_deployment(ex, p.form, s, s), ctff::argument_error);
  const dynamic_value same = ctff::make_federated(placement_kind::clients, true, {ctff::make_scalar<dtype::float32>(1)});
  CHECK_THROWS_AS(ctff::simulate_deployment(ex, p.form, s, same), ctff::argument_error);
  ctff::executor unbound({.threads = 1});  // server_result's stand-in not bound: its run fails
  const ctff::execution_error e = [&] {
    try {
      ctff::simulate_deployment(unbound, p.form, s, at_clients({ctff::make_scalar<dtype::float32>(1)}));
    } catch (const ctff::execution_error& x) {
      return x;
    }
    FAIL("no execution_error");
    return ctff::execution_error("", "");
  }();
  CHECK(e.path().rfind("server_result.lambda.result", 0) == 0);
  CHECK(e.problem().find("comp#cf4e1907") != std::string::npos);
  ctff::distribute_aggregate_form swapped = p.form;
  std::swap(swapped.server_prepare, swapped.server_result);
  CHECK_THROWS_AS(ctff::simulate_deployment(ex, swapped, s, same), ctff::form_error);
  ctff::executor three({.clients = 3, .threads = 1});
  bind_stand_ins(three, p.round);
  const dynamic_value r = ctff::simulate_deployment(three, p.form, s, same);  // N from run_options
  CHECK(scalar_of<dtype::int32>(r.structure().elements.at(1)) == 1);
}

TEST_CASE("forms: executor::run with a client count: N for the run, whatever run_options says") {
  // client_value_count counts its clients: federated_sum(federated_value_at_clients(1)).
  const ctff::computation_tree round = ctff_test::golden_round("client_value_count");
  std::vector<dynamic_value> values(5, ctff::make_scalar<dtype::float32>(2));
  const dynamic_value arg =
      ctff::make_struct_value({at_server(ctff::make_scalar<dtype::int32>(7)), at_clients(values)});
  ctff::executor ex({.clients = 2, .threads = 2});
  const dynamic_value r = ex.run(round, arg, 5);
  const dynamic_value& x = r.structure().elements.at(1).federated().members.at(0);
  CHECK(scalar_of<dtype::int32>(x.structure().elements.at(0)) == 5);
  CHECK(scalar_of<dtype::float32>(x.structure().elements.at(1)) == 10);
  CHECK_THROWS_AS(ex.run(round, arg), ctff::argument_error);     // 5 members, run_options says 2
  CHECK_THROWS_AS(ex.run(round, arg, 4), ctff::argument_error);  // 5 members, the run says 4
}

}  // namespace forms_semantics
