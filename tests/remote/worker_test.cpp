// The worker in process, driven through its gRPC interface as TFF's clients drive it: results of
// runs, executors shared and counted, and every failure with the status code TFF's clients read.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/text_format.h>
#include <grpcpp/grpcpp.h>

#include <ctff/read.hpp>
#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>

namespace v0 = tensorflow_federated::v0;

namespace {

// The helpers throw rather than REQUIRE: the concurrency tests call them from their own threads,
// and Catch2's assertions are not thread-safe (ThreadSanitizer reports them).
template <class M>
M parse(const std::string& text) {
  M m;
  if (!google::protobuf::TextFormat::ParseFromString(text, &m)) throw std::runtime_error("not a message: " + text);
  return m;
}

// A worker on a free port of 127.0.0.1 and a client of it.
struct fixture {
  std::unique_ptr<ctff::worker> w;
  std::unique_ptr<v0::ExecutorGroup::Stub> stub;

  explicit fixture(ctff::worker_options o = {}, ctff::serve_options s = {}) {
    w = ctff::serve(std::move(o), std::move(s));
    stub = v0::ExecutorGroup::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(w->port()), grpc::InsecureChannelCredentials()));
  }
  std::string executor(int clients) {
    v0::GetExecutorRequest rq;
    auto* c = rq.add_cardinalities();
    c->mutable_placement()->set_uri("clients");
    c->set_cardinality(clients);
    v0::GetExecutorResponse rs;
    grpc::ClientContext ctx;
    const grpc::Status s = stub->GetExecutor(&ctx, rq, &rs);
    if (!s.ok()) throw std::runtime_error("GetExecutor: " + s.error_message());
    return rs.executor().id();
  }
  // (column: marked as clients' tensors in one column, remote/wire_columns.hpp)
  grpc::Status create(const std::string& ex, const std::string& value_text, std::string* id, bool column = false) {
    v0::CreateValueRequest rq;
    *rq.mutable_value() = parse<v0::Value>(value_text);
    rq.mutable_executor()->set_id(ex);
    v0::CreateValueResponse rs;
    grpc::ClientContext ctx;
    if (column) ctx.AddMetadata("ctff-column", "1");
    grpc::Status s = stub->CreateValue(&ctx, rq, &rs);
    if (id) *id = rs.value_ref().id();
    return s;
  }
  grpc::Status call(const std::string& ex, const std::string& fn, const std::string& arg, std::string* id) {
    v0::CreateCallRequest rq;
    rq.mutable_function_ref()->set_id(fn);
    if (!arg.empty()) rq.mutable_argument_ref()->set_id(arg);
    rq.mutable_executor()->set_id(ex);
    v0::CreateCallResponse rs;
    grpc::ClientContext ctx;
    grpc::Status s = stub->CreateCall(&ctx, rq, &rs);
    if (id) *id = rs.value_ref().id();
    return s;
  }
  // (column: asks for a column, and says whether the answer is one)
  grpc::Status compute(const std::string& ex, const std::string& ref, v0::Value* out, bool* column = nullptr) {
    v0::ComputeRequest rq;
    rq.mutable_value_ref()->set_id(ref);
    rq.mutable_executor()->set_id(ex);
    v0::ComputeResponse rs;
    grpc::ClientContext ctx;
    if (column) ctx.AddMetadata("ctff-column", "1");
    grpc::Status s = stub->Compute(&ctx, rq, &rs);
    if (out) *out = rs.value();
    if (column) *column = ctx.GetServerTrailingMetadata().count("ctff-column") != 0;
    return s;
  }
};

const std::string int32_clients = "federated { placement { value { uri: \"clients\" } } member { tensor { dtype: DT_INT32 } } }";
const std::string int32_server =
    "federated { placement { value { uri: \"server\" } } all_equal: true member { tensor { dtype: DT_INT32 } } }";
// federated_sum as an intrinsic value, as TFF's composing controller sends it.
const std::string federated_sum = "computation { type { function { parameter { " + int32_clients + " } result { " +
                                  int32_server + " } } } intrinsic { uri: \"federated_sum\" } }";

std::string clients_value(const std::vector<int>& xs) {
  std::string s = "federated { type { placement { value { uri: \"clients\" } } member { tensor { dtype: DT_INT32 } } } ";
  for (int x : xs) s += "value { array { dtype: DT_INT32 shape { } int32_list { value: " + std::to_string(x) + " } } } ";
  return s + "}";
}

int server_int(const v0::Value& v) {
  REQUIRE(v.has_federated());
  REQUIRE(v.federated().value_size() == 1);
  return v.federated().value(0).array().int32_list().value(0);
}

}  // namespace

