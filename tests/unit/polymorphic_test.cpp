// ctff::polymorphic: traced per use, inside the using trace. Expected protos are written by hand
// from the reference (tff-language.md §3.1, §3.2, §3.6, §4.1): the hinted parameter type taken
// exactly (federated_map), direct calls with an always-struct parameter, `name_1` renaming, and
// compile-time traces equal to run-time ones.
#include "ctff/trace/polymorphic.hpp"

#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "ctff/ctff.hpp"
#include "ctff/proto.hpp"
#include "parse_back.hpp"

namespace {

using ctff::at_clients;
using i32 = std::int32_t;

// ---------------------------------------------------------------------------------------------
// Text-format builders for expected Computation messages. (Appending, not operator+: g++ 12's
// -Wrestrict misfires on `"literal" + std::string` at -O2.)

template <class... S>
std::string cat(const S&... parts) {
  std::string out;
  (out.append(std::string_view(parts)), ...);
  return out;
}
std::string q(std::string_view s) { return cat("\"", s, "\""); }
std::string tensor(std::string_view dtype) { return cat("tensor { dtype: ", dtype, " }"); }
std::string clients(const std::string& member) {
  return cat("federated { placement { value { uri: \"clients\" } } member { ", member, " } }");
}
std::string fn_type(const std::string& param, const std::string& result) {
  return cat("function { parameter { ", param, " } result { ", result, " } }");
}
std::string struct_type(std::initializer_list<std::string> elements) {
  std::string s = "struct {";
  for (const auto& e : elements) s.append(cat(" element { value { ", e, " } }"));
  return s.append(" }");
}
// A Computation: its type and its oneof member.
std::string comp(const std::string& type, const std::string& body) {
  return cat("type { ", type, " } ", body);
}
std::string ref(std::string_view name, const std::string& type) {
  return comp(type, cat("reference { name: ", q(name), " }"));
}
std::string lambda(const std::string& type, std::string_view param, const std::string& result) {
  return comp(type, cat("lambda { parameter_name: ", q(param), " result { ", result, " } }"));
}
std::string struct_value(const std::string& type, std::initializer_list<std::string> elements) {
  std::string s = "struct {";
  for (const auto& e : elements) s.append(cat(" element { value { ", e, " } }"));
  return comp(type, s.append(" }"));
}
std::string selection(const std::string& type, const std::string& source, int index) {
  const std::string idx = index ? cat(" index: ", std::to_string(index)) : std::string();
  return comp(type, cat("selection { source { ", source, " }", idx, " }"));
}
std::string call(const std::string& type, const std::string& fn, const std::string& arg) {
  return comp(type, cat("call { function { ", fn, " } argument { ", arg, " } }"));
}
// A Block of one local.
std::string block1(const std::string& type, std::string_view local, const std::string& value,
                   const std::string& result) {
  return comp(type, cat("block { local { name: ", q(local), " value { ", value, " } } result { ",
                        result, " } }"));
}

template <class C>
void require_proto(const C& c, const std::string& expected_text) {
  federated_language::Computation expected;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(expected_text, &expected));
  const federated_language::Computation actual = ctff::to_proto(c);
  INFO("expected:\n" << expected.DebugString() << "actual:\n" << actual.DebugString());
  CHECK(google::protobuf::util::MessageDifferencer::Equals(expected, actual));
  // Our bytes are the canonical serialization of that message.
  CHECK(actual.SerializeAsString() == c.bytes().str());
}

using ctff_test::require_same_outputs;

// ---------------------------------------------------------------------------------------------
// Polymorphic computations.

constexpr auto identity = ctff::polymorphic<"identity">([](auto x) { return x; });
constexpr auto swap =
    ctff::polymorphic<"swap">([](auto a, auto b) { return ctff::make_struct(b, a); });
constexpr auto same = ctff::polymorphic<"same">([](auto x) { return x; });
constexpr auto same_calls_same = ctff::polymorphic<"same">([](auto x) { return same(x); });

