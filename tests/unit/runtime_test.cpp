// Run-time tracing: lambdas that capture run-time values trace through the same code as
// compile-time ones, and run-time computations may be temporaries inside another trace. Where a
// test compares a run-time trace with a compile-time one, it also holds one of them to Python's
// outputs for the program's twin (tests/goldens/python/runtime.py, outputs in
// tests/goldens/python/runtime/), so that two equal wrong traces cannot pass.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <ctff/ctff.hpp>

#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

constexpr auto add_one = ctff::computation<"add_one", std::int32_t>([](auto x) { return x + 1; });

constexpr auto mapped = ctff::computation<"mapped", ctff::at_clients<std::int32_t>>(
    [](auto v) { return ctff::federated_map(add_one, v); });

auto runtime_mapped(std::int32_t one) {
  return ctff::computation<"mapped", ctff::at_clients<std::int32_t>>([one](auto v) {
    // The mapped computation is a temporary: it dies before the outer trace is written.
    return ctff::federated_map(
        ctff::computation<"add_one", std::int32_t>([one](auto x) { return x + one; }), v);
  });
}

}  // namespace

TEST_CASE("a temporary run-time computation can be mapped", "[runtime]") {
  auto r = runtime_mapped(1);
  ctff_test::require_parses(r.bytes());
  ctff_test::require_parses(runtime_mapped(7).bytes());
  CHECK(r.bytes() == mapped.bytes());
  CHECK(r.compact() == mapped.compact());
  CHECK(r.formatted() == mapped.formatted());
  ctff_test::check_python("runtime", "mapped", r);
  ctff_test::check_python("runtime", "mapped_7", runtime_mapped(7));
  CHECK(runtime_mapped(7).compact() ==
        "(mapped_arg -> (let fc_mapped_symbol_0=federated_map(<(add_one_arg -> (let "
        "fc_add_one_symbol_0=generic_plus(<add_one_arg,7>) in fc_add_one_symbol_0)),mapped_arg>) "
        "in fc_mapped_symbol_0))");
}

TEST_CASE("run-time literals of every scalar kind", "[runtime][literal]") {
  auto lit = [](std::string_view golden, auto value) {
    const auto c =
        ctff::computation<"lit">([value] { return ctff::federated_value(value, ctff::SERVER); });
    ctff_test::check_python("runtime", golden, c);
    return std::string(c.compact());
  };
  CHECK(lit("literal_int64", std::int64_t{-5}) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(-5) in fc_lit_symbol_0))");
  CHECK(lit("literal_bool", true) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(True) in fc_lit_symbol_0))");
  CHECK(lit("literal_float32", 0.1f) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(0.1) in fc_lit_symbol_0))");
  CHECK(lit("literal_float64", 1.0) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(1.0) in fc_lit_symbol_0))");
  CHECK(lit("literal_float64_small", 1e-5) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(1e-05) in fc_lit_symbol_0))");
  CHECK(lit("literal_bytes", std::string("hi")) ==
        "( -> (let fc_lit_symbol_0=federated_value_at_server(b'hi') in fc_lit_symbol_0))");
}

