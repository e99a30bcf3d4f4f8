// Plugins of ctff-run: a shared library built against ctff's headers that binds opaque
// computations, loaded by `ctff-run --bind PLUGIN.so` (docs/running.md, "Plugins"). Its one entry
// point is written with CTFF_PLUGIN:
//
//   CTFF_PLUGIN(registry) {
//     registry.bind(client_eval, evaluate);     // a ctff opaque computation, with a typed callable
//     registry.bind("comp#48c066fe", fn);       // any one by its key, over dynamic values
//   }
//
// The bindings are C++ objects (std::function, dynamic_value) handed across the library's
// boundary, so the plugin and its loader must be built against the same ctff headers with the
// same standard library; the loader compares ctff_plugin_info() with its own (plugin_mismatch)
// before it calls anything else, and refuses a plugin that differs instead of crashing in it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "ctff/run/context.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/value.hpp"

// Raise it whenever what crosses the boundary changes (binding_registry, opaque_binding,
// dynamic_value and what it holds) in a way the sizes in plugin_info do not show.
#define CTFF_PLUGIN_ABI_VERSION 1

#define CTFF_DETAIL_PLUGIN_STR2(x) #x
#define CTFF_DETAIL_PLUGIN_STR(x) CTFF_DETAIL_PLUGIN_STR2(x)
#if defined(_LIBCPP_VERSION)
#define CTFF_DETAIL_PLUGIN_STDLIB "libc++ " CTFF_DETAIL_PLUGIN_STR(_LIBCPP_VERSION)
#elif defined(__GLIBCXX__)
#define CTFF_DETAIL_PLUGIN_STDLIB \
  "libstdc++ " CTFF_DETAIL_PLUGIN_STR(_GLIBCXX_RELEASE) " (cxx11 abi " CTFF_DETAIL_PLUGIN_STR(_GLIBCXX_USE_CXX11_ABI) ")"
#else
#define CTFF_DETAIL_PLUGIN_STDLIB "an unknown standard library"
#endif

namespace ctff {

inline constexpr std::uint32_t plugin_abi_version = CTFF_PLUGIN_ABI_VERSION;

// The bindings a plugin registers; its loader binds them on an executor (bind_all).
class binding_registry {
 public:
  // By key (`comp#<adler32>`; Data: its decimal checksum), as executor::bind.
  void bind(std::string key, opaque_binding fn) { bindings_[std::move(key)] = std::move(fn); }

  // A ctff opaque computation with a typed callable, checked at compile time as executor::bind.
  template <detail::typed_opaque O, class Fn>
  void bind(const O& opaque, Fn fn) {
    bind(std::string(opaque.compact()), detail::typed_binding<typename O::type>(std::move(fn)));
  }

  bool bound(std::string_view key) const { return bindings_.find(key) != bindings_.end(); }
  const std::map<std::string, opaque_binding, std::less<>>& bindings() const { return bindings_; }
  void bind_all(executor& ex) const {
    for (const auto& [key, fn] : bindings_) ex.bind(key, fn);
  }

 private:
  std::map<std::string, opaque_binding, std::less<>> bindings_;
};

// What a plugin was built with: ctff_plugin_info() returns it. abi_version comes first in every
// version, so that a loader reads it before trusting the rest.
struct plugin_info {
  std::uint32_t abi_version;
  const char* standard_library;
  std::uint32_t sizes[4];  // dynamic_value, opaque_binding, binding_registry, std::string
};

// This build's plugin_info.
inline const plugin_info& this_plugin_info() {
  static constexpr plugin_info info{plugin_abi_version,
                                    CTFF_DETAIL_PLUGIN_STDLIB,
                                    {sizeof(dynamic_value), sizeof(opaque_binding), sizeof(binding_registry),
                                     sizeof(std::string)}};
  return info;
}

// Empty when a plugin built with `p` can be loaded by this build; else why not.
inline std::string plugin_mismatch(const plugin_info& p) {
  const plugin_info& me = this_plugin_info();
  if (p.abi_version != me.abi_version)
    return "built for ctff plugin ABI " + std::to_string(p.abi_version) + ", this one needs ABI " +
           std::to_string(me.abi_version);
  if (!p.standard_library || std::string_view(p.standard_library) != me.standard_library)
    return "built with " + std::string(p.standard_library ? p.standard_library : "(none)") +
           ", this one with " + me.standard_library;
  for (int k = 0; k != 4; ++k)
    if (p.sizes[k] != me.sizes[k])
      return "built against other ctff headers (the size of dynamic_value, opaque_binding, binding_registry "
             "or std::string differs)";
  return {};
}

}  // namespace ctff

#if defined(__GNUC__)
#define CTFF_DETAIL_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define CTFF_DETAIL_PLUGIN_EXPORT
#endif

// Defines a plugin's entry points: ctff_plugin_info() and ctff_register_bindings(registry), whose
// body follows the macro. Exported even under -fvisibility=hidden.
#define CTFF_PLUGIN(registry)                                                                       \
  extern "C" CTFF_DETAIL_PLUGIN_EXPORT const ::ctff::plugin_info* ctff_plugin_info() {            \
    return &::ctff::this_plugin_info();                                                            \
  }                                                                                                 \
  extern "C" CTFF_DETAIL_PLUGIN_EXPORT void ctff_register_bindings(::ctff::binding_registry& registry)
