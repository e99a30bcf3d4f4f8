// Every intrinsic's API forms (tff-language.md §3.5, §3.4): the URI, the concrete intrinsic type,
// the call argument and what is bound. Each expected Computation is written by hand, as a text
// proto, from the reference's rules: types from the "Concrete intrinsic type built" column, Block
// locals for every API call, inline zips / selections / wrapper lambdas. The traced bytes must
// parse to the same message, and the message must serialize to the same bytes. Each program also
// has a Python twin (tests/goldens/python/intrinsics.py): ctff's five outputs must equal what
// federated_language 0.5.3 printed for it (tests/goldens/python/intrinsics/).
#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "ctff/ctff.hpp"
#include "ctff/proto.hpp"
#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

using namespace ctff;
using namespace ctff::literals;
using i32 = std::int32_t;

// ---------------------------------------------------------------------------------------------
// Text-format builders. Type builders give the content of a Type message, computation builders
// the content of a Computation message (its type first). (Appending, not operator+: g++ 12's
// -Wrestrict misfires on `"literal" + std::string` at -O2.)

template <class... S>
std::string cat(const S&... parts) {
  std::string out;
  (out.append(std::string_view(parts)), ...);
  return out;
}
std::string q(std::string_view s) { return cat("\"", s, "\""); }

namespace ty {
const std::string i32 = "tensor { dtype: DT_INT32 }";
const std::string i64 = "tensor { dtype: DT_INT64 }";
const std::string f32 = "tensor { dtype: DT_FLOAT }";
const std::string i32x3 = "tensor { dtype: DT_INT32 dims: 3 }";
std::string fed(const std::string& member, std::string_view uri, bool all_equal) {
  return cat("federated { placement { value { uri: ", q(uri), " } } ",
             all_equal ? "all_equal: true " : "", "member { ", member, " } }");
}
std::string at_c(const std::string& m) { return fed(m, "clients", false); }    // {m}@CLIENTS
std::string at_c_eq(const std::string& m) { return fed(m, "clients", true); }  // m@CLIENTS
std::string at_s(const std::string& m) { return fed(m, "server", true); }      // m@SERVER
std::string fn(const std::string& param, const std::string& result) {
  return cat("function { parameter { ", param, " } result { ", result, " } }");
}
std::string fn0(const std::string& result) { return cat("function { result { ", result, " } }"); }
std::string seq(const std::string& element) { return cat("sequence { element { ", element, " } }"); }
// A struct; an element "name:type" is named, anything else unnamed.
std::string st(std::initializer_list<std::pair<std::string, std::string>> elements) {
  std::string s = "struct {";
  for (const auto& [name, t] : elements) {
    s.append(" element {");
    if (!name.empty()) s.append(cat(" name: ", q(name)));
    s.append(cat(" value { ", t, " } }"));
  }
  return s.append(" }");
}
std::pair<std::string, std::string> u(const std::string& t) { return {"", t}; }      // unnamed
std::pair<std::string, std::string> n(std::string name, const std::string& t) {   // named
  return {std::move(name), t};
}
}  // namespace ty

std::string comp(const std::string& type, const std::string& body) {
  return cat("type { ", type, " } ", body);
}
std::string ref(const std::string& type, std::string_view name) {
  return comp(type, cat("reference { name: ", q(name), " }"));
}
std::string intrinsic(const std::string& type, std::string_view uri) {
  return comp(type, cat("intrinsic { uri: ", q(uri), " }"));
}
std::string call(const std::string& type, const std::string& fn, const std::string& arg) {
  return comp(type, cat("call { function { ", fn, " } argument { ", arg, " } }"));
}
std::string lambda(const std::string& type, std::string_view param, const std::string& result) {
  return comp(type, cat("lambda { ", param.empty() ? std::string() : cat("parameter_name: ", q(param), " "),
                        "result { ", result, " } }"));
}
std::string block(const std::string& type, std::initializer_list<std::pair<std::string, std::string>> locals,
                  const std::string& result) {
  std::string s = "block {";
  for (const auto& [name, value] : locals) s.append(cat(" local { name: ", q(name), " value { ", value, " } }"));
  return comp(type, cat(s, " result { ", result, " } }"));
}
std::string strct(const std::string& type, std::initializer_list<std::pair<std::string, std::string>> elements) {
  std::string s = "struct {";
  for (const auto& [name, value] : elements) {
    s.append(" element {");
    if (!name.empty()) s.append(cat(" name: ", q(name)));
    s.append(cat(" value { ", value, " } }"));
  }
  return comp(type, s.append(" }"));
}
std::pair<std::string, std::string> e(const std::string& c) { return {"", c}; }
std::pair<std::string, std::string> e(std::string name, const std::string& c) { return {std::move(name), c}; }
std::string sel(const std::string& type, const std::string& source, int index) {
  return comp(type, cat("selection { source { ", source, " } index: ", std::to_string(index), " }"));
}
std::string lit_i32(int v) {
  return comp(ty::i32, cat("literal { value { dtype: DT_INT32 shape { } int32_list { value: ",
                           std::to_string(v), " } } }"));
}
std::string lit_f32(std::string_view v) {
  return comp(ty::f32, cat("literal { value { dtype: DT_FLOAT shape { } float32_list { value: ", v, " } } }"));
}

// c equals Python's golden `name` (tests/goldens/python/intrinsics) and the hand-written proto.
template <class C>
void check(std::string_view name, const C& c, const std::string& expected_text,
           std::string_view expected_compact) {
  ctff_test::check_python("intrinsics", name, c);
  federated_language::Computation expected;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(expected_text, &expected));
  const federated_language::Computation actual = ctff_test::require_parses(c.bytes());
  INFO("expected:\n" << expected.DebugString() << "\nactual:\n" << actual.DebugString());
  CHECK(google::protobuf::util::MessageDifferencer::Equals(expected, actual));
  const std::string bytes(reinterpret_cast<const char*>(c.bytes().data()), c.bytes().size());
  CHECK(expected.SerializeAsString() == bytes);
  CHECK(c.compact() == expected_compact);
}

