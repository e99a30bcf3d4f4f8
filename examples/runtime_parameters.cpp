// A computation whose constants are only known when the program runs: here, the bound on each
// client's input to a secure sum and the learning rate sent to the clients, read from the command
// line. A lambda that captures run-time values is traced at run time, when ctff::computation is
// called, by the same code that traces a captureless lambda at compile time.
//
// Usage: ctff_example_runtime_parameters [OUT.binpb [MAX_INPUT [LEARNING_RATE]]]
//
// The same program in Python, where every computation is traced at run time:
//
//   def make_round(max_input, learning_rate):
//     @federated_computation(FederatedType(np.int32, CLIENTS))
//     def bounded_round(counts):
//       return (federated_secure_sum(counts, max_input),
//               federated_broadcast(federated_value(learning_rate, SERVER)))
//     return bounded_round
//
// Cost: a compile-time computation costs nothing when the program runs (its bytes are a constant
// array), but every distinct constant is a separate computation to compile. A run-time trace costs
// microseconds per call and takes any value; its output is the same for the same constants.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <ctff/ctff.hpp>

#include "example_output.hpp"

namespace {

auto make_round(std::int32_t max_input, float learning_rate) {
  return ctff::computation<"bounded_round", ctff::at_clients<std::int32_t>>(
      [max_input, learning_rate](auto counts) {
        // federated_value(constant) is used in the expression that makes it: kept in a variable,
        // C++ could not tell where Python binds it (ctff reports that instead of guessing).
        return std::tuple{
            ctff::federated_secure_sum(counts, max_input),
            ctff::federated_broadcast(ctff::federated_value(learning_rate, ctff::SERVER))};
      });
}

// The same computation with its constants known to the compiler: traced at compile time.
constexpr auto round_1000 =
    ctff::computation<"bounded_round", ctff::at_clients<std::int32_t>>([](auto counts) {
      return std::tuple{ctff::federated_secure_sum(counts, 1000),
                        ctff::federated_broadcast(ctff::federated_value(0.1f, ctff::SERVER))};
    });

static_assert(round_1000.compact() ==
              "(bounded_round_arg -> (let "
              "fc_bounded_round_symbol_0=federated_secure_sum(<bounded_round_arg,1000>),"
              "fc_bounded_round_symbol_1=federated_value_at_server(0.1),"
              "fc_bounded_round_symbol_2=federated_broadcast(fc_bounded_round_symbol_1) "
              "in <fc_bounded_round_symbol_0,fc_bounded_round_symbol_2>))");

}  // namespace

int main(int argc, char** argv) {
  const std::int32_t max_input = argc > 2 ? std::atoi(argv[2]) : 1000;
  const float learning_rate = argc > 3 ? std::strtof(argv[3], nullptr) : 0.1f;

  const auto start = std::chrono::steady_clock::now();
  constexpr int repetitions = 100;
  for (int i = 1; i < repetitions; ++i) (void)make_round(max_input, learning_rate).bytes();
  const auto round = make_round(max_input, learning_rate);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  std::printf("run-time trace: %.1f us per computation (mean of %d)\n",
              std::chrono::duration<double, std::micro>(elapsed).count() / repetitions,
              repetitions);

  // With the compiled-in constants, both traces give the same bytes.
  if (max_input == 1000 && learning_rate == 0.1f) {
    const bool same = round.bytes() == round_1000.bytes();
    std::printf("same bytes as the compile-time trace: %s\n", same ? "yes" : "NO");
    if (!same) return 1;
  }
  return example::output(round, argc, argv);
}
