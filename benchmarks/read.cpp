// Reading + checking a Computation (ctff/read) against protobuf's ParseFromString of the same
// bytes, paired (alternated in one loop, see bench_common.hpp `paired`): the counter `ratio` is
// (read + check) / parse. Inputs: the goldens (traced; their bytes equal Python's) and the
// 1000-call broadcast -> map -> sum chain, a struct type of 100,000 named elements and a Block of
// 100,000 locals.
// docs/performance.md reports the numbers.
//
//   read_check/<name>  paired: ctff::read_computation + ctff::check  vs  ParseFromString
//   read/<name>        paired: ctff::read_computation alone          vs  ParseFromString
//   print/<name>       ctff::compact and ctff::formatted of the read tree
//   write/<name>       ctff::serialize of the read tree (its bytes again)
#include <benchmark/benchmark.h>

#include <ctff/read.hpp>
#include <memory>
#include <string>

#include "bench_common.hpp"
#include "chain.hpp"

namespace {

void register_input(const std::string& name, const std::string& bytes) {
  {
    const auto t = ctff::read_computation(bytes);  // valid, and read back to the same bytes
    if (!ctff::check(t).empty() || ctff::serialize(t) != bytes) {
      std::fprintf(stderr, "read benchmark: %s does not read back cleanly\n", name.c_str());
      std::exit(1);
    }
  }
  auto parse = [bytes] {
    federated_language::Computation m;
    m.ParseFromString(bytes);
    benchmark::DoNotOptimize(&m);
  };
  benchmark::RegisterBenchmark(("read_check/" + name).c_str(), [bytes, parse](benchmark::State& st) {
    ctff_bench::paired(
        st,
        [&bytes] {
          const auto t = ctff::read_computation(bytes);
          auto errors = ctff::check(t);
          benchmark::DoNotOptimize(&errors);
        },
        parse);
    st.counters["bytes"] = static_cast<double>(bytes.size());
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("read/" + name).c_str(), [bytes, parse](benchmark::State& st) {
    ctff_bench::paired(
        st,
        [&bytes] {
          auto t = ctff::read_computation(bytes);
          benchmark::DoNotOptimize(&t);
        },
        parse);
  })->Unit(benchmark::kMicrosecond);
  auto tree = std::make_shared<const ctff::computation_tree>(ctff::read_computation(bytes));
  benchmark::RegisterBenchmark(("print/" + name).c_str(), [tree](benchmark::State& st) {
    for (auto _ : st) {
      std::string c = ctff::compact(*tree), f = ctff::formatted(*tree);
      benchmark::DoNotOptimize(c.data());
      benchmark::DoNotOptimize(f.data());
    }
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("write/" + name).c_str(), [tree](benchmark::State& st) {
    for (auto _ : st) {
      std::string b = ctff::serialize(*tree);
      benchmark::DoNotOptimize(b.data());
    }
  })->Unit(benchmark::kMicrosecond);
}

// Wire-format pieces for the hand-made inputs below.
void varint(std::string& s, std::size_t v) {
  for (; v >= 0x80; v >>= 7) s += static_cast<char>(v | 0x80);
  s += static_cast<char>(v);
}
void field(std::string& s, int number, const std::string& payload) {
  varint(s, static_cast<std::size_t>(number) << 3 | 2);
  varint(s, payload.size());
  s += payload;
}
std::string int32_type() {
  std::string t;
  field(t, 4, std::string("\x08\x03", 2));  // Type.tensor{dtype: DT_INT32}
  return t;
}

// A Computation whose type is a struct of n named int32 elements (and a Data body), and a Block of
// n locals that all name the first: the checker's rules must stay linear in n (hostile input
// may hold millions of elements or locals).
std::string wide_struct(int n) {
  std::string elements, type, computation;
  for (int k = 0; k != n; ++k) {
    std::string element;
    field(element, 1, "e" + std::to_string(k));
    field(element, 2, int32_type());
    field(elements, 1, element);
  }
  field(type, 2, elements);
  field(computation, 1, type);
  field(computation, 10, "");  // data {}
  return computation;
}
std::string long_block(int n) {
  std::string data, ref, name, block, computation;
  field(data, 1, int32_type());
  field(data, 10, "");
  field(ref, 1, int32_type());
  field(name, 1, "l0");
  field(ref, 6, name);  // reference {name: "l0"}
  for (int k = 0; k != n; ++k) {
    std::string local;
    field(local, 1, "l" + std::to_string(k));
    field(local, 2, k == 0 ? data : ref);
    field(block, 1, local);
  }
  field(block, 2, ref);
  field(computation, 1, int32_type());
  field(computation, 5, block);
  return computation;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ctff_bench;
  register_input("add_one", add_one.bytes().str());
  register_input("simple", simple.bytes().str());
  register_input("sum_clients", sum_clients.bytes().str());
  register_input("named_params", named_params.bytes().str());
  register_input("zip_unnamed", zip_unnamed.bytes().str());
  register_input("federated_values", federated_values.bytes().str());
  register_input("fedavg", fedavg.bytes().str());
  register_input("chain1000", runtime_chain<1000>(1).bytes().str());
  register_input("struct100k", wide_struct(100000));
  register_input("locals100k", long_block(100000));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
