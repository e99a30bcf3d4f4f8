// Uses ctff::remote from an installed ctff: a worker started in process (ctff::serve) and a
// remote_executor with that one worker running Python's golden round simple_broadcast_map_sum
// (broadcast the server's value, add one on each client, sum) on 4 clients.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <ctff/remote.hpp>

int main() {
  std::ifstream in(CTFF_GOLDEN, std::ios::binary);
  if (!in) {
    std::printf("ctff remote consumer: cannot read %s\n", CTFF_GOLDEN);
    return 1;
  }
  std::stringstream bytes;
  bytes << in.rdbuf();
  const ctff::computation_tree round = ctff::read_computation(bytes.str());

  const auto worker = ctff::serve();  // 127.0.0.1, a free port
  ctff::remote_executor remote({.workers = {"127.0.0.1:" + std::to_string(worker->port())}}, {.clients = 4});
  if (!remote.left_out().empty()) {
    std::puts("ctff remote consumer: the worker was left out");
    return 1;
  }
  const auto at_server = [](std::int32_t v) {
    return ctff::make_federated(ctff::placement_kind::server, true, {ctff::make_scalar<ctff::dtype::int32>(v)});
  };
  // 4 clients, each 5 + 1: 24.
  const ctff::dynamic_value got = remote.run(round, at_server(5));
  if (!(got == at_server(24))) {
    std::puts("ctff remote consumer: expected 24@SERVER");
    return 1;
  }
  if (worker->service().executors() != 1) {  // the clients' work went to the worker
    std::puts("ctff remote consumer: the worker was not asked for an executor");
    return 1;
  }
  std::puts("ctff remote consumer: ok");
  return 0;
}
