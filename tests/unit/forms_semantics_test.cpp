// A DistributeAggregateForm computes its round: for TFF's forms (tests/forms/goldens), on seeded
// random arguments, the original round, the five parts run one by one (simulate_deployment) and
// the form composed back (from_distribute_aggregate_form, with and without the round's type)
// give the same result, integers exactly and floats bit for bit, for 0-8 clients and 1-8 threads;
// the same for federated_aggregate rounds, which ctff splits beyond TFF (the golden `aggregate` and
// a traced round whose zero is computed on the server); and for a few rounds the result a plain
// C++ loop computes. The rounds' opaque functions (TensorFlow stand-ins) are bound by key
// to one deterministic function of their argument (`stand_in`).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/forms.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>

#include "forms_goldens.hpp"

namespace {

using ctff::dtype;
using ctff::dynamic_value;
using ctff::placement_kind;
using ctff::type_desc;
using ctff::type_kind;
using ctff::value_kind;

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

std::size_t element_count(const type_desc& d, std::uint32_t ty, std::vector<std::int64_t>& shape) {
  const ctff::type_node& n = d.node(ty);
  std::size_t count = 1;
  for (std::uint32_t k = 0; !n.unknown_rank && k != n.dim_count; ++k) {
    const std::int64_t dim = d.dims[n.dim_begin + k] < 0 ? 2 : d.dims[n.dim_begin + k];
    shape.push_back(dim);
    count *= static_cast<std::size_t>(dim);
  }
  return count;
}

dynamic_value stand_in_result(const type_desc& d, std::uint32_t ty, const folded& acc, std::uint64_t& k) {
  const ctff::type_node& n = d.node(ty);
  switch (n.kind) {
    case type_kind::tensor: {
      std::vector<std::int64_t> shape;
      const std::size_t count = element_count(d, ty, shape);
      auto integer = [&] { return acc.i + k++ + 1; };
      auto real = [&] { return acc.f + static_cast<float>(k++) * 0.25f + static_cast<float>(acc.i % 7); };
      switch (n.dt) {
        case dtype::int32: {
          ctff::stored_t<dtype::int32> e;
          for (std::size_t j = 0; j != count; ++j) e.push_back(static_cast<std::int32_t>(integer()));
          return ctff::make_tensor<dtype::int32>(std::move(e), shape);
        }
        case dtype::int64: {
          ctff::stored_t<dtype::int64> e;
          for (std::size_t j = 0; j != count; ++j) e.push_back(static_cast<std::int64_t>(integer()));
          return ctff::make_tensor<dtype::int64>(std::move(e), shape);
        }
        case dtype::float32: {
          ctff::stored_t<dtype::float32> e;
          for (std::size_t j = 0; j != count; ++j) e.push_back(real());
          return ctff::make_tensor<dtype::float32>(std::move(e), shape);
        }
        case dtype::bool_: {
          ctff::stored_t<dtype::bool_> e;
          for (std::size_t j = 0; j != count; ++j) e.push_back(static_cast<unsigned char>(integer() & 1));
          return ctff::make_tensor<dtype::bool_>(std::move(e), shape);
        }
        default: FAIL("a stand-in result of an unexpected dtype");
      }
      return {};
    }
    case type_kind::struct_: {
      std::vector<dynamic_value> e;
      std::vector<std::string> names;
      for (std::uint32_t j = 0; j != n.kid_count; ++j) {
        e.push_back(stand_in_result(d, d.kid(ty, j), acc, k));
        names.emplace_back(d.name(d.kid(ty, j)));
      }
      return ctff::make_struct_value(std::move(e), std::move(names));
    }
    case type_kind::sequence: {
      std::vector<dynamic_value> e;
      for (std::uint64_t j = 0, len = acc.i % 3; j != len; ++j) e.push_back(stand_in_result(d, d.kid(ty, 0), acc, k));
      return ctff::make_sequence(std::move(e));
    }
    default: FAIL("a stand-in result of an unexpected type");
  }
  return {};
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
      std::uint64_t k = 0;
      return stand_in_result(*types, result, acc, k);
    });
  }
}

