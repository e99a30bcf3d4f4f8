// libFuzzer target over the executor (ctff/run.hpp): every Computation the reader accepts and the
// checker passes is run on 0-3 clients (the first input byte), its argument the zero of its
// parameter type, every opaque computation bound to a function returning the zero of its result
// type, under tight run_limits. Besides "no crash, no leak, no undefined behaviour, no unbounded
// memory or time", the only exceptions allowed are ctff::execution_error and ctff::argument_error
// (an internal fault or std::bad_alloc escaping is a bug: abort).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>

#include <ctff/read.hpp>
#include <ctff/run.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t clients = data[0] % 4;
  ctff::read_limits read_limits;
  read_limits.max_depth = 200;
  ctff::computation_tree t;
  try {
    t = ctff::read_computation(ctff::byte_view(data + 1, size - 1), read_limits);
  } catch (const ctff::read_error&) {
    return 0;
  }
  if (!ctff::check(t, 1).empty() || t.root == ctff::no_index) return 0;

  ctff::run_options options;
  options.clients = clients;
  options.threads = data[0] & 0x80 ? 2 : 1;
  options.limits.max_depth = 64;
  options.limits.max_steps = 20000;
  options.limits.max_value_bytes = 4u << 20;
  options.limits.max_clients = 8;
  ctff::executor ex(options);

  // Zeros for the argument and for every opaque computation's result, where the type has them.
  using ctff::detail::typed;
  for (const std::uint32_t i : ctff::opaque_nodes(t)) {
    const ctff::block_node& n = t.node(i);
    if (n.type == ctff::no_index) continue;
    const typed type{&t.types, n.type};
    const bool fn = t.types.node(n.type).kind == ctff::type_kind::function;
    const typed result = fn ? type.result() : type;
    ex.bind(ctff::binding_key(t, i), [result, clients](const ctff::dynamic_value*) {
      return ctff::detail::zero_of(result, clients);
    });
  }
  ctff::dynamic_value arg;
  if (const ctff::run_signature sig = ctff::signature_of(t); sig.parameter != ctff::no_index) {
    try {
      arg = ctff::detail::zero_of(typed{&t.types, sig.parameter}, clients);
    } catch (const ctff::detail::run_fault&) {
      return 0;  // no zero for this parameter type (unknown dimensions, functions, ...)
    }
  }
  try {
    (void)ex.run(t, arg);
  } catch (const ctff::execution_error&) {
  } catch (const ctff::argument_error&) {
  } catch (...) {
    std::abort();
  }
  return 0;
}