TEST_CASE("a federated_sum sent as an intrinsic value sums the clients' values", "[remote][worker]") {
  fixture f;
  const std::string ex = f.executor(3);
  std::string fn, arg, r;
  REQUIRE(f.create(ex, federated_sum, &fn).ok());
  REQUIRE(f.create(ex, clients_value({1, 2, 40}), &arg).ok());
  REQUIRE(f.call(ex, fn, arg, &r).ok());
  v0::Value out;
  REQUIRE(f.compute(ex, r, &out).ok());
  CHECK(server_int(out) == 43);
}

TEST_CASE("clients' tensors as one column (ctff-column) only when marked or asked for; a malformed one is refused",
          "[remote][worker][columns]") {
  fixture f;
  const std::string ex = f.executor(3);
  const std::string column = "federated { type { placement { value { uri: \"clients\" } } member { tensor { dtype: DT_INT32 } } } "
                             "value { array { dtype: DT_INT32 shape { dim: 3 } int32_list { value: 1 value: 2 value: 4 } } } }";
  std::string col, sum, fn, out;
  REQUIRE(f.create(ex, column, &col, true).ok());
  REQUIRE(f.create(ex, federated_sum, &fn).ok());
  REQUIRE(f.call(ex, fn, col, &sum).ok());
  v0::Value v;
  REQUIRE(f.compute(ex, sum, &v).ok());
  CHECK(server_int(v) == 7);  // 1 + 2 + 4
  // Read back as TFF's clients read it: a Value per client; asked for a column: one array.
  REQUIRE(f.compute(ex, col, &v).ok());
  REQUIRE(v.federated().value_size() == 3);
  CHECK(v.federated().value(2).array().int32_list().value(0) == 4);
  bool answered = false;
  REQUIRE(f.compute(ex, col, &v, &answered).ok());
  CHECK(answered);
  REQUIRE(v.federated().value_size() == 1);
  CHECK(v.federated().value(0).array().shape().dim(0) == 3);
  // Malformed: refused, naming what is wrong; the worker goes on.
  grpc::Status s = f.create(ex, clients_value({1, 2, 4}), nullptr, true);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK_THAT(s.error_message(), Catch::Contains("a value marked ctff-column that is not a CLIENTS value of one array"));
  s = f.create(ex, "federated { type { placement { value { uri: \"clients\" } } } value { array { dtype: DT_INT32 "
                   "shape { dim: 2 } int32_list { value: 1 value: 2 } } } }",
               nullptr, true);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK_THAT(s.error_message(), Catch::Contains("a column of 2 rows for 3 clients"));
  CHECK(f.create(ex, column, &col, true).ok());
}

TEST_CASE("executors are shared per cardinalities and live until their last DisposeExecutor", "[remote][worker]") {
  fixture f;
  const std::string a = f.executor(3), b = f.executor(3), c = f.executor(2);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a.rfind("clients=3/", 0) == 0);
  CHECK(f.w->service().executors() == 2);
  auto dispose = [&](const std::string& id) {
    v0::DisposeExecutorRequest rq;
    rq.mutable_executor()->set_id(id);
    v0::DisposeExecutorResponse rs;
    grpc::ClientContext ctx;
    return f.stub->DisposeExecutor(&ctx, rq, &rs);
  };
  std::string v;
  REQUIRE(dispose(a).ok());
  CHECK(f.create(a, clients_value({1, 2, 3}), &v).ok());  // b still holds it
  REQUIRE(dispose(a).ok());
  const grpc::Status after = f.create(a, clients_value({1, 2, 3}), &v);
  CHECK(after.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
  CHECK(after.error_message() == "CreateValue: no executor `" + a + "` (call GetExecutor)");
  CHECK(dispose(a).ok());  // again: no error (TFF's clients do this after a worker restart)
  CHECK(f.w->service().executors() == 1);
}

