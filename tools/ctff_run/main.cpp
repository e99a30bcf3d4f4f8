// ctff-run: run a federated_language.Computation (binary or protobuf text format) on an argument
// given as JSON, and print the result as one line of JSON (reference/execution.md §5).
//
//   ctff-run COMP [--clients N] [--threads T] [ARG.json | -]
//
// Exit status: 0 the result was printed; 1 the run failed (an execution error, printed on
// stderr); 2 bad input: unreadable or invalid COMP, an argument that is not JSON or does not fit
// the parameter type (the message names the path in the value, e.g. `arg.model.bias[3]`), client
// counts that disagree, an argument for a computation without parameter or none for one with, or
// bad usage.
#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include <ctff/read.hpp>
#include <ctff/run.hpp>
#include <ctff/run/json.hpp>

#include "../common/computation_file.hpp"

namespace {

constexpr const char* usage =
    "usage: ctff-run COMP [--clients N] [--threads T] [ARG.json | -]\n"
    "  COMP is a federated_language.Computation, binary (.binpb) or protobuf text format; ARG.json\n"
    "  is its argument as JSON (reference/execution.md section 5; - reads standard input), given\n"
    "  exactly when the computation has a parameter. Prints the result as one line of JSON.\n"
    "  --clients N   the number of clients (default: the length of the argument's {T}@CLIENTS\n"
    "                lists, else 0)\n"
    "  --threads T   threads for per-client work (default 0: the hardware's)\n"
    "Exit status: 0 ok, 1 execution error, 2 bad input or bad usage.\n";

using ctff_tools::binary_of;
using ctff_tools::input_error;
using ctff_tools::slurp;


// A decimal option value in [0, max].
std::optional<std::uint64_t> number(std::string_view s, std::uint64_t max) {
  std::uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

int run(int argc, char** argv) {
  std::string comp, arg;
  bool have_comp = false, have_arg = false;
  ctff::run_options options;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    }
    std::string opt, val;
    if (a.rfind("--clients", 0) == 0 || a.rfind("--threads", 0) == 0) {
      opt = a.substr(0, 9);
      if (a.size() > 9 && a[9] == '=') {
        val = a.substr(10);
      } else if (a.size() == 9 && k + 1 < argc) {
        val = argv[++k];
      } else if (a.size() != 9) {
        opt.clear();  // e.g. --clientsX: unknown below
      } else {
        std::cerr << "ctff-run: " << a << " needs a value\n" << usage;
        return 2;
      }
    }
    if (opt == "--clients") {
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
  const std::uint32_t root_type = t.node(t.root).type;
  if (root_type == ctff::no_index) throw input_error{comp + ": the Computation has no type"};
  const ctff::type_node& rt = t.types.node(root_type);
  const bool is_function = rt.kind == ctff::type_kind::function;
  const bool has_param = is_function && rt.has_param;
  const std::uint32_t result_type = is_function ? t.types.kid(root_type, rt.kid_count - 1) : root_type;

  // The argument, read against the parameter type.
  std::optional<std::size_t> clients = options.clients;
  ctff::dynamic_value argument;
  if (has_param && !have_arg)
    throw ctff::argument_error("arg", "the computation takes an argument of type " +
                                          ctff::detail::message_type_text(t.types, t.types.kid(root_type, 0)) +
                                          "; give it as ARG.json (or - for standard input)");
  if (!has_param && have_arg) throw ctff::argument_error("arg", "the computation takes no argument");
  if (has_param) {
    const nlohmann::json j = ctff::parse_json(slurp(arg));
    argument = ctff::value_from_json(j, t.types, t.types.kid(root_type, 0), clients);
  }
  options.clients = clients;

  ctff::executor ex(options);
  const ctff::dynamic_value result = ex.run(t, argument);
  std::cout << ctff::value_to_json(result, t.types, result_type, clients.value_or(0)) << "\n";
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