namespace {

constexpr auto add_1 = ctff::computation<"add", std::int32_t>([](auto x) { return x + 1; });
constexpr auto add_2 = ctff::computation<"add", std::int32_t>([](auto x) { return x + 2; });
constexpr auto add_3 = ctff::computation<"add", std::int32_t>([](auto x) { return x + 3; });

// 40 maps by `add` computations adding 1, 2, 3, 1, 2, 3, ... (then 1 for the last 16).
constexpr auto mapped_often =
    ctff::computation<"often", ctff::at_clients<std::int32_t>>([](auto v) {
      for (int i = 0; i != 40; ++i) {
        const int k = i < 24 ? i % 3 + 1 : 1;
        if (k == 1) v = ctff::federated_map(add_1, v);
        if (k == 2) v = ctff::federated_map(add_2, v);
        if (k == 3) v = ctff::federated_map(add_3, v);
      }
      return v;
    });

// The same at run time: each `add` is a temporary of the iteration (the next one may take its
// address), or one computation captured by the traced lambda and embedded again and again.
auto runtime_mapped_often(std::int32_t one) {
  return ctff::computation<"often", ctff::at_clients<std::int32_t>>([one](auto v) {
    for (int i = 0; i != 24; ++i) {
      const std::int32_t k = i % 3 + one;
      v = ctff::federated_map(
          ctff::computation<"add", std::int32_t>([k](auto x) { return x + k; }), v);
    }
    return v;
  });
}
auto runtime_mapped_often_captured(std::int32_t one) {
  auto add = ctff::computation<"add", std::int32_t>([one](auto x) { return x + one; });
  return ctff::computation<"often", ctff::at_clients<std::int32_t>>([add](auto v) {
    for (int i = 0; i != 24; ++i) {
      if (i % 3 == 0) {
        v = ctff::federated_map(add, v);
      } else {
        const std::int32_t k = i % 3 + 1;
        v = ctff::federated_map(
            ctff::computation<"add", std::int32_t>([k](auto x) { return x + k; }), v);
      }
    }
    for (int i = 0; i != 16; ++i) v = ctff::federated_map(add, v);
    return v;
  });
}

}  // namespace

// A run-time computation embedded again shares the bytes and texts of its first copy in the
// trace's pools (trace/embed.hpp, owned_copy_of): sharing must never mix up two computations.
TEST_CASE("run-time computations embedded again and again", "[runtime]") {
  ctff_test::require_same_outputs(runtime_mapped_often_captured(1), mapped_often);
  ctff_test::check_python("runtime", "often_40", runtime_mapped_often_captured(1));

  // The first 24 maps alone, every `add` a temporary.
  constexpr auto first_24 =
      ctff::computation<"often", ctff::at_clients<std::int32_t>>([](auto v) {
        for (int i = 0; i != 24; ++i) {
          if (i % 3 == 0) v = ctff::federated_map(add_1, v);
          if (i % 3 == 1) v = ctff::federated_map(add_2, v);
          if (i % 3 == 2) v = ctff::federated_map(add_3, v);
        }
        return v;
      });
  ctff_test::require_same_outputs(runtime_mapped_often(1), first_24);
  ctff_test::check_python("runtime", "often_24", runtime_mapped_often(1));
}

TEST_CASE("a run-time computation embedded again is copied once", "[runtime]") {
  auto add = ctff::computation<"add", std::int32_t>([one = 1](auto x) { return x + one; });
  auto fn = [add](auto v) {
    for (int i = 0; i != 40; ++i) v = ctff::federated_map(add, v);
    return v;
  };
  ctff::detail::trace_ctx ctx;
  using param = ctff::detail::param_of<ctff::at_clients<std::int32_t>>::type;
  ctff::detail::trace_into<decltype(fn), param>(fn, "often", ctx);
  REQUIRE(ctx.embeds.size() == 40);
  CHECK(ctx.byte_pool.size() == add.bytes().size());
  CHECK(ctx.chars.size() < 2 * (add.compact().size() + add.structural().size() + add.formatted().size()));
}

// Run-time traces write their bytes in one pass into a buffer that grows (core/sink.hpp,
// growing_back_sink): from one byte of room, every growth moves what was written.
TEST_CASE("one-pass run-time bytes survive every growth of the buffer", "[runtime]") {
  auto check = [](std::string_view golden, const auto& c) {
    ctff_test::check_python("runtime", golden, c);
    ctff::detail::trace_ctx ctx;
    using C = std::remove_cvref_t<decltype(c)>;
    const auto root = ctff::detail::trace_into<typename C::fn_type, typename C::param_type>(
        {}, C::name(), ctx);
    for (std::size_t cap : {std::size_t{1}, std::size_t{7}, std::size_t{100000}}) {
      ctff::detail::growing_back_sink out(cap);
      ctff::detail::write_growing(ctx, root, out);
      CHECK(ctff::byte_view(out.data(), out.size()) == c.bytes());
    }
  };
  check("mapped", mapped);
  check("often_40", mapped_often);
  check("literal_array", ctff::computation<"lits">([] {
    return ctff::federated_value(std::array<float, 3>{1.5f, -2.0f, 0.0f}, ctff::SERVER);
  }));
  check("literal_string", ctff::computation<"s">([] { return std::string_view("a string literal"); }));
}

