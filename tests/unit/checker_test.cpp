// ctff::check: one hand-made invalid computation per rule (a golden or a small traced computation
// with one thing changed through the protobuf message, or a message written in text format),
// asserting the message and the path. Expected texts follow TFF's rules, written by hand.
#include <catch2/catch.hpp>

#include <google/protobuf/text_format.h>

#include <fstream>
#include <iterator>
#include <string>
#include <tuple>

#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>
#include <ctff/read.hpp>

namespace {

using federated_language::Computation;

Computation golden(const std::string& name) {
  std::ifstream f(std::string(CTFF_GOLDENS_DIR) + "/" + name + ".binpb", std::ios::binary);
  REQUIRE(f.good());
  Computation c;
  REQUIRE(c.ParseFromString(std::string(std::istreambuf_iterator<char>(f), {})));
  return c;
}

Computation text(const std::string& t) {
  Computation c;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(t, &c));
  return c;
}

std::vector<ctff::check_error> errors_of(const Computation& c) {
  return ctff::check(ctff::read_computation(c.SerializeAsString()));
}

// Requires an error at exactly `path` whose message contains `problem`.
void require_error(const Computation& c, const std::string& path, const std::string& problem) {
  const auto errors = errors_of(c);
  std::string all;
  for (const auto& e : errors) all += e.message() + "\n";
  INFO("errors:\n" << all);
  bool found = false;
  for (const auto& e : errors) found = found || (e.path == path && e.problem.find(problem) != std::string::npos);
  REQUIRE(found);
}

// simple: (simple_arg -> (let fc_simple_symbol_0=federated_broadcast(simple_arg),
//   fc_simple_symbol_1=federated_map(<(add_one_arg -> ...),fc_simple_symbol_0>),
//   fc_simple_symbol_2=federated_sum(fc_simple_symbol_1) in fc_simple_symbol_2))
Computation* local(Computation& c, int k) { return c.mutable_lambda()->mutable_result()->mutable_block()->mutable_local(k)->mutable_value(); }
const std::string local0 = "lambda.result.block.local[0](fc_simple_symbol_0)";
const std::string local2 = "lambda.result.block.local[2](fc_simple_symbol_2)";
// add_one: (add_one_arg -> (let fc_add_one_symbol_0=generic_plus(<add_one_arg,1>) in ...))
Computation* add_one_struct(Computation& c) {
  return c.mutable_lambda()->mutable_result()->mutable_block()->mutable_local(0)->mutable_value()->mutable_call()->mutable_argument();
}
const std::string add_one_struct_path = "lambda.result.block.local[0](fc_add_one_symbol_0).call.argument";

}  // namespace

TEST_CASE("checker: goldens and traced computations are valid", "[check]") {
  for (const char* name : {"add_one_local", "federated_values", "named_params", "simple_broadcast_map_sum",
                           "sum_clients", "zip_unnamed"}) {
    INFO(name);
    CHECK(errors_of(golden(name)).empty());
  }
}

TEST_CASE("checker: TFF's rounds calling federated_secure_modular_sum are valid", "[check]") {
  for (const char* name : {"secure_modular_sum", "three_secure_args"}) {
    INFO(name);
    std::ifstream f(std::string(CTFF_FORMS_GOLDENS_DIR) + "/" + name + ".binpb", std::ios::binary);
    REQUIRE(f.good());
    const auto t = ctff::read_computation(std::string(std::istreambuf_iterator<char>(f), {}));
    for (const auto& e : ctff::check(t)) FAIL_CHECK(e.message());
  }
}

TEST_CASE("checker: references", "[check]") {
  SECTION("a name nothing binds") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 0)->mutable_call()->mutable_argument()->mutable_reference()->set_name("nope");
    require_error(c, local0 + ".call.argument",
                  "Reference `nope` does not name an enclosing Lambda parameter or an earlier local of an enclosing Block");
  }
  SECTION("a local naming itself (a cycle)") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 0)->mutable_call()->mutable_argument()->mutable_reference()->set_name("fc_simple_symbol_0");
    require_error(c, local0 + ".call.argument", "Reference `fc_simple_symbol_0` does not name");
  }
  SECTION("a later local") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 0)->mutable_call()->mutable_argument()->mutable_reference()->set_name("fc_simple_symbol_2");
    require_error(c, local0 + ".call.argument", "Reference `fc_simple_symbol_2` does not name");
  }
  SECTION("a type other than what it names") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 0)->mutable_call()->mutable_argument()->mutable_type()->mutable_federated()->set_all_equal(false);
    require_error(c, local0 + ".call.argument",
                  "Reference `simple_arg` has type {int32}@SERVER but what it names has type int32@SERVER");
  }
}