// ---------------------------------------------------------------------------------------------
// Nested computations used as functions, and their protos.

constexpr auto ident = computation<"ident", i32>([](auto x) { return x; });
const std::string ident_type = ty::fn(ty::i32, ty::i32);
const std::string ident_proto = lambda(ident_type, "ident_arg", ref(ty::i32, "ident_arg"));

constexpr auto five = computation<"five">([] { return 5; });
const std::string five_proto = lambda(ty::fn0(ty::i32), "", lit_i32(5));

// `name(<p[0], p[1]>)` over an <int32,int32> parameter, named (acc: <u=,t=>) or not (merge).
const std::string pair_type = ty::st({ty::u(ty::i32), ty::u(ty::i32)});
const std::string plus_type = ty::fn(pair_type, ty::i32);
std::string plus_proto(std::string_view name, const std::string& param_type) {
  const std::string arg = cat(name, "_arg"), sym = cat("fc_", name, "_symbol_0");
  const std::string p = ref(param_type, arg);
  return lambda(ty::fn(param_type, ty::i32), arg,
                block(ty::i32,
                      {{sym, call(ty::i32, intrinsic(plus_type, "generic_plus"),
                                  strct(pair_type, {e(sel(ty::i32, p, 0)), e(sel(ty::i32, p, 1))}))}},
                      ref(ty::i32, sym)));
}
constexpr auto acc = computation<"acc", arg<"u", i32>, arg<"t", i32>>([](auto a, auto b) { return a + b; });
const std::string acc_param = ty::st({ty::n("u", ty::i32), ty::n("t", ty::i32)});
const std::string acc_proto = plus_proto("acc", acc_param);
constexpr auto merge = computation<"merge", i32, i32>([](auto a, auto b) { return a + b; });
const std::string merge_proto = plus_proto("merge", pair_type);
// acc with its parameter unnamed: `(a -> acc(a))`, the Call inline.
const std::string acc_wrapper =
    lambda(plus_type, "a", call(ty::i32, acc_proto, ref(pair_type, "a")));

constexpr auto pick = computation<"pick", arg<"s", float>, arg<"k", i32>>([](auto s, auto) { return s; });
constexpr auto seq_id = computation<"seq_id", sequence<i32>>([](auto s) { return sequence_map(ident, s); });

// ---------------------------------------------------------------------------------------------

TEST_CASE("federated_broadcast: (T@SERVER -> T@CLIENTS), all_equal result", "[intrinsics]") {
  constexpr auto c = computation<"bc", at_server<i32>>([](auto x) { return federated_broadcast(x); });
  static_assert(c.type_string() == "(int32@SERVER -> int32@CLIENTS)");
  const std::string r = ty::at_c_eq(ty::i32);
  check("broadcast", c,
        lambda(ty::fn(ty::at_s(ty::i32), r), "bc_arg",
               block(r,
                     {{"fc_bc_symbol_0",
                       call(r, intrinsic(ty::fn(ty::at_s(ty::i32), r), "federated_broadcast"),
                            ref(ty::at_s(ty::i32), "bc_arg"))}},
                     ref(r, "fc_bc_symbol_0"))),
        "(bc_arg -> (let fc_bc_symbol_0=federated_broadcast(bc_arg) in fc_bc_symbol_0))");
}

TEST_CASE("federated_map at CLIENTS: parameter rebuilt not all_equal", "[intrinsics]") {
  constexpr auto c = computation<"map_eq", at_clients<i32, all_equal>>(
      [](auto x) { return federated_map(ident, x); });
  static_assert(c.type_string() == "(int32@CLIENTS -> {int32}@CLIENTS)");
  const std::string r = ty::at_c(ty::i32);
  const std::string f = ty::fn(ty::st({ty::u(ident_type), ty::u(ty::at_c(ty::i32))}), r);
  const std::string arg_type = ty::st({ty::u(ident_type), ty::u(ty::at_c_eq(ty::i32))});
  check("map_all_equal_arg", c,
        lambda(ty::fn(ty::at_c_eq(ty::i32), r), "map_eq_arg",
               block(r,
                     {{"fc_map_eq_symbol_0",
                       call(r, intrinsic(f, "federated_map"),
                            strct(arg_type, {e(ident_proto), e(ref(ty::at_c_eq(ty::i32), "map_eq_arg"))}))}},
                     ref(r, "fc_map_eq_symbol_0"))),
        "(map_eq_arg -> (let fc_map_eq_symbol_0=federated_map(<(ident_arg -> ident_arg),map_eq_arg>) in "
        "fc_map_eq_symbol_0))");
}

TEST_CASE("federated_map at SERVER is federated_apply", "[intrinsics]") {
  constexpr auto c = computation<"apply", at_server<i32>>([](auto x) { return federated_map(ident, x); });
  const std::string s = ty::at_s(ty::i32);
  const std::string arg_type = ty::st({ty::u(ident_type), ty::u(s)});
  check("map_at_server", c,
        lambda(ty::fn(s, s), "apply_arg",
               block(s,
                     {{"fc_apply_symbol_0",
                       call(s, intrinsic(ty::fn(arg_type, s), "federated_apply"),
                            strct(arg_type, {e(ident_proto), e(ref(s, "apply_arg"))}))}},
                     ref(s, "fc_apply_symbol_0"))),
        "(apply_arg -> (let fc_apply_symbol_0=federated_apply(<(ident_arg -> ident_arg),apply_arg>) in "
        "fc_apply_symbol_0))");
}