// (a) Through a parameter-type hint: federated_map hands over the member type, taken exactly; fn
// gets the parameter whole, or unpacked when it cannot take it whole.
constexpr auto map_identity = ctff::computation<"m", at_clients<float>>(
    [](auto v) { return ctff::federated_map(identity, v); });
constexpr auto map_swap = ctff::computation<"ms", at_clients<ctff::struct_<i32, float>>>(
    [](auto v) { return ctff::federated_map(swap, v); });
// One polymorphic computation, two concrete uses in one trace.
constexpr auto map_twice =
    ctff::computation<"mt", ctff::arg<"a", at_clients<float>>, ctff::arg<"b", at_clients<i32>>>(
        [](auto a, auto b) {
          auto x = ctff::federated_map(identity, a);
          auto y = ctff::federated_map(identity, b);
          return ctff::make_struct(x, y);
        });

// (b) Called directly: parameter <argument types...>, unpacked, the call bound.
constexpr auto call_same = ctff::computation<"same", i32>([](auto v) { return same(v); });
constexpr auto call_same_elsewhere =
    ctff::computation<"outer", i32>([](auto v) { return same(v); });
constexpr auto call_swap = ctff::computation<"outer", i32>([](auto v) { return swap(v, 2.5f); });
constexpr auto bcast_sum = ctff::polymorphic<"bs">(
    [](auto x) { return ctff::federated_sum(ctff::federated_broadcast(x)); });
constexpr auto call_bcast_sum =
    ctff::computation<"o", ctff::at_server<i32>>([](auto v) { return bcast_sum(v); });

// Temporaries with bindings as arguments: bound in argument order on every compiler.
constexpr auto pair =
    ctff::polymorphic<"pair">([](auto a, auto b) { return ctff::make_struct(a, b); });
constexpr auto call_pair = ctff::computation<"c", at_clients<i32>, at_clients<float>>(
    [](auto a, auto b) { return pair(ctff::federated_sum(a), ctff::federated_sum(b)); });

// Renaming: the first free name[_k] among the enclosing traces' full names.
constexpr auto same_in_same_in_same =
    ctff::computation<"same", i32>([](auto v) { return same_calls_same(v); });
constexpr auto under_same_1 =
    ctff::computation<"same_1", i32>([](auto v) { return same_calls_same(v); });
// Used in a floating context (operands all constants): traced once the context joins the trace.
constexpr auto floating_use = ctff::computation<"same">(
    [] { return ctff::federated_map(same, ctff::federated_value(1, ctff::CLIENTS)); });

}  // namespace

TEST_CASE("polymorphic: federated_map hands over the member type", "[polymorphic]") {
  STATIC_REQUIRE(map_identity.type_string() == "({float32}@CLIENTS -> {float32}@CLIENTS)");
  STATIC_REQUIRE(
      map_identity.compact() ==
      "(m_arg -> (let fc_m_symbol_0=federated_map(<(identity_arg -> identity_arg),m_arg>) "
      "in fc_m_symbol_0))");

  const std::string f32 = tensor("DT_FLOAT");
  const std::string F = clients(f32);
  const std::string id_type = fn_type(f32, f32);
  const std::string arg_type = struct_type({id_type, F});
  const std::string inner = lambda(id_type, "identity_arg", ref("identity_arg", f32));
  const std::string map_fn = comp(fn_type(arg_type, F), "intrinsic { uri: \"federated_map\" }");
  const std::string map_call = call(F, map_fn, struct_value(arg_type, {inner, ref("m_arg", F)}));
  require_proto(map_identity,
                lambda(fn_type(F, F), "m_arg",
                       block1(F, "fc_m_symbol_0", map_call, ref("fc_m_symbol_0", F))));
}

