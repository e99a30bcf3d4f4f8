// ctff-run: run a federated_language.Computation (binary or protobuf text format) on an argument
// given as JSON (reference/execution.md §5) or as numpy arrays (.npz, .npy: docs/running.md), and
// print the result as one line of JSON, or write it to a file (--output: .json, .npz, .npy).
//
//   ctff-run COMP [--clients N] [--threads T] [--progress] [--bind PLUGIN.so]... [--workers HOST:PORT,...]
//            [--deadline SECONDS] [--slice-deadline SECONDS] [--retries N] [--aggregate-on-workers]
//            [--data DIR] [--subrounds K] [--output FILE] [ARG.json | ARG.npz | ARG.npy | -]
//   ctff-run COMP --list-bindings [--bind PLUGIN.so]...
//
// --bind loads a plugin (ctff/run/plugin.hpp, plugins.hpp) that binds opaque computations (a
// TensorFlow block: every Python training round); --list-bindings prints the keys to bind.
// Exit status: 0 the result was printed; 1 the run failed (an execution error, a binding that
// threw: printed on stderr); 2 bad input: unreadable or invalid COMP, an argument that is not JSON
// or does not fit the parameter type (the message names the path in the value, e.g.
// `arg.model.bias[3]`), client counts that disagree, an argument for a computation without
// parameter or none for one with, a PLUGIN that is not a loadable plugin of this build, or bad
// usage.
#include <federated_language/proto/computation.pb.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <memory>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <ctff/read.hpp>
#include <ctff/run.hpp>
#include <ctff/numpy/npy.hpp>
#include <ctff/numpy/npz.hpp>
#include <ctff/run/array_read.hpp>
#include <ctff/run/array_write.hpp>
#include <ctff/run/binding_key.hpp>
#include <ctff/run/data_argument.hpp>
#include <ctff/run/data_reference.hpp>
#include <ctff/run/data_uri.hpp>
#include <ctff/run/json.hpp>
#include <ctff/run/signature.hpp>
#include <ctff/forms/subrounds.hpp>
#include <ctff/forms/to_mergeable_comp_form.hpp>
#if CTFF_RUN_REMOTE
#include <ctff/remote/remote_executor.hpp>
#endif

#include "../common/computation_file.hpp"
#include "../common/worker_list.hpp"
#include "plugins.hpp"