TEST_CASE("federated_map_all_equal: (<(T -> U),T@CLIENTS> -> U@CLIENTS)", "[intrinsics]") {
  constexpr auto c = computation<"mae", at_clients<i32, all_equal>>(
      [](auto x) { return federated_map_all_equal(ident, x); });
  const std::string r = ty::at_c_eq(ty::i32);
  const std::string arg_type = ty::st({ty::u(ident_type), ty::u(r)});
  check("map_all_equal", c,
        lambda(ty::fn(r, r), "mae_arg",
               block(r,
                     {{"fc_mae_symbol_0",
                       call(r, intrinsic(ty::fn(arg_type, r), "federated_map_all_equal"),
                            strct(arg_type, {e(ident_proto), e(ref(r, "mae_arg"))}))}},
                     ref(r, "fc_mae_symbol_0"))),
        "(mae_arg -> (let fc_mae_symbol_0=federated_map_all_equal(<(ident_arg -> ident_arg),mae_arg>) in "
        "fc_mae_symbol_0))");
}

TEST_CASE("federated_sum of an all_equal value: parameter {T}@CLIENTS, argument T@CLIENTS", "[intrinsics]") {
  constexpr auto c = computation<"s", at_clients<i32, all_equal>>([](auto x) { return federated_sum(x); });
  const std::string r = ty::at_s(ty::i32);
  check("sum_all_equal", c,
        lambda(ty::fn(ty::at_c_eq(ty::i32), r), "s_arg",
               block(r,
                     {{"fc_s_symbol_0", call(r, intrinsic(ty::fn(ty::at_c(ty::i32), r), "federated_sum"),
                                             ref(ty::at_c_eq(ty::i32), "s_arg"))}},
                     ref(r, "fc_s_symbol_0"))),
        "(s_arg -> (let fc_s_symbol_0=federated_sum(s_arg) in fc_s_symbol_0))");
}

TEST_CASE("federated_mean, weighted mean, min, max", "[intrinsics]") {
  constexpr auto c = computation<"agg", at_clients<float>, at_clients<i32>>([](auto x, auto w) {
    return std::tuple{federated_mean(x), federated_mean(x, w), federated_min(w), federated_max(x)};
  });
  static_assert(c.type_string() ==
                "(<{float32}@CLIENTS,{int32}@CLIENTS> -> <float32@SERVER,float32@SERVER,int32@SERVER,"
                "float32@SERVER>)");
  const std::string cf = ty::at_c(ty::f32), ci = ty::at_c(ty::i32);
  const std::string sf = ty::at_s(ty::f32), si = ty::at_s(ty::i32);
  const std::string p_type = ty::st({ty::u(cf), ty::u(ci)});
  const std::string result = ty::st({ty::u(sf), ty::u(sf), ty::u(si), ty::u(sf)});
  const std::string p = ref(p_type, "agg_arg");
  const std::string x = sel(cf, p, 0), w = sel(ci, p, 1);
  check("mean_min_max", c,
        lambda(ty::fn(p_type, result), "agg_arg",
               block(result,
                     {{"fc_agg_symbol_0", call(sf, intrinsic(ty::fn(cf, sf), "federated_mean"), x)},
                      {"fc_agg_symbol_1", call(sf, intrinsic(ty::fn(p_type, sf), "federated_weighted_mean"),
                                               strct(p_type, {e(x), e(w)}))},
                      {"fc_agg_symbol_2", call(si, intrinsic(ty::fn(ci, si), "federated_min"), w)},
                      {"fc_agg_symbol_3", call(sf, intrinsic(ty::fn(cf, sf), "federated_max"), x)}},
                     strct(result, {e(ref(sf, "fc_agg_symbol_0")), e(ref(sf, "fc_agg_symbol_1")),
                                    e(ref(si, "fc_agg_symbol_2")), e(ref(sf, "fc_agg_symbol_3"))}))),
        "(agg_arg -> (let fc_agg_symbol_0=federated_mean(agg_arg[0]),fc_agg_symbol_1=federated_weighted_mean("
        "<agg_arg[0],agg_arg[1]>),fc_agg_symbol_2=federated_min(agg_arg[1]),fc_agg_symbol_3=federated_max("
        "agg_arg[0]) in <fc_agg_symbol_0,fc_agg_symbol_1,fc_agg_symbol_2,fc_agg_symbol_3>))");
}

TEST_CASE("federated_value at CLIENTS and SERVER", "[intrinsics]") {
  constexpr auto c = computation<"place", i32>([](auto x) {
    return std::tuple{federated_value(x, CLIENTS), federated_value(std::tuple{x, 2.5f}, SERVER)};
  });
  const std::string pair = ty::st({ty::u(ty::i32), ty::u(ty::f32)});
  const std::string rc = ty::at_c_eq(ty::i32), rs = ty::at_s(pair);
  const std::string result = ty::st({ty::u(rc), ty::u(rs)});
  const std::string x = ref(ty::i32, "place_arg");
  check("value", c,
        lambda(ty::fn(ty::i32, result), "place_arg",
               block(result,
                     {{"fc_place_symbol_0",
                       call(rc, intrinsic(ty::fn(ty::i32, rc), "federated_value_at_clients"), x)},
                      {"fc_place_symbol_1",
                       call(rs, intrinsic(ty::fn(pair, rs), "federated_value_at_server"),
                            strct(pair, {e(x), e(lit_f32("2.5"))}))}},
                     strct(result, {e(ref(rc, "fc_place_symbol_0")), e(ref(rs, "fc_place_symbol_1"))}))),
        "(place_arg -> (let fc_place_symbol_0=federated_value_at_clients(place_arg),fc_place_symbol_1="
        "federated_value_at_server(<place_arg,2.5>) in <fc_place_symbol_0,fc_place_symbol_1>))");
}

