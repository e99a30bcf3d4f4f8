// detail::function_computation (run/function_computation.hpp): a function value of a run written
// as a standalone Computation. Each shipped function is parsed back with protobuf (canonical
// bytes, no checker error), evaluated in a fresh executor and called: it must give the values
// worked out by hand, as the original does. Closures capture tensors, named structs, closures,
// intrinsics and bound opaque computations, from one or several frames out, under shadowing;
// a closure that captured a federated value or a sequence is not shipped.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/read.hpp"
#include "ctff/run.hpp"
#include "ctff/run/function_computation.hpp"
#include "error_of.hpp"
#include "parse_back.hpp"
#include "run_wire.hpp"

namespace {

using namespace ctff;
namespace w = run_wire;
using i32 = std::int32_t;

const std::string int32_t_ = w::tensor(3);
const std::string i32_to_i32 = w::function(int32_t_, int32_t_);
const std::string int32_pair = w::struct_type({{"", int32_t_}, {"", int32_t_}});

std::string r(const std::string& name) { return w::ref(int32_t_, name); }
std::string plus(const std::string& a, const std::string& b) {
  return w::call(int32_t_, w::intrinsic(w::function(int32_pair, int32_t_), "generic_plus"),
                 w::strct(int32_pair, {{"", a}, {"", b}}));
}
// An int32 Literal (Array{dtype, shape {}, int32_list}).
std::string int32_literal(i32 v) {
  const std::string array = w::field_varint(1, 3) + w::field(2, "") +
                            w::field(6, w::field(1, w::varint(static_cast<std::uint64_t>(std::int64_t{v}))));
  return w::comp(int32_t_, w::field(14, w::field(1, array)));
}

dynamic_value int32(i32 v) { return make_scalar<dtype::int32>(v); }
std::shared_ptr<const computation_tree> tree_of(const std::string& bytes) {
  return std::make_shared<const computation_tree>(read_computation(bytes));
}

// f written out: canonical bytes protobuf parses (and ctff's checker accepts).
federated_language::Computation written(const dynamic_value& f, std::string* bytes_out = nullptr) {
  const std::optional<std::string> bytes = detail::function_computation(f);
  REQUIRE(bytes);
  if (bytes_out) *bytes_out = *bytes;
  return ctff_test::require_parses_string(*bytes);
}
// f written out and evaluated in `fresh`.
dynamic_value shipped(const dynamic_value& f, executor& fresh) {
  std::string bytes;
  written(f, &bytes);
  const dynamic_value g = fresh.evaluate(tree_of(bytes));
  REQUIRE(g.is(value_kind::function));
  return g;
}

TEST_CASE("function_computation: a closure capturing a tensor", "[function_computation]") {
  // x -> (y -> x + y), called with 5: a closure capturing x = 5.
  const std::string add =
      w::lambda(w::function(int32_t_, i32_to_i32), "x", w::lambda(i32_to_i32, "y", plus(r("x"), r("y"))));
  executor e;
  const dynamic_value add5 = e.apply(e.evaluate(tree_of(add)), int32(5));
  const federated_language::Computation c = written(add5);
  REQUIRE(c.has_block());
  REQUIRE(c.block().local_size() == 1);
  CHECK(c.block().local(0).name() == "x");
  CHECK(c.block().local(0).value().has_literal());
  CHECK(c.block().local(0).value().type().has_tensor());
  CHECK(c.block().result().has_lambda());
  CHECK(c.type().has_function());
  executor fresh;
  const dynamic_value g = shipped(add5, fresh);
  CHECK(fresh.apply(g, int32(7)) == int32(12));
  CHECK(e.apply(add5, int32(7)) == int32(12));

  // A Block local defined before the lambda: {k = 10} -> (y -> k + y).
  const std::string local = w::block(i32_to_i32, {{"k", int32_literal(10)}},
                                     w::lambda(i32_to_i32, "y", plus(r("k"), r("y"))));
  const dynamic_value addk = e.evaluate(tree_of(local));
  const dynamic_value h = shipped(addk, fresh);
  CHECK(fresh.apply(h, int32(-3)) == int32(7));
  CHECK(e.apply(addk, int32(-3)) == int32(7));

  // Tensors of other dtypes and ranks come back as they were: v -> (y -> v).
  const dynamic_value floats = make_tensor<dtype::float32>({1.5f, -2.25f, 0.0f}, {3});
  const dynamic_value strings = make_tensor<dtype::str>({"a", "", "ccc", "d"}, {2, 2});
  const dynamic_value halves = make_tensor<dtype::float16>({half_bits{0x3c00}, half_bits{0xc000}}, {2});
  const dynamic_value complexes = make_scalar<dtype::complex128>({1.0, -0.5});
  const dynamic_value int8s = make_tensor<dtype::int8>({-128, 127, -1}, {3});
  const dynamic_value bools = make_tensor<dtype::bool_>({1, 0}, {2});
  const dynamic_value uint64s = make_tensor<dtype::uint64>({0xffffffffffffffffull, 0}, {2});
  const std::vector<std::pair<std::string, dynamic_value>> cases = {
      {w::tensor(1, {3}), floats},  {w::tensor(7, {2, 2}), strings}, {w::tensor(19, {2}), halves},
      {w::tensor(18), complexes},   {w::tensor(6, {3}), int8s},      {w::tensor(10, {2}), bools},
      {w::tensor(23, {2}), uint64s}};
  for (const auto& [type, v] : cases) {
    const std::string keep = w::lambda(w::function(type, i32_to_i32), "v",
                                       w::lambda(w::function(int32_t_, type), "y", w::ref(type, "v")));
    const dynamic_value kept = e.apply(e.evaluate(tree_of(keep)), v);
    const dynamic_value g2 = shipped(kept, fresh);
    CHECK(fresh.apply(g2, int32(0)) == v);
  }
}

TEST_CASE("function_computation: a closure capturing a struct with names", "[function_computation]") {
  // p: <a=int32, b=float32[2]> -> (y -> <s=p, y=p.a + y>)
  const std::string floats2 = w::tensor(1, {2});
  const std::string p_type = w::struct_type({{"a", int32_t_}, {"b", floats2}});
  const std::string result_type = w::struct_type({{"s", p_type}, {"y", int32_t_}});
  const std::string p = w::ref(p_type, "p");
  const std::string inner = w::lambda(w::function(int32_t_, result_type), "y",
                                      w::strct(result_type, {{"s", p}, {"y", plus(w::sel(int32_t_, p, 0), r("y"))}}));
  const std::string outer = w::lambda(w::function(p_type, w::function(int32_t_, result_type)), "p", inner);
  const dynamic_value arg =
      make_struct_value({int32(2), make_tensor<dtype::float32>({0.5f, -1.0f}, {2})}, {"a", "b"});
  executor e;
  const dynamic_value f = e.apply(e.evaluate(tree_of(outer)), arg);
  const federated_language::Computation c = written(f);
  REQUIRE(c.block().local_size() == 1);
  const auto& s = c.block().local(0).value();
  REQUIRE(s.has_struct_());
  REQUIRE(s.struct_().element_size() == 2);
  CHECK(s.struct_().element(0).name() == "a");
  CHECK(s.struct_().element(1).name() == "b");
  CHECK(s.type().struct_().element(1).name() == "b");
  const dynamic_value expected = make_struct_value({arg, int32(9)}, {"s", "y"});
  executor fresh;
  CHECK(fresh.apply(shipped(f, fresh), int32(7)) == expected);
  CHECK(e.apply(f, int32(7)) == expected);

  // An unnamed struct stays unnamed: q: <int32, int32> -> (y -> q).
  const std::string keep = w::lambda(w::function(int32_pair, w::function(int32_t_, int32_pair)), "q",
                                     w::lambda(w::function(int32_t_, int32_pair), "y", w::ref(int32_pair, "q")));
  const dynamic_value pair = make_struct_value({int32(1), int32(2)});
  const dynamic_value kept = e.apply(e.evaluate(tree_of(keep)), pair);
  const dynamic_value back = fresh.apply(shipped(kept, fresh), int32(0));
  CHECK(back == pair);
  CHECK(back.structure().names.empty());
}

TEST_CASE("function_computation: a closure capturing a closure", "[function_computation]") {
  // x -> {addx = (z -> x + z)} in (y -> addx(addx(y))), called with 3.
  const std::string outer = w::lambda(
      w::function(int32_t_, i32_to_i32), "x",
      w::block(i32_to_i32, {{"addx", w::lambda(i32_to_i32, "z", plus(r("x"), r("z")))}},
               w::lambda(i32_to_i32, "y",
                         w::call(int32_t_, w::ref(i32_to_i32, "addx"),
                                 w::call(int32_t_, w::ref(i32_to_i32, "addx"), r("y"))))));
  executor e;
  const dynamic_value f = e.apply(e.evaluate(tree_of(outer)), int32(3));
  const federated_language::Computation c = written(f);
  REQUIRE(c.block().local_size() == 1);
  CHECK(c.block().local(0).name() == "addx");
  // addx is itself a closure over x = 3: a Block of its own.
  const auto& addx = c.block().local(0).value();
  REQUIRE(addx.has_block());
  CHECK(addx.block().local(0).name() == "x");
  CHECK(addx.block().result().has_lambda());
  executor fresh;
  CHECK(fresh.apply(shipped(f, fresh), int32(10)) == int32(16));
  CHECK(e.apply(f, int32(10)) == int32(16));

  // A closure that reads nothing from outside is its Lambda alone.
  const dynamic_value inc = e.evaluate(tree_of(w::lambda(i32_to_i32, "z", plus(r("z"), int32_literal(1)))));
  const federated_language::Computation lone = written(inc);
  CHECK(lone.has_lambda());
  CHECK(fresh.apply(shipped(inc, fresh), int32(41)) == int32(42));
}

TEST_CASE("function_computation: references several frames out", "[function_computation]") {
  // x -> {w = x + x} in (y -> {u = w + y} in (z -> {v = z} in (u + x) + v)); x = 1, y = 10,
  // z = 100: 113. (u and x are read inside a Block of the lambda: one frame more.)
  const std::string two = w::function(int32_t_, i32_to_i32);
  const std::string outer = w::lambda(
      w::function(int32_t_, two), "x",
      w::block(two, {{"w", plus(r("x"), r("x"))}},
               w::lambda(two, "y",
                         w::block(i32_to_i32, {{"u", plus(r("w"), r("y"))}},
                                  w::lambda(i32_to_i32, "z",
                                            w::block(int32_t_, {{"v", r("z")}}, plus(plus(r("u"), r("x")), r("v"))))))));
  executor e;
  const dynamic_value middle = e.apply(e.evaluate(tree_of(outer)), int32(1));
  const dynamic_value inner = e.apply(middle, int32(10));
  // The innermost closure reads u (its Block's local, one frame out) and x (four frames out).
  const federated_language::Computation c = written(inner);
  REQUIRE(c.block().local_size() == 2);
  CHECK(c.block().local(0).name() == "u");
  CHECK(c.block().local(1).name() == "x");
  executor fresh;
  CHECK(fresh.apply(shipped(inner, fresh), int32(100)) == int32(113));
  CHECK(e.apply(inner, int32(100)) == int32(113));
  // The middle one reads w and x; what it returns is a closure of the worker's program.
  const dynamic_value m = shipped(middle, fresh);
  CHECK(fresh.apply(fresh.apply(m, int32(10)), int32(100)) == int32(113));
  CHECK(fresh.apply(fresh.apply(m, int32(20)), int32(100)) == int32(123));
}

TEST_CASE("function_computation: shadowing", "[function_computation]") {
  // x -> {x = x + 1, y = 5} in
  //   (y -> {a = x + y, x = a} in x + (x -> x + x)(y))
  // With x = 10: the captured x is the local 11 (not the parameter 10), and y the inner
  // parameter (not the local 5). y = 100: a = 111, then x = 111 inside: 111 + 200 = 311.
  const std::string inner = w::lambda(
      i32_to_i32, "y",
      w::block(int32_t_, {{"a", plus(r("x"), r("y"))}, {"x", r("a")}},
               plus(r("x"), w::call(int32_t_, w::lambda(i32_to_i32, "x", plus(r("x"), r("x"))), r("y")))));
  const std::string outer =
      w::lambda(w::function(int32_t_, i32_to_i32), "x",
                w::block(i32_to_i32, {{"x", plus(r("x"), int32_literal(1))}, {"y", int32_literal(5)}}, inner));
  executor e;
  const dynamic_value f = e.apply(e.evaluate(tree_of(outer)), int32(10));
  const federated_language::Computation c = written(f);
  REQUIRE(c.block().local_size() == 1);  // only x is free; y is the lambda's own
  CHECK(c.block().local(0).name() == "x");
  executor fresh;
  CHECK(fresh.apply(shipped(f, fresh), int32(100)) == int32(311));
  CHECK(e.apply(f, int32(100)) == int32(311));
}

TEST_CASE("function_computation: an intrinsic", "[function_computation]") {
  const std::string sum_type = w::function(w::at_clients(int32_t_), w::at_server(int32_t_));
  const std::string sum = w::intrinsic(sum_type, "federated_sum");
  const dynamic_value members = make_federated(placement_kind::clients, false, {int32(1), int32(2), int32(3)});
  const dynamic_value six = make_federated(placement_kind::server, true, {int32(6)});
  executor e({.clients = 3});
  const dynamic_value f = e.evaluate(tree_of(sum));
  std::string bytes;
  const federated_language::Computation c = written(f, &bytes);
  CHECK(c.intrinsic().uri() == "federated_sum");
  CHECK(bytes == sum);  // the building block as read, type included
  executor fresh({.clients = 3});
  CHECK(fresh.apply(shipped(f, fresh), members) == six);
  CHECK(e.apply(f, members) == six);

  // Captured: {s = federated_sum} in (v -> s(v)).
  const std::string local = w::block(sum_type, {{"s", sum}},
                                     w::lambda(sum_type, "v",
                                               w::call(w::at_server(int32_t_), w::ref(sum_type, "s"),
                                                       w::ref(w::at_clients(int32_t_), "v"))));
  const dynamic_value g = e.evaluate(tree_of(local));
  const federated_language::Computation cg = written(g);
  CHECK(cg.block().local(0).value().intrinsic().uri() == "federated_sum");
  CHECK(fresh.apply(shipped(g, fresh), members) == six);
}

TEST_CASE("function_computation: what cannot be shipped", "[function_computation]") {
  executor e({.clients = 2});
  // A closure capturing a federated value: v -> (y -> v).
  const std::string clients = w::at_clients(int32_t_);
  const std::string keep = w::lambda(w::function(clients, w::function(int32_t_, clients)), "v",
                                     w::lambda(w::function(int32_t_, clients), "y", w::ref(clients, "v")));
  const dynamic_value members = make_federated(placement_kind::clients, false, {int32(1), int32(2)});
  const dynamic_value kept = e.apply(e.evaluate(tree_of(keep)), members);
  CHECK_FALSE(detail::function_computation(kept));
  CHECK(e.apply(kept, int32(0)) == members);  // (it still runs where it is)

  // ... inside a struct: p: <f={int32}@CLIENTS, k=int32> -> (y -> p.k + y).
  const std::string p_type = w::struct_type({{"f", clients}, {"k", int32_t_}});
  const std::string in_struct =
      w::lambda(w::function(p_type, i32_to_i32), "p",
                w::lambda(i32_to_i32, "y", plus(w::sel(int32_t_, w::ref(p_type, "p"), 1), r("y"))));
  const dynamic_value g = e.apply(e.evaluate(tree_of(in_struct)), make_struct_value({members, int32(4)}, {"f", "k"}));
  CHECK_FALSE(detail::function_computation(g));
  CHECK(e.apply(g, int32(1)) == int32(5));

  // A sequence: s -> (y -> s).
  const std::string seq = w::field(3, w::field(1, int32_t_));
  const std::string keep_seq = w::lambda(w::function(seq, w::function(int32_t_, seq)), "s",
                                         w::lambda(w::function(int32_t_, seq), "y", w::ref(seq, "s")));
  const dynamic_value h = e.apply(e.evaluate(tree_of(keep_seq)), make_sequence({int32(1)}));
  CHECK_FALSE(detail::function_computation(h));

  // Not a function, or no value.
  CHECK_FALSE(detail::function_computation(int32(1)));
  CHECK_FALSE(detail::function_computation(dynamic_value{}));

  // Larger than allowed.
  const dynamic_value add = e.evaluate(tree_of(w::lambda(i32_to_i32, "z", plus(r("z"), r("z")))));
  CHECK(detail::function_computation(add));
  CHECK_FALSE(detail::function_computation(add, 8));
}

// (int32 -> int32), bound by its key on both sides.
constexpr auto triple = tensorflow_computation<function<i32, i32>>("\x0a\x02tr", tf_tensor("x:0"), tf_tensor("y:0"));

TEST_CASE("function_computation: a bound opaque computation", "[function_computation]") {
  const std::string opaque = ctff_test::byte_string(triple.bytes());
  auto bind = [](executor& ex) { ex.bind(triple, [](i32 x) { return 3 * x; }); };
  executor e;
  bind(e);
  const dynamic_value f = e.evaluate(tree_of(opaque));
  std::string bytes;
  const federated_language::Computation c = written(f, &bytes);
  CHECK(c.has_tensorflow());
  CHECK(bytes == opaque);  // payload and type verbatim: the same key
  executor fresh;
  bind(fresh);
  CHECK(fresh.apply(shipped(f, fresh), int32(5)) == int32(15));
  CHECK(e.apply(f, int32(5)) == int32(15));
  // A worker without the binding cannot run it, and says which key it lacks.
  executor unbound;
  CHECK(error_of<execution_error>([&] { unbound.evaluate(tree_of(bytes)); }).problem().find(std::string(triple.compact())) !=
        std::string::npos);

  // Captured: {t = triple} in (y -> t(t(y))).
  const std::string local =
      w::block(i32_to_i32, {{"t", opaque}},
               w::lambda(i32_to_i32, "y",
                         w::call(int32_t_, w::ref(i32_to_i32, "t"), w::call(int32_t_, w::ref(i32_to_i32, "t"), r("y")))));
  const dynamic_value g = e.evaluate(tree_of(local));
  CHECK(fresh.apply(shipped(g, fresh), int32(5)) == int32(45));
  CHECK(e.apply(g, int32(5)) == int32(45));
}

// A function value the executor did not make: nothing says what it computes.
class foreign_function : public function_impl {
 public:
  dynamic_value call(const dynamic_value*, run_context&) const override { return make_scalar<dtype::int32>(0); }
  std::string describe() const override { return "foreign"; }
};

TEST_CASE("function_computation: a function of another kind is not shipped", "[function_computation]") {
  CHECK_FALSE(detail::function_computation(dynamic_value(function_data{std::make_shared<const foreign_function>()})));
}

}  // namespace
