// Select rounds split (ctff's extension over TFF, docs/forms_conversion.md): TFF refuses every
// round with federated_select. ctff splits those whose keys reach the clients from the server —
// keys broadcast from the state (select_keys_broadcast) or a constant made at the clients
// (select_keys_constant, its keys rewritten as a broadcast of the constant) — and a
// federated_secure_select variant; keys from the client data stay refused. The parts pass the
// checker and the validator, and the round, its parts run one by one (simulate_deployment) and
// the form composed back give the same result bit for bit, and what a plain loop computes.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>

#include "forms_goldens.hpp"

namespace {

using ctff::dtype;
using ctff::dynamic_value;
using ctff::placement_kind;
using ctff::value_kind;

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

// ---- arguments ------------------------------------------------------------------------------
dynamic_value at_server(dynamic_value v) { return ctff::make_federated(placement_kind::server, true, {std::move(v)}); }

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

// Equal, numbers bit for bit (struct names not compared).
bool same_bits(const dynamic_value& a, const dynamic_value& b) {
  if (!a || !b) return !a && !b;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case value_kind::tensor: {
      const auto& x = a.tensor();
      const auto& y = b.tensor();
      if (x.dt != y.dt || x.shape != y.shape) return false;
      if (x.dt == dtype::float32) {
        const auto& xe = x.get<dtype::float32>();
        const auto& ye = y.get<dtype::float32>();
        return xe.size() == ye.size() && (xe.empty() || std::memcmp(xe.data(), ye.data(), xe.size() * sizeof(float)) == 0);
      }
      if (x.dt == dtype::int32) return x.get<dtype::int32>() == y.get<dtype::int32>();
      return false;
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
    default: return false;
  }
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