// ---------------------------------------------------------------------------------------------
// A run-time computation (a lambda with captures) made inside a compile-time trace traces nothing
// itself: the enclosing trace traces its function in place, with the values its captures hold
// during that constant evaluation, as Python traces a computation defined inside another.

namespace {

constexpr auto mapped_inner_captures =
    ctff::computation<"mapped", ctff::at_clients<std::int32_t>>([](auto v) {
      std::int32_t one = 1;
      return ctff::federated_map(
          ctff::computation<"add_one", std::int32_t>([one](auto x) { return x + one; }), v);
    });

// The inner computation named like the outer one: traced as `twice_1`, in place.
constexpr auto twice_inner_captures = ctff::computation<"twice", std::int32_t>([](auto x) {
  const auto add = ctff::computation<"twice", std::int32_t>([k = 2](auto y) { return y + k; });
  return add(add(x));
});
auto runtime_twice(std::int32_t k) {
  return ctff::computation<"twice", std::int32_t>([k](auto x) {
    const auto add = ctff::computation<"twice", std::int32_t>([k](auto y) { return y + k; });
    return add(add(x));
  });
}

// Called on a constant: a floating value, traced when it meets the trace (deferred_trace).
constexpr auto on_constant_inner_captures = ctff::computation<"on_constant">([] {
  const auto seven = ctff::computation<"seven", std::int32_t>([k = 7](auto y) { return y + k; });
  return seven(1);
});
auto runtime_on_constant(std::int32_t k) {
  return ctff::computation<"on_constant">([k] {
    const auto seven = ctff::computation<"seven", std::int32_t>([k](auto y) { return y + k; });
    return seven(1);
  });
}

// A capturing computation of static storage: the compiler's attempt to initialise it at compile
// time fails (runtime_computation_t's transient allocation outlives that evaluation), so it is
// initialised at run time, where its function is traced.
const auto static_add_one =
    ctff::computation<"add_one", std::int32_t>([one = 1](auto x) { return x + one; });

struct add_k {  // a copy-assignable function object with state
  std::int32_t k;
  template <class X>
  constexpr auto operator()(X x) const {
    return x + k;
  }
};

}  // namespace

TEST_CASE("a capturing computation inside a compile-time trace is traced in place", "[runtime]") {
  STATIC_REQUIRE(mapped_inner_captures.compact() == mapped.compact());
  ctff_test::require_same_outputs(mapped_inner_captures, runtime_mapped(1));
  ctff_test::require_same_outputs(mapped_inner_captures, mapped);

  STATIC_REQUIRE(twice_inner_captures.compact() ==
                 "(twice_arg -> (let fc_twice_symbol_0=(twice_1_arg -> (let fc_twice_1_symbol_0="
                 "generic_plus(<twice_1_arg,2>) in fc_twice_1_symbol_0))(twice_arg),fc_twice_symbol_1="
                 "(twice_1_arg -> (let fc_twice_1_symbol_0=generic_plus(<twice_1_arg,2>) in "
                 "fc_twice_1_symbol_0))(fc_twice_symbol_0) in fc_twice_symbol_1))");
  ctff_test::require_same_outputs(twice_inner_captures, runtime_twice(2));
  ctff_test::check_python("runtime", "nested_same_name", runtime_twice(2));

  STATIC_REQUIRE(on_constant_inner_captures.compact() ==
                 "( -> (let fc_on_constant_symbol_0=(seven_arg -> (let fc_seven_symbol_0="
                 "generic_plus(<seven_arg,7>) in fc_seven_symbol_0))(1) in fc_on_constant_symbol_0))");
  ctff_test::require_same_outputs(on_constant_inner_captures, runtime_on_constant(7));
  ctff_test::check_python("runtime", "called_on_constant", runtime_on_constant(7));
}