namespace {

constexpr const char* usage =
    "usage: ctff-run COMP [--clients N] [--threads T] [--progress] [--bind PLUGIN.so]... [--workers HOST:PORT,...]\n"
    "                [--deadline SECONDS] [--slice-deadline SECONDS] [--retries N] [--aggregate-on-workers]\n"
    "                [--data DIR] [--subrounds K] [--output FILE]\n"
    "                [--tap PATH]... [--taps FILE] [--tap-first K] [--tap-all] [ARG.json | ARG.npz | ARG.npy | -]\n"
    "       ctff-run COMP --list-bindings [--bind PLUGIN.so]...\n"
    "  COMP is a federated_language.Computation, binary (.binpb) or protobuf text format; ARG\n"
    "  is its argument as JSON (reference/execution.md section 5) or as numpy's .npz or .npy (each\n"
    "  tensor an array named by its path: arg.model.bias; known by its first bytes; - reads\n"
    "  standard input), given exactly when the computation has a parameter. Prints the result as\n"
    "  one line of JSON.\n"
    "  --output FILE    writes the result to FILE instead: .json (the line), .npz (its tensors\n"
    "                   named result, result.loss, ...) or .npy (a result of one tensor)\n"
    "  --clients N      the number of clients (default: the length of the argument's {T}@CLIENTS\n"
    "                   lists, else 0)\n"
    "  --threads T      threads for per-client work (default 0: the hardware's)\n"
    "  --progress       once the run has taken a second, prints on stderr how far per-client\n"
    "                   work is (each hundredth of the clients of each intrinsic), naming the\n"
    "                   call: its intrinsic, path, and which of the computation's per-client calls;\n"
    "                   with --workers, as the workers' answers come, naming the worker\n"
    "  --bind PLUGIN.so binds opaque (TensorFlow, XLA, Data) computations to the C++ functions of\n"
    "                   a plugin (<ctff/run/plugin.hpp>, CTFF_PLUGIN); may be repeated\n"
    "  --workers HOST:PORT[,HOST:PORT...]  runs the per-client work on these workers (ctff-worker\n"
    "                   or TFF's), ceil(N/K) clients each; unreachable ones are left out\n"
    "  --deadline SECONDS  with --workers: how long a worker may take to answer each request\n"
    "                   (default 600; a decimal number, e.g. 2.5), and at most how long to wait\n"
    "                   for the workers to be reached at the start (default 5)\n"
    "  --slice-deadline SECONDS  with --workers: how long one attempt at a slice of the clients may\n"
    "                   take, all its requests together (default: no bound but --deadline's)\n"
    "  --retries N      with --workers: a slice whose worker dies, does not answer in time or\n"
    "                   restarts runs again on the next worker that answers, at most N times\n"
    "                   (default 3; the result does not change); a worker that failed is asked\n"
    "                   again every 0.5 s and used again once it answers. The run fails, saying\n"
    "                   what was tried, only when no worker can run a slice\n"
    "  --aggregate-on-workers  with --workers: keeps the clients' results on the workers and\n"
    "                   aggregates them there, merging the workers' partial results in worker\n"
    "                   order (far fewer bytes; float sums regrouped, docs/distributed.md);\n"
    "                   also spelled --aggregate_on_workers, as ctff-worker and TFF spell it\n"
    "  --data DIR       reads the clients' data the JSON argument names by URI (a member\n"
    "                   {\"data\": \"URI\"}, or a whole {T}@CLIENTS value {\"data\": \"PATTERN\"}\n"
    "                   with {i} for each client's index: FILE.npy, FILE.npz, FILE#ROW of a shard\n"
    "                   file; docs/running.md) from DIR. With --workers, URIs go to the workers,\n"
    "                   which read them (ctff-worker --data), and DIR serves only what runs here;\n"
    "                   without --data, what runs here cannot read them\n"
    "  --subrounds K    runs the computation as its MergeableCompForm (ctff-split --mergeable) in\n"
    "                   subrounds of at most K clients, merged in order (sums exact; float sums\n"
    "                   regrouped per subround); with --clients N and clients' data given by a\n"
    "                   pattern ({\"data\": \"...{i}...\"}), each subround's references are made\n"
    "                   only when it runs: the controller's memory then follows K, not N\n"
    "  --tap PATH       prints on stderr what the building block at PATH (as ctff-inspect --paths\n"
    "                   lists them, or a Block local's name alone) computes while the computation\n"
    "                   runs: per client, at the server, on which worker; may be repeated. After\n"
    "                   the run, per path: the number of values, the first K (lowest client\n"
    "                   index first) and each numeric leaf's min, mean and max\n"
    "  --taps FILE      taps every path FILE lists, one per line (its first field: the output of\n"
    "                   ctff-inspect --paths, trimmed to the lines wanted, works as it is)\n"
    "  --tap-first K    the number of values shown per path (default 3)\n"
    "  --tap-all        prints every value as it comes instead (`tap PATH client I: VALUE`)\n"
    "  --list-bindings  prints the key, kind and type of each opaque computation of COMP, and the\n"
    "                   plugin that binds it, instead of running it\n"
    "Exit status: 0 ok, 1 execution error, 2 bad input or bad usage.\n";

using ctff_tools::binary_of;
using ctff_tools::input_error;
using ctff_tools::slurp;


// The paths a --taps file lists: the first field of each line (tab- or space-separated), blank
// lines and lines starting with # skipped.
std::vector<std::string> tap_file(const std::string& file) {
  std::istringstream in(slurp(file));
  std::vector<std::string> paths;
  for (std::string line; std::getline(in, line);) {
    const std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    const std::size_t e = line.find_first_of(" \t\r", b);
    paths.push_back(line.substr(b, e == std::string::npos ? std::string::npos : e - b));
  }
  if (paths.empty()) throw input_error{"--taps " + file + ": no paths in it"};
  return paths;
}

// A decimal option value in [0, max].
std::optional<std::uint64_t> number(std::string_view s, std::uint64_t max) {
  std::uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// ARG's bytes: the file mapped (no copy: a stored .npz member is read where it lies), or read
// (standard input, or where mapping fails).
class argument_bytes {
 public:
  explicit argument_bytes(const std::string& file) {
    if (file != "-") {
      const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
      struct stat st {};
      if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
          map_ = p;
          size_ = static_cast<std::size_t>(st.st_size);
        }
      }
      if (fd >= 0) ::close(fd);
    }
    if (!map_) read_ = slurp(file);
  }
  ~argument_bytes() {
    if (map_) ::munmap(map_, size_);
  }
  argument_bytes(const argument_bytes&) = delete;
  argument_bytes& operator=(const argument_bytes&) = delete;
  std::string_view view() const { return map_ ? std::string_view(static_cast<const char*>(map_), size_) : read_; }