TEST_CASE("checker: selections", "[check]") {
  constexpr auto sel = ctff::computation<"s", std::tuple<std::int32_t, float>>([](auto x) { return ctff::get<0>(x); });
  SECTION("index out of range") {
    Computation c = ctff::to_proto(sel);
    c.mutable_lambda()->mutable_result()->mutable_selection()->set_index(2);
    require_error(c, "lambda.result", "Selection index 2 is out of range for <int32,float32> (2 elements)");
  }
  SECTION("the type of another element") {
    Computation c = ctff::to_proto(sel);
    c.mutable_lambda()->mutable_result()->mutable_selection()->set_index(1);
    require_error(c, "lambda.result", "the declared type int32 does not match the selected element's type float32");
  }
  SECTION("from a value that is not a struct") {
    Computation c = golden("add_one_local");
    Computation src = add_one_struct(c)->struct_().element(0).value();
    Computation* r = c.mutable_lambda()->mutable_result();
    *r->mutable_selection()->mutable_source() = src;
    r->mutable_selection()->set_index(0);
    require_error(c, "lambda.result", "Selection from a value of type int32; the source must be a struct");
  }
}

TEST_CASE("checker: structs", "[check]") {
  // add_one: (add_one_arg -> generic_plus(<add_one_arg,1>))
  SECTION("an element named differently from the type") {
    Computation c = golden("add_one_local");
    add_one_struct(c)->mutable_struct_()->mutable_element(1)->set_name("b");
    require_error(c, add_one_struct_path, "element 1 is named `b` but the declared type <int32,int32> names it ``");
  }
  SECTION("fewer elements than the type") {
    Computation c = golden("add_one_local");
    add_one_struct(c)->mutable_struct_()->mutable_element()->RemoveLast();
    require_error(c, add_one_struct_path, "the declared type <int32,int32> is not a struct type of 1 elements");
  }
  SECTION("an element of another type") {
    Computation c = golden("add_one_local");
    auto* st = add_one_struct(c);
    st->mutable_type()->mutable_struct_()->mutable_element(0)->mutable_value()->mutable_tensor()->set_dtype(federated_language::DT_FLOAT);
    require_error(c, add_one_struct_path, "element 0 has type int32 but the declared type <float32,int32> gives it float32");
  }
}

TEST_CASE("checker: calls", "[check]") {
  SECTION("an argument not assignable to the parameter") {
    Computation c = golden("simple_broadcast_map_sum");
    *local(c, 2)->mutable_call()->mutable_argument() = local(c, 0)->call().argument();  // simple_arg
    require_error(c, local2, "the argument of type int32@SERVER is not assignable to the parameter type {int32}@CLIENTS of the function");
  }
  SECTION("no argument for a parameter") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 2)->mutable_call()->clear_argument();
    require_error(c, local2, "Call without an argument of a function of type ({int32}@CLIENTS -> int32@SERVER), which takes one");
  }
  SECTION("a call of a value that is not a function") {
    Computation c = golden("simple_broadcast_map_sum");
    *local(c, 2)->mutable_call()->mutable_function() = local(c, 0)->call().argument();
    require_error(c, local2, "Call of a value of type int32@SERVER, not a function");
  }
  SECTION("a type other than the function's result") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 2)->mutable_type()->mutable_federated()->mutable_placement()->mutable_value()->set_uri("clients");
    require_error(c, local2, "the declared type int32@CLIENTS does not match the function's result type int32@SERVER");
  }
}

TEST_CASE("checker: lambdas and blocks", "[check]") {
  SECTION("a lambda result of another type") {
    Computation c = golden("simple_broadcast_map_sum");
    c.mutable_type()->mutable_function()->mutable_result()->mutable_federated()->set_all_equal(false);
    require_error(c, "", "the declared type {int32}@SERVER does not match the result's type int32@SERVER");
  }
  SECTION("a lambda without parameter name for a type with a parameter") {
    Computation c = golden("sum_clients");
    c.mutable_lambda()->clear_parameter_name();
    require_error(c, "", "the Lambda has no parameter name but its type ({int32}@CLIENTS -> int32@SERVER) has a parameter");
  }
  SECTION("a lambda whose type is no function") {
    Computation c = golden("sum_clients");
    *c.mutable_type() = c.lambda().result().type();
    require_error(c, "", "the declared type int32@SERVER of a Lambda is not a function type");
  }
  SECTION("a block of another type than its result") {
    Computation c = golden("simple_broadcast_map_sum");
    c.mutable_lambda()->mutable_result()->mutable_type()->mutable_federated()->mutable_member()->mutable_tensor()->set_dtype(federated_language::DT_INT64);
    require_error(c, "lambda.result", "the declared type int64@SERVER does not match the result's type int32@SERVER");
  }
}