TEST_CASE("a capturing computation of static storage is traced at run time", "[runtime]") {
  ctff_test::require_same_outputs(static_add_one, add_one);
}

TEST_CASE("copies of a run-time computation share its outputs", "[runtime]") {
  auto a = ctff::computation<"add", std::int32_t>(add_k{1});
  const auto b = ctff::computation<"add", std::int32_t>(add_k{2});
  auto copy = a;
  CHECK(copy.bytes().data() == a.bytes().data());
  a = b;  // a now shares b's outputs; copy keeps the first ones
  CHECK(a.bytes().data() == b.bytes().data());
  CHECK(copy.compact() != a.compact());
  ctff_test::require_parses(copy.bytes());
  STATIC_REQUIRE(!std::is_copy_assignable_v<decltype(runtime_twice(1))>);  // a lambda's closure
}

TEST_CASE("a value of an enclosing trace captured by a computation is an error", "[runtime]") {
  auto trace = [](std::int32_t k) {
    return ctff::computation<"outer", std::int32_t>([k](auto x) {
      const auto inner = ctff::computation<"inner", std::int32_t>([x, k](auto y) { return x + y + k; });
      return inner(x);
    });
  };
  CHECK_THROWS_WITH(trace(1), Catch::Contains("ctff: a value of one trace was used inside another trace"));
  CHECK_THROWS_AS(trace(1), ctff::trace_failure);
  // The failure leaves no error behind for the next trace.
  ctff_test::require_same_outputs(runtime_mapped(1), mapped);
}

// Python traces a computation where it is defined, under the traces then running, and embeds it
// unchanged wherever it is used: a run-time computation made inside a run-time trace is traced as
// that trace's child at once, not again where it is used (here inside another `h`, which would
// rename it h_1).
TEST_CASE("a run-time computation made inside a run-time trace is named where it is made",
          "[runtime]") {
  const std::int32_t k = 1;
  const auto m = ctff::computation<"m", std::int32_t>([k](auto x) {
    const auto inner = ctff::computation<"h", std::int32_t>([k](auto y) {
      static_cast<void>(k);
      return y;
    });
    const auto outer = ctff::computation<"h", std::int32_t>([k, &inner](auto y) {
      static_cast<void>(k);
      return inner(y);
    });
    return outer(x);
  });
  ctff_test::check_python("runtime", "named_where_made", m);
  CHECK(m.compact() ==
        "(m_arg -> (let fc_m_symbol_0=(h_arg -> (let fc_h_symbol_0=(h_arg -> h_arg)(h_arg) in "
        "fc_h_symbol_0))(m_arg) in fc_m_symbol_0))");
}

namespace {

// Local computations, one capturing another by reference, called on constants only: the context
// of the constants joins the trace when the traced function has returned and the locals are gone.
constexpr auto locals_on_constants = ctff::computation<"outer">([] {
  std::int32_t k = 1;
  const auto c0 = ctff::computation<"c0", std::int32_t>([k](auto y) { return y + k; });
  const auto c1 = ctff::computation<"c1", std::int32_t>([&c0](auto y) { return c0(y); });
  return ctff::federated_map(c1, ctff::federated_value(3, ctff::CLIENTS));
});

// Called on constants inside another computation called on constants (nested floating contexts).
constexpr auto nested_on_constants = ctff::computation<"outer">([] {
  std::int32_t k = 1;
  const auto c0 = ctff::computation<"c0", std::int32_t>([k](auto y) { return y + k; });
  const auto c1 = ctff::computation<"c1", std::int32_t>([&c0](auto) {
    return ctff::federated_value(c0(5), ctff::SERVER);
  });
  return c1(2);
});

}  // namespace

