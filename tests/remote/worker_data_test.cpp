// Data on the workers (run/data_uri.hpp, run/data_reference.hpp, remote/worker_data.hpp): workers
// read the clients' data that a controller names by URI (.npz per client, rows of a shard file),
// the round's result is the hand-written round's, the bytes sent per round do not grow with the
// data, and bad URIs are errors naming the URI and the file. The files are written here (C++'s
// write_npz); expected results come from benchmarks/fedavg_round.hpp's hand loop.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <ctff/numpy/npz.hpp>
#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>
#include <ctff/run/data_reference.hpp>
#include <ctff/run/data_uri.hpp>
#include <ctff/run/signature.hpp>

#include "fedavg_round.hpp"

namespace {

namespace fs = std::filesystem;
using ctff_bench::client_batch;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(CTFF_TEST_WORK_DIR) / "worker_data" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A float32 array of `shape` holding `values` (its own bytes).
ctff::npy_array f32_array(std::vector<std::int64_t> shape, const float* values, std::size_t count) {
  ctff::npy_array a;
  a.kind = 'f';
  a.itemsize = 4;
  a.shape = std::move(shape);
  a.count = count;
  a.storage.resize(count * 4);
  std::memcpy(a.storage.data(), values, count * 4);
  a.data = std::string_view(a.storage.data(), a.storage.size());
  return a;
}

// Client i's batch as an .npz of x and y; all of them as one shard file (x: [N,32,784]).
void write_clients(const fs::path& dir, const std::vector<client_batch>& data) {
  std::vector<float> xs, ys;
  for (std::size_t i = 0; i != data.size(); ++i) {
    const client_batch& b = data[i];
    std::vector<std::pair<std::string, ctff::npy_array>> arrays;
    arrays.emplace_back("x", f32_array({32, 784}, &b.x[0][0], 32 * 784));
    arrays.emplace_back("y", f32_array({32, 10}, &b.y[0][0], 32 * 10));
    write_file(dir / "clients" / (std::to_string(i) + ".npz"), ctff::write_npz(arrays));
    xs.insert(xs.end(), &b.x[0][0], &b.x[0][0] + 32 * 784);
    ys.insert(ys.end(), &b.y[0][0], &b.y[0][0] + 32 * 10);
  }
  const auto n = static_cast<std::int64_t>(data.size());
  std::vector<std::pair<std::string, ctff::npy_array>> shard;
  shard.emplace_back("x", f32_array({n, 32, 784}, xs.data(), xs.size()));
  shard.emplace_back("y", f32_array({n, 32, 10}, ys.data(), ys.size()));
  write_file(dir / "shard.npz", ctff::write_npz(shard));
}

struct round_types {
  ctff::computation_tree tree;
  std::uint32_t member = 0;  // the clients' member type: <x=float32[32,784],y=float32[32,10]>
};
round_types fedavg_types() {
  round_types r{ctff::read_computation(ctff_bench::fedavg_round.bytes().str())};
  const ctff::run_signature sig = ctff::signature_of(r.tree);
  r.member = r.tree.types.kid(r.tree.types.kid(sig.parameter, 1), 0);
  return r;
}

// The round's argument: the model at the server, the clients' data by URI.
ctff::dynamic_value by_uri(const round_types& t, const ctff::dynamic_value& model, std::size_t n, bool shard) {
  std::vector<ctff::dynamic_value> members;
  for (std::size_t i = 0; i != n; ++i)
    members.push_back(ctff::data_reference_value(shard ? "shard.npz#" + std::to_string(i)
                                                       : "clients/" + std::to_string(i) + ".npz",
                                                 t.tree.types, t.member));
  return ctff::make_struct_value({ctff::make_federated(ctff::placement_kind::server, true, {model}),
                                  ctff::make_federated(ctff::placement_kind::clients, false, std::move(members))},
                                 {"model", "data"});
}

ctff::dynamic_value at_server(const ctff_bench::linear_model& m) {
  return ctff::make_federated(ctff::placement_kind::server, true,
                              {ctff::to_value<ctff::tff_t<ctff_bench::linear_model>>(m)});
}

std::string address(const ctff::worker& w) { return "127.0.0.1:" + std::to_string(w.port()); }

std::unique_ptr<ctff::worker> data_worker(const fs::path& dir) {
  return ctff::serve({.setup = [](ctff::executor& e) { e.bind(ctff_bench::client_update, ctff_bench::bound_update); },
                      .data = std::make_shared<const ctff::data_dir>(dir)});
}

ctff_bench::linear_model start_model() {
  ctff_bench::linear_model m{};
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> u(-0.1f, 0.1f);
  for (auto& row : m.w)
    for (auto& v : row) v = u(gen);
  for (auto& v : m.b) v = u(gen);
  return m;
}

// The message of what f throws (empty: nothing).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("a FedAvg round over data the workers read by URI is the hand-written round", "[remote][data]") {
  const fs::path dir = fresh_dir("fedavg");
  const std::size_t n = 6;
  const std::vector<client_batch> data = ctff_bench::client_structs(n);
  write_clients(dir, data);
  const ctff_bench::linear_model m = start_model();
  const ctff::dynamic_value expected = at_server(ctff_bench::hand_round(m, data, 1));
  const round_types t = fedavg_types();
  auto a = data_worker(dir), b = data_worker(dir);
  ctff::remote_executor r({.workers = {address(*a), address(*b)}}, {.clients = n});
  for (const bool shard : {false, true}) {
    INFO("shard file: " << shard);
    CHECK(r.run(t.tree, by_uri(t, at_server(m).federated().members.front(), n, shard)) == expected);
    // A local run reading the same URIs (ctff-run --data DIR) agrees.
    ctff::executor local({.clients = n});
    local.bind(ctff_bench::client_update, ctff_bench::bound_update);
    const ctff::data_dir here(dir);
    CHECK(local.run(t.tree, ctff::resolved(by_uri(t, at_server(m).federated().members.front(), n, shard), here)) ==
          expected);
  }
}

