// Running any Computation: ctff::executor evaluates a computation_tree (reference/execution.md)
// with N clients on T threads, opaque computations bound to C++ callables.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ctff/core/diagnostic.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/run/argument.hpp"
#include "ctff/run/call.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/context.hpp"
#include "ctff/run/convert.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/evaluate.hpp"
#include "ctff/run/mismatch.hpp"
#include "ctff/run/natural.hpp"
#include "ctff/run/signature.hpp"
#include "ctff/run/typed.hpp"
#include "ctff/run/typed_binding.hpp"
#include "ctff/run/value.hpp"

namespace ctff {
namespace detail {

// The arguments of a typed call as one value of the parameter type P: none, the one argument,
// or several packed into P's struct.
template <class P, class... A>
consteval bool packs_arguments() {
  if constexpr (std::is_void_v<P>) {
    return sizeof...(A) == 0;
  } else if constexpr (sizeof...(A) == 1 && (converts_v<P, A> && ...)) {
    return true;
  } else if constexpr (detail::is_struct_v<P>) {
    if constexpr (struct_parts<P>::size != sizeof...(A) || sizeof...(A) < 2) {
      return false;
    } else {
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (converts_v<typename struct_parts<P>::template type<I>,
                           std::tuple_element_t<I, std::tuple<A...>>> && ...);
      }(std::index_sequence_for<A...>{});
    }
  } else {
    return false;
  }
}
template <class P, class... A>
dynamic_value pack_arguments(const A&... args) {
  if constexpr (std::is_void_v<P>) {
    return {};
  } else if constexpr (sizeof...(A) == 1 && (converts_v<P, A> && ...)) {
    return ctff::to_value<P>(args...);
  } else {
    using S = struct_parts<P>;
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      std::vector<dynamic_value> e{to_value<typename S::template type<I>>(
          args, S::names[I].empty() ? "arg[" + std::to_string(I) + "]"
                                    : "arg." + std::string(S::names[I]))...};
      std::vector<std::string> names;
      if (((!S::names[I].empty()) || ...)) names = {std::string(S::names[I])...};
      return make_struct_value(std::move(e), std::move(names));
    }(std::index_sequence_for<A...>{});
  }
}
}  // namespace detail

struct run_options {
  // Every member has a default initializer: `{.threads = 2}` leaves the others as they are, with
  // no -Wextra warning (missing-field-initializers).
  std::optional<std::size_t> clients{};  // N; unset: inferred from the argument, else 0
  unsigned threads = 0;                  // 0: std::thread::hardware_concurrency()
  run_limits limits{};
  // Called as per-client work advances (every hundredth of the clients of each intrinsic that
  // runs per client), from the run's threads, one call at a time; empty: not called.
  progress_callback progress{};
  // Taps (run/tap.hpp): each value the building blocks at these paths of the computation run
  // take is given to on_value, with its place and client. A path where the computation has no
  // building block is an argument_error. Empty, or on_value empty: no taps.
  std::vector<std::string> taps{};
  value_callback on_value{};
};
// The name the taps' documentation uses.
using executor_options = run_options;

