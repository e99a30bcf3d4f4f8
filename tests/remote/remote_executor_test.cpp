// ctff::remote_executor against in-process workers: per-client work on the workers (checked by
// what they hold and by hand-computed results), clients split in worker order, unreachable
// workers left out, and a worker that dies or does not answer an execution_error naming it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <google/protobuf/text_format.h>

#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>

namespace {

ctff::computation_tree tree_of_text(const std::string& text) {
  federated_language::Computation c;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &c));
  return ctff::read_computation(c.SerializeAsString());
}

ctff::computation_tree golden(const std::string& name) {
  std::ifstream in(std::string(CTFF_GOLDENS_DIR) + "/" + name, std::ios::binary);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return ctff::read_computation(s.str());
}

const std::string i32 = "tensor { dtype: DT_INT32 }";
const std::string clients_i32 = "federated { placement { value { uri: \"clients\" } } member { " + i32 + " } }";
const std::string tf_type = "function { parameter { " + i32 + " } result { " + i32 + " } }";
// (x -> federated_map(<comp#..., x>)): each client's value through a TensorFlow block (bound by key).
const std::string map_tf =
    "type { function { parameter { " + clients_i32 + " } result { " + clients_i32 + " } } } "
    "lambda { parameter_name: \"x\" result { type { " + clients_i32 + " } call { "
    "function { type { function { parameter { struct { element { value { " + tf_type + " } } element { value { " +
    clients_i32 + " } } } } result { " + clients_i32 + " } } } intrinsic { uri: \"federated_map\" } } "
    "argument { type { struct { element { value { " + tf_type + " } } element { value { " + clients_i32 + " } } } } "
    "struct { element { value { type { " + tf_type + " } tensorflow { initialize_op: \"x\" } } } "
    "element { value { type { " + clients_i32 + " } reference { name: \"x\" } } } } } } } }";
// (-> federated_eval_at_clients(( -> (x -> x)(7)))): a function with a call (one that only moves
// values about runs on the controller).
const std::string eval_7 =
    "type { function { result { " + clients_i32 + " } } } "
    "lambda { result { type { " + clients_i32 + " } call { "
    "function { type { function { parameter { function { result { " + i32 + " } } } result { " + clients_i32 +
    " } } } intrinsic { uri: \"federated_eval_at_clients\" } } "
    "argument { type { function { result { " + i32 + " } } } lambda { result { type { " + i32 + " } call { "
    "function { type { function { parameter { " + i32 + " } result { " + i32 + " } } } lambda { parameter_name: "
    "\"x\" result { type { " + i32 + " } reference { name: \"x\" } } } } "
    "argument { type { " + i32 + " } literal { value { dtype: DT_INT32 shape { } int32_list { value: 7 } } } } "
    "} } } } } } }";

// The key of the (only) TensorFlow block of t.
std::string tf_key(const ctff::computation_tree& t) {
  for (std::uint32_t i = 0; i != t.nodes.size(); ++i)
    if (t.node(i).kind == ctff::block_kind::tensorflow) return ctff::binding_key(t, i);
  FAIL("no TensorFlow block");
  return {};
}

ctff::dynamic_value clients(const std::vector<std::int32_t>& xs) {
  std::vector<ctff::dynamic_value> m;
  for (std::int32_t x : xs) m.push_back(ctff::make_scalar<ctff::dtype::int32>(x));
  return ctff::make_federated(ctff::placement_kind::clients, false, std::move(m));
}

std::string address(const ctff::worker& w) { return "127.0.0.1:" + std::to_string(w.port()); }

// A free port nobody listens on (a worker started and stopped).
std::string dead_address() {
  auto w = ctff::serve();
  const std::string a = address(*w);
  w->shutdown();
  w.reset();
  return a;
}

}  // namespace