TEST_CASE("an executor left idle (its controller went away) is destroyed with its values", "[remote][worker]") {
  fixture f({.limits = {.idle_executor = std::chrono::milliseconds(200)}});
  const std::string gone = f.executor(1);
  std::string v;
  REQUIRE(f.create(gone, clients_value({1}), &v).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const std::string live = f.executor(2);  // any request sweeps
  CHECK(f.w->service().executors() == 1);
  const grpc::Status s = f.compute(gone, v, nullptr);
  CHECK(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
  // One used more often than that lives on, however long in all.
  fixture g({.limits = {.idle_executor = std::chrono::seconds(2)}});
  const std::string ex = g.executor(2);
  std::string w;
  for (int k = 0; k != 3; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    CHECK(g.create(ex, clients_value({1, 2}), &w).ok());
  }
}

TEST_CASE("failures carry the status codes TFF's clients read", "[remote][worker]") {
  fixture f({.limits = {.max_values = 4}});
  const std::string ex = f.executor(2);
  std::string fn, v, r;
  // A CLIENTS value of the wrong size.
  grpc::Status s = f.create(ex, clients_value({1, 2, 3}), &v);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK(s.error_message() == "CreateValue: value: a CLIENTS value of 3 members; this executor has 2 clients");
  // A malformed value.
  s = f.create(ex, "array { dtype: DT_INT32 shape { dim: 2 } }", &v);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK(s.error_message() == "value: the Array holds 0 values; its shape [2] needs 2");
  // A computation ctff cannot read.
  s = f.create(ex, "computation { intrinsic { uri: \"federated_sum\" } }", &v);
  CHECK(s.error_code() == grpc::StatusCode::INTERNAL);
  CHECK(s.error_message() == "ctff: execution error at (top level): the intrinsic federated_sum has no function type");
  // Unknown ids, a call of data.
  REQUIRE(f.create(ex, clients_value({5, 6}), &v).ok());
  s = f.call(ex, "99", v, &r);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK(s.error_message() == "CreateCall: function_ref: executor " + ex + " holds no value 99");
  s = f.call(ex, "x1", v, &r);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  s = f.call(ex, v, {}, &r);
  CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  CHECK(s.error_message() == "CreateCall: function_ref " + v + " is not a function");
  // A run that fails: an int32 division by zero inside a lambda.
  REQUIRE(f.create(ex,
                   "computation { type { function { parameter { tensor { dtype: DT_INT32 } } result { tensor { dtype: "
                   "DT_INT32 } } } } lambda { parameter_name: \"x\" result { type { tensor { dtype: DT_INT32 } } call { "
                   "function { type { function { parameter { struct { element { value { tensor { dtype: DT_INT32 } } } "
                   "element { value { tensor { dtype: DT_INT32 } } } } } result { tensor { dtype: DT_INT32 } } } } "
                   "intrinsic { uri: \"generic_divide\" } } argument { type { struct { element { value { tensor { "
                   "dtype: DT_INT32 } } } element { value { tensor { dtype: DT_INT32 } } } } } struct { element { value "
                   "{ type { tensor { dtype: DT_INT32 } } reference { name: \"x\" } } } element { value { type { tensor "
                   "{ dtype: DT_INT32 } } literal { value { dtype: DT_INT32 shape { } int32_list { value: 0 } } } } } } } "
                   "} } } }",
                   &fn)
              .ok());
  std::string zero;
  REQUIRE(f.create(ex, "array { dtype: DT_INT32 shape { } int32_list { value: 7 } }", &zero).ok());
  s = f.call(ex, fn, zero, &r);
  CHECK(s.error_code() == grpc::StatusCode::INTERNAL);
  CHECK_THAT(s.error_message(), Catch::Contains("ctff: execution error at lambda.result") &&
                                    Catch::Contains("division by zero"));
  // The executor holds 3 values (v, fn, zero); a 4th fits, a 5th is RESOURCE_EXHAUSTED.
  REQUIRE(f.create(ex, "array { dtype: DT_INT32 shape { } int32_list { value: 1 } }", &r).ok());
  s = f.create(ex, "array { dtype: DT_INT32 shape { } int32_list { value: 1 } }", &r);
  CHECK(s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
  // Disposing makes room.
  v0::DisposeRequest d;
  d.add_value_ref()->set_id(zero);
  d.mutable_executor()->set_id(ex);
  v0::DisposeResponse dr;
  grpc::ClientContext ctx;
  REQUIRE(f.stub->Dispose(&ctx, d, &dr).ok());
  CHECK(f.create(ex, "array { dtype: DT_INT32 shape { } int32_list { value: 1 } }", &r).ok());
}

TEST_CASE("a port another worker listens on is refused, not shared", "[remote][worker]") {
  fixture first;
  CHECK_THROWS_WITH(ctff::serve({}, {.port = first.w->port()}),
                    "ctff worker: cannot listen on 127.0.0.1:" + std::to_string(first.w->port()));
  // The first one still answers.
  CHECK(!first.executor(1).empty());
}

TEST_CASE("a request over the message limit is RESOURCE_EXHAUSTED, and the worker goes on", "[remote][worker]") {
  fixture f({}, {.max_message_bytes = 1 << 16});
  const std::string ex = f.executor(1);
  std::string big = "array { dtype: DT_INT32 shape { dim: 40000 } int32_list { ";
  for (int k = 0; k != 40000; ++k) big += "value: 123456 ";
  big += "} }";
  std::string v;
  const grpc::Status s = f.create(ex, big, &v);
  CHECK(s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
  CHECK(f.create(ex, "array { dtype: DT_INT32 shape { } int32_list { value: 1 } }", &v).ok());
}

TEST_CASE("opaque computations run through the bindings `setup` gives each executor", "[remote][worker]") {
  // A Data block of type int32, bound by its key (its decimal checksum, as ctff prints it).
  const std::string data = "computation { type { tensor { dtype: DT_INT32 } } data { uri: \"x\" } }";
  const auto comp = parse<v0::Value>(data).computation();
  const ctff::computation_tree t = ctff::read_computation(comp.SerializeAsString());
  const std::string key = ctff::binding_key(t, t.root);
  {
    fixture unbound;
    std::string v;
    const grpc::Status s = unbound.create(unbound.executor(0), data, &v);
    CHECK(s.error_code() == grpc::StatusCode::INTERNAL);
    CHECK_THAT(s.error_message(), Catch::Contains(key));
  }
  ctff::worker_options o;
  o.setup = [&](ctff::executor& e) {
    e.bind(key, [](const ctff::dynamic_value*) { return ctff::make_scalar<ctff::dtype::int32>(41); });
  };
  fixture f(std::move(o));
  const std::string ex = f.executor(0);
  std::string v;
  REQUIRE(f.create(ex, data, &v).ok());
  v0::Value out;
  REQUIRE(f.compute(ex, v, &out).ok());
  CHECK(out.array().int32_list().value(0) == 41);
}

TEST_CASE("many clients at once on one worker", "[remote][worker][concurrency]") {
  // Each executor's pool at 1, 2 and 4 threads (with 8 callers sharing 3 executors): what
  // ThreadSanitizer checks (tools/test.sh, suite tsan).
  const unsigned threads = GENERATE(1u, 2u, 4u);
  const int max_calls = GENERATE(-1, 2);
  CAPTURE(threads, max_calls);
  fixture f({.run = {.threads = threads}, .max_concurrent_calls = max_calls});
  // One caller: its executor (shared with the callers of the same client count), ten sums, and
  // its DisposeExecutor (the last of the three callers sharing it removes it).
  auto caller = [&](int t) {
    const std::string ex = f.executor(1 + t % 3);
    bool right = true;
    for (int k = 0; k != 10; ++k) {
      std::vector<int> xs;
      int sum = 0;
      for (int c = 0; c != 1 + t % 3; ++c) xs.push_back(t * 100 + k * 10 + c), sum += xs.back();
      std::string fn, arg, r;
      v0::Value out;
      right = right && f.create(ex, federated_sum, &fn).ok() && f.create(ex, clients_value(xs), &arg).ok() &&
              f.call(ex, fn, arg, &r).ok() && f.compute(ex, r, &out).ok() &&
              out.federated().value(0).array().int32_list().value(0) == sum;
    }
    v0::DisposeExecutorRequest rq;
    rq.mutable_executor()->set_id(ex);
    v0::DisposeExecutorResponse rs;
    grpc::ClientContext ctx;
    return right && f.stub->DisposeExecutor(&ctx, rq, &rs).ok();
  };
  std::atomic<int> wrong{0};
  std::vector<std::thread> ts;
  for (int t = 0; t != 8; ++t)
    ts.emplace_back([&, t] {
      try {
        if (!caller(t)) ++wrong;
      } catch (const std::exception&) {
        ++wrong;
      }
    });
  for (auto& t : ts) t.join();
  CHECK(wrong == 0);
  CHECK(f.w->service().executors() == 0);
}

TEST_CASE("a remote_executor over two workers: results of a local run at any thread count", "[remote][executor][concurrency]") {
  // The clients split between two in-process workers, each slice sent from its own thread.
  const unsigned threads = GENERATE(1u, 2u, 4u);
  CAPTURE(threads);
  const auto w1 = ctff::serve({.run = {.threads = threads}}, {});
  const auto w2 = ctff::serve({.run = {.threads = threads}}, {});
  ctff::remote_executor ex({.workers = {"127.0.0.1:" + std::to_string(w1->port()), "127.0.0.1:" + std::to_string(w2->port())}},
                           {.clients = 5, .threads = threads});
  CHECK(ex.workers().size() == 2);
  // (x@SERVER -> federated_sum(federated_map(add_one, federated_broadcast(x)))): 5 * (x + 1).
  std::ifstream in(CTFF_GOLDENS_DIR "/simple_broadcast_map_sum.binpb", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto t = std::make_shared<const ctff::computation_tree>(ctff::read_computation(bytes));
  for (int x = 0; x != 4; ++x) {
    const ctff::dynamic_value r =
        ex.run(t, ctff::make_federated(ctff::placement_kind::server, true, {ctff::make_scalar<ctff::dtype::int32>(x)}));
    CHECK(r == ctff::make_federated(ctff::placement_kind::server, true, {ctff::make_scalar<ctff::dtype::int32>(5 * (x + 1))}));
  }
}