 private:
  void* map_ = nullptr;
  std::size_t size_ = 0;
  std::string read_;
};

// Room on the heap for about `bytes` of values, backed by transparent huge pages where the
// kernel gives them on request (THP "madvise"), as glibc's tunable glibc.malloc.hugetlb=1 does:
// a value made from a 31 MB .npz is then a few dozen page faults instead of 8,000 (on a
// virtual machine, most of its reading time). The heap grows by `bytes` at once (M_TOP_PAD) and
// is not trimmed below it; elsewhere than glibc on Linux, nothing is done.
void heap_for(std::size_t bytes) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  if (bytes < (std::size_t{8} << 20)) return;
  bytes = std::min<std::size_t>(bytes, std::size_t{1} << 32);
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(std::min<std::size_t>(2 * bytes, 1u << 30)));
  mallopt(M_TOP_PAD, static_cast<int>(std::min<std::size_t>(bytes, 1u << 30)));
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // (a fixed threshold: mmap'd blocks are not on the heap)
  char* const before = static_cast<char*>(sbrk(0));
  void* const probe = std::malloc(64);  // makes the heap grow now, when its top is short
  char* const after = static_cast<char*>(sbrk(0));
  std::free(probe);
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  const std::uintptr_t from = (reinterpret_cast<std::uintptr_t>(before) + huge - 1) & ~(huge - 1);
  const std::uintptr_t to = reinterpret_cast<std::uintptr_t>(after) & ~(huge - 1);
  if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
  (void)bytes;
#endif
}

// The argument from ARG's bytes: numpy's .npy or .npz (by their magic), else JSON.
ctff::dynamic_value read_argument(const std::string& name, std::string_view bytes, const ctff::type_desc& types,
                                  std::uint32_t type, std::optional<std::size_t>& clients,
                                  const ctff::run_limits& limits) {
  const bool npy = bytes.substr(0, 6) == "\x93NUMPY";
  heap_for(npy || bytes.substr(0, 2) == "PK" ? bytes.size() : bytes.size() / 2);
  if (!npy && bytes.substr(0, 2) != "PK") {
    // Clients' data by URI ({"data": ...}: run/data_argument.hpp) is read from a parsed tree.
    if (bytes.find("\"data\"") == std::string_view::npos) return ctff::value_from_json_text(bytes, types, type, clients);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(bytes);
    } catch (const nlohmann::json::exception& e) {
      throw ctff::argument_error("arg", name + ": not JSON: " + e.what());
    }
    return ctff::value_from_json_with_data(j, types, type, clients);
  }
  ctff::npz_arrays arrays;
  try {
    if (npy) arrays.emplace("arg", ctff::read_npy(bytes));
    else arrays = ctff::read_npz(bytes, limits.max_value_bytes);
  } catch (const ctff::array_file_error& e) {
    throw ctff::argument_error("arg", name + ": " + e.what());
  }
  return ctff::value_from_arrays(arrays, types, type, clients, "arg", limits);
}

