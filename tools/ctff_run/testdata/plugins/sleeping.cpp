// A test plugin binding comp#7b000c3 (int32 -> int32, testdata/unbound_tensorflow.textproto and
// map_tensorflow.textproto) by its key: x -> x, after sleeping x milliseconds. Run on a worker
// (ctff-worker --bind), it makes a worker that answers late, or not within a deadline
// (tests/remote/workers_e2e.py). When CTFF_SLEEPING_MARK names a file, a line is appended to it
// before each sleep of 1 s or more: the test then knows a call is under way.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include <ctff/run/plugin.hpp>

CTFF_PLUGIN(registry) {
  registry.bind("comp#7b000c3", [](const ctff::dynamic_value* arg) {
    if (!arg) throw std::invalid_argument("sleeping takes an argument");
    const std::int32_t x = arg->tensor().get<ctff::dtype::int32>()[0];
    if (const char* mark = std::getenv("CTFF_SLEEPING_MARK"); mark && x >= 1000) {
      std::ofstream(mark, std::ios::app) << "sleeping " << x << " ms\n";
    }
    if (x > 0) std::this_thread::sleep_for(std::chrono::milliseconds(x));
    return ctff::make_scalar<ctff::dtype::int32>(x);
  });
}
