// Shared by the benchmark executables: the golden programs (traced at compile time, and the same
// programs traced at run time by lambdas that capture a run-time value), the check that every
// compared message has exactly ctff's bytes, and register_program(), which registers the
// benchmarks below for one program P (names `<kind>/<P>`; tools/bench.sh summarises them):
//
//   bytes_copy             copy the bytes of the compile-time trace into a std::string
//   bytes_hash             FNV-1a over them (touches every byte once)
//   to_proto               ctff::to_proto(c) of the compile-time trace
//   parse_string           federated_language::Computation::ParseFromString of the same bytes
//   hand_build             building the same message by hand with the protobuf API
//   hand_build_serialize   the same, then SerializeToString
//   runtime_trace          ctff::computation(...) of the capturing lambda: trace at run time to
//                          bytes (the public API also prints the compact and formatted forms)
//   runtime_trace_to_proto ctff::to_proto of that: trace at run time to a message
//   paired_to_proto_parse  to_proto and parse_string alternated in one loop, each timed: the
//                          counter `ratio` is their time ratio (robust to a busy machine)
//   paired_runtime_hand    the same for runtime_trace against hand_build_serialize
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctff/ctff.hpp>
#include <ctff/proto.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "programs.hpp"

namespace ctff_bench {

// ---------------------------------------------------------------------------------------------
// The goldens (tests/goldens/README.md), traced at compile time.

inline constexpr auto simple =
    ctff::computation<"simple", ctff::at_server<std::int32_t>>([](auto server_val) {
      auto at_clients = ctff::federated_broadcast(server_val);
      auto plus_one = ctff::federated_map(add_one, at_clients);
      return ctff::federated_sum(plus_one);
    });
inline constexpr auto sum_clients =
    ctff::computation<"sum_clients", ctff::at_clients<std::int32_t>>(
        [](auto x) { return ctff::federated_sum(x); });

using alpha_p = ctff::arg<"alpha", ctff::at_server<std::int32_t>>;
using beta_p = ctff::arg<"beta", ctff::at_clients<float>>;
using gamma_p = ctff::arg<"gamma", std::int32_t>;
inline constexpr auto named_params = ctff::computation<"named_params", alpha_p, beta_p, gamma_p>(
    [](auto alpha, auto beta, auto gamma) {
      return ctff::make_struct<"total", "first", "last">(ctff::federated_mean(beta), alpha, gamma);
    });

using a_p = ctff::arg<"a", ctff::at_clients<std::int32_t>>;
using b_p = ctff::arg<"b", ctff::at_clients<float>>;
inline constexpr auto zip_unnamed = ctff::computation<"zip_unnamed", a_p, b_p>(
    [](auto a, auto b) { return ctff::federated_zip(ctff::make_struct(a, b)); });

inline constexpr auto federated_values = ctff::computation<"federated_values">([] {
  return std::tuple{ctff::federated_value(10, ctff::SERVER),
                    ctff::federated_value(2.5f, ctff::CLIENTS)};
});

// ---------------------------------------------------------------------------------------------
// The same programs traced at run time. Each lambda captures a run-time value; where the program
// has a literal, the captured value is that literal (the benchmarks pass the golden's value, so
// the bytes are the golden's). Programs without literals capture a value they do not use.

inline auto rt_add_one(std::int32_t k) {
  return ctff::computation<"add_one", std::int32_t>([k](auto x) { return x + k; });
}
inline auto rt_simple(std::int32_t k) {
  auto add = rt_add_one(k);
  return ctff::computation<"simple", ctff::at_server<std::int32_t>>([add](auto server_val) {
    auto at_clients = ctff::federated_broadcast(server_val);
    auto plus_one = ctff::federated_map(add, at_clients);
    return ctff::federated_sum(plus_one);
  });
}
inline auto rt_sum_clients(std::int32_t k) {
  return ctff::computation<"sum_clients", ctff::at_clients<std::int32_t>>([k](auto x) {
    static_cast<void>(k);
    return ctff::federated_sum(x);
  });
}
inline auto rt_named_params(std::int32_t k) {
  return ctff::computation<"named_params", alpha_p, beta_p, gamma_p>([k](auto alpha, auto beta,
                                                                         auto gamma) {
    static_cast<void>(k);
    return ctff::make_struct<"total", "first", "last">(ctff::federated_mean(beta), alpha, gamma);
  });
}
inline auto rt_zip_unnamed(std::int32_t k) {
  return ctff::computation<"zip_unnamed", a_p, b_p>([k](auto a, auto b) {
    static_cast<void>(k);
    return ctff::federated_zip(ctff::make_struct(a, b));
  });
}
inline auto rt_federated_values(std::int32_t server, float clients) {
  return ctff::computation<"federated_values">([server, clients] {
    return std::tuple{ctff::federated_value(server, ctff::SERVER),
                      ctff::federated_value(clients, ctff::CLIENTS)};
  });
}

// ---------------------------------------------------------------------------------------------

inline std::uint64_t fnv1a(ctff::byte_view b) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : b) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// Exits with a message unless `m` serializes to `expected` (run before benchmarking, so that
// every comparison is between equal messages).
inline void check_same_bytes(const char* what, const federated_language::Computation& m,
                             ctff::byte_view expected) {
  std::string got;
  if (!m.SerializeToString(&got) || got != expected.str()) {
    std::fprintf(stderr,
                 "bench: %s: the hand-built message (%zu bytes) differs from ctff's (%zu)\n", what,
                 got.size(), expected.size());
    federated_language::Computation e = ctff::computation_from_bytes(expected);
    std::fprintf(stderr, "--- hand-built\n%s\n--- ctff\n%s\n", m.DebugString().c_str(),
                 e.DebugString().c_str());
    std::exit(1);
  }
}
inline void check_same_bytes(const char* what, ctff::byte_view got, ctff::byte_view expected) {
  if (!(got == expected)) {
    std::fprintf(stderr, "bench: %s: %zu bytes, expected %zu\n", what, got.size(), expected.size());
    std::exit(1);
  }
}