TEST_CASE("polymorphic: a struct hint is unpacked for a function of several parameters",
          "[polymorphic]") {
  STATIC_REQUIRE(map_swap.type_string() ==
                 "({<int32,float32>}@CLIENTS -> {<float32,int32>}@CLIENTS)");
  STATIC_REQUIRE(map_swap.compact() ==
                 "(ms_arg -> (let fc_ms_symbol_0=federated_map(<(swap_arg -> "
                 "<swap_arg[1],swap_arg[0]>),ms_arg>) in fc_ms_symbol_0))");
  STATIC_REQUIRE(
      map_twice.compact() ==
      "(mt_arg -> (let fc_mt_symbol_0=federated_map(<(identity_arg -> identity_arg),mt_arg[0]>),"
      "fc_mt_symbol_1=federated_map(<(identity_arg -> identity_arg),mt_arg[1]>) in "
      "<fc_mt_symbol_0,fc_mt_symbol_1>))");
}

TEST_CASE("polymorphic: a direct call has a struct parameter and is bound", "[polymorphic]") {
  STATIC_REQUIRE(call_same.type_string() == "(int32 -> int32)");
  STATIC_REQUIRE(call_same.compact() ==
                 "(same_arg -> (let fc_same_symbol_0=(same_1_arg -> same_1_arg[0])(<same_arg>) in "
                 "fc_same_symbol_0))");
  STATIC_REQUIRE(call_same_elsewhere.compact() ==
                 "(outer_arg -> (let fc_outer_symbol_0=(same_arg -> same_arg[0])(<outer_arg>) in "
                 "fc_outer_symbol_0))");
  STATIC_REQUIRE(call_swap.type_string() == "(int32 -> <float32,int32>)");
  STATIC_REQUIRE(call_swap.compact() ==
                 "(outer_arg -> (let fc_outer_symbol_0=(swap_arg -> <swap_arg[1],swap_arg[0]>)"
                 "(<outer_arg,2.5>) in fc_outer_symbol_0))");
  STATIC_REQUIRE(
      call_bcast_sum.compact() ==
      "(o_arg -> (let fc_o_symbol_0=(bs_arg -> (let fc_bs_symbol_0=federated_broadcast(bs_arg[0]),"
      "fc_bs_symbol_1=federated_sum(fc_bs_symbol_0) in fc_bs_symbol_1))(<o_arg>) in "
      "fc_o_symbol_0))");

  STATIC_REQUIRE(call_pair.compact() ==
                 "(c_arg -> (let fc_c_symbol_0=federated_sum(c_arg[0]),"
                 "fc_c_symbol_1=federated_sum(c_arg[1]),"
                 "fc_c_symbol_2=(pair_arg -> <pair_arg[0],pair_arg[1]>)"
                 "(<fc_c_symbol_0,fc_c_symbol_1>) in fc_c_symbol_2))");

  const std::string i = tensor("DT_INT32");
  const std::string s = struct_type({i});
  const std::string inner =
      lambda(fn_type(s, i), "same_1_arg", selection(i, ref("same_1_arg", s), 0));
  const std::string bound = call(i, inner, struct_value(s, {ref("same_arg", i)}));
  require_proto(call_same,
                lambda(fn_type(i, i), "same_arg",
                       block1(i, "fc_same_symbol_0", bound, ref("fc_same_symbol_0", i))));
}

