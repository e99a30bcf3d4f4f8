// What a CLI needs of a read computation, public: what a run takes and gives (signature_of), the
// opaque computations to bind and their keys (opaque_nodes, binding_key), a type node's string
// (type_string), each as executor::run and ctff's printers see them.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

constexpr auto triple = tensorflow_computation<function<i32, i32>>("", tf_tensor("x:0"), tf_tensor("y:0"));
constexpr auto tripled_twice = computation<"tripled_twice", at_clients<i32>>(
    [](auto x) { return federated_map(triple, federated_map(triple, x)); });
constexpr auto sum_clients = computation<"sum_clients", at_clients<i32>>(
    [](auto v) { return federated_sum(v); });
constexpr auto seven = computation<"seven">([] { return 7; });

TEST_CASE("signature_of: what a run takes and gives", "[run]") {
  const computation_tree t = read_computation(sum_clients.bytes().str());
  const run_signature s = signature_of(t);
  CHECK(s.called);
  CHECK(type_string(t.types, s.parameter) == "{int32}@CLIENTS");
  CHECK(type_string(t.types, s.result) == "int32@SERVER");

  const computation_tree none = read_computation(seven.bytes().str());
  const run_signature n = signature_of(none);
  CHECK(n.called);
  CHECK(n.parameter == no_index);
  CHECK(type_string(none.types, n.result) == "int32");

  // A root that is no function is evaluated: its own type is the result.
  computation_tree lit = read_computation(sum_clients.bytes().str());
  lit.root = t.node(t.root).a;  // (the lambda's result)
  const run_signature l = signature_of(lit);
  CHECK_FALSE(l.called);
  CHECK(l.parameter == no_index);
  CHECK(l.result == lit.node(lit.root).type);
  CHECK(signature_of(computation_tree{}).result == no_index);
}

TEST_CASE("type_string: a type node's compact string, cut to a length", "[run]") {
  const computation_tree t = read_computation(sum_clients.bytes().str());
  const std::uint32_t fn = t.node(t.root).type;
  CHECK(type_string(t.types, fn) == "({int32}@CLIENTS -> int32@SERVER)");
  CHECK(type_string(t.types, fn, 33) == "({int32}@CLIENTS -> int32@SERVER)");
  CHECK(type_string(t.types, fn, 12) == "({int32}@...");
}

TEST_CASE("opaque_nodes, binding_key: each opaque computation once, by the key executor::bind takes", "[run]") {
  const computation_tree t = read_computation(tripled_twice.bytes().str());
  const std::vector<std::uint32_t> nodes = opaque_nodes(t);
  REQUIRE(nodes.size() == 1);  // the same computation twice: one key
  CHECK(t.node(nodes[0]).kind == block_kind::tensorflow);
  CHECK(binding_key(t, nodes[0]) == std::string(triple.compact()));
  std::uint32_t uses = 0;
  for (std::uint32_t i = 0; i != t.nodes.size(); ++i) uses += t.node(i).kind == block_kind::tensorflow;
  CHECK(uses == 2);
  CHECK(opaque_nodes(read_computation(sum_clients.bytes().str())).empty());
}

}  // namespace
