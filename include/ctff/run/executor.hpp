// Running any Computation: ctff::executor evaluates a computation_tree (reference/execution.md)
// with N clients on T threads, opaque computations bound to C++ callables.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "ctff/read/tree.hpp"
#include "ctff/run/argument.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/evaluate.hpp"
#include "ctff/run/value.hpp"

namespace ctff {

struct run_options {
  std::optional<std::size_t> clients;  // N; unset: inferred from the argument, else 0
  unsigned threads = 0;                // 0: std::thread::hardware_concurrency()
  run_limits limits{};
};

class executor {
 public:
  explicit executor(run_options options = {})
      : options_(options),
        pool_(std::make_unique<detail::thread_pool>(
            options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency()))) {}

  const run_options& options() const { return options_; }
  unsigned threads() const { return pool_->size(); }

  // Binds the opaque computation printed as `key` (`comp#<adler32>`; Data: its decimal checksum).
  void bind(std::string key, opaque_binding fn) { bindings_[std::move(key)] = std::move(fn); }
  bool bound(std::string_view key) const { return bindings_.find(key) != bindings_.end(); }

  // Runs t with the argument (null: none). Throws argument_error when the argument does not fit
  // t's parameter, execution_error when the run fails. The result's function values, if any, keep
  // a copy of t alive.
  value run(const computation_tree& t, const value& arg = {}) {
    return run(std::make_shared<const computation_tree>(t), arg);
  }
  value run(std::shared_ptr<const computation_tree> t, const value& arg = {}) {
    return run_program(std::make_shared<const detail::program>(std::move(t)), arg);
  }

 private:
  value run_program(const std::shared_ptr<const detail::program>& prog, const value& arg) {
    const computation_tree& t = prog->tree();
    if (t.root == no_index || t.root >= t.nodes.size()) throw argument_error("", "the Computation is empty");
    const block_node& root = t.node(t.root);
    const bool is_function = root.type != no_index && t.types.node(root.type).kind == type_kind::function;
    const bool has_param = is_function && t.types.node(root.type).has_param;
    std::optional<std::size_t> clients = options_.clients;
    value a = arg;
    if (has_param && !arg) throw argument_error("arg", "the computation takes an argument; none given");
    if (!has_param && arg) throw argument_error("arg", "the computation takes no argument");
    const detail::typed fn{&t.types, root.type};
    if (has_param) a = detail::check_argument(arg, fn.param(), "arg", clients);
    const std::size_t n = clients.value_or(0);
    if (n > options_.limits.max_clients)
      throw argument_error("clients", std::to_string(n) + " clients exceed run_limits::max_clients (" +
                                          std::to_string(options_.limits.max_clients) + ")");
    run_context c(n, options_.limits, *pool_, bindings_);
    detail::byte_budget*& budget = detail::byte_budget::current();
    detail::byte_budget* was = budget;
    budget = &c.budget();
    struct restore {
      detail::byte_budget*& b;
      detail::byte_budget* was;
      ~restore() { b = was; }
    } restore_budget{budget, was};
    try {
      const detail::evaluator e{prog, c};
      value f = e.eval(t.root, {});
      if (!is_function) return f;
      value r = detail::call(f, has_param ? &a : nullptr, c);
      return detail::conform(r, fn.result(), n);
    } catch (const detail::run_fault& f) {
      throw execution_error("", f.what());
    } catch (const std::bad_alloc&) {
      throw execution_error("", "out of memory");
    }
  }

  run_options options_;
  std::unique_ptr<detail::thread_pool> pool_;
  std::map<std::string, opaque_binding, std::less<>> bindings_;
};

}  // namespace ctff