TEST_CASE("the bytes sent per round do not grow with the clients' data", "[remote][data]") {
  const fs::path dir = fresh_dir("traffic");
  const std::size_t n = 8;
  const std::vector<client_batch> data = ctff_bench::client_structs(n);
  write_clients(dir, data);
  const round_types t = fedavg_types();
  const ctff_bench::linear_model m = start_model();
  const ctff::dynamic_value model = at_server(m).federated().members.front();
  const std::uint64_t model_bytes = sizeof(ctff_bench::linear_model), data_bytes = n * sizeof(client_batch);
  auto w = data_worker(dir);
  ctff::remote_executor r({.workers = {address(*w)}}, {.clients = n});
  const ctff::dynamic_value arg = by_uri(t, model, n, false);
  const ctff::dynamic_value first = r.run(t.tree, arg);
  const std::uint64_t round1 = r.traffic().sent;
  const ctff::dynamic_value second = r.run(t.tree, arg);
  const std::uint64_t round2 = r.traffic().sent - round1;
  CHECK(first == second);
  // The model and the URIs (under 400 bytes a client with the Data's type), not the data.
  CHECK(round1 < model_bytes + 400 * n + 4096);
  CHECK(round1 < data_bytes / 20);
  // The URIs the worker holds already do not go again: the model, the functions.
  CHECK(round2 < round1);
  CHECK(round2 < model_bytes + 4096);
}

