// Simulating federated averaging with no Python and no TensorFlow: the round is traced by ctff
// (the client update an opaque TensorFlow computation in the Computation, as a TFF runtime would
// receive it), and ctff's executor runs it on 100 simulated clients, the client update bound to a
// C++ function. Ten rounds of linear regression; the loss printed each round falls. The round,
// the client update and the data: fedavg_round.hpp (distributed_fedavg.cpp runs the same rounds
// on workers).
//
//   ctff_example_simulate_fedavg [OUT.binpb]   writes the round's Computation bytes to OUT.binpb
#include <cstdio>
#include <tuple>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/run.hpp>

#include "example_output.hpp"
#include "fedavg_round.hpp"

using namespace fedavg;

int main(int argc, char** argv) {
  ctff::executor simulation;  // N inferred from the client data; the hardware's threads
  simulation.bind(client_update, local_step);

  const std::vector<client_data> clients = make_clients(100);
  model m{};
  float first = 0, last = 0;
  for (int round = 1; round <= 10; ++round) {
    auto [next, loss] = simulation.call<std::tuple<model, float>>(fedavg_round, m, clients);
    std::printf("round %2d  loss %.6f\n", round, static_cast<double>(loss));
    if (round == 1) first = loss;
    last = loss;
    m = next;
  }
  print_model(m);
  if (!(last < first / 4)) {
    std::fprintf(stderr, "the loss did not fall: %f -> %f\n", static_cast<double>(first),
                 static_cast<double>(last));
    return 1;
  }
  return example::output(fedavg_round, argc, argv);
}
