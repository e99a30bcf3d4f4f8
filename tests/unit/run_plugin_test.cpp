// <ctff/run/plugin.hpp> without loading a library (tools/ctff_run's test loads real plugins):
// binding_registry binds typed and by key as executor::bind does and hands its bindings to an
// executor; plugin_mismatch accepts this build's plugin_info and names what differs in another.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ctff/ctff.hpp"
#include "ctff/run/plugin.hpp"

namespace {

using namespace ctff;
using i32 = std::int32_t;

constexpr auto triple = tensorflow_computation<function<i32, i32>>("", tf_tensor("x:0"), tf_tensor("y:0"));
constexpr auto tripled = computation<"tripled", at_clients<i32>>(
    [](auto x) { return federated_map(triple, x); });

TEST_CASE("plugin: binding_registry binds typed and by key, then on an executor", "[run]") {
  binding_registry registry;
  CHECK(registry.bindings().empty());
  registry.bind(triple, [](i32 x) { return 3 * x; });
  const std::string key(triple.compact());
  CHECK(registry.bound(key));
  CHECK(registry.bindings().size() == 1);
  executor ex({.clients = {}, .threads = 2});
  CHECK_FALSE(ex.bound(key));
  registry.bind_all(ex);
  CHECK(ex.bound(key));
  CHECK(ex.call<std::vector<i32>>(tripled, std::vector<i32>{1, -2, 5}) == std::vector<i32>{3, -6, 15});

  // By key, over dynamic values: replaces the typed one, as executor::bind does.
  registry.bind(key, [](const dynamic_value* arg) {
    return make_scalar<dtype::int32>(arg->tensor().get<dtype::int32>()[0] + 100);
  });
  CHECK(registry.bindings().size() == 1);
  executor other({.clients = {}, .threads = 1});
  registry.bind_all(other);
  CHECK(other.call<std::vector<i32>>(tripled, std::vector<i32>{1, 2}) == std::vector<i32>{101, 102});
}

TEST_CASE("plugin: plugin_mismatch names the ABI, the standard library or the sizes", "[run]") {
  const plugin_info& me = this_plugin_info();
  CHECK(me.abi_version == plugin_abi_version);
  CHECK(plugin_mismatch(me).empty());
  plugin_info other = me;
  other.abi_version = plugin_abi_version + 7;
  CHECK(plugin_mismatch(other) == "built for ctff plugin ABI " + std::to_string(plugin_abi_version + 7) +
                                      ", this one needs ABI " + std::to_string(plugin_abi_version));
  other = me;
  other.standard_library = "libc++ 1";
  CHECK(plugin_mismatch(other) == std::string("built with libc++ 1, this one with ") + me.standard_library);
  other.standard_library = nullptr;
  CHECK(plugin_mismatch(other) == std::string("built with (none), this one with ") + me.standard_library);
  other = me;
  other.sizes[0] += 8;  // a dynamic_value of another size
  CHECK(plugin_mismatch(other).find("built against other ctff headers") == 0);
}

}  // namespace
