// ctff/read: every golden read from its .binpb prints its text files and writes its bytes back;
// traced computations read back print what the tracing side printed; hostile input is a
// ctff::read_error naming the place, never a crash. Every Python golden of the unit tests
// (tests/goldens/python/*/) is read too and must print Python's texts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <ctff/ctff.hpp>
#include <ctff/read.hpp>

#include "golden_programs.hpp"
#include "hex.hpp"
#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

std::string golden_file(const std::string& name) {
  std::ifstream f(std::string(CTFF_GOLDENS_DIR) + "/" + name, std::ios::binary);
  REQUIRE(f.good());
  return {std::istreambuf_iterator<char>(f), {}};
}
std::string chomp(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

const char* const golden_names[] = {"add_one_local",  "federated_values",
                                    "named_params",   "simple_broadcast_map_sum",
                                    "sum_clients",    "zip_unnamed"};

using ctff_test::unhex;

// What the tracing side printed equals what the reader prints of its bytes.
template <class C>
void same_as_traced(const C& c) {
  const auto t = ctff::read_computation(c.bytes());
  CHECK(ctff::serialize(t) == c.bytes().str());
  CHECK(ctff::type_string(t) == std::string(c.type_string()));
  CHECK(ctff::compact(t) == std::string(c.compact()));
  CHECK(ctff::formatted(t) == std::string(c.formatted()));
  CHECK(ctff::structural(t) == std::string(c.structural()));
}

std::string read_failure(std::string_view bytes, ctff::read_limits lim = {}) {
  try {
    (void)ctff::read_computation(bytes, lim);
  } catch (const ctff::read_error& e) {
    return e.what();
  }
  return "(no error)";
}

// Computation{lambda{result{...}}} nested n times around Computation{reference{name: "x"}}.
std::string nested_lambdas(std::size_t n) {
  auto build = [&](ctff::detail::back_sink& s) {
    const auto end = s.pos;
    s.string_field(1, "x");
    s.close(6, end);
    for (std::size_t k = 0; k != n; ++k) {
      s.close(2, end);  // Lambda.result
      s.close(4, end);  // Computation.lambda
    }
  };
  ctff::detail::back_sink count{};
  build(count);
  std::string out(static_cast<std::size_t>(-count.pos), '\0');
  ctff::detail::back_sink s{reinterpret_cast<unsigned char*>(out.data()), count.pos * -1};
  build(s);
  return out;
}

// Computation{struct{element{value{reference{name: "x"}}} n times}}.
std::string wide_struct(std::size_t n) {
  auto build = [&](ctff::detail::back_sink& s) {
    const auto end = s.pos;
    for (std::size_t k = 0; k != n; ++k) {
      const auto e = s.pos;
      s.string_field(1, "x");
      s.close(6, e);  // Computation.reference
      s.close(2, e);  // Element.value
      s.close(1, e);  // Struct.element
    }
    s.close(8, end);  // Computation.struct
  };
  ctff::detail::back_sink count{};
  build(count);
  std::string out(static_cast<std::size_t>(-count.pos), '\0');
  ctff::detail::back_sink s{reinterpret_cast<unsigned char*>(out.data()), count.pos * -1};
  build(s);
  return out;
}

}  // namespace

TEST_CASE("reader: every golden prints its text files and writes its bytes back", "[read]") {
  for (const char* name : golden_names) {
    INFO("golden " << name);
    const std::string bytes = golden_file(std::string(name) + ".binpb");
    const ctff::computation_tree t = ctff::read_computation(bytes);
    CHECK(ctff_test::hex(ctff::serialize(t)) == ctff_test::hex(bytes));
    CHECK(ctff::type_string(t) == chomp(golden_file(std::string(name) + ".type.txt")));
    CHECK(ctff::compact(t) == chomp(golden_file(std::string(name) + ".compact.txt")));
    CHECK(ctff::formatted(t) == chomp(golden_file(std::string(name) + ".formatted.txt")));
    CHECK(ctff::structural(t) == chomp(golden_file(std::string(name) + ".structural.txt")));
  }
}

TEST_CASE("reader: every Python golden of the unit tests prints Python's texts", "[read]") {
  std::size_t goldens_read = 0;
  for (const auto& dir : std::filesystem::directory_iterator(std::string(CTFF_GOLDENS_DIR) + "/python")) {
    if (!dir.is_directory()) continue;
    const std::string test = dir.path().filename().string();
    for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
      if (file.path().extension() != ".binpb") continue;
      const std::string name = file.path().stem().string();
      INFO("python golden " << test << "/" << name);
      const std::string bytes = ctff_test::python_golden(test, name, "binpb");
      const ctff::computation_tree t = ctff::read_computation(bytes);
      CHECK(ctff_test::hex(ctff::serialize(t)) == ctff_test::hex(bytes));
      CHECK(ctff::type_string(t) == ctff_test::python_golden(test, name, "type.txt"));
      CHECK(ctff::compact(t) == ctff_test::python_golden(test, name, "compact.txt"));
      CHECK(ctff::formatted(t) == ctff_test::python_golden(test, name, "formatted.txt"));
      CHECK(ctff::structural(t) == ctff_test::python_golden(test, name, "structural.txt"));
      ++goldens_read;
    }
  }
  CHECK(goldens_read >= 100);  // the directory is there and holds the goldens
}