// ---- random arguments -----------------------------------------------------------------------
dynamic_value random_value(const type_desc& d, std::uint32_t ty, std::mt19937& rng, std::size_t clients) {
  const ctff::type_node& n = d.node(ty);
  auto small = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  switch (n.kind) {
    case type_kind::tensor: {
      std::vector<std::int64_t> shape;
      const std::size_t count = element_count(d, ty, shape);
      switch (n.dt) {
        case dtype::int32: {
          ctff::stored_t<dtype::int32> e;
          // (small and not negative: mostly within the bounds of the rounds' secure sums)
          for (std::size_t j = 0; j != count; ++j) e.push_back(small(0, 20));
          return ctff::make_tensor<dtype::int32>(std::move(e), shape);
        }
        case dtype::float32: {
          ctff::stored_t<dtype::float32> e;  // (any bits: the three ways must agree on them)
          for (std::size_t j = 0; j != count; ++j)
            e.push_back(static_cast<float>(small(-1000, 1000)) / static_cast<float>(small(1, 97)));
          return ctff::make_tensor<dtype::float32>(std::move(e), shape);
        }
        case dtype::bool_: {
          ctff::stored_t<dtype::bool_> e;
          for (std::size_t j = 0; j != count; ++j) e.push_back(static_cast<unsigned char>(small(0, 1)));
          return ctff::make_tensor<dtype::bool_>(std::move(e), shape);
        }
        default: FAIL("an argument of an unexpected dtype");
      }
      return {};
    }
    case type_kind::struct_: {
      std::vector<dynamic_value> e;
      std::vector<std::string> names;
      for (std::uint32_t j = 0; j != n.kid_count; ++j) {
        e.push_back(random_value(d, d.kid(ty, j), rng, clients));
        names.emplace_back(d.name(d.kid(ty, j)));
      }
      return ctff::make_struct_value(std::move(e), std::move(names));
    }
    case type_kind::sequence: {
      std::vector<dynamic_value> e;
      for (int j = small(0, 3); j-- > 0;) e.push_back(random_value(d, d.kid(ty, 0), rng, clients));
      return ctff::make_sequence(std::move(e));
    }
    case type_kind::federated: {
      const bool listed = n.where == placement_kind::clients && !n.all_equal;
      std::vector<dynamic_value> m;
      for (std::size_t j = 0, count = listed ? clients : 1; j != count; ++j)
        m.push_back(random_value(d, d.kid(ty, 0), rng, clients));
      return ctff::make_federated(n.where, !listed, std::move(m));
    }
    default: FAIL("an argument of an unexpected type");
  }
  return {};
}

