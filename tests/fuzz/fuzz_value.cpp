// libFuzzer target over the remote-execution value reader (ctff/remote/value_message.hpp): every
// input protobuf parses as a tensorflow_federated.v0.Value goes through ctff::from_message, its
// computations evaluated by an executor under tight run_limits (as a worker's CreateValue does).
// Besides "no crash, no leak, no undefined behaviour, no unbounded memory or time", the only
// exceptions allowed are ctff::remote_error and what evaluating a computation may throw
// (read_error, execution_error, argument_error); an internal fault or std::bad_alloc escaping is a
// bug: abort. A value read is written back (to_message), read again and written again: the two
// writes must be the same bytes (bytes, not ==: a NaN is unequal to itself).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include <google/protobuf/stubs/logging.h>

#include <ctff/read.hpp>
#include <ctff/remote/value_message.hpp>
#include <ctff/run.hpp>

namespace {

// One executor for every input (starting a thread pool per input would cost more than the input).
ctff::executor& fuzz_executor() {
  static ctff::executor ex([] {
    ctff::run_options o;
    o.clients = 2;
    o.threads = 1;
    o.limits.max_depth = 64;
    o.limits.max_steps = 20000;
    o.limits.max_value_bytes = 4u << 20;
    o.limits.max_clients = 8;
    return o;
  }());
  return ex;
}

ctff::dynamic_value evaluate(const federated_language::Computation& c) {
  std::string bytes;
  if (!c.SerializeToString(&bytes)) ctff::detail::remote_fail("value", "a Computation that does not serialize");
  ctff::read_limits limits;
  limits.max_depth = 200;
  return fuzz_executor().evaluate(std::make_shared<const ctff::computation_tree>(ctff::read_computation(bytes, limits)));
}

std::string bytes_of(const tensorflow_federated::v0::Value& m) {
  std::string s;
  if (!m.SerializeToString(&s)) std::abort();
  return s;
}

[[noreturn]] void die(const char* stage, const std::exception& e) {
  std::fprintf(stderr, "ctff_fuzz_value: %s threw %s\n", stage, e.what());
  std::abort();
}

}  // namespace

// Quiet: protobuf logs every string field with invalid UTF-8 it refuses to parse.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tensorflow_federated::v0::Value m;
  if (!m.ParseFromArray(data, static_cast<int>(size))) return 0;
  ctff::dynamic_value v;
  try {
    v = ctff::from_message(m, evaluate);
  } catch (const ctff::remote_error&) {
    return 0;
  } catch (const ctff::read_error&) {
    return 0;
  } catch (const ctff::execution_error&) {
    return 0;
  } catch (const ctff::argument_error&) {
    return 0;
  } catch (const std::exception& e) {
    die("from_message", e);
  }
  tensorflow_federated::v0::Value m2;
  try {
    m2 = ctff::to_message(v);
  } catch (const ctff::remote_error&) {
    return 0;  // a function or placement value (a computation's), which is not data
  } catch (const std::exception& e) {
    die("to_message", e);
  }
  // What ctff writes, ctff reads, and writes again the same: no error allowed from here on.
  try {
    const ctff::dynamic_value v2 = ctff::from_message(m2);
    if (bytes_of(ctff::to_message(v2)) != bytes_of(m2)) std::abort();
  } catch (const std::exception& e) {
    die("reading back what to_message wrote", e);
  }
  return 0;
}