TEST_CASE("federated_eval at CLIENTS ({R}@CLIENTS) and SERVER (R@SERVER)", "[intrinsics]") {
  constexpr auto c = computation<"ev">(
      [] { return std::tuple{federated_eval(five, CLIENTS), federated_eval(five, SERVER)}; });
  static_assert(c.type_string() == "( -> <{int32}@CLIENTS,int32@SERVER>)");
  const std::string f = ty::fn0(ty::i32);
  const std::string rc = ty::at_c(ty::i32), rs = ty::at_s(ty::i32);
  const std::string result = ty::st({ty::u(rc), ty::u(rs)});
  check("eval", c,
        lambda(ty::fn0(result), "",
               block(result,
                     {{"fc_ev_symbol_0", call(rc, intrinsic(ty::fn(f, rc), "federated_eval_at_clients"), five_proto)},
                      {"fc_ev_symbol_1", call(rs, intrinsic(ty::fn(f, rs), "federated_eval_at_server"), five_proto)}},
                     strct(result, {e(ref(rc, "fc_ev_symbol_0")), e(ref(rs, "fc_ev_symbol_1"))}))),
        "( -> (let fc_ev_symbol_0=federated_eval_at_clients(( -> 5)),fc_ev_symbol_1=federated_eval_at_server(( -> "
        "5)) in <fc_ev_symbol_0,fc_ev_symbol_1>))");
}

TEST_CASE("federated_zip at CLIENTS: named, nested, all_equal leaves normalised", "[intrinsics]") {
  constexpr auto c = computation<"zip", arg<"a", at_clients<i32, all_equal>>, arg<"b", at_clients<float>>>(
      [](auto a, auto b) { return federated_zip(make_struct<"x", "y">(a, make_struct(b, a))); });
  static_assert(c.type_string() ==
                "(<a=int32@CLIENTS,b={float32}@CLIENTS> -> {<x=int32,y=<float32,int32>>}@CLIENTS)");
  const std::string p_type = ty::st({ty::n("a", ty::at_c_eq(ty::i32)), ty::n("b", ty::at_c(ty::f32))});
  const std::string r = ty::at_c(ty::st({ty::n("x", ty::i32), ty::n("y", ty::st({ty::u(ty::f32), ty::u(ty::i32)}))}));
  const std::string inner_arg = ty::st({ty::u(ty::at_c(ty::f32)), ty::u(ty::at_c_eq(ty::i32))});
  const std::string arg_type = ty::st({ty::n("x", ty::at_c_eq(ty::i32)), ty::n("y", inner_arg)});
  const std::string param = ty::st(
      {ty::n("x", ty::at_c(ty::i32)), ty::n("y", ty::st({ty::u(ty::at_c(ty::f32)), ty::u(ty::at_c(ty::i32))}))});
  const std::string p = ref(p_type, "zip_arg");
  const std::string a = sel(ty::at_c_eq(ty::i32), p, 0), b = sel(ty::at_c(ty::f32), p, 1);
  check("zip_clients", c,
        lambda(ty::fn(p_type, r), "zip_arg",
               block(r,
                     {{"fc_zip_symbol_0",
                       call(r, intrinsic(ty::fn(param, r), "federated_zip_at_clients"),
                            strct(arg_type, {e("x", a), e("y", strct(inner_arg, {e(b), e(a)}))}))}},
                     ref(r, "fc_zip_symbol_0"))),
        "(zip_arg -> (let fc_zip_symbol_0=federated_zip_at_clients(<x=zip_arg[0],y=<zip_arg[1],zip_arg[0]>>) in "
        "fc_zip_symbol_0))");
}

TEST_CASE("federated_zip at SERVER, and federated_zip(a, b)", "[intrinsics]") {
  constexpr auto c = computation<"zs", at_server<i32>, at_server<float>>(
      [](auto a, auto b) { return federated_zip(a, b); });
  const std::string p_type = ty::st({ty::u(ty::at_s(ty::i32)), ty::u(ty::at_s(ty::f32))});
  const std::string r = ty::at_s(ty::st({ty::u(ty::i32), ty::u(ty::f32)}));
  const std::string p = ref(p_type, "zs_arg");
  check("zip_server", c,
        lambda(ty::fn(p_type, r), "zs_arg",
               block(r,
                     {{"fc_zs_symbol_0",
                       call(r, intrinsic(ty::fn(p_type, r), "federated_zip_at_server"),
                            strct(p_type, {e(sel(ty::at_s(ty::i32), p, 0)), e(sel(ty::at_s(ty::f32), p, 1))}))}},
                     ref(r, "fc_zs_symbol_0"))),
        "(zs_arg -> (let fc_zs_symbol_0=federated_zip_at_server(<zs_arg[0],zs_arg[1]>) in fc_zs_symbol_0))");
}

TEST_CASE("implicit zip: a struct of federated values where one is expected, zipped inline", "[intrinsics]") {
  constexpr auto c = computation<"autozip", at_clients<i32>, at_clients<i32>>(
      [](auto a, auto b) { return federated_sum(std::tuple{a, b}); });
  const std::string ci = ty::at_c(ty::i32);
  const std::string p_type = ty::st({ty::u(ci), ty::u(ci)});
  const std::string zipped = ty::at_c(pair_type), r = ty::at_s(pair_type);
  const std::string p = ref(p_type, "autozip_arg");
  const std::string zip = call(zipped, intrinsic(ty::fn(p_type, zipped), "federated_zip_at_clients"),
                               strct(p_type, {e(sel(ci, p, 0)), e(sel(ci, p, 1))}));
  check("implicit_zip", c,
        lambda(ty::fn(p_type, r), "autozip_arg",
               block(r, {{"fc_autozip_symbol_0", call(r, intrinsic(ty::fn(zipped, r), "federated_sum"), zip)}},
                     ref(r, "fc_autozip_symbol_0"))),
        "(autozip_arg -> (let fc_autozip_symbol_0=federated_sum(federated_zip_at_clients(<autozip_arg[0],"
        "autozip_arg[1]>)) in fc_autozip_symbol_0))");
}

