// ctff-worker: a worker of TFF's remote execution (tensorflow_federated.v0.ExecutorGroup) over
// ctff's executor (<ctff/remote/worker.hpp>). TFF's Python client starts a worker binary as
// `BINARY --port=N --max_concurrent_computation_calls=-1`; this one takes the same flags, so it
// can stand in for TFF's, and TFF's C++ composing controller can drive it too.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <malloc.h>

#include <ctff/remote/remote_executor.hpp>
#include <ctff/remote/worker.hpp>
#include <ctff/run/data_uri.hpp>

#include "../common/worker_list.hpp"
#include "../ctff_run/plugins.hpp"

namespace {

constexpr const char* usage =
    "usage: ctff-worker [--port=N] [--host=ADDR] [--threads=T]\n"
    "                   [--max_concurrent_computation_calls=K] [--grpc_max_message_length_megabytes=M]\n"
    "                   [--tls_cert=PEM --tls_key=PEM [--tls_client_ca=PEM]] [--bind=PLUGIN.so]...\n"
    "                   [--workers=HOST:PORT,... [--aggregate_on_workers] [--deadline=MS] [--slice_deadline=MS]\n"
    "                    [--retries=N]] [--data=DIR]\n"
    "  --port=N          the port to listen on (default 0: a free one, printed on standard output)\n"
    "  --host=ADDR       the address to listen on (default 127.0.0.1: not reachable from other hosts)\n"
    "  --threads=T       threads for per-client work, per executor (default 0: the hardware's)\n"
    "  --max_concurrent_computation_calls=K  calls running at once (default -1: no limit)\n"
    "  --grpc_max_message_length_megabytes=M the largest request or reply (default 1024)\n"
    "  --tls_cert, --tls_key  serve TLS with this certificate and key (PEM files)\n"
    "  --tls_client_ca   accept only clients whose certificate this CA (PEM file) signed\n"
    "  --bind=PLUGIN.so  binds opaque computations to a plugin's functions (<ctff/run/plugin.hpp>)\n"
    "  --workers=HOST:PORT[,HOST:PORT...]  runs per-client work on these workers (a controller that\n"
    "                    TFF's clients and ctff's drive like any worker)\n"
    "  --aggregate_on_workers  with --workers: within each call, keeps the clients' results on\n"
    "                    those workers and aggregates them there (docs/distributed.md);\n"
    "                    also spelled --aggregate-on-workers, as ctff-run spells it\n"
    "  --deadline=MS     with --workers: how long a worker may take to answer a request (default\n"
    "                    600000)\n"
    "  --slice_deadline=MS  with --workers: how long one attempt at a slice may take (default 0:\n"
    "                    no bound but --deadline's)\n"
    "  --retries=N       with --workers: a slice whose worker dies, does not answer in time or\n"
    "                    restarts runs again on the next worker that answers, at most N times\n"
    "                    (default 3; the result does not change); a failed worker is asked again\n"
    "                    every 0.5 s and used again once it answers\n"
    "  --data=DIR        reads the clients' data that Data computations name by URI (FILE.npy,\n"
    "                    FILE.npz, FILE#ROW of a shard file) from DIR, so that controllers send\n"
    "                    URIs, not data (docs/distributed.md, \"Data on the workers\")\n"
    "Prints `ctff-worker: listening on HOST:PORT` once ready; stops on SIGINT or SIGTERM (calls\n"
    "still running then are cancelled after 1 s; the process exits within 5 s).\n"
    "Exit status: 0 stopped by a signal, 2 bad usage or a port it cannot listen on.\n";

struct usage_error {
  std::string what;
};

std::string read_file(const std::string& path, const char* flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error{std::string(flag) + ": cannot open " + path};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

long long number(const std::string& v, const char* flag, long long lo, long long hi) {
  std::size_t used = 0;
  long long x = 0;
  try {
    x = std::stoll(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty() || x < lo || x > hi)
    throw usage_error{std::string(flag) + ": `" + v + "` is not a number in [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "]"};
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  ctff::worker_options options;
  ctff::serve_options where;
  ctff::remote_options remote;
  std::vector<std::string> plugins;
  bool failover_flags = false;
  std::string data;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::cout << usage;
        return 0;
      }
      if (a == "--aggregate_on_workers" || a == "--aggregate-on-workers") {  // ctff-run's spelling too
        remote.aggregate_on_workers = true;
        continue;
      }
      std::string flag = a, val;
      if (const auto eq = a.find('='); eq != std::string::npos) {
        flag = a.substr(0, eq);
        val = a.substr(eq + 1);
      } else if (a.rfind("--", 0) == 0 && i + 1 < argc) {
        val = argv[++i];
      } else {
        throw usage_error{"`" + a + "`: expected --flag=value"};
      }
      if (flag == "--port") where.port = static_cast<int>(number(val, "--port", 0, 65535));
      else if (flag == "--host") where.host = val;
      else if (flag == "--threads") options.run.threads = static_cast<unsigned>(number(val, "--threads", 0, 4096));
      else if (flag == "--max_concurrent_computation_calls")
        options.max_concurrent_calls = static_cast<int>(number(val, flag.c_str(), -1, 1 << 20));
      else if (flag == "--grpc_max_message_length_megabytes")
        where.max_message_bytes = static_cast<std::size_t>(number(val, flag.c_str(), 1, 2047)) << 20;
      else if (flag == "--tls_cert") where.tls_cert = read_file(val, "--tls_cert");
      else if (flag == "--tls_key") where.tls_key = read_file(val, "--tls_key");
      else if (flag == "--tls_client_ca") where.tls_client_ca = read_file(val, "--tls_client_ca");
      else if (flag == "--bind") plugins.push_back(val);
      else if (flag == "--workers") remote.workers = ctff_tools::worker_list(val);
      else if (flag == "--deadline" || flag == "--slice_deadline" || flag == "--slice-deadline" || flag == "--retries") {
        failover_flags = true;
        if (flag == "--deadline") remote.deadline = std::chrono::milliseconds(number(val, "--deadline", 1, 604800000));
        else if (flag == "--retries") remote.retries = static_cast<std::size_t>(number(val, "--retries", 0, 1000));
        else remote.slice_deadline = std::chrono::milliseconds(number(val, "--slice_deadline", 0, 604800000));
      }
      else if (flag == "--data") data = val;
      else throw usage_error{"unknown flag " + flag};
    }
    if (remote.aggregate_on_workers && remote.workers.empty())
      throw usage_error{"--aggregate_on_workers needs --workers"};
    if (failover_flags && remote.workers.empty())
      throw usage_error{"--deadline, --slice_deadline and --retries need --workers"};
    // --data: Data computations are read here; a controller ships them on to its workers as they
    // came (only URIs travel) and reads them itself only for work it keeps.
    if (!data.empty()) {
      try {
        (remote.workers.empty() ? options.data : remote.data) = std::make_shared<const ctff::data_dir>(data);
      } catch (const ctff::data_error& e) {
        throw usage_error{std::string("--data: ") + e.what()};
      }
    }
    options.keep_data = !remote.workers.empty();
    if (!remote.workers.empty())
      options.make = [remote](const ctff::run_options& o) -> std::unique_ptr<ctff::executor> {
        return std::make_unique<ctff::remote_executor>(remote, o);
      };
    if (where.tls_cert.empty() != where.tls_key.empty()) throw usage_error{"--tls_cert and --tls_key go together"};
    if (!where.tls_client_ca.empty() && where.tls_cert.empty()) throw usage_error{"--tls_client_ca needs --tls_cert"};
    ctff_tools::plugin_bindings bindings;
    for (const std::string& p : plugins) ctff_tools::load_plugin(p, bindings);
    if (!bindings.by_key.empty())
      options.setup = [by_key = bindings.by_key](ctff::executor& e) {
        for (const auto& [key, fn] : by_key) e.bind(key, ctff_tools::named_binding(fn.first, fn.second));
      };
  } catch (const usage_error& e) {
    std::cerr << "ctff-worker: " << e.what << "\n" << usage;
    return 2;
  } catch (const ctff_tools::input_error& e) {
    std::cerr << "ctff-worker: " << e.message << "\n";
    return 2;
  }

  // Signals are waited for on a thread of their own, which then stops the server.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);

  std::unique_ptr<ctff::worker> w;
  try {
    w = ctff::serve(std::move(options), where);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  std::cout << "ctff-worker: listening on " << where.host << ":" << w->port() << std::endl;
  // A signal stops the server; calls still running a second later are cancelled, and a binding
  // that still has not returned 3 s after that does not keep the process alive.
  std::atomic<bool> done{false};
  std::thread stopper([&] {
    int sig = 0;
    sigwait(&stop, &sig);
    w->shutdown(std::chrono::seconds(1));
    for (int k = 0; k != 40 && !done; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!done) {
      std::cerr << "ctff-worker: calls still running after the signal; exiting\n";
      std::_Exit(0);
    }
  });
  // What the rounds freed goes back to the system every second (glibc keeps freed pages in its
  // arenas, one per thread that allocated): resident memory then follows what is held, flat over
  // many rounds (tools/flat_memory.py).
  std::thread trimmer([&] {
    while (!done) {
      for (int k = 0; k != 10 && !done; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      malloc_trim(0);
    }
  });
  w->wait();
  done = true;
  stopper.join();
  trimmer.join();
  return 0;
}