TEST_CASE("checker: intrinsics, placements, literals", "[check]") {
  SECTION("an unknown intrinsic") {
    Computation c = golden("simple_broadcast_map_sum");
    local(c, 0)->mutable_call()->mutable_function()->mutable_intrinsic()->set_uri("federated_frobnicate");
    require_error(c, local0 + ".call.function", "unknown intrinsic `federated_frobnicate`");
  }
  SECTION("an intrinsic type that is no instance of its signature") {
    Computation c = golden("simple_broadcast_map_sum");
    // federated_sum as (int32@SERVER -> int32@SERVER): the signature wants {T}@CLIENTS.
    local(c, 2)->mutable_call()->mutable_function()->mutable_intrinsic()->set_uri("federated_sum");
    local(c, 0)->mutable_call()->mutable_function()->mutable_intrinsic()->set_uri("federated_sum");
    require_error(c, local0 + ".call.function",
                  "intrinsic `federated_sum` has type (int32@SERVER -> int32@CLIENTS), which is not an instance of its signature ({T}@CLIENTS -> T@SERVER)");
  }
  SECTION("TFF's federated_secure_modular_sum, (<{V}@CLIENTS,M> -> V@SERVER), and a type that is no instance") {
    // An Intrinsic of TFF's mapreduce backend (FEDERATED_SECURE_MODULAR_SUM), of type
    // (<{int32}@CLIENTS,int64> -> RESULT@SERVER).
    auto modular_sum = [](const std::string& result) {
      return text(
          "type { function {"
          "  parameter { struct {"
          "    element { value { federated { placement { value { uri: 'clients' } } member { tensor { dtype: DT_INT32 } } } } }"
          "    element { value { tensor { dtype: DT_INT64 } } } } }"
          "  result { federated { placement { value { uri: 'server' } } all_equal: true member { tensor { dtype: " +
          result + " } } } } } }"
          "intrinsic { uri: 'federated_secure_modular_sum' }");
    };
    CHECK(errors_of(modular_sum("DT_INT32")).empty());
    require_error(modular_sum("DT_FLOAT"), "",
                  "intrinsic `federated_secure_modular_sum` has type (<{int32}@CLIENTS,int64> -> float32@SERVER), "
                  "which is not an instance of its signature (<{V}@CLIENTS,M> -> V@SERVER)");
  }
  SECTION("an unknown placement") {
    const Computation c = text("type { placement {} } placement { uri: 'mars' }");
    require_error(c, "", "unknown placement URI `mars`; federated_language knows `clients` and `server`");
  }
  SECTION("a placement of another type") {
    const Computation c = text("type { tensor { dtype: DT_INT32 } } placement { uri: 'server' }");
    require_error(c, "", "a Placement of type int32; its type must be `placement`");
  }
  SECTION("a literal of another dtype than its type") {
    Computation c = golden("add_one_local");
    add_one_struct(c)->mutable_struct_()->mutable_element(1)->mutable_value()->mutable_type()->mutable_tensor()->set_dtype(federated_language::DT_FLOAT);
    require_error(c, add_one_struct_path + ".struct[1]", "a Literal of declared type float32 holds an array of int32");
  }
  SECTION("a literal of another shape") {
    const Computation c = text(
        "type { tensor { dtype: DT_INT32 dims: 3 } } literal { value { dtype: DT_INT32 shape { dim: 2 } int32_list { value: [1, 2] } } }");
    require_error(c, "", "a Literal of declared type int32[3] holds an array of int32[2]");
  }
  SECTION("a compiled computation whose type is no function") {
    const Computation c = text("type { tensor { dtype: DT_INT32 } } tensorflow {}");
    require_error(c, "", "a compiled computation (tensorflow) has type int32; it must be a function type");
  }
}