TEST_CASE("reader: the tree of a golden, node by node", "[read]") {
  // (add_one_arg -> (let fc_add_one_symbol_0=generic_plus(<add_one_arg,1>) in
  // fc_add_one_symbol_0)): lambda, block, call, intrinsic, struct, reference, literal; children
  // before parents.
  const auto t = ctff::read_computation(golden_file("add_one_local.binpb"));
  const ctff::block_node& root = t.node(t.root);
  REQUIRE(root.kind == ctff::block_kind::lambda);
  CHECK(t.text(t.root) == "add_one_arg");
  const ctff::block_node& block = t.node(root.a);
  REQUIRE(block.kind == ctff::block_kind::block);
  REQUIRE(block.count == 1);
  CHECK(t.name(t.elem(root.a, 0)) == "fc_add_one_symbol_0");
  CHECK(t.node(block.a).kind == ctff::block_kind::reference);
  CHECK(t.text(block.a) == "fc_add_one_symbol_0");
  const std::uint32_t call_id = t.elem(root.a, 0).value;
  const ctff::block_node& call = t.node(call_id);
  REQUIRE(call.kind == ctff::block_kind::call);
  CHECK(t.node(call.a).kind == ctff::block_kind::intrinsic);
  CHECK(t.text(call.a) == "generic_plus");
  const ctff::block_node& st = t.node(call.b);
  REQUIRE(st.kind == ctff::block_kind::struct_);
  REQUIRE(st.count == 2);
  CHECK(t.node(t.elem(call.b, 0).value).kind == ctff::block_kind::reference);
  CHECK(t.node(t.elem(call.b, 1).value).kind == ctff::block_kind::literal);
  CHECK(ctff::to_string(t.type_of(t.elem(call.b, 1).value)) == "int32");
  CHECK(call_id < root.a);
  CHECK(root.a < t.root);
}

TEST_CASE("reader: traced computations read back print as traced", "[read]") {
  same_as_traced(programs::add_one);
  same_as_traced(programs::simple);
  same_as_traced(programs::named_params);
  same_as_traced(programs::zip_unnamed);
  same_as_traced(programs::federated_values);
  constexpr auto lits = ctff::computation<"lits">([] {
    return std::tuple(true, std::int8_t{-5}, std::uint64_t{18446744073709551615u}, 1.5f, -2.0,
                      std::complex<float>(1.0f, -1.0f), std::string_view("hi\n'x'"),
                      std::array<std::array<std::int32_t, 3>, 2>{{{1, 2, 3}, {4, 5, 6}}},
                      std::array<double, 3>{0.5, 1e-9, 3.0});
  });
  same_as_traced(lits);
  ctff_test::check_python("reader", "literals", lits);
  const auto tf = ctff::tensorflow_computation<ctff::function<std::int32_t, float>>(
      std::string("graph"), ctff::tf_tensor("x:0"), ctff::tf_tensor("y:0"));
  const auto data = ctff::data<ctff::sequence<std::int32_t>>("type.example/x", "payload");
  const auto uses = ctff::computation<"uses", std::int32_t>(
      [tf, data](auto x) { return std::tuple(tf(x), data); });
  same_as_traced(uses);
}