// Exits with a message unless protobuf parses `bytes` as a Computation and writes them back
// unchanged (every computation a benchmark measures is a valid, canonical message).
inline void check_parses(const char* what, ctff::byte_view bytes) {
  federated_language::Computation m;
  if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      m.SerializeAsString() != bytes.str()) {
    std::fprintf(stderr, "bench: %s: the %zu bytes do not parse back to themselves\n", what,
                 bytes.size());
    std::exit(1);
  }
}

// A run-time value the optimizer cannot see through. (Not benchmark::DoNotOptimize(x): with
// libbenchmark 1.7.1 and g++-12 -O3 its "+m,r" asm constraint turned a float 2.5 into 0.0.)
template <class T>
T opaque(T x) {
  volatile T v = x;
  return v;
}

// Runs a() and b() alternately (a first on even iterations, b first on odd ones), timing each;
// sets the counters `ratio` = total time of a / total time of b, and a_us, b_us = mean time of
// each. Both see the same machine load (and each runs after the other has used the caches).
template <class A, class B>
void paired(benchmark::State& st, A a, B b) {
  using clock = std::chrono::steady_clock;
  clock::duration ta{}, tb{};
  bool a_first = true;
  for (auto _ : st) {
    const auto t0 = clock::now();
    if (a_first)
      a();
    else
      b();
    const auto t1 = clock::now();
    if (a_first)
      b();
    else
      a();
    const auto t2 = clock::now();
    (a_first ? ta : tb) += t1 - t0;
    (a_first ? tb : ta) += t2 - t1;
    a_first = !a_first;
  }
  st.counters["ratio"] = static_cast<double>(ta.count()) / static_cast<double>(tb.count());
  const double iters = static_cast<double>(st.iterations());
  st.counters["a_us"] = std::chrono::duration<double, std::micro>(ta).count() / iters;
  st.counters["b_us"] = std::chrono::duration<double, std::micro>(tb).count() / iters;
}