TEST_CASE("federated_aggregate: (a -> acc(a)) for a named accumulate parameter, merge as is", "[intrinsics]") {
  constexpr auto c = computation<"agg", at_clients<i32>>(
      [](auto v) { return federated_aggregate(v, 0, acc, merge, ident); });
  static_assert(c.type_string() == "({int32}@CLIENTS -> int32@SERVER)");
  const std::string ci = ty::at_c(ty::i32), r = ty::at_s(ty::i32);
  const std::string arg_type = ty::st({ty::u(ci), ty::u(ty::i32), ty::u(plus_type), ty::u(plus_type), ty::u(ident_type)});
  check("aggregate", c,
        lambda(ty::fn(ci, r), "agg_arg",
               block(r,
                     {{"fc_agg_symbol_0",
                       call(r, intrinsic(ty::fn(arg_type, r), "federated_aggregate"),
                            strct(arg_type, {e(ref(ci, "agg_arg")), e(lit_i32(0)), e(acc_wrapper),
                                             e(merge_proto), e(ident_proto)}))}},
                     ref(r, "fc_agg_symbol_0"))),
        "(agg_arg -> (let fc_agg_symbol_0=federated_aggregate(<agg_arg,0,(a -> (acc_arg -> (let fc_acc_symbol_0="
        "generic_plus(<acc_arg[0],acc_arg[1]>) in fc_acc_symbol_0))(a)),(merge_arg -> (let fc_merge_symbol_0="
        "generic_plus(<merge_arg[0],merge_arg[1]>) in fc_merge_symbol_0)),(ident_arg -> ident_arg)>) in "
        "fc_agg_symbol_0))");
}

TEST_CASE("federated_secure_sum (scalar bound replicated) and federated_secure_sum_bitwidth", "[intrinsics]") {
  constexpr auto c = computation<"ss", at_clients<struct_<field<"a", i32>, field<"b", struct_<i32, std::int64_t>>>>>(
      [](auto v) {
        return std::tuple{federated_secure_sum(v, 5),
                          federated_secure_sum_bitwidth(v, make_struct<"a", "b">(1, std::tuple{2, 3}))};
      });
  const std::string m = ty::st({ty::n("a", ty::i32), ty::n("b", ty::st({ty::u(ty::i32), ty::u(ty::i64)}))});
  const std::string bound = ty::st({ty::n("a", ty::i32), ty::n("b", pair_type)});
  const std::string cm = ty::at_c(m), r = ty::at_s(m);
  const std::string arg_type = ty::st({ty::u(cm), ty::u(bound)});
  const std::string result = ty::st({ty::u(r), ty::u(r)});
  const std::string v = ref(cm, "ss_arg");
  check("secure_sum", c,
        lambda(ty::fn(cm, result), "ss_arg",
               block(result,
                     {{"fc_ss_symbol_0",
                       call(r, intrinsic(ty::fn(arg_type, r), "federated_secure_sum"),
                            strct(arg_type, {e(v), e(strct(bound, {e("a", lit_i32(5)),
                                                                   e("b", strct(pair_type, {e(lit_i32(5)), e(lit_i32(5))}))}))}))},
                      {"fc_ss_symbol_1",
                       call(r, intrinsic(ty::fn(arg_type, r), "federated_secure_sum_bitwidth"),
                            strct(arg_type, {e(v), e(strct(bound, {e("a", lit_i32(1)),
                                                                   e("b", strct(pair_type, {e(lit_i32(2)), e(lit_i32(3))}))}))}))}},
                     strct(result, {e(ref(r, "fc_ss_symbol_0")), e(ref(r, "fc_ss_symbol_1"))}))),
        "(ss_arg -> (let fc_ss_symbol_0=federated_secure_sum(<ss_arg,<a=5,b=<5,5>>>),fc_ss_symbol_1="
        "federated_secure_sum_bitwidth(<ss_arg,<a=1,b=<2,3>>>) in <fc_ss_symbol_0,fc_ss_symbol_1>))");
}

TEST_CASE("federated_select and federated_secure_select: select_fn unnamed by a wrapper", "[intrinsics]") {
  constexpr auto c = computation<"sel", arg<"keys", at_clients<std::array<i32, 3>>>, arg<"max", at_server<i32>>,
                                 arg<"db", at_server<float>>>([](auto k, auto m, auto d) {
    return std::tuple{federated_select(k, m, d, pick), federated_secure_select(k, m, d, pick)};
  });
  static_assert(c.type_string() ==
                "(<keys={int32[3]}@CLIENTS,max=int32@SERVER,db=float32@SERVER> -> "
                "<{float32*}@CLIENTS,{float32*}@CLIENTS>)");
  const std::string pick_param = ty::st({ty::n("s", ty::f32), ty::n("k", ty::i32)});
  const std::string pick_proto =
      lambda(ty::fn(pick_param, ty::f32), "pick_arg", sel(ty::f32, ref(pick_param, "pick_arg"), 0));
  const std::string unnamed = ty::st({ty::u(ty::f32), ty::u(ty::i32)});
  const std::string sel_fn = ty::fn(unnamed, ty::f32);
  const std::string wrapper = lambda(sel_fn, "a", call(ty::f32, pick_proto, ref(unnamed, "a")));
  const std::string keys = ty::at_c(ty::i32x3), mx = ty::at_s(ty::i32), db = ty::at_s(ty::f32);
  const std::string p_type = ty::st({ty::n("keys", keys), ty::n("max", mx), ty::n("db", db)});
  const std::string arg_type = ty::st({ty::u(keys), ty::u(mx), ty::u(db), ty::u(sel_fn)});
  const std::string r = ty::at_c(ty::seq(ty::f32));
  const std::string result = ty::st({ty::u(r), ty::u(r)});
  const std::string p = ref(p_type, "sel_arg");
  const std::string arg = strct(arg_type, {e(sel(keys, p, 0)), e(sel(mx, p, 1)), e(sel(db, p, 2)), e(wrapper)});
  check("select", c,
        lambda(ty::fn(p_type, result), "sel_arg",
               block(result,
                     {{"fc_sel_symbol_0", call(r, intrinsic(ty::fn(arg_type, r), "federated_select"), arg)},
                      {"fc_sel_symbol_1", call(r, intrinsic(ty::fn(arg_type, r), "federated_secure_select"), arg)}},
                     strct(result, {e(ref(r, "fc_sel_symbol_0")), e(ref(r, "fc_sel_symbol_1"))}))),
        "(sel_arg -> (let fc_sel_symbol_0=federated_select(<sel_arg[0],sel_arg[1],sel_arg[2],(a -> (pick_arg -> "
        "pick_arg[0])(a))>),fc_sel_symbol_1=federated_secure_select(<sel_arg[0],sel_arg[1],sel_arg[2],(a -> "
        "(pick_arg -> pick_arg[0])(a))>) in <fc_sel_symbol_0,fc_sel_symbol_1>))");
}