TEST_CASE("reader: hostile input is a read_error naming what and where", "[read][hostile]") {
  const std::string good = golden_file("simple_broadcast_map_sum.binpb");
  SECTION("every truncation is an error or a valid shorter message, never a crash") {
    std::size_t errors = 0;
    for (std::size_t n = 0; n < good.size(); ++n) {
      try {
        (void)ctff::read_computation(std::string_view(good).substr(0, n));
      } catch (const ctff::read_error&) {
        ++errors;
      }
    }
    CHECK(errors > good.size() / 2);
    CHECK_THAT(read_failure(good.substr(0, good.size() - 1)), Catch::Contains("ctff: cannot read the Computation at"));
  }
  SECTION("empty input: no building block") {
    CHECK_THAT(read_failure(""), Catch::Contains("(top level)") && Catch::Contains("no building block"));
  }
  SECTION("wrong wire type") {
    // Computation.type as a 32-bit field.
    CHECK_THAT(read_failure(unhex("0d00000000")),
               Catch::Contains("wire type 32-bit; expected length-delimited"));
  }
  SECTION("a length past the end") {
    CHECK_THAT(read_failure(unhex("22ffffffff0f")), Catch::Contains("runs past the end"));
  }
  SECTION("truncated varint") {
    CHECK_THAT(read_failure(unhex("22")), Catch::Contains("truncated varint"));
  }
  SECTION("unknown enum value: dtype 99, with its path") {
    // Computation{type{tensor{dtype: 99}} reference{name: "x"}}
    const std::string m = unhex("0a05 2203 0863 00" "3203 0a01 78");
    const std::string fixed = unhex("0a04 2202 0863" "3203 0a01 78");
    CHECK_THAT(read_failure(fixed), Catch::Contains("type.tensor.dtype") && Catch::Contains("unknown dtype number 99"));
    CHECK_THAT(read_failure(m), Catch::Contains("ctff: cannot read"));
  }
  SECTION("unknown field") {
    CHECK_THAT(read_failure(unhex("7a00")), Catch::Contains("unknown field 15"));
  }
  SECTION("two building blocks") {
    CHECK_THAT(read_failure(unhex("3203 0a01 78 3203 0a01 79")), Catch::Contains("a second building block"));
  }
  SECTION("invalid UTF-8 in a name") {
    CHECK_THAT(read_failure(unhex("3203 0a01 ff")), Catch::Contains("not valid UTF-8"));
  }
  SECTION("nesting 100,000 levels deep stops at the depth limit") {
    const std::string deep = nested_lambdas(100000);
    const std::string msg = read_failure(deep);
    CHECK_THAT(msg, Catch::Contains("nesting deeper than 1000 messages"));
    CHECK_THAT(msg, Catch::StartsWith("ctff: cannot read the Computation at lambda.result.lambda.result."));
    // Within the limit it reads, writes the same bytes, prints and checks (no stack overflow).
    const std::string ok = nested_lambdas(1000);
    const auto t = ctff::read_computation(ok);
    CHECK(ctff::serialize(t) == ok);
    CHECK(ctff::compact(t).size() == 1000 * 6 + 1);  // "( -> " and ")" per level, then "x"
    CHECK(ctff::structural(t).size() > 1000 * 2);
    CHECK(ctff::check(t).size() == 100);  // no types: one error a node, capped at 100
    CHECK_THAT(read_failure(nested_lambdas(1001)), Catch::Contains("nesting deeper than 1000"));
    ctff::read_limits small;
    small.max_depth = 10;
    CHECK_THAT(read_failure(nested_lambdas(11), small), Catch::Contains("nesting deeper than 10"));
  }
  SECTION("a struct of 100,000 elements: printed and drawn in linear time") {
    const auto t = ctff::read_computation(wide_struct(100000));
    // `<x,x,...>`; the drawing: `Struct`, `|`, then `[Ref(x), Ref(x), ..., Ref(x)]` (Python's
    // list glues each element one space after the comma).
    CHECK(ctff::compact(t).size() == 2 * 100000 + 1);
    CHECK(ctff::structural(t).size() == 6 + 1 + 1 + 1 + 8 * 100000);
    CHECK(ctff::structural(ctff::read_computation(wide_struct(3))) == "Struct\n|\n[Ref(x), Ref(x), Ref(x)]");
  }
  SECTION("the size limit") {
    ctff::read_limits lim;
    lim.max_bytes = 16;
    CHECK_THAT(read_failure(good, lim), Catch::Contains("the limit is 16"));
  }
  SECTION("a literal whose values do not fill its shape") {
    // Computation{literal{value{dtype: int32, shape{dim: 2}, int32_list{value: [1]}}}}
    CHECK_THAT(read_failure(unhex("720e 0a0c 0803 1203 0a0102 3203 0a0101")),
               Catch::Contains("literal.value") && Catch::Contains("holds 1 values; its shape needs 2"));
  }
  SECTION("a literal value out of its dtype's range") {
    // int8 value 300
    CHECK_THAT(read_failure(unhex("720c 0a0a 0806 1200 2204 0a02 ac02")),
               Catch::Contains("(300) is out of range for int8"));
  }
  SECTION("a list of another dtype") {
    CHECK_THAT(read_failure(unhex("720b 0a09 0806 1200 3203 0a01 01")),
               Catch::Contains("dtype is int8 but its values are in field 6"));
  }
  SECTION("an unknown placement URI in a type") {
    // type{federated{placement{value{uri: "mars"}} member{tensor{dtype: int32}}}} reference{x}
    const std::string m = unhex("0a14 3a12 0a08 1206 0a04 6d617273 1a04 2202 0803" "3203 0a01 78");
    CHECK_THAT(read_failure(m), Catch::Contains("type.federated.placement") && Catch::Contains("unknown placement URI `mars`"));
  }
  SECTION("a placement type with an instance label") {
    // type{placement{instance_label{label: "P"}}} reference{x}: a tree written back byte for byte
    // cannot keep the label (a Type read alone, proto's read_type, skips it).
    const std::string m = unhex("0a07 3205 0a03 0a0150" "3203 0a01 78");
    CHECK_THAT(read_failure(m), Catch::Contains("type.placement") && Catch::Contains("instance_label is set"));
  }
}