// Writes the result to FILE (.json, .npz or .npy).
void write_result(const std::string& file, const ctff::dynamic_value& result, const ctff::type_desc& types,
                  std::uint32_t type, std::size_t clients) {
  std::string bytes;
  if (ends_with(file, ".json")) {
    bytes = ctff::value_to_json(result, types, type, clients) + "\n";
  } else {
    auto arrays = ctff::value_to_arrays(result, types, type, clients, "result");
    if (ends_with(file, ".npz")) {
      bytes = ctff::write_npz(arrays);
    } else if (arrays.size() != 1) {
      throw input_error{"--output " + file + ": the result is " + std::to_string(arrays.size()) +
                        " arrays, not one: write it as .npz"};
    } else {
      bytes = ctff::write_npy(arrays.front().second);
    }
  }
  std::ofstream f(file, std::ios::binary | std::ios::trunc);
  if (!f || !f.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !f.flush())
    throw input_error{"--output: cannot write " + file};
}

// --list-bindings: each opaque computation once, in the order of the tree's nodes.
void print_bindings(const ctff::computation_tree& t, const ctff_tools::plugin_bindings& bindings) {
  for (const std::uint32_t i : ctff::opaque_nodes(t)) {
    const ctff::block_node& n = t.node(i);
    const std::string key = ctff::binding_key(t, i);
    const std::string* plugin = bindings.plugin_of(key);
    std::cout << key << " " << ctff::block_kind_name(n.kind) << " "
              << (n.type == ctff::no_index ? std::string("(no type)") : ctff::type_string(t.types, n.type))
              << (plugin ? " bound by " + *plugin : std::string(" unbound")) << "\n";
  }
}