TEST_CASE("sequence_map, sequence_reduce, sequence_sum on an unplaced sequence", "[intrinsics]") {
  constexpr auto c = computation<"seq", sequence<i32>>([](auto s) {
    return std::tuple{sequence_map(ident, s), sequence_reduce(s, 0, merge), sequence_sum(s)};
  });
  static_assert(c.type_string() == "(int32* -> <int32*,int32,int32>)");
  const std::string s = ty::seq(ty::i32);
  const std::string result = ty::st({ty::u(s), ty::u(ty::i32), ty::u(ty::i32)});
  const std::string map_arg = ty::st({ty::u(ident_type), ty::u(s)});
  const std::string reduce_arg = ty::st({ty::u(s), ty::u(ty::i32), ty::u(plus_type)});
  const std::string x = ref(s, "seq_arg");
  check("sequence_unplaced", c,
        lambda(ty::fn(s, result), "seq_arg",
               block(result,
                     {{"fc_seq_symbol_0", call(s, intrinsic(ty::fn(map_arg, s), "sequence_map"),
                                               strct(map_arg, {e(ident_proto), e(x)}))},
                      {"fc_seq_symbol_1", call(ty::i32, intrinsic(ty::fn(reduce_arg, ty::i32), "sequence_reduce"),
                                               strct(reduce_arg, {e(x), e(lit_i32(0)), e(merge_proto)}))},
                      {"fc_seq_symbol_2", call(ty::i32, intrinsic(ty::fn(s, ty::i32), "sequence_sum"), x)}},
                     strct(result, {e(ref(s, "fc_seq_symbol_0")), e(ref(ty::i32, "fc_seq_symbol_1")),
                                    e(ref(ty::i32, "fc_seq_symbol_2"))}))),
        "(seq_arg -> (let fc_seq_symbol_0=sequence_map(<(ident_arg -> ident_arg),seq_arg>),fc_seq_symbol_1="
        "sequence_reduce(<seq_arg,0,(merge_arg -> (let fc_merge_symbol_0=generic_plus(<merge_arg[0],merge_arg[1]>) "
        "in fc_merge_symbol_0))>),fc_seq_symbol_2=sequence_sum(seq_arg) in <fc_seq_symbol_0,fc_seq_symbol_1,"
        "fc_seq_symbol_2>))");
}

TEST_CASE("sequence operators on a federated sequence, wrapped in federated_map", "[intrinsics]") {
  constexpr auto c = computation<"fseq", at_clients<sequence<i32>>>([](auto s) {
    return std::tuple{sequence_map(ident, s), sequence_reduce(s, federated_value(0, CLIENTS), acc),
                      sequence_sum(s)};
  });
  static_assert(c.type_string() == "({int32*}@CLIENTS -> <{int32*}@CLIENTS,{int32}@CLIENTS,{int32}@CLIENTS>)");
  const std::string s = ty::seq(ty::i32), fs = ty::at_c(s), ci = ty::at_c(ty::i32);
  const std::string x = ref(fs, "fseq_arg");
  // sequence_map: the curried intrinsic called with the function (bound), then federated_map.
  const std::string ss = ty::fn(s, s);
  const std::string map_arg = ty::st({ty::u(ident_type), ty::u(s)});
  const std::string curried =
      lambda(ty::fn(ident_type, ss), "arg0",
             lambda(ss, "arg1",
                    call(s, intrinsic(ty::fn(map_arg, s), "sequence_map"),
                         strct(map_arg, {e(ref(ident_type, "arg0")), e(ref(s, "arg1"))}))));
  const std::string map1_arg = ty::st({ty::u(ss), ty::u(fs)});
  // sequence_reduce: (arg -> sequence_reduce(<arg[0],arg[1],acc'>)) mapped over the zip of <s, zero>.
  const std::string pair_s = ty::st({ty::u(s), ty::u(ty::i32)});
  const std::string reduce_arg = ty::st({ty::u(s), ty::u(ty::i32), ty::u(plus_type)});
  const std::string a = ref(pair_s, "arg");
  const std::string reducer =
      lambda(ty::fn(pair_s, ty::i32), "arg",
             call(ty::i32, intrinsic(ty::fn(reduce_arg, ty::i32), "sequence_reduce"),
                  strct(reduce_arg, {e(sel(s, a, 0)), e(sel(ty::i32, a, 1)), e(acc_wrapper)})));
  const std::string zero_type = ty::at_c_eq(ty::i32);
  const std::string zip_in = ty::st({ty::u(fs), ty::u(zero_type)});
  const std::string zip_param = ty::st({ty::u(fs), ty::u(ci)});
  const std::string zipped = ty::at_c(pair_s);
  const std::string zip = call(zipped, intrinsic(ty::fn(zip_param, zipped), "federated_zip_at_clients"),
                               strct(zip_in, {e(x), e(ref(zero_type, "fc_fseq_symbol_2"))}));
  const std::string map3_arg = ty::st({ty::u(ty::fn(pair_s, ty::i32)), ty::u(zipped)});
  // sequence_sum: the bare intrinsic mapped.
  const std::string sum_fn = ty::fn(s, ty::i32);
  const std::string map4_arg = ty::st({ty::u(sum_fn), ty::u(fs)});
  const std::string result = ty::st({ty::u(fs), ty::u(ci), ty::u(ci)});
  check("sequence_federated", c,
        lambda(ty::fn(fs, result), "fseq_arg",
               block(result,
                     {{"fc_fseq_symbol_0", call(ss, curried, ident_proto)},
                      {"fc_fseq_symbol_1", call(fs, intrinsic(ty::fn(map1_arg, fs), "federated_map"),
                                                strct(map1_arg, {e(ref(ss, "fc_fseq_symbol_0")), e(x)}))},
                      {"fc_fseq_symbol_2", call(zero_type, intrinsic(ty::fn(ty::i32, zero_type),
                                                                     "federated_value_at_clients"),
                                                lit_i32(0))},
                      {"fc_fseq_symbol_3", call(ci, intrinsic(ty::fn(map3_arg, ci), "federated_map"),
                                                strct(map3_arg, {e(reducer), e(zip)}))},
                      {"fc_fseq_symbol_4", call(ci, intrinsic(ty::fn(map4_arg, ci), "federated_map"),
                                                strct(map4_arg, {e(intrinsic(sum_fn, "sequence_sum")), e(x)}))}},
                     strct(result, {e(ref(fs, "fc_fseq_symbol_1")), e(ref(ci, "fc_fseq_symbol_3")),
                                    e(ref(ci, "fc_fseq_symbol_4"))}))),
        "(fseq_arg -> (let fc_fseq_symbol_0=(arg0 -> (arg1 -> sequence_map(<arg0,arg1>)))((ident_arg -> "
        "ident_arg)),fc_fseq_symbol_1=federated_map(<fc_fseq_symbol_0,fseq_arg>),fc_fseq_symbol_2="
        "federated_value_at_clients(0),fc_fseq_symbol_3=federated_map(<(arg -> sequence_reduce(<arg[0],arg[1],"
        "(a -> (acc_arg -> (let fc_acc_symbol_0=generic_plus(<acc_arg[0],acc_arg[1]>) in fc_acc_symbol_0))(a))>)),"
        "federated_zip_at_clients(<fseq_arg,fc_fseq_symbol_2>)>),fc_fseq_symbol_4=federated_map(<sequence_sum,"
        "fseq_arg>) in <fc_fseq_symbol_1,fc_fseq_symbol_3,fc_fseq_symbol_4>))");
}

