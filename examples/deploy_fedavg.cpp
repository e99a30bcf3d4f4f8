// Deploying a FedAvg round: the round of fedavg_round.hpp, traced by ctff, is split into TFF's
// DistributeAggregateForm, and each of its five parts runs where a deployment would run it, each
// place with an executor of its own:
//   the server     server_prepare, then server_to_client_broadcast;
//   each device    client_work, on its own data and the broadcast model, as one client;
//   the platform   client_to_server_aggregation, on the devices' results gathered;
//   the server     server_result.
// The result must equal, bit for bit, the round run in one process and a hand loop in plain C++.
// docs/forms_deploy.md walks through it.
//
//   ctff_example_deploy_fedavg [OUT.binpb]   writes the round's Computation bytes to OUT.binpb
#include <cstdio>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/forms.hpp>
#include <ctff/read.hpp>
#include <ctff/run.hpp>

#include "example_output.hpp"
#include "fedavg_round.hpp"

using namespace fedavg;
using ctff::dynamic_value;

namespace {

// <model=<weights,bias>@SERVER,loss=float32@SERVER>, the round's result type.
using round_result = decltype(fedavg_round)::result_type;

// The platform's part between the devices and the aggregation: each device returns a struct of
// CLIENTS values with one member (its own); gathered element by element, one member per device.
dynamic_value gather(const std::vector<dynamic_value>& from_devices) {
  const ctff::struct_data& first = from_devices.front().structure();
  std::vector<dynamic_value> elements;
  for (std::size_t k = 0; k != first.elements.size(); ++k) {
    std::vector<dynamic_value> members;
    for (const dynamic_value& r : from_devices)
      members.push_back(r.structure().elements[k].federated().members.front());
    elements.push_back(ctff::make_federated(ctff::placement_kind::clients, false, std::move(members)));
  }
  return ctff::make_struct_value(std::move(elements), first.names);
}

// The round by hand, in the executor's order: folds from zero in client order, each weighted
// model rounded to float before it is added (the target is built with -ffp-contract=off).
std::tuple<model, float> by_hand(const model& m, const std::vector<client_data>& clients) {
  model sum{};
  float weight = 0, loss = 0;
  for (const client_data& d : clients) {
    const auto [next, client_loss, n] = local_step({m, d});
    for (std::size_t k = 0; k != features; ++k) sum.weights[k] += next.weights[k] * n;
    sum.bias += next.bias * n;
    weight += n;
    loss += client_loss;
  }
  for (float& w : sum.weights) w /= weight;
  sum.bias /= weight;
  return {sum, loss / static_cast<float>(clients.size())};
}

bool same_bits(const std::tuple<model, float>& a, const std::tuple<model, float>& b) {
  return std::memcmp(&std::get<0>(a), &std::get<0>(b), sizeof(model)) == 0 &&
         std::memcmp(&std::get<1>(a), &std::get<1>(b), sizeof(float)) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<client_data> clients = make_clients(8);
  const model start{{0.5f, -0.5f, 0.25f, 1.0f}, 0.0f};

  // The split: a traced computation becomes a tree through its bytes.
  const ctff::distribute_aggregate_form form =
      ctff::to_distribute_aggregate_form(ctff::read_computation(fedavg_round.bytes().str()));
  std::fputs(ctff::form_summary(form).c_str(), stdout);

  // The server: <B_I, T> from the state, then what is broadcast (B_O: <model@CLIENTS>).
  ctff::executor server({.threads = 1});
  const dynamic_value prepared = server.run(form.server_prepare, ctff::to_value<ctff::at_server<model>>(start));
  const dynamic_value to_broadcast = prepared.structure().elements[0];
  const dynamic_value intermediate_state = prepared.structure().elements[1];
  const dynamic_value broadcast = server.run(form.server_to_client_broadcast, to_broadcast);

  // Each device, alone: one client, its own data, the broadcast value; the client update bound
  // to the C++ function, as on a device that has no TensorFlow.
  std::vector<dynamic_value> from_devices;
  for (const client_data& own : clients) {
    ctff::executor device({.threads = 1});
    device.bind(client_update, local_step);
    const dynamic_value data = ctff::to_value<ctff::at_clients<client_data>>(std::vector{own});
    from_devices.push_back(device.run(form.client_work, ctff::make_struct_value({data, broadcast})));
  }

  // The platform aggregates what the devices sent; the server makes the new state and result.
  ctff::executor platform;
  const dynamic_value aggregated = platform.run(
      form.client_to_server_aggregation,
      ctff::make_struct_value({intermediate_state, gather(from_devices)}, {"", "intrinsic_args_from_before_comp"}));
  const auto deployed = ctff::from_value<std::tuple<model, float>, round_result>(
      server.run(form.server_result, ctff::make_struct_value({intermediate_state, aggregated})));

  std::printf("%zu devices ran client_work\n", from_devices.size());
  print_model(std::get<0>(deployed));
  std::printf("loss      %.6f\n", static_cast<double>(std::get<1>(deployed)));

  // The same round in one process, and by hand.
  ctff::executor one_process;
  one_process.bind(client_update, local_step);
  const auto whole = one_process.call<std::tuple<model, float>>(fedavg_round, start, clients);
  if (!same_bits(deployed, whole) || !same_bits(deployed, by_hand(start, clients))) {
    std::fprintf(stderr, "the deployed round differs from the one-process run or the hand loop\n");
    return 1;
  }
  std::printf("equal, bit for bit, to the one-process run and the hand loop\n");
  return example::output(fedavg_round, argc, argv);
}