TEST_CASE("federated_map runs on the workers, a slice each, and the result is the local one", "[remote][executor]") {
  const ctff::computation_tree t = tree_of_text(map_tf);
  const std::string key = tf_key(t);
  // Each worker's binding tags what it computed with its index: 1000 * (worker + 1) + x.
  std::vector<std::unique_ptr<ctff::worker>> ws;
  for (int k = 0; k != 3; ++k)
    ws.push_back(ctff::serve({.setup = [key, k](ctff::executor& e) {
      e.bind(key, [k](const ctff::dynamic_value* a) {
        return ctff::make_scalar<ctff::dtype::int32>(1000 * (k + 1) + a->tensor().get<ctff::dtype::int32>()[0]);
      });
    }}));
  ctff::remote_executor r({.workers = {address(*ws[0]), address(*ws[1]), address(*ws[2])}}, {.clients = 7});
  CHECK(r.left_out().empty());
  // 7 clients over 3 workers: ceil(7/3) = 3, 3, 1, in worker order.
  const ctff::dynamic_value got = r.run(t, clients({0, 1, 2, 3, 4, 5, 6}));
  CHECK(got == clients({1000, 1001, 1002, 2003, 2004, 2005, 3006}));
  for (auto& w : ws) CHECK(w->service().executors() == 1);
}

TEST_CASE("a golden round (broadcast, map, sum) over 2 workers gives the hand-computed result", "[remote][executor]") {
  auto a = ctff::serve(), b = ctff::serve();
  ctff::remote_executor r({.workers = {address(*a), address(*b)}}, {.clients = 10});
  // broadcast 5, add one on each of 10 clients, sum: 60.
  const ctff::dynamic_value got = r.run(golden("simple_broadcast_map_sum.binpb"),
                                        ctff::make_federated(ctff::placement_kind::server, true,
                                                             {ctff::make_scalar<ctff::dtype::int32>(5)}));
  CHECK(got == ctff::make_federated(ctff::placement_kind::server, true, {ctff::make_scalar<ctff::dtype::int32>(60)}));
  CHECK(a->service().executors() == 1);
  CHECK(b->service().executors() == 1);
}

TEST_CASE("federated_eval_at_clients on the workers", "[remote][executor]") {
  auto a = ctff::serve(), b = ctff::serve();
  ctff::remote_executor r({.workers = {address(*a), address(*b)}}, {.clients = 3});
  CHECK(r.run(tree_of_text(eval_7)) == ctff::make_federated(ctff::placement_kind::clients, false,
                                                           std::vector<ctff::dynamic_value>(3, ctff::make_scalar<ctff::dtype::int32>(7))));
  CHECK(a->service().executors() == 1);
}

TEST_CASE("a function that only moves values about runs on the controller", "[remote][executor]") {
  // (x -> federated_map(<(p -> p), x>)): nothing for a worker to compute.
  const std::string ident = "function { parameter { " + i32 + " } result { " + i32 + " } }";
  const ctff::computation_tree t = tree_of_text(
      "type { function { parameter { " + clients_i32 + " } result { " + clients_i32 + " } } } "
      "lambda { parameter_name: \"x\" result { type { " + clients_i32 + " } call { "
      "function { type { function { parameter { struct { element { value { " + ident + " } } element { value { " +
      clients_i32 + " } } } } result { " + clients_i32 + " } } } intrinsic { uri: \"federated_map\" } } "
      "argument { type { struct { element { value { " + ident + " } } element { value { " + clients_i32 + " } } } } "
      "struct { element { value { type { " + ident + " } lambda { parameter_name: \"p\" result { type { " + i32 +
      " } reference { name: \"p\" } } } } } element { value { type { " + clients_i32 +
      " } reference { name: \"x\" } } } } } } } }");
  auto a = ctff::serve();
  ctff::remote_executor r({.workers = {address(*a)}}, {.clients = 3});
  CHECK(r.run(t, clients({4, 5, 6})) == clients({4, 5, 6}));
  CHECK(a->service().executors() == 0);
  CHECK(r.traffic().sent == 0);
}

