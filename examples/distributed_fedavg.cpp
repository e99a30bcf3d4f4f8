// Federated averaging on workers: the rounds of simulate_fedavg.cpp (fedavg_round.hpp), run by
// ctff::remote_executor over three workers of TFF's remote-execution protocol, started here in
// process with ctff::serve (ctff-worker serves the same; TFF's own workers would do too, given the
// client update). The controller ships each worker a slice of the clients (ceil(100/3) = 34, 34,
// 32) and the client update, shipped as the TensorFlow block it is; each worker runs it with its
// own binding of that block (local_step, set up with worker_options::setup). The slices come back
// in worker order and the means are taken here, in client order: every round's model and loss are
// those of the local run, bit for bit, which this example checks against a local executor. Then
// the same rounds with remote_options::aggregate_on_workers: the updates stay on the workers, each
// averages its slice, and the three partial means are merged here in worker order (float sums
// regrouped: checked within 1e-5 of the local run).
//
//   ctff_example_distributed_fedavg [OUT.binpb]   writes the round's Computation bytes to OUT.binpb
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>
#include <ctff/run.hpp>

#include "example_output.hpp"
#include "fedavg_round.hpp"

using namespace fedavg;

namespace {

// Bitwise equality: the remote run must not differ from the local one in the last bit.
bool same(const model& a, const model& b) {
  return std::memcmp(a.weights.data(), b.weights.data(), sizeof a.weights) == 0 &&
         std::memcmp(&a.bias, &b.bias, sizeof a.bias) == 0;
}
bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

int main(int argc, char** argv) {
  // Three workers on free ports of 127.0.0.1, each executor they make binding the client update
  // (counted: the clients' updates must all run there).
  std::atomic<long> on_workers{0}, on_controller{0};
  std::vector<std::unique_ptr<ctff::worker>> workers;
  std::vector<std::string> addresses;
  for (int k = 0; k != 3; ++k) {
    workers.push_back(ctff::serve({.setup = [&on_workers](ctff::executor& e) {
                                     e.bind(client_update, [&on_workers](const std::tuple<model, client_data>& in) {
                                       ++on_workers;
                                       return local_step(in);
                                     });
                                   }},
                                  {}));
    addresses.push_back("127.0.0.1:" + std::to_string(workers.back()->port()));
  }

  // The controller: its per-client work (the federated_map of the client update) on the workers.
  // It binds the client update too: the block is a function value here before it is shipped.
  ctff::remote_executor distributed({.workers = addresses});
  distributed.bind(client_update, [&on_controller](const std::tuple<model, client_data>& in) {
    ++on_controller;
    return local_step(in);
  });
  if (distributed.workers().size() != 3) {
    std::fprintf(stderr, "only %zu of 3 workers reached\n", distributed.workers().size());
    return 1;
  }
  std::printf("workers   %s %s %s\n", addresses[0].c_str(), addresses[1].c_str(), addresses[2].c_str());

  ctff::executor local;  // the reference: simulate_fedavg's run
  local.bind(client_update, local_step);

  const std::vector<client_data> clients = make_clients(100);
  model m{};
  float first = 0, last = 0;
  for (int round = 1; round <= 10; ++round) {
    auto [next, loss] = distributed.call<std::tuple<model, float>>(fedavg_round, m, clients);
    auto [local_next, local_loss] = local.call<std::tuple<model, float>>(fedavg_round, m, clients);
    if (!same(next, local_next) || !same(loss, local_loss)) {
      std::fprintf(stderr, "round %d: the workers' result differs from the local run's (loss %.9g vs %.9g)\n",
                   round, static_cast<double>(loss), static_cast<double>(local_loss));
      return 1;
    }
    std::printf("round %2d  loss %.6f\n", round, static_cast<double>(loss));
    if (round == 1) first = loss;
    last = loss;
    m = next;
  }
  print_model(m);
  std::printf("client updates on the workers %ld, on the controller %ld\n", on_workers.load(), on_controller.load());
  if (on_workers != 10 * 100 || on_controller != 0) {
    std::fprintf(stderr, "the client updates did not all run on the workers\n");
    return 1;
  }
  std::printf("the same as the local run in every round, bit for bit\n");
  if (!(last < first / 4)) {
    std::fprintf(stderr, "the loss did not fall: %f -> %f\n", static_cast<double>(first),
                 static_cast<double>(last));
    return 1;
  }

  // The other mode: the clients' updates stay on the workers, each takes the weighted mean of
  // its slice and the controller merges the three in worker order (remote_options::
  // aggregate_on_workers). Float sums regrouped: each round within 1e-5 of the local one.
  ctff::remote_executor aggregating({.workers = addresses, .aggregate_on_workers = true});
  aggregating.bind(client_update, local_step);
  model from{};
  for (int round = 1; round <= 10; ++round) {
    auto [next, loss] = aggregating.call<std::tuple<model, float>>(fedavg_round, from, clients);
    auto [local_next, local_loss] = local.call<std::tuple<model, float>>(fedavg_round, from, clients);
    float worst = std::abs(loss - local_loss) / std::max(1.0f, std::abs(local_loss));
    for (std::size_t k = 0; k != next.weights.size(); ++k)
      worst = std::max(worst, std::abs(next.weights[k] - local_next.weights[k]) / std::max(1.0f, std::abs(local_next.weights[k])));
    worst = std::max(worst, std::abs(next.bias - local_next.bias) / std::max(1.0f, std::abs(local_next.bias)));
    if (!(worst <= 1e-5f)) {
      std::fprintf(stderr, "aggregated on the workers, round %d: %g away from the local run\n", round,
                   static_cast<double>(worst));
      return 1;
    }
    from = local_next;
  }
  std::printf("aggregated on the workers: all 10 results within 1e-5 of the local run's\n");  // (no `round `: same_rounds.cmake)
  return example::output(fedavg_round, argc, argv);
}