int run(int argc, char** argv) {
  std::string comp, arg;
  bool have_comp = false, have_arg = false, list_bindings = false, aggregate_on_workers = false;
  std::vector<std::string> plugins;
  std::vector<std::string> workers;
  std::optional<double> deadline, slice_deadline;  // seconds
  std::optional<std::size_t> retries;
  std::shared_ptr<const ctff::data_dir> data;  // --data
  std::optional<std::size_t> subrounds;        // --subrounds K
  std::string output;
  bool progress = false, tap_all = false;
  std::size_t tap_first = 3;
  ctff::run_options options;
  // --tap, --taps, --tap-first: their value (`--tap=P` or `--tap P`); nullopt: not one of them.
  auto tap_option = [&](const std::string& a, int& k) -> std::optional<std::string> {
    for (std::string_view name : {"--tap-first", "--taps", "--tap"}) {
      if (a.rfind(name, 0) != 0) continue;
      if (a.size() > name.size() && a[name.size()] == '=') return a.substr(name.size() + 1);
      if (a.size() != name.size()) return std::nullopt;
      if (k + 1 >= argc) throw input_error{a + " needs a value"};
      return std::string(argv[++k]);
    }
    return std::nullopt;
  };
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    }
    if (a == "--list-bindings") {
      list_bindings = true;
      continue;
    }
    if (a == "--progress") {
      progress = true;
      continue;
    }
    if (a == "--aggregate-on-workers" || a == "--aggregate_on_workers") {  // ctff-worker's (TFF's) spelling too
      aggregate_on_workers = true;
      continue;
    }
    if (a == "--tap-all") {
      tap_all = true;
      continue;
    }
    if (std::optional<std::string> v = tap_option(a, k)) {
      if (a.rfind("--tap-first", 0) == 0) {
        const auto n = number(*v, 1000000);
        if (!n) {
          std::cerr << "ctff-run: --tap-first takes a number of values from 0 to 1000000, not `" << *v << "`\n";
          return 2;
        }
        tap_first = static_cast<std::size_t>(*n);
      } else if (a.rfind("--taps", 0) == 0) {
        for (std::string& p : tap_file(*v)) options.taps.push_back(std::move(p));
      } else {
        if (v->empty()) {
          std::cerr << "ctff-run: --tap needs a path\n";
          return 2;
        }
        options.taps.push_back(*v);
      }
      continue;
    }
    std::string opt, val;
    std::size_t len = 0;  // the flag's, when a takes a value
    for (std::string_view f : {"--clients", "--threads", "--bind", "--workers", "--deadline", "--output", "--retries",
                               "--slice-deadline", "--data", "--subrounds"})
      if (a.rfind(f, 0) == 0) len = f.size();
    if (len) {
      opt = a.substr(0, len);
      if (a.size() > len && a[len] == '=') {
        val = a.substr(len + 1);
      } else if (a.size() == len && k + 1 < argc) {
        val = argv[++k];
      } else if (a.size() != len) {
        opt.clear();  // e.g. --clientsX: unknown below
      } else {
        std::cerr << "ctff-run: " << a << " needs a value\n" << usage;
        return 2;
      }
    }
    if (opt == "--output") {
      if (!ends_with(val, ".json") && !ends_with(val, ".npz") && !ends_with(val, ".npy")) {
        std::cerr << "ctff-run: --output takes a file ending in .json, .npz or .npy, not `" << val << "`\n";
        return 2;
      }
      output = val;
    } else if (opt == "--workers") {
      workers = ctff_tools::worker_list(val);
    } else if (opt == "--data") {
      try {
        data = std::make_shared<const ctff::data_dir>(val);
      } catch (const ctff::data_error& e) {
        std::cerr << "ctff-run: --data: " << e.what() << "\n";
        return 2;
      }
    } else if (opt == "--deadline" || opt == "--slice-deadline") {
      double d = 0;
      const auto r = std::from_chars(val.data(), val.data() + val.size(), d, std::chars_format::fixed);
      if (val.empty() || r.ec != std::errc{} || r.ptr != val.data() + val.size() || !(d >= 0.001) ||
          !(d <= 86400 * 7)) {
        std::cerr << "ctff-run: " << opt << " takes a number of seconds from 0.001 to 604800, not `" << val << "`\n";
        return 2;
      }
      (opt == "--deadline" ? deadline : slice_deadline) = d;
    } else if (opt == "--subrounds") {
      const auto n = number(val, std::uint64_t{1} << 40);
      if (!n || *n == 0) {
        std::cerr << "ctff-run: --subrounds takes a number of clients of at least 1, not `" << val << "`\n";
        return 2;
      }
      subrounds = static_cast<std::size_t>(*n);
    } else if (opt == "--retries") {
      const auto n = number(val, 1000);
      if (!n) {
        std::cerr << "ctff-run: --retries takes a number from 0 to 1000, not `" << val << "`\n";
        return 2;
      }
      retries = static_cast<std::size_t>(*n);
    } else if (opt == "--bind") {
      if (val.empty()) {
        std::cerr << "ctff-run: --bind needs a plugin file\n";
        return 2;
      }
      plugins.push_back(val);
    } else if (opt == "--clients") {
      const auto n = number(val, options.limits.max_clients);
      if (!n) {
        std::cerr << "ctff-run: --clients takes a number of clients from 0 to " << options.limits.max_clients
                  << ", not `" << val << "`\n";
        return 2;
      }
      options.clients = static_cast<std::size_t>(*n);
    } else if (opt == "--threads") {
      const auto n = number(val, 4096);
      if (!n) {
        std::cerr << "ctff-run: --threads takes a number of threads from 0 (the hardware's) to 4096, not `" << val
                  << "`\n";
        return 2;
      }
      options.threads = static_cast<unsigned>(*n);
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << "ctff-run: unknown option " << a << "\n" << usage;
      return 2;
    } else if (!have_comp) {
      comp = a;
      have_comp = true;
    } else if (!have_arg) {
      arg = a;
      have_arg = true;
    } else {
      std::cerr << "ctff-run: one COMP and one ARG only\n" << usage;
      return 2;
    }
  }
  if (!have_comp || comp.empty()) {
    std::cerr << usage;
    return 2;
  }
  if (aggregate_on_workers && workers.empty()) {
    std::cerr << "ctff-run: --aggregate-on-workers aggregates on the workers: it needs --workers\n";
    return 2;
  }
  if ((deadline || slice_deadline || retries) && workers.empty()) {
    std::cerr << "ctff-run: --deadline, --slice-deadline and --retries are about workers: they need --workers\n";
    return 2;
  }
  if (have_arg && comp == "-" && arg == "-") {
    std::cerr << "ctff-run: COMP and ARG cannot both be standard input\n";
    return 2;
  }

  // The computation: readable, and valid.
  ctff::computation_tree t;
  try {
    t = ctff::read_computation(binary_of(comp, slurp(comp)));
  } catch (const ctff::read_error& e) {
    throw input_error{comp + ": " + e.what()};
  }
  if (const auto errors = ctff::check(t); !errors.empty()) {
    std::string m = comp + ": not a valid Computation:";
    for (const auto& e : errors) m += "\n  " + e.message();
    throw input_error{m};
  }
  const ctff::run_signature sig = ctff::signature_of(t);
  if (sig.result == ctff::no_index) throw input_error{comp + ": the Computation has no type"};
  ctff_tools::plugin_bindings bindings;
  for (const std::string& p : plugins) ctff_tools::load_plugin(p, bindings);
  if (list_bindings) {
    print_bindings(t, bindings);
    return 0;
  }
  const bool has_param = sig.parameter != ctff::no_index;

  // --subrounds K: the round as a MergeableCompForm (forms/to_mergeable_comp_form.hpp) run K
  // clients at a time (forms/subrounds.hpp).
  std::optional<ctff::mergeable_comp_form> mergeable;
  if (subrounds) {
    try {
      mergeable = ctff::to_mergeable_comp_form(t);
    } catch (const ctff::form_error& e) {
      throw input_error{"--subrounds: " + comp + " has no MergeableCompForm: " + e.what()};
    }
  }

  // The argument, read against the parameter type. With --subrounds and --clients N, one whose
  // clients' data is a URI pattern ({"data": "...{i}..."}) is made subround by subround: the
  // controller then holds K clients' references at a time, not N.
  std::optional<std::size_t> clients = options.clients;
  ctff::dynamic_value argument;
  if (has_param && !have_arg)
    throw ctff::argument_error("arg", "the computation takes an argument of type " +
                                          ctff::type_string(t.types, sig.parameter, 120) +
                                          "; give it as ARG.json (or - for standard input)");
  if (!has_param && have_arg) throw ctff::argument_error("arg", "the computation takes no argument");
  std::optional<nlohmann::json> per_subround;
  if (has_param) {
    const argument_bytes bytes(arg);
    if (subrounds && clients && bytes.view().find("{i}") != std::string_view::npos &&
        bytes.view().substr(0, 1) != "\x93" && bytes.view().substr(0, 2) != "PK") {
      try {
        per_subround = nlohmann::json::parse(bytes.view());
      } catch (const nlohmann::json::exception& e) {
        throw ctff::argument_error("arg", arg + ": not JSON: " + e.what());
      }
      std::optional<std::size_t> one = 1;  // (checked once, as the first client's)
      (void)ctff::value_from_json_with_data(*per_subround, t.types, sig.parameter, one);
    } else {
      argument = read_argument(arg, bytes.view(), t.types, sig.parameter, clients, options.limits);
    }
  }
  options.clients = clients;
  // Clients' data by URI: read here when nothing else will (no --workers), else by the workers.
  auto here = [&](ctff::dynamic_value v) {
    if (!workers.empty() || !ctff::detail::holds_data_reference(v)) return v;
    if (!data)
      throw ctff::argument_error("arg", "the argument names clients' data by URI ({\"data\": ...}): give --data DIR "
                                        "to read it here, or --workers whose ctff-worker --data has it");
    try {
      return ctff::resolved(v, *data, options.limits);
    } catch (const ctff::data_error& e) {
      throw ctff::argument_error("arg", e.what());
    }
  };
  if (!per_subround) argument = here(argument);
  // --progress: per-client work on stderr, once the run has taken a second.
  const auto started = std::chrono::steady_clock::now();
  if (progress)
    options.progress = [started](const ctff::run_progress& p) {
      if (std::chrono::steady_clock::now() - started < std::chrono::seconds(1)) return;
      std::cerr << "ctff-run: " << p.intrinsic << (p.path.empty() ? "" : " at ") << p.path << " (call " << p.call;
      if (p.call <= p.calls) std::cerr << " of " << p.calls;
      std::cerr << "): " << p.done << " of " << p.total << " clients";
      if (!p.worker.empty()) std::cerr << " (the last from worker " << p.worker << ")";
      std::cerr << "\n";
    };

  // --tap: the values as they come (--tap-all), or their summary after the run.
  ctff::tap_summary summary(tap_first);
  if (!options.taps.empty()) {
    if (tap_all)
      options.on_value = [](const ctff::tapped_value& v) {
        std::cerr << "tap " << v.path << " " << ctff::tap_origin(v) << ": " << ctff::to_string(v.value) << "\n";
      };
    else
      options.on_value = std::ref(summary);
  }
  struct print_summary {  // also when the run fails: what the taps saw until then
    const ctff::tap_summary& s;
    bool on;
    ~print_summary() {
      if (on) std::cerr << s.text();
    }
  } print_taps{summary, !options.taps.empty() && !tap_all};

  std::unique_ptr<ctff::executor> ex;
  if (workers.empty()) {
    ex = std::make_unique<ctff::executor>(options);
  } else {
#if CTFF_RUN_REMOTE
    ctff::remote_options remote{.workers = workers, .aggregate_on_workers = aggregate_on_workers, .data = data};
    if (deadline) {
      remote.deadline = std::chrono::milliseconds(static_cast<std::int64_t>(*deadline * 1000 + 0.5));
      remote.connect = std::min(remote.connect, remote.deadline);
    }
    if (slice_deadline) remote.slice_deadline = std::chrono::milliseconds(static_cast<std::int64_t>(*slice_deadline * 1000 + 0.5));
    if (retries) remote.retries = *retries;
    auto r = std::make_unique<ctff::remote_executor>(remote, options);
    for (const std::string& w : r->left_out()) std::cerr << "ctff-run: worker " << w << " is not reachable; left out\n";
    ex = std::move(r);
#else
    throw input_error{"--workers: this ctff-run was built without gRPC (ctff::remote)"};
#endif
  }
  for (const auto& [key, bound] : bindings.by_key) ex->bind(key, bound.first);
  ctff::dynamic_value result;
  if (!mergeable) {
    result = ex->run(t, argument);
  } else if (per_subround) {
    result = ctff::run_in_subrounds(*ex, *mergeable, clients, [&](const ctff::subround& s) {
      std::optional<std::size_t> count = s.count;
      return here(ctff::value_from_json_with_data(*per_subround, t.types, sig.parameter, count, "arg", s.first));
    }, *subrounds);
  } else {
    result = ctff::run_in_subrounds(*ex, *mergeable, argument, *subrounds);
  }
  if (!output.empty()) write_result(output, result, t.types, sig.result, clients.value_or(0));
  else std::cout << ctff::value_to_json(result, t.types, sig.result, clients.value_or(0)) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const input_error& e) {
    std::cerr << "ctff-run: " << e.message << "\n";
  } catch (const ctff::argument_error& e) {
    std::cerr << e.what() << "\n";
  } catch (const ctff::execution_error& e) {
    std::cerr << e.what() << "\n";
    if (std::string_view(e.what()).find("has no binding (executor::bind)") != std::string_view::npos)
      std::cerr << "ctff-run: bind it with --bind PLUGIN.so (<ctff/run/plugin.hpp>); COMP --list-bindings lists "
                   "the keys\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "ctff-run: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ctff-run: " << e.what() << "\n";
    return 1;
  }
  return 2;
}