// Registers the benchmarks above for program `name`: `C` the compile-time computation's type,
// `hand()` builds the message by hand, `rt()` traces the program at run time.
template <class C, class Hand, class Rt>
void register_program(const std::string& name, const C&, Hand hand, Rt rt) {
  check_parses(name.c_str(), C::bytes());
  check_parses((name + " (run-time trace)").c_str(), rt().bytes());
  check_same_bytes((name + " (hand-built)").c_str(), hand(), C::bytes());
  check_same_bytes((name + " (run-time trace)").c_str(), rt().bytes(), C::bytes());
  const double size = static_cast<double>(C::bytes().size());
  auto reg = [&](const char* kind, benchmark::TimeUnit unit, auto fn) {
    benchmark::RegisterBenchmark((std::string(kind) + "/" + name).c_str(),
                                 [fn, size](benchmark::State& st) {
                                   fn(st);
                                   st.counters["bytes"] = size;
                                 })
        ->Unit(unit);
  };
  using benchmark::kMicrosecond;
  using benchmark::kNanosecond;
  reg("bytes_copy", kNanosecond, [](benchmark::State& st) {
    for (auto _ : st) {
      std::string s = C::bytes().str();
      benchmark::DoNotOptimize(s.data());
    }
  });
  reg("bytes_hash", kNanosecond, [](benchmark::State& st) {
    for (auto _ : st) {
      const unsigned char* p = C::bytes().data();
      benchmark::DoNotOptimize(p);  // the bytes are read, not folded at compile time
      benchmark::DoNotOptimize(fnv1a(ctff::byte_view(p, C::bytes().size())));
    }
  });
  reg("to_proto", kMicrosecond, [](benchmark::State& st) {
    for (auto _ : st) {
      federated_language::Computation m = ctff::to_proto(C{});
      benchmark::DoNotOptimize(&m);
    }
  });
  reg("parse_string", kMicrosecond, [](benchmark::State& st) {
    const std::string s = C::bytes().str();
    for (auto _ : st) {
      federated_language::Computation m;
      if (!m.ParseFromString(s)) st.SkipWithError("ParseFromString failed");
      benchmark::DoNotOptimize(&m);
    }
  });
  reg("hand_build", kMicrosecond, [hand](benchmark::State& st) {
    for (auto _ : st) {
      federated_language::Computation m = hand();
      benchmark::DoNotOptimize(&m);
    }
  });
  reg("hand_build_serialize", kMicrosecond, [hand](benchmark::State& st) {
    for (auto _ : st) {
      federated_language::Computation m = hand();
      std::string s;
      m.SerializeToString(&s);
      benchmark::DoNotOptimize(s.data());
    }
  });
  reg("runtime_trace", kMicrosecond, [rt](benchmark::State& st) {
    for (auto _ : st) {
      auto c = rt();
      benchmark::DoNotOptimize(c.bytes().data());
    }
  });
  reg("runtime_trace_to_proto", kMicrosecond, [rt](benchmark::State& st) {
    for (auto _ : st) {
      federated_language::Computation m = ctff::to_proto(rt());
      benchmark::DoNotOptimize(&m);
    }
  });
  reg("paired_to_proto_parse", kMicrosecond, [](benchmark::State& st) {
    const std::string s = C::bytes().str();
    paired(
        st,
        [] {
          federated_language::Computation m = ctff::to_proto(C{});
          benchmark::DoNotOptimize(&m);
        },
        [&s] {
          federated_language::Computation m;
          m.ParseFromString(s);
          benchmark::DoNotOptimize(&m);
        });
  });
  reg("paired_runtime_hand", kMicrosecond, [rt, hand](benchmark::State& st) {
    paired(
        st,
        [rt] {
          auto c = rt();
          benchmark::DoNotOptimize(c.bytes().data());
        },
        [hand] {
          federated_language::Computation m = hand();
          std::string s;
          m.SerializeToString(&s);
          benchmark::DoNotOptimize(s.data());
        });
  });
}

}  // namespace ctff_bench