TEST_CASE("polymorphic: a name used by an enclosing trace gets _1, _2, ...", "[polymorphic]") {
  STATIC_REQUIRE(same_in_same_in_same.compact() ==
                 "(same_arg -> (let fc_same_symbol_0=(same_1_arg -> (let "
                 "fc_same_1_symbol_0=(same_2_arg -> same_2_arg[0])(<same_1_arg[0]>) in "
                 "fc_same_1_symbol_0))(<same_arg>) in fc_same_symbol_0))");
  // `same_1` is taken by the outermost trace (named so), `same` by the middle one.
  STATIC_REQUIRE(under_same_1.compact() ==
                 "(same_1_arg -> (let fc_same_1_symbol_0=(same_arg -> (let "
                 "fc_same_symbol_0=(same_2_arg -> same_2_arg[0])(<same_arg[0]>) in "
                 "fc_same_symbol_0))(<same_1_arg>) in fc_same_1_symbol_0))");
  STATIC_REQUIRE(floating_use.type_string() == "( -> {int32}@CLIENTS)");
  STATIC_REQUIRE(floating_use.compact() ==
                 "( -> (let fc_same_symbol_0=federated_value_at_clients(1),"
                 "fc_same_symbol_1=federated_map(<(same_1_arg -> same_1_arg),fc_same_symbol_0>) in "
                 "fc_same_symbol_1))");
  STATIC_REQUIRE(same_in_same_in_same.formatted() ==
                 "(same_arg -> (let\n"
                 "  fc_same_symbol_0=(same_1_arg -> (let\n"
                 "    fc_same_1_symbol_0=(same_2_arg -> same_2_arg[0])(<\n"
                 "      same_1_arg[0]\n"
                 "    >)\n"
                 "   in fc_same_1_symbol_0))(<\n"
                 "    same_arg\n"
                 "  >)\n"
                 " in fc_same_symbol_0))");
  // The bytes parse, and hold the renamed parameter.
  const federated_language::Computation c = ctff::to_proto(same_in_same_in_same);
  const auto& inner = c.lambda().result().block().local(0).value().call().function();
  CHECK(inner.lambda().parameter_name() == "same_1_arg");
  CHECK(inner.lambda().result().block().local(0).name() == "fc_same_1_symbol_0");
}

TEST_CASE("polymorphic: run-time traces equal compile-time traces", "[polymorphic]") {
  const int k = 0;  // a capture makes each computation trace at run time
  // Captureless polymorphic computations used by run-time traces.
  require_same_outputs(ctff::computation<"m", at_clients<float>>([k](auto v) {
                         (void)k;
                         return ctff::federated_map(identity, v);
                       }),
                       map_identity);
  require_same_outputs(ctff::computation<"ms", at_clients<ctff::struct_<i32, float>>>([k](auto v) {
                         (void)k;
                         return ctff::federated_map(swap, v);
                       }),
                       map_swap);
  require_same_outputs(ctff::computation<"outer", i32>([k](auto v) {
                         (void)k;
                         return swap(v, 2.5f);
                       }),
                       call_swap);
  require_same_outputs(ctff::computation<"o", ctff::at_server<i32>>([k](auto v) {
                         (void)k;
                         return bcast_sum(v);
                       }),
                       call_bcast_sum);
  require_same_outputs(
      ctff::computation<"c", at_clients<i32>, at_clients<float>>([k](auto a, auto b) {
        (void)k;
        return pair(ctff::federated_sum(a), ctff::federated_sum(b));
      }),
      call_pair);
  require_same_outputs(ctff::computation<"same_1", i32>([k](auto v) {
                         (void)k;
                         return same_calls_same(v);
                       }),
                       under_same_1);
  require_same_outputs(ctff::computation<"same">([k] {
                         (void)k;
                         return ctff::federated_map(same, ctff::federated_value(1, ctff::CLIENTS));
                       }),
                       floating_use);

  // Polymorphic computations over lambdas with captures.
  const auto rt_same = ctff::polymorphic<"same">([k](auto x) {
    (void)k;
    return x;
  });
  const auto rt_same_calls_same =
      ctff::polymorphic<"same">([&rt_same](auto x) { return rt_same(x); });
  require_same_outputs(
      ctff::computation<"same", i32>([&](auto v) { return rt_same_calls_same(v); }),
      same_in_same_in_same);
  const auto rt_identity = ctff::polymorphic<"identity">([k](auto x) {
    (void)k;
    return x;
  });
  require_same_outputs(
      ctff::computation<"mt", ctff::arg<"a", at_clients<float>>, ctff::arg<"b", at_clients<i32>>>(
          [&](auto a, auto b) {
            auto x = ctff::federated_map(rt_identity, a);
            auto y = ctff::federated_map(rt_identity, b);
            return ctff::make_struct(x, y);
          }),
      map_twice);
}