TEST_CASE("an executor the worker dropped (idle, or a restart) is asked for again", "[remote][executor]") {
  auto a = ctff::serve({.limits = {.idle_executor = std::chrono::milliseconds(200)}});
  ctff::remote_executor r({.workers = {address(*a)}}, {.clients = 3});
  const ctff::computation_tree t = tree_of_text(eval_7);
  CHECK(r.run(t).federated().members.size() == 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // the worker drops it at the next request
  CHECK(r.run(t) == ctff::make_federated(ctff::placement_kind::clients, false,
                                         std::vector<ctff::dynamic_value>(3, ctff::make_scalar<ctff::dtype::int32>(7))));
  CHECK(a->service().executors() == 1);
}

TEST_CASE("workers down at the start are left out; none reachable is an error", "[remote][executor]") {
  auto a = ctff::serve();
  const std::string dead = dead_address();
  ctff::remote_executor r({.workers = {dead, address(*a)}, .connect = std::chrono::milliseconds(500)}, {.clients = 4});
  CHECK(r.workers() == std::vector<std::string>{address(*a)});
  CHECK(r.left_out() == std::vector<std::string>{dead});
  CHECK(r.run(tree_of_text(eval_7)).federated().members.size() == 4);
  try {
    ctff::remote_executor none({.workers = {dead}, .connect = std::chrono::milliseconds(300)});
    FAIL("no error");
  } catch (const ctff::remote_error& e) {
    CHECK(std::string(e.what()) == "remote_executor: no worker could be reached within 300 ms: " + dead);
  }
}

TEST_CASE("failover: a slice whose worker dies or does not answer runs on another; a failed run is an error naming the worker",
          "[remote][executor][failover]") {
  const ctff::computation_tree t = tree_of_text(map_tf);
  const std::string key = tf_key(t);
  auto a = ctff::serve({.setup = [key](ctff::executor& e) {
    e.bind(key, [](const ctff::dynamic_value* x) { return *x; });
  }});
  auto slow = ctff::serve({.setup = [key](ctff::executor& e) {
    e.bind(key, [](const ctff::dynamic_value* x) {
      std::this_thread::sleep_for(std::chrono::seconds(2));
      return *x;
    });
  }});
  auto unbound = ctff::serve();
  auto bound = [key](ctff::executor& e) { e.bind(key, [](const ctff::dynamic_value* x) { return *x; }); };
  SECTION("dead after the start: its slice runs on the next worker, run after run; none left is an error") {
    auto b = ctff::serve({.setup = bound});
    const std::string gone = address(*b);
    ctff::remote_executor r({.workers = {address(*a), gone}, .deadline = std::chrono::seconds(5)}, {.clients = 4});
    b->shutdown();
    b.reset();
    CHECK(r.run(t, clients({1, 2, 3, 4})) == clients({1, 2, 3, 4}));
    CHECK(r.run(t, clients({5, 6, 7, 8})) == clients({5, 6, 7, 8}));
    CHECK(r.workers() == std::vector<std::string>{address(*a), gone});
    a->shutdown();
    const auto t0 = std::chrono::steady_clock::now();
    try {
      (void)r.run(t, clients({1, 2, 3, 4}));
      FAIL("no error");
    } catch (const ctff::execution_error& e) {
      CHECK_THAT(e.what(), Catch::Contains("no worker answers") && Catch::Contains("tried: worker " + address(*a) + ": ") &&
                               Catch::Contains("UNAVAILABLE") && Catch::Contains("down: " + address(*a) + ", " + gone));
    }
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(12));  // connect: 5 s, waiting for one
  }
  SECTION("restarted on its port: its slice runs there again, on a new executor") {
    auto b = ctff::serve({.setup = bound});
    const int port = b->port();
    ctff::remote_executor r({.workers = {address(*a), address(*b)}}, {.clients = 4});
    CHECK(r.run(t, clients({1, 2, 3, 4})) == clients({1, 2, 3, 4}));
    b->shutdown();
    b.reset();
    b = ctff::serve({.setup = bound}, {.port = port});
    CHECK(r.run(t, clients({4, 3, 2, 1})) == clients({4, 3, 2, 1}));
    CHECK(b->service().executors() == 1);
  }
  SECTION("no answer within the deadline: the slice runs elsewhere") {
    ctff::remote_executor r({.workers = {address(*a), address(*slow)}, .deadline = std::chrono::milliseconds(300)},
                            {.clients = 4});
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(r.run(t, clients({1, 2, 3, 4})) == clients({1, 2, 3, 4}));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  }
  SECTION("slice_deadline bounds an attempt at a slice; retries = 0: no other worker is tried") {
    ctff::remote_executor r({.workers = {address(*slow), address(*a)}, .retries = 0,
                             .slice_deadline = std::chrono::milliseconds(300)},
                            {.clients = 4});
    const auto t0 = std::chrono::steady_clock::now();
    try {
      (void)r.run(t, clients({1, 2, 3, 4}));
      FAIL("no error");
    } catch (const ctff::execution_error& e) {
      CHECK_THAT(e.what(), Catch::Contains("clients 0 to 1: no retries left (remote_options::retries); tried: worker " +
                                           address(*slow) + ": ") &&
                               Catch::Contains("DEADLINE_EXCEEDED"));
    }
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  }
  SECTION("a failed run on the worker") {
    ctff::remote_executor r({.workers = {address(*unbound)}}, {.clients = 2});
    try {
      (void)r.run(t, clients({1, 2}));
      FAIL("no error");
    } catch (const ctff::execution_error& e) {
      CHECK_THAT(e.what(), Catch::Contains("worker " + address(*unbound) + ": CreateValue (the function): INTERNAL: ") &&
                               Catch::Contains(key + " has no binding"));
    }
  }
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("TLS: a worker with a certificate, a controller that trusts its CA; one that does not is refused",
          "[remote][executor][tls]") {
  // A self-signed certificate for 127.0.0.1, made by openssl (tools/install-deps.sh installs it).
  const std::string dir = std::string(CTFF_TEST_WORK_DIR) + "/tls";
  const std::string make = "mkdir -p " + dir + " && openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
                           "-addext subjectAltName=IP:127.0.0.1 -keyout " + dir + "/key.pem -out " + dir +
                           "/cert.pem >/dev/null 2>&1";
  REQUIRE(std::system(make.c_str()) == 0);
  const std::string cert = slurp(dir + "/cert.pem"), key = slurp(dir + "/key.pem");
  auto w = ctff::serve({}, {.tls_cert = cert, .tls_key = key});
  ctff::remote_executor r({.workers = {address(*w)}, .tls_root_ca = cert}, {.clients = 2});
  CHECK(r.run(tree_of_text(eval_7)).federated().members.size() == 2);
  CHECK(w->service().executors() == 1);
  // Without TLS the worker cannot be reached.
  CHECK_THROWS_AS(ctff::remote_executor({.workers = {address(*w)}, .connect = std::chrono::milliseconds(500)}),
                  ctff::remote_error);
}

namespace {

// (arg -> (let k=7 in federated_map(<(x -> generic_plus(<x, k>)), arg>))): the mapped lambda reads
// k from outside, so it is shipped inside a Block binding k (run/function_computation.hpp).
const std::string plus_k =
    "type { function { parameter { " + clients_i32 + " } result { " + clients_i32 + " } } } "
    "lambda { parameter_name: \"arg\" result { type { " + clients_i32 + " } block { "
    "local { name: \"k\" value { type { " + i32 + " } literal { value { dtype: DT_INT32 shape { } int32_list { value: 7 } } } } } "
    "result { type { " + clients_i32 + " } call { "
    "function { type { function { parameter { struct { element { value { function { parameter { " + i32 + " } result { " +
    i32 + " } } } } element { value { " + clients_i32 + " } } } } result { " + clients_i32 +
    " } } } intrinsic { uri: \"federated_map\" } } "
    "argument { type { struct { element { value { function { parameter { " + i32 + " } result { " + i32 +
    " } } } } element { value { " + clients_i32 + " } } } } struct { "
    "element { value { type { function { parameter { " + i32 + " } result { " + i32 + " } } } lambda { parameter_name: \"x\" "
    "result { type { " + i32 + " } call { function { type { function { parameter { struct { element { value { " + i32 +
    " } } element { value { " + i32 + " } } } } result { " + i32 + " } } } intrinsic { uri: \"generic_plus\" } } "
    "argument { type { struct { element { value { " + i32 + " } } element { value { " + i32 + " } } } } struct { "
    "element { value { type { " + i32 + " } reference { name: \"x\" } } } "
    "element { value { type { " + i32 + " } reference { name: \"k\" } } } } } } } } } } "
    "element { value { type { " + clients_i32 + " } reference { name: \"arg\" } } } } } } } } } }";

struct tap_seen {
  std::string path, worker;
  std::optional<std::size_t> client;
  std::string value;
  bool operator==(const tap_seen&) const = default;
};

}  // namespace

TEST_CASE("taps inside the shipped functions come back from the workers, each client by its index", "[remote][executor]") {
  auto a = ctff::serve(), b = ctff::serve();
  const std::vector<std::string> workers{address(*a), address(*b)};
  const std::string sum_call = "lambda.result.block.local[2](fc_simple_symbol_2)";
  const std::string plus_one = "lambda.result.block.local[1](fc_simple_symbol_1).call.argument.struct[0].lambda.result."
                               "block.local[0](fc_add_one_symbol_0)";
  for (const bool on_workers : {false, true}) {
    std::vector<tap_seen> seen;
    ctff::run_options o{.clients = 5};
    o.taps = {plus_one, sum_call};
    o.on_value = [&](const ctff::tapped_value& v) {
      seen.push_back({std::string(v.path), std::string(v.worker), v.client, ctff::to_string(v.value)});
    };
    ctff::remote_executor r({.workers = workers, .aggregate_on_workers = on_workers}, o);
    // broadcast 5, add one on each of 5 clients (6), sum: 30.
    const ctff::dynamic_value got = r.run(golden("simple_broadcast_map_sum.binpb"),
                                          ctff::make_federated(ctff::placement_kind::server, true,
                                                               {ctff::make_scalar<ctff::dtype::int32>(5)}));
    CHECK(ctff::to_string(got) == "30");
    std::sort(seen.begin(), seen.end(), [](const tap_seen& x, const tap_seen& y) {
      return std::tie(x.path, x.client) < std::tie(y.path, y.client);
    });
    // ceil(5/2) = 3 clients to the first worker, 2 to the second.
    CHECK(seen == std::vector<tap_seen>{{plus_one, workers[0], 0, "6"},
                                        {plus_one, workers[0], 1, "6"},
                                        {plus_one, workers[0], 2, "6"},
                                        {plus_one, workers[1], 3, "6"},
                                        {plus_one, workers[1], 4, "6"},
                                        {sum_call, "", std::nullopt, "30"}});
  }
}

TEST_CASE("a tap inside a function shipped with what it reads from outside", "[remote][executor]") {
  auto a = ctff::serve(), b = ctff::serve();
  const std::vector<std::string> workers{address(*a), address(*b)};
  std::vector<tap_seen> seen;
  ctff::run_options o{.clients = 3};
  // The call generic_plus(<x, k>) inside the mapped lambda, and the reference to k in it.
  const std::string call = "lambda.result.block.result.call.argument.struct[0].lambda.result";
  o.taps = {call, call + ".call.argument.struct[1]"};
  o.on_value = [&](const ctff::tapped_value& v) {
    seen.push_back({std::string(v.path), std::string(v.worker), v.client, ctff::to_string(v.value)});
  };
  ctff::remote_executor r({.workers = workers}, o);
  CHECK(r.run(tree_of_text(plus_k), clients({10, 20, 30})) == clients({17, 27, 37}));
  std::sort(seen.begin(), seen.end(), [](const tap_seen& x, const tap_seen& y) {
    return std::tie(x.path, x.client) < std::tie(y.path, y.client);
  });
  // ceil(3/2) = 2 clients to the first worker, 1 to the second.
  CHECK(seen == std::vector<tap_seen>{{call, workers[0], 0, "17"},
                                      {call, workers[0], 1, "27"},
                                      {call, workers[1], 2, "37"},
                                      {call + ".call.argument.struct[1]", workers[0], 0, "7"},
                                      {call + ".call.argument.struct[1]", workers[0], 1, "7"},
                                      {call + ".call.argument.struct[1]", workers[1], 2, "7"}});
}

TEST_CASE("clients' values nobody holds any more are disposed of on the workers, round after round", "[remote][executor]") {
  auto a = ctff::serve(), b = ctff::serve();
  ctff::remote_executor r({.workers = {address(*a), address(*b)}}, {.clients = 4});
  const ctff::computation_tree t = tree_of_text(plus_k);
  // New data every round (as a caller that builds its argument anew sends it): each worker holds
  // the last round's slice only, not one more per round up to the cache's bound.
  for (std::int32_t round = 0; round != 20; ++round) {
    CHECK(r.run(t, clients({round, round + 1, round + 2, round + 3})) ==
          clients({round + 7, round + 8, round + 9, round + 10}));
    CHECK(a->service().values() == 1);
    CHECK(b->service().values() == 1);
  }
  // Data the caller keeps stays cached: sent once.
  const ctff::dynamic_value kept = clients({1, 2, 3, 4});
  CHECK(r.run(t, kept) == clients({8, 9, 10, 11}));
  const ctff::wire_traffic before = r.traffic();
  CHECK(r.run(t, kept) == clients({8, 9, 10, 11}));
  const ctff::wire_traffic again = r.traffic();
  CHECK(r.run(t, clients({1, 2, 3, 4})) == clients({8, 9, 10, 11}));  // equal, but not the same nodes
  const ctff::wire_traffic fresh = r.traffic();
  CHECK(again.sent - before.sent < fresh.sent - again.sent);
}