TEST_CASE("selecting from a federated struct: inline map, map_all_equal or apply of (x -> x[i])", "[intrinsics]") {
  constexpr auto c =
      computation<"fget", at_clients<struct_<field<"a", i32>, float>>, at_server<struct_<i32, float>>,
                  at_clients<struct_<i32, float>, all_equal>>([](auto a, auto b, auto cc) {
        auto [b0, b1] = b;
        (void)b1;
        return std::tuple{get<"a">(a), get<1>(a), b0, cc[1_c]};
      });
  static_assert(c.type_string() ==
                "(<{<a=int32,float32>}@CLIENTS,<int32,float32>@SERVER,<int32,float32>@CLIENTS> -> "
                "<{int32}@CLIENTS,{float32}@CLIENTS,int32@SERVER,float32@CLIENTS>)");
  const std::string ma = ty::st({ty::n("a", ty::i32), ty::u(ty::f32)});
  const std::string mb = ty::st({ty::u(ty::i32), ty::u(ty::f32)});
  const std::string p_type = ty::st({ty::u(ty::at_c(ma)), ty::u(ty::at_s(mb)), ty::u(ty::at_c_eq(mb))});
  const std::string p = ref(p_type, "fget_arg");
  auto getter = [](const std::string& m, const std::string& elem_type, int i) {
    return lambda(ty::fn(m, elem_type), "x", sel(elem_type, ref(m, "x"), i));
  };
  auto apply = [&](std::string_view uri, const std::string& src_type, const std::string& src, const std::string& m,
                   const std::string& elem, const std::string& param_src_type, const std::string& r, int i) {
    const std::string f = ty::fn(m, elem);
    return call(r, intrinsic(ty::fn(ty::st({ty::u(f), ty::u(param_src_type)}), r), uri),
                strct(ty::st({ty::u(f), ty::u(src_type)}), {e(getter(m, elem, i)), e(src)}));
  };
  const std::string a = sel(ty::at_c(ma), p, 0), b = sel(ty::at_s(mb), p, 1), cc = sel(ty::at_c_eq(mb), p, 2);
  const std::string result =
      ty::st({ty::u(ty::at_c(ty::i32)), ty::u(ty::at_c(ty::f32)), ty::u(ty::at_s(ty::i32)), ty::u(ty::at_c_eq(ty::f32))});
  check("federated_struct_selection", c,
        lambda(ty::fn(p_type, result), "fget_arg",
               strct(result,
                     {e(apply("federated_map", ty::at_c(ma), a, ma, ty::i32, ty::at_c(ma), ty::at_c(ty::i32), 0)),
                      e(apply("federated_map", ty::at_c(ma), a, ma, ty::f32, ty::at_c(ma), ty::at_c(ty::f32), 1)),
                      e(apply("federated_apply", ty::at_s(mb), b, mb, ty::i32, ty::at_s(mb), ty::at_s(ty::i32), 0)),
                      e(apply("federated_map_all_equal", ty::at_c_eq(mb), cc, mb, ty::f32, ty::at_c_eq(mb),
                              ty::at_c_eq(ty::f32), 1))})),
        "(fget_arg -> <federated_map(<(x -> x[0]),fget_arg[0]>),federated_map(<(x -> x[1]),fget_arg[0]>),"
        "federated_apply(<(x -> x[0]),fget_arg[1]>),federated_map_all_equal(<(x -> x[1]),fget_arg[2]>)>)");
}

TEST_CASE("generic_zero: the bare intrinsic of type T, inline", "[intrinsics]") {
  constexpr auto c = computation<"zero">([] { return generic_zero<struct_<i32, float>>(); });
  const std::string t = ty::st({ty::u(ty::i32), ty::u(ty::f32)});
  check("generic_zero", c, lambda(ty::fn0(t), "", intrinsic(t, "generic_zero")), "( -> generic_zero)");
}