TEST_CASE("local computations called on constants only outlive nothing", "[runtime]") {
  const std::int32_t one = 1;
  const auto r = ctff::computation<"outer">([one] {
    const auto c0 = ctff::computation<"c0", std::int32_t>([one](auto y) { return y + one; });
    const auto c1 = ctff::computation<"c1", std::int32_t>([&c0](auto y) { return c0(y); });
    return ctff::federated_map(c1, ctff::federated_value(3, ctff::CLIENTS));
  });
  ctff_test::require_same_outputs(r, locals_on_constants);
  ctff_test::check_python("runtime", "locals_on_constants", r);
  const auto nested = ctff::computation<"outer">([one] {
    const auto c0 = ctff::computation<"c0", std::int32_t>([one](auto y) { return y + one; });
    const auto c1 = ctff::computation<"c1", std::int32_t>([&c0](auto) {
      return ctff::federated_value(c0(5), ctff::SERVER);
    });
    return c1(2);
  });
  ctff_test::require_same_outputs(nested, nested_on_constants);
  ctff_test::check_python("runtime", "nested_on_constants", nested);
}

namespace {

// A polymorphic computation called on constants only, named like the enclosing trace: traced
// when its context joins the trace (it has no captures), as p_1.
constexpr auto poly_on_constants = ctff::computation<"p">([] {
  const auto p = ctff::polymorphic<"p">([](auto y) { return y + 1; });
  return ctff::federated_map(p, ctff::federated_value(3, ctff::CLIENTS));
});

}  // namespace

// With captures (here a local computation, by reference) it is traced at once, under the trace
// running then at run time (its captures are gone when the context of the constants joins the
// trace, after the traced function returned); at compile time under no trace, which is the same
// as long as no enclosing name is related (else a ctff: error, see compile_fail/).
TEST_CASE("polymorphic computations with captures called on constants only", "[runtime]") {
  const std::int32_t one = 1;
  const auto r = ctff::computation<"p">([one] {
    const auto add = ctff::computation<"add", std::int32_t>([one](auto y) { return y + one; });
    const auto p = ctff::polymorphic<"p">([&add, one](auto y) {
      static_cast<void>(add);
      return y + one;
    });
    return ctff::federated_map(p, ctff::federated_value(3, ctff::CLIENTS));
  });
  ctff_test::require_same_outputs(r, poly_on_constants);
  ctff_test::check_python("runtime", "polymorphic_on_constants", r);
  STATIC_REQUIRE(poly_on_constants.compact() ==
                 "( -> (let fc_p_symbol_0=federated_value_at_clients(3),fc_p_symbol_1=federated_map(<"
                 "(p_1_arg -> (let fc_p_1_symbol_0=generic_plus(<p_1_arg,1>) in fc_p_1_symbol_0)),"
                 "fc_p_symbol_0>) in fc_p_symbol_1))");

  constexpr auto at_compile_time = ctff::computation<"outer">([] {
    std::int32_t k = 1;
    const auto c0 = ctff::computation<"c0", std::int32_t>([k](auto y) { return y + k; });
    const auto p = ctff::polymorphic<"q">([&c0](auto y) { return c0(y); });
    return ctff::federated_map(p, ctff::federated_value(3, ctff::CLIENTS));
  });
  const auto at_run_time = ctff::computation<"outer">([one] {
    const auto c0 = ctff::computation<"c0", std::int32_t>([one](auto y) { return y + one; });
    const auto p = ctff::polymorphic<"q">([&c0](auto y) { return c0(y); });
    return ctff::federated_map(p, ctff::federated_value(3, ctff::CLIENTS));
  });
  ctff_test::require_same_outputs(at_run_time, at_compile_time);
  ctff_test::check_python("runtime", "polymorphic_calling_local", at_run_time);
}