// A Reference names the innermost binding of its name; a Block's locals go out of scope with it.
TEST_CASE("checker: shadowed names", "[check]") {
  const std::string i32 = "tensor { dtype: DT_INT32 }", f32 = "tensor { dtype: DT_FLOAT }";
  const auto lambda = [&](const std::string& block_result_type, const std::string& after_type) {
    return text("type { function { parameter { " + i32 + " } result { struct { element { value { " + f32 +
                " } } element { value { " + i32 + " } } } } } } lambda { parameter_name: 'x' result { "
                "type { struct { element { value { " + f32 + " } } element { value { " + i32 + " } } } } "
                "struct { element { value { type { " + f32 + " } block { local { name: 'x' value { type { " +
                f32 + " } data {} } } result { type { " + block_result_type + " } reference { name: 'x' } } } } }"
                " element { value { type { " + after_type + " } reference { name: 'x' } } } } } }");
  };
  CHECK(errors_of(lambda(f32, i32)).empty());
  require_error(lambda(i32, i32), "lambda.result.struct[0].block.result",
                "Reference `x` has type int32 but what it names has type float32");
  require_error(lambda(f32, f32), "lambda.result.struct[1]",
                "Reference `x` has type float32 but what it names has type int32");
}

TEST_CASE("checker: the type system's rules", "[check]") {
  SECTION("no type") {
    require_error(text("data {}"), "", "the data has no type (Computation.type is missing)");
  }
  SECTION("a sequence inside a sequence") {
    require_error(text("type { sequence { element { sequence { element { tensor { dtype: DT_INT32 } } } } } } data {}"),
                  "type.sequence.element", "a sequence type inside the sequence type at type; a sequence cannot contain");
  }
  SECTION("a federated type inside a federated type") {
    require_error(text("type { federated { placement { value { uri: 'server' } } member { federated { "
                       "placement { value { uri: 'clients' } } member { tensor { dtype: DT_INT32 } } } } } } data {}"),
                  "type.federated.member", "a federated type inside the federated type at type; a federated member");
  }
  SECTION("a function type inside a federated type") {
    require_error(text("type { federated { placement { value { uri: 'server' } } member { function { "
                       "result { tensor { dtype: DT_INT32 } } } } } } data {}"),
                  "type.federated.member", "a function type inside the federated type at type");
  }
  SECTION("duplicate struct names") {
    require_error(text("type { struct { element { name: 'a' value { tensor { dtype: DT_INT32 } } } "
                       "element { name: 'a' value { tensor { dtype: DT_INT32 } } } } } data {}"),
                  "type.struct[1](a)", "duplicate struct element name `a` (element 0 has the same name)");
  }
  SECTION("duplicate names in a large struct: the first element of the name is named") {
    std::string elements;
    for (int k = 0; k != 300; ++k)
      elements += "element { name: 'n" + std::to_string(k == 250 ? 7 : k) +
                  "' value { tensor { dtype: DT_INT32 } } } ";
    require_error(text("type { struct { " + elements + "} } data {}"), "type.struct[250](n7)",
                  "duplicate struct element name `n7` (element 7 has the same name)");
  }
  SECTION("an abstract type") {
    require_error(text("type { abstract { label: 'T' } } data {}"), "type",
                  "an abstract type (`T`); federated_language cannot read abstract types back");
  }
  SECTION("a dimension below -1") {
    require_error(text("type { tensor { dtype: DT_INT32 dims: -2 } } data {}"), "type.tensor.dims[0]",
                  "dimension -2 is invalid; a dimension is >= 0, or -1 when unknown");
  }
  SECTION("a tensor of unknown rank with dims") {
    require_error(text("type { tensor { dtype: DT_INT32 dims: 2 unknown_rank: true } } data {}"), "type.tensor",
                  "unknown_rank is set together with 1 dims");
  }
  SECTION("check_or_throw lists the errors") {
    const auto t = ctff::read_computation(text("data {}").SerializeAsString());
    CHECK_THROWS_WITH(ctff::check_or_throw(t), Catch::Contains("ctff: the Computation is not valid:\n  (top level): the data has no type"));
  }
}

TEST_CASE("printing: a block local named `` keeps its `=`, a struct element does not", "[read]") {
  const auto t = ctff::read_computation(
      text("block { local { value { struct { element { value { literal { value { dtype: DT_INT32 "
           "shape {} int32_list { value: 1 } } } } } } } } result { reference {} } }")
          .SerializeAsString());
  CHECK(ctff::compact(t) == "(let =<1> in )");
  // Python's layout by hand: the locals list `[=Struct]` (10 wide with its padding) under a `/`
  // at column 9, the result under `\` five columns on (len("Block")), the label one right of `/`.
  CHECK(ctff::structural(t) == "          Block\n         /     \\\n[=Struct]       Ref()\n  |\n  [Lit(1)]");
}