// The concrete-instance check of §2.2 and the type predicates of §3.5's rules.
namespace inst {
using detail::clients_eq_t;
using detail::clients_t;
using detail::server_t;
using I = tensor<dtype::int32>;
using F = tensor<dtype::float32>;
using Iv = tensor<dtype::int32, unknown_dim>;
using I2 = tensor<dtype::int32, 2>;
using map_fn = function_t<I, F>;
// Each case is checked by both forms of the rule: over the static types (the tracer's) and over
// type descriptions (the checker's); they must agree.
template <class C, class G>
constexpr bool agree_v =
    is_concrete_instance_v<C, G> == is_concrete_instance(describe<C>(), describe<G>());
template <class C, class G>
  requires agree_v<C, G>
constexpr bool both_instance = is_concrete_instance_v<C, G>;
// federated_map: the mapped function's parameter need only be assignable from the member.
static_assert(both_instance<function_t<struct_t<map_fn, clients_t<I>>, clients_t<F>>, sig::federated_map>);
static_assert(both_instance<function_t<struct_t<function_t<Iv, F>, clients_t<I2>>, clients_t<F>>,
                                     sig::federated_map>);
static_assert(!both_instance<function_t<struct_t<function_t<I2, F>, clients_t<Iv>>, clients_t<F>>,
                                      sig::federated_map>);
// all_equal must be exactly the generic one; struct levels unnamed; placements equal.
static_assert(!both_instance<function_t<struct_t<map_fn, clients_eq_t<I>>, clients_t<F>>, sig::federated_map>);
static_assert(!both_instance<function_t<struct_t<field<"f", map_fn>, clients_t<I>>, clients_t<F>>,
                                      sig::federated_map>);
static_assert(!both_instance<function_t<server_t<I>, server_t<I>>, sig::federated_broadcast>);
// A label bound twice in defining positions must be bound to equivalent types.
static_assert(!both_instance<function_t<struct_t<I, F>, I>, sig::generic_plus>);
static_assert(both_instance<function_t<struct_t<I, I>, I>, sig::generic_plus>);
static_assert(!both_instance<
              function_t<struct_t<clients_t<I>, Iv, function_t<struct_t<Iv, I>, I2>, function_t<struct_t<I2, I2>, I2>,
                                  function_t<I2, I2>>,
                         server_t<I2>>,
              sig::federated_aggregate>);
// generic_zero: T used once, never bound.
static_assert(both_instance<struct_t<I, F>, sig::generic_zero>);
// A label never bound may not be used twice; struct lengths, parameters and shapes must agree; a
// concrete type holds no label; a result is assignable from the label's binding.
using T = abstract_t<"T">;
static_assert(!both_instance<struct_t<I, I>, struct_t<T, T>>);
static_assert(!both_instance<struct_t<I>, struct_t<T, T>>);
static_assert(!both_instance<function_t<void, server_t<I>>, sig::federated_broadcast>);
static_assert(!both_instance<function_t<I2, I>, function_t<I, I>>);
static_assert(!both_instance<T, T>);
static_assert(both_instance<function_t<sequence_t<I>, I>, function_t<sequence_t<T>, T>>);
static_assert(!both_instance<function_t<sequence_t<I>, F>, function_t<sequence_t<T>, T>>);
static_assert(both_instance<function_t<sequence_t<I2>, Iv>, function_t<sequence_t<T>, T>>);
static_assert(!both_instance<function_t<sequence_t<Iv>, I2>, function_t<sequence_t<T>, T>>);
// Concrete tensors of the generic type must be equal: federated_select's int32 key.
static_assert(!both_instance<
              function_t<struct_t<clients_t<tensor<dtype::int32, 3>>, server_t<I>, server_t<F>,
                                  function_t<struct_t<F, tensor<dtype::int32, unknown_rank>>, F>>,
                         clients_t<sequence_t<F>>>,
              sig::federated_select>);
// Predicates: numeric and fully defined (sum), inexact (mean), integer or floating (min/max).
static_assert(detail::sum_numeric_v<struct_t<I, F, tensor<dtype::bfloat16>>>);
static_assert(!detail::sum_numeric_v<struct_t<I, tensor<dtype::bool_>>>);
static_assert(!detail::fully_defined_v<Iv> && detail::fully_defined_v<I2>);
static_assert(detail::average_compatible_v<struct_t<F, tensor<dtype::complex64>>>);
static_assert(!detail::average_compatible_v<I> && !detail::average_compatible_v<tensor<dtype::bfloat16>>);
static_assert(detail::min_max_compatible_v<struct_t<I, F>> && !detail::min_max_compatible_v<tensor<dtype::complex64>>);
static_assert(detail::integer_bound_matches<I, struct_t<I, tensor<dtype::int64>>>::value);
static_assert(!detail::integer_bound_matches<struct_t<I, I>, struct_t<field<"a", I>, I>>::value);
static_assert(!detail::integer_bound_matches<I2, I>::value);
}  // namespace inst

// The run-time trace of the same program gives the same bytes (argument order restored on g++).
TEST_CASE("sequence operators on federated sequences: run-time trace equals compile-time trace", "[intrinsics]") {
  constexpr auto ct = computation<"f", at_clients<sequence<i32>>>([](auto s) {
    return make_struct(sequence_map(ident, federated_map(seq_id, federated_map(seq_id, s))),
                       sequence_reduce(federated_map(seq_id, s), federated_value(0, CLIENTS), acc),
                       federated_sum(sequence_sum(s)));
  });
  int k = 1;
  const auto rt = computation<"f", at_clients<sequence<i32>>>([k](auto s) {
    (void)k;
    return make_struct(sequence_map(ident, federated_map(seq_id, federated_map(seq_id, s))),
                       sequence_reduce(federated_map(seq_id, s), federated_value(0, CLIENTS), acc),
                       federated_sum(sequence_sum(s)));
  });
  ctff_test::check_python("intrinsics", "nested_sequences", ct);
  ctff_test::check_python("intrinsics", "nested_sequences", rt);
}

}  // namespace
