// Taps (run/tap.hpp): what the building blocks at given paths compute while a computation runs,
// per client, at the server, unplaced. Every expected value is worked out here by hand from the
// computation's text (x + 1 per client, their sum), never read from the executor.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"
#include "error_of.hpp"
#include "parse_back.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

constexpr auto add_one = computation<"add_one", i32>([](auto x) { return x + 1; });
constexpr auto map_sum = computation<"map_sum", at_clients<i32>>(
    [](auto v) { return federated_sum(federated_map(add_one, v)); });
// Its formatted form, by which the paths below are written:
//   (map_sum_arg -> (let
//     fc_map_sum_symbol_0=federated_map(<(add_one_arg -> (let fc_add_one_symbol_0=generic_plus(
//       <add_one_arg, 1>) in fc_add_one_symbol_0)), map_sum_arg>),
//     fc_map_sum_symbol_1=federated_sum(fc_map_sum_symbol_0)
//    in fc_map_sum_symbol_1))
const std::string mapped = "lambda.result.block.local[0](fc_map_sum_symbol_0)";
const std::string plus_one = mapped + ".call.argument.struct[0].lambda.result.block.local[0](fc_add_one_symbol_0)";
const std::string summed = "lambda.result.block.local[1](fc_map_sum_symbol_1)";

struct seen {
  std::string path;
  std::optional<placement_kind> where;
  std::optional<std::size_t> client;
  std::string value;
};

std::vector<seen> tapped(const std::vector<std::string>& taps, const std::vector<i32>& clients, unsigned threads,
                         i32* result = nullptr) {
  std::vector<seen> out;
  run_options o;
  o.threads = threads;
  o.taps = taps;
  o.on_value = [&](const tapped_value& v) { out.push_back({std::string(v.path), v.placement, v.client, to_string(v.value)}); };
  executor ex(o);
  const i32 r = ex.call<i32>(map_sum, clients);
  if (result) *result = r;
  return out;
}

// The values of one path by client (nullopt key: not a client's).
std::map<std::optional<std::size_t>, std::string> by_client(const std::vector<seen>& s, const std::string& path,
                                                            std::optional<placement_kind> where) {
  std::map<std::optional<std::size_t>, std::string> m;
  for (const seen& x : s)
    if (x.path == path) {
      CHECK(x.where == where);
      CHECK(m.emplace(x.client, x.value).second);  // once per client
    }
  return m;
}

}  // namespace

TEST_CASE("taps: each client's value inside the mapped function, the map's result, the sum", "[run][taps]") {
  ctff_test::require_parses(map_sum.bytes());
  const std::vector<i32> clients{4, -7, 10, 0, 31};
  for (unsigned threads : {1u, 2u}) {
    i32 r = 0;
    const std::vector<seen> s = tapped({plus_one, mapped, summed}, clients, threads, &r);
    CHECK(r == 5 + -6 + 11 + 1 + 32);  // (the taps change nothing)
    std::map<std::optional<std::size_t>, std::string> want;
    for (std::size_t i = 0; i != clients.size(); ++i) want[i] = std::to_string(clients[i] + 1);
    CHECK(by_client(s, plus_one, placement_kind::clients) == want);
    CHECK(by_client(s, mapped, placement_kind::clients) == want);
    CHECK(by_client(s, summed, placement_kind::server) ==
          std::map<std::optional<std::size_t>, std::string>{{std::nullopt, "43"}});
    CHECK(s.size() == 2 * clients.size() + 1);
  }
}

TEST_CASE("taps: a Block local named alone; no taps, no calls; a path with no building block", "[run][taps]") {
  const std::vector<seen> s = tapped({"fc_add_one_symbol_0"}, {1, 2}, 1);
  CHECK(by_client(s, plus_one, placement_kind::clients) ==
        std::map<std::optional<std::size_t>, std::string>{{0, "2"}, {1, "3"}});
  CHECK(s.size() == 2);

  int calls = 0;
  run_options o;
  o.on_value = [&](const tapped_value&) { ++calls; };
  CHECK(executor(o).call<i32>(map_sum, std::vector<i32>{1, 2}) == 5);
  CHECK(calls == 0);

  for (const std::string& bad : std::vector<std::string>{"lambda.result.call", "fc_nobody", mapped + ".struct[9]"}) {
    const auto e = error_of<argument_error>([&] { (void)tapped({bad}, {1}, 1); });
    CHECK(e.path() == "tap");
    CHECK(std::string(e.what()).find("`" + bad + "`") != std::string::npos);
  }
}

TEST_CASE("taps: an all_equal CLIENTS value is one value; a literal; apply with a tap_plan", "[run][taps]") {
  static constexpr auto bump = computation<"bump", at_server<i32>>(
      [](auto x) { return federated_sum(federated_map(add_one, federated_broadcast(x))); });
  ctff_test::require_parses(bump.bytes());
  const computation_tree t = read_computation(std::string_view(reinterpret_cast<const char*>(bump.bytes().data()), bump.bytes().size()));
  std::vector<seen> s;
  run_options o;
  o.clients = 3;
  o.threads = 1;
  executor ex(o);
  // The broadcast (all clients share 9) and the literal 1 inside add_one, tapped through a plan.
  tap_plan plan([&](const tapped_value& v) { s.push_back({std::string(v.path), v.placement, v.client, to_string(v.value)}); });
  auto tree = std::make_shared<const computation_tree>(t);
  const std::string broadcast = "lambda.result.block.local[0](fc_bump_symbol_0)";
  const std::string literal = "lambda.result.block.local[1](fc_bump_symbol_1).call.argument.struct[0].lambda.result."
                              "block.local[0](fc_add_one_symbol_0).call.argument.struct[1]";
  plan.add(tree, {broadcast, literal});
  const dynamic_value fn = ex.evaluate(tree);
  const dynamic_value r = ex.apply(fn, make_federated(placement_kind::server, true, {make_scalar<dtype::int32>(9)}), &plan);
  CHECK(to_string(r) == "30");
  CHECK(by_client(s, broadcast, placement_kind::clients) ==
        std::map<std::optional<std::size_t>, std::string>{{std::nullopt, "9"}});
  CHECK(by_client(s, literal, placement_kind::clients) ==
        std::map<std::optional<std::size_t>, std::string>{{0, "1"}, {1, "1"}, {2, "1"}});
}

TEST_CASE("tap_summary: counts, the lowest clients first, each numeric leaf's min, mean and max", "[run][taps]") {
  tap_summary sum(2);
  auto give = [&](std::optional<std::size_t> client, dynamic_value v) {
    sum(tapped_value{"p", placement_kind::clients, client, "", v});
  };
  auto pair = [](i32 a, float b) {
    return make_struct_value({make_scalar<dtype::int32>(a), make_scalar<dtype::float32>(b)}, {"a", "b"});
  };
  give(3, pair(1, 0.5f));
  give(0, pair(-4, 2.0f));
  give(2, pair(9, 1.0f));
  sum(tapped_value{"q", placement_kind::server, std::nullopt, "w:1", make_scalar<dtype::int32>(7)});
  CHECK(sum.text() ==
        "tap p: 3 values (3 CLIENTS)\n"
        "  client 0: <a=-4,b=2.0>\n"
        "  client 2: <a=9,b=1.0>\n"
        "  ... 1 more\n"
        "  value.a: min -4  mean 2  max 9\n"
        "  value.b: min 0.5  mean 1.1666666666666667  max 2\n"
        "tap q: 1 value (1 SERVER on w:1)\n"
        "  server (worker w:1): 7\n"
        "  value: min 7  mean 7  max 7\n");
}