class executor {
 public:
  explicit executor(run_options options = {})
      : options_(options),
        pool_(std::make_unique<detail::thread_pool>(
            options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency()))) {}
  // Virtual: executors derived from this one (ctff::remote_executor) are owned and destroyed
  // through a std::unique_ptr<executor> (worker_options::make, ctff-run --workers).
  virtual ~executor() = default;

  const run_options& options() const { return options_; }
  unsigned threads() const { return pool_->size(); }

  // Binds the opaque computation printed as `key` (`comp#<adler32>`; Data: its decimal checksum).
  void bind(std::string key, opaque_binding fn) { bindings_[std::move(key)] = std::move(fn); }
  bool bound(std::string_view key) const { return bindings_.find(key) != bindings_.end(); }

  // Offers the per-client intrinsics of later runs to a client_backend (null:
  // everything runs here).
  void set_client_backend(std::shared_ptr<client_backend> b) { backend_ = std::move(b); }

  // Binds an opaque computation made with ctff (tensorflow_computation, xla_computation, data) to
  // a C++ callable taking and returning what its parameter and result types convert to (see
  // ctff/run/convert.hpp; dynamic_value for either works too). Bindings run on the workers: they
  // must be safe to call from several threads at once.
  template <detail::typed_opaque O, class Fn>
  void bind(const O& opaque, Fn fn) {
    bind(std::string(opaque.compact()), detail::typed_binding<typename O::type>(std::move(fn)));
  }

  // Calls a ctff computation (traced, imported with from_proto, or opaque and bound) with C++
  // arguments: none, one of the parameter type, or one per element of a struct parameter; the
  // result converted to R (dynamic_value: as it is). Both checked at compile time against the
  // computation's type. Its tree is read once from its bytes and kept.
  template <class R = dynamic_value, class C, class... A>
  R call(const C& comp, const A&... args) {
    using T = typename C::type;
    if constexpr (detail::has_poison_v<T>) {
      // The computation failed a check where it was defined, which said so: nothing more here.
      throw argument_error("arg", "unreachable");
    } else if constexpr (!detail::is_function_v<T>) {
      static_assert(detail::is_function_v<T>, "ctff: call: not a computation of a function type");
      throw argument_error("arg", "unreachable");  // rejected: one diagnostic, no follow-on
    } else {
      using P = typename detail::function_parts<T>::param;
      using Rt = typename detail::function_parts<T>::result;
      // A rejected call names the first argument, element or member that does not convert
      // (run/mismatch.hpp); one diagnostic, not one more per use of the arguments or result.
      if constexpr (!detail::packs_arguments<P, A...>()) {
        CTFF_DIAGNOSE(detail::diagnostic_for<detail::arguments_mismatch_t<P, A...>>::shown,
                      "ctff: call: the arguments do not convert to the computation's parameter type");
        throw argument_error("arg", "unreachable");
      } else if constexpr (!converts_v<Rt, R>) {
        CTFF_DIAGNOSE(detail::diagnostic_for<detail::mismatch_t<"result", Rt, std::remove_cvref_t<R>>>::shown,
                      "ctff: call: the result type does not convert to the requested C++ type");
        throw argument_error("arg", "unreachable");
      } else {
        const dynamic_value arg = detail::pack_arguments<P>(args...);
        return from_value<R, Rt>(run_program(program_of(comp), arg));
      }
    }
  }

  // Runs t with the argument (null: none). Throws argument_error when the argument does not fit
  // t's parameter, execution_error when the run fails. The result's function values, if any, keep
  // a copy of t alive.
  dynamic_value run(const computation_tree& t, const dynamic_value& arg = {}) {
    return run(std::make_shared<const computation_tree>(t), arg);
  }
  dynamic_value run(std::shared_ptr<const computation_tree> t, const dynamic_value& arg = {}) {
    return run_program(detail::prepare(std::move(t)), arg);
  }
  // As run, with N = `clients` for this run whatever run_options::clients says (the argument's
  // client lists must have N members): for a computation whose argument holds no client values
  // but that places values at the clients, as a deployment's server parts do (forms/simulate.hpp).
  dynamic_value run(const computation_tree& t, const dynamic_value& arg, std::size_t clients) {
    return run(std::make_shared<const computation_tree>(t), arg, clients);
  }
  dynamic_value run(std::shared_ptr<const computation_tree> t, const dynamic_value& arg, std::size_t clients) {
    return run_program(detail::prepare(std::move(t)), arg, clients);
  }

  // The value of a computation, not called: a function value for a lambda, an intrinsic or a
  // bound opaque computation (keeping t alive), else what the computation evaluates to. With
  // apply(), a computation's pieces held and called one at a time, as a remote worker does; N is
  // run_options::clients (unset: 0).
  dynamic_value evaluate(std::shared_ptr<const computation_tree> t) {
    require_root(*t);
    const auto prog = detail::prepare(std::move(t));
    return in_context(options_.clients.value_or(0), [&](run_context& c) {
      return detail::with_members(detail::evaluator{prog, c}.eval(prog->tree().root, {}));
    });
  }
  // Calls a function value with arg (null: none), with the taps of `taps` (null: none; not
  // run_options::taps, which name paths of a computation run).
  dynamic_value apply(const dynamic_value& fn, const dynamic_value& arg = {}, const tap_plan* taps = nullptr) {
    return detail::with_members(apply_held(fn, arg, taps));
  }
  // apply, the result as the run left it: clients' tensors may be one column (run/client_column.hpp),
  // which this executor's calls read as they are; for a caller that holds it to call with (a worker).
  dynamic_value apply_held(const dynamic_value& fn, const dynamic_value& arg = {}, const tap_plan* taps = nullptr) {
    if (!fn.is(value_kind::function)) throw argument_error("", "a call of a value that is not a function");
    return in_context(options_.clients.value_or(0), taps,
                      [&](run_context& c) { return detail::call(fn, arg ? &arg : nullptr, c); });
  }

 private:
  // A tree without a root (a default Computation) is no program.
  static void require_root(const computation_tree& t) {
    if (t.root == no_index || t.root >= t.nodes.size()) throw argument_error("", "the Computation is empty");
  }

  dynamic_value run_program(const std::shared_ptr<const detail::program>& prog, const dynamic_value& arg,
                            std::optional<std::size_t> given_clients = std::nullopt) {
    const computation_tree& t = prog->tree();
    require_root(t);
    const run_signature sig = signature_of(t);
    const bool has_param = sig.parameter != no_index;
    std::optional<std::size_t> clients = given_clients ? given_clients : options_.clients;
    dynamic_value a = arg;
    if (has_param && !arg) throw argument_error("arg", "the computation takes an argument; none given");
    if (!has_param && arg) throw argument_error("arg", "the computation takes no argument");
    if (has_param) a = detail::check_argument(arg, detail::typed{&t.types, sig.parameter}, "arg", clients);
    const std::size_t n = clients.value_or(0);
    if (n > options_.limits.max_clients)
      throw argument_error("clients", std::to_string(n) + " clients exceed run_limits::max_clients (" +
                                          std::to_string(options_.limits.max_clients) + ")");
    std::optional<tap_plan> taps;
    if (!options_.taps.empty() && options_.on_value) {
      taps.emplace(options_.on_value);
      taps->add(prog->shared_tree(), options_.taps);
    }
    return in_context(n, taps ? &*taps : nullptr, [&](run_context& c) {
      const detail::evaluator e{prog, c};
      dynamic_value f = e.eval(t.root, {});
      if (!sig.called) return detail::with_members(f);
      dynamic_value r = detail::call(f, has_param ? &a : nullptr, c);
      return detail::with_members(detail::conform(r, detail::typed{&t.types, sig.result}, n));  // (results have members)
    });
  }

  // f(context) in a fresh run context of n clients (this thread charging its budget), a fault of
  // the run turned into an execution_error.
  template <class F>
  dynamic_value in_context(std::size_t n, F f) {
    return in_context(n, nullptr, f);
  }
  template <class F>
  dynamic_value in_context(std::size_t n, const tap_plan* taps, F f) {
    run_context c(n, options_.limits, *pool_, bindings_, backend_.get(), &options_.progress);
    c.set_taps(taps);
    detail::byte_budget*& budget = detail::byte_budget::current();
    detail::byte_budget* was = budget;
    budget = &c.budget();
    struct restore {
      detail::byte_budget*& b;
      detail::byte_budget* was;
      ~restore() { b = was; }
    } restore_budget{budget, was};
    try {
      dynamic_value r = f(c);
      // A result leaves the run with its members here (a backend may hold them elsewhere).
      if (backend_ && detail::holds_elsewhere(r)) r = detail::fetched(r);
      return r;
    } catch (const detail::run_fault& fault) {
      detail::throw_at(fault, "");
    } catch (const std::bad_alloc&) {
      throw execution_error("", "out of memory");
    }
  }

  // A computation's tree, read from its bytes once per executor (static computations: once).
  template <class C>
  std::shared_ptr<const detail::program> program_of(const C& comp) {
    if constexpr (requires { { C::bytes() } -> std::same_as<byte_view>; }) {
      static const auto p =
          detail::prepare(std::make_shared<const computation_tree>(read_computation(C::bytes())));
      return p;
    } else {
      const auto b = comp.bytes();
      const std::string_view bytes(reinterpret_cast<const char*>(b.data()), b.size());
      std::lock_guard lock(cache_mutex_);
      auto& slot = cache_[bytes.data()];
      if (!slot.prog || slot.bytes != bytes)
        slot = cached{std::string(bytes),
                      detail::prepare(std::make_shared<const computation_tree>(read_computation(bytes)))};
      return slot.prog;
    }
  }

  struct cached {
    std::string bytes;
    std::shared_ptr<const detail::program> prog;
  };
  run_options options_;
  std::unique_ptr<detail::thread_pool> pool_;
  std::mutex cache_mutex_;
  std::map<const void*, cached> cache_;
  std::map<std::string, opaque_binding, std::less<>> bindings_;
  std::shared_ptr<client_backend> backend_;
};

// Calls a ctff computation once with default options (N inferred from the arguments, the
// hardware's threads): executor::call on a fresh executor.
template <class R = dynamic_value, class C, class... A>
R run(const C& comp, const A&... args) {
  executor e;
  return e.template call<R>(comp, args...);
}

}  // namespace ctff