// ---- comparing results ----------------------------------------------------------------------
// Equal element by element, numbers bit for bit; struct names not compared (the round's result
// type may name <S,X>, the form's does not).
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
            if constexpr (std::is_arithmetic_v<typename V::value_type>) {
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

// Not a round calling TFF's federated_secure_modular_sum, which ctff's executor does not run.
bool runnable(const std::string& name) {
  const ctff::computation_tree t = ctff_test::golden_round(name);
  return ctff_test::first_of(t, ctff::block_kind::intrinsic, "federated_secure_modular_sum") == ctff::no_index;
}

struct prepared_round {
  ctff::computation_tree round;
  ctff::distribute_aggregate_form form;
  ctff::computation_tree composed;  // with the round's type (TFF's bytes)
  ctff::computation_tree plain;     // without: its parameter unnamed
};
prepared_round prepare(const std::string& name) {
  prepared_round p{ctff_test::golden_round(name), ctff_test::golden_form(name), {}, {}};
  p.composed = ctff::from_distribute_aggregate_form(p.form, p.round.type_of(p.round.root));
  p.plain = ctff::from_distribute_aggregate_form(p.form);
  return p;
}
void bind_all(ctff::executor& ex, const prepared_round& p) {
  bind_stand_ins(ex, p.round);
  for (const ctff::computation_tree* t :
       {&p.form.server_prepare, &p.form.server_to_client_broadcast, &p.form.client_work,
        &p.form.client_to_server_aggregation, &p.form.server_result, &p.composed, &p.plain})
    bind_stand_ins(ex, *t);
}

template <dtype D>
auto scalar_of(const dynamic_value& v) {
  const dynamic_value& x = v.is(value_kind::federated) ? v.federated().members.front() : v;
  REQUIRE(x.is(value_kind::tensor));
  return x.tensor().get<D>().at(0);
}
dynamic_value at_server(dynamic_value v) { return ctff::make_federated(placement_kind::server, true, {std::move(v)}); }
dynamic_value at_clients(std::vector<dynamic_value> v) {
  return ctff::make_federated(placement_kind::clients, false, std::move(v));
}

// (clients, threads): each golden round runs three of them, the rounds between them all of them.
constexpr std::size_t plan[][2] = {{0, 1}, {1, 8}, {2, 3}, {3, 2}, {4, 5}, {5, 1}, {6, 7}, {7, 4}, {8, 8}};

// Runs p four ways on random arguments for plan[pick] (seeded by r and pick): the round,
// simulate_deployment, the composition with and without the round's type; all must agree bit for
// bit, or all fail. Counts the runs in `compared` or `failed`.
void four_ways(const prepared_round& p, const std::string& name, std::size_t r, std::size_t pick,
               std::size_t& compared, std::size_t& failed) {
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
  // A run may fail (a secure sum's value out of its bounds): then all four fail.
  auto outcome = [&](auto run) -> std::pair<dynamic_value, std::string> {
    try {
      return {run(), ""};
    } catch (const ctff::execution_error& e) {
      return {dynamic_value{}, e.problem()};
    }
  };
  const auto whole = outcome([&] { return ex.run(p.round, ctff::make_struct_value({state, data})); });
  const auto parts = outcome([&] { return ctff::simulate_deployment(ex, p.form, state, data); });
  const auto composed = outcome([&] { return ex.run(p.composed, ctff::make_struct_value({state, data})); });
  const auto plain = outcome([&] { return ex.run(p.plain, ctff::make_struct_value({state, data})); });
  INFO("round: " << whole.first << " " << whole.second << "\nparts: " << parts.first << " " << parts.second
                 << "\ncomposed: " << composed.first << " " << composed.second);
  CHECK(same_bits(whole.first, parts.first));
  CHECK(same_bits(whole.first, composed.first));
  CHECK(same_bits(whole.first, plain.first));
  CHECK(whole.second.empty() == parts.second.empty());
  CHECK(whole.second.empty() == composed.second.empty());
  CHECK(whole.second.empty() == plain.second.empty());
  ++(whole.first ? compared : failed);
}

// ---- federated_aggregate rounds (split by ctff: TFF refuses them) -----------------------------
// A round TFF has no parts for: its form is ctff's split, which the validator must accept.
prepared_round prepare_split(ctff::computation_tree round) {
  prepared_round p{std::move(round), {}, {}, {}};
  p.form = ctff::to_distribute_aggregate_form(p.round);
  REQUIRE(ctff::form_errors(p.form, p.round.type_of(p.round.root)).empty());
  p.composed = ctff::from_distribute_aggregate_form(p.form, p.round.type_of(p.round.root));
  p.plain = ctff::from_distribute_aggregate_form(p.form);
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
  std::size_t compared = 0, failed = 0, r = 0;
  for (const std::string& name : rounds) {
    if (!runnable(name)) continue;
    const prepared_round p = prepare(name);
    for (std::size_t pick : {r % 9, (r + 3) % 9, (r + 6) % 9}) four_ways(p, name, r, pick, compared, failed);
    ++r;
  }
  CHECK(compared >= 3 * 20);
  CHECK(failed <= compared / 8);
}

TEST_CASE("forms: federated_aggregate rounds split by ctff run four ways alike, 0-8 clients, 1-8 threads") {
  const std::pair<std::string, ctff::computation_tree> rounds[] = {
      {"aggregate (golden)", ctff_test::golden_round("aggregate")},
      {"aggregate_round (traced)", traced_aggregate_round()},
      {"aggregate_round, accumulate capturing the zero", capturing_aggregate_round()}};
  std::size_t compared = 0, failed = 0, r = 100;
  for (const auto& [name, round] : rounds) {
    const prepared_round p = prepare_split(round);
    for (std::size_t pick = 0; pick != 9; ++pick) four_ways(p, name, r, pick, compared, failed);
    ++r;
  }
  CHECK(compared == 3 * 9);
  CHECK(failed == 0);
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