TEST_CASE("a bad URI is INVALID_ARGUMENT naming the URI and the file", "[remote][data]") {
  const fs::path dir = fresh_dir("bad");
  write_clients(dir, ctff_bench::client_structs(2));
  {
    // y as float64 where the type says float32; x one column short.
    std::vector<double> y(32 * 10, 1.0);
    ctff::npy_array yd;
    yd.kind = 'f';
    yd.itemsize = 8;
    yd.shape = {32, 10};
    yd.count = y.size();
    yd.data = std::string_view(reinterpret_cast<const char*>(y.data()), y.size() * 8);
    std::vector<float> x(32 * 784, 0.5f);
    std::vector<std::pair<std::string, ctff::npy_array>> wrong_dtype, wrong_shape;
    wrong_dtype.emplace_back("x", f32_array({32, 784}, x.data(), x.size()));
    wrong_dtype.emplace_back("y", std::move(yd));
    write_file(dir / "f64.npz", ctff::write_npz(wrong_dtype));
    wrong_shape.emplace_back("x", f32_array({32, 783}, x.data(), 32 * 783));
    wrong_shape.emplace_back("y", f32_array({32, 10}, x.data(), 320));
    write_file(dir / "short.npz", ctff::write_npz(wrong_shape));
  }
  const round_types t = fedavg_types();
  auto w = data_worker(dir);
  ctff::remote_executor r({.workers = {address(*w)}}, {.clients = 2});
  const ctff::dynamic_value model = at_server(start_model()).federated().members.front();
  auto run_with = [&](const std::string& uri) {
    return error_of([&] {
      std::vector<ctff::dynamic_value> members{ctff::data_reference_value("clients/0.npz", t.tree.types, t.member),
                                               ctff::data_reference_value(uri, t.tree.types, t.member)};
      r.run(t.tree, ctff::make_struct_value(
                        {ctff::make_federated(ctff::placement_kind::server, true, {model}),
                         ctff::make_federated(ctff::placement_kind::clients, false, std::move(members))},
                        {"model", "data"}));
    });
  };
  const std::string root = fs::canonical(dir).string();
  std::string e = run_with("missing.npz");
  CHECK_THAT(e, Catch::Contains("INVALID_ARGUMENT") && Catch::Contains("data URI `missing.npz` (file " + root + "/missing.npz)") &&
                    Catch::Contains("no such file"));
  CHECK_THAT(run_with("../bad/clients/0.npz"), Catch::Contains("INVALID_ARGUMENT") && Catch::Contains("`..` in the path"));
  CHECK_THAT(run_with("/etc/passwd.npy"), Catch::Contains("an absolute path"));
  CHECK_THAT(run_with("clients/0.txt"), Catch::Contains("not a .npy or .npz file"));
  e = run_with("f64.npz");
  CHECK_THAT(e, Catch::Contains("data URI `f64.npz` (file " + root + "/f64.npz): at `y`") && Catch::Contains("float64"));
  CHECK_THAT(run_with("short.npz"), Catch::Contains("data URI `short.npz`") && Catch::Contains("at `x`"));
  CHECK_THAT(run_with("shard.npz#2"), Catch::Contains("no row 2 in the array `x`"));
  CHECK_THAT(run_with("shard.npz#x"), Catch::Contains("a row number"));
  // A link out of the directory is refused as `..` is.
  fs::create_directory_symlink(fs::temp_directory_path(), dir / "out");
  CHECK_THAT(run_with("out/x.npz"), Catch::Contains("no such file") || Catch::Contains("leading out of the data directory"));
  // The worker still serves after each refusal.
  CHECK(run_with("clients/1.npz").empty());
}

TEST_CASE("what the controller itself reads of data on the workers: its own --data, or a clear error", "[remote][data]") {
  // sum_clients: ({int32}@CLIENTS -> int32@SERVER), the sum on the controller.
  std::ifstream in(std::string(CTFF_GOLDENS_DIR) + "/sum_clients.binpb", std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  const ctff::computation_tree t = ctff::read_computation(s.str());
  const std::uint32_t member = t.types.kid(ctff::signature_of(t).parameter, 0);
  const fs::path dir = fresh_dir("sum");
  std::vector<ctff::dynamic_value> members;
  for (const std::int32_t v : {5, -2, 40}) {
    ctff::npy_array a;
    a.kind = 'i';
    a.itemsize = 4;
    a.data = std::string_view(reinterpret_cast<const char*>(&v), 4);
    write_file(dir / (std::to_string(v) + ".npy"), ctff::write_npy(a));
    members.push_back(ctff::data_reference_value(std::to_string(v) + ".npy", t.types, member));
  }
  const ctff::dynamic_value arg = ctff::make_federated(ctff::placement_kind::clients, false, members);
  auto w = data_worker(dir);
  {
    ctff::remote_executor r({.workers = {address(*w)}}, {.clients = 3});
    CHECK_THAT(error_of([&] { r.run(t, arg); }),
               Catch::Contains("the clients' data `5.npy` lives on the workers (a Data URI), and federated_sum reads it here"));
  }
  ctff::remote_executor r({.workers = {address(*w)}, .data = std::make_shared<const ctff::data_dir>(dir)}, {.clients = 3});
  CHECK(r.run(t, arg) == ctff::make_federated(ctff::placement_kind::server, true, {ctff::make_scalar<ctff::dtype::int32>(43)}));
}

TEST_CASE("data_dir refuses what is not a URI under its directory", "[remote][data]") {
  CHECK_THAT(error_of([] { ctff::parse_data_uri(""); }), Catch::Contains("an empty URI"));
  CHECK_THAT(error_of([] { ctff::parse_data_uri("a/../../b.npy"); }), Catch::Contains("`..`"));
  CHECK_THAT(error_of([] { ctff::parse_data_uri("#3"); }), Catch::Contains("no file before `#`"));
  CHECK(ctff::parse_data_uri("a/b.npz#12").row == 12u);
  CHECK(ctff::parse_data_uri("a/b.npz#12").file == "a/b.npz");
  CHECK_THAT(error_of([] { ctff::data_dir d("/no/such/dir"); }), Catch::Contains("not a directory"));
}
