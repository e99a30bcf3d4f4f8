// A test plugin built for another plugin ABI: ctff-run must refuse it before calling anything else.
#include <ctff/run/plugin.hpp>

extern "C" __attribute__((visibility("default"))) const ctff::plugin_info* ctff_plugin_info() {
  static const ctff::plugin_info info{ctff::plugin_abi_version + 1, "none", {0, 0, 0, 0}};
  return &info;
}
extern "C" __attribute__((visibility("default"))) void ctff_register_bindings(ctff::binding_registry&) {}
