// ctff-run --bind PLUGIN.so: loads plugins (ctff/run/plugin.hpp) and binds what they register.
// A file that is not a loadable plugin of this build is an input_error (exit status 2) naming it;
// a binding that throws is an execution error naming the binding and its plugin (exit status 1).
#pragma once

#include <dlfcn.h>

#include <exception>
#include <fstream>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include <ctff/run.hpp>
#include <ctff/run/plugin.hpp>

#include "../common/computation_file.hpp"

namespace ctff_tools {

// Every key bound, with the plugin that bound it.
struct plugin_bindings {
  std::map<std::string, std::pair<ctff::opaque_binding, std::string>, std::less<>> by_key;

  const std::string* plugin_of(std::string_view key) const {
    const auto it = by_key.find(key);
    return it == by_key.end() ? nullptr : &it->second.second;
  }
};

// A plugin's binding, its exceptions prefixed with the plugin's path (any std::exception crosses
// the boundary intact: plugin and loader share the standard library); the executor names the
// client and the key (run/evaluate.hpp: run_binding).
inline ctff::opaque_binding named_binding(ctff::opaque_binding fn, std::string plugin) {
  return [fn = std::move(fn), plugin = std::move(plugin)](const ctff::dynamic_value* arg) -> ctff::dynamic_value {
    try {
      return fn(arg);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      std::throw_with_nested(std::runtime_error(plugin + ": " + e.what()));
    }
  };
}

// Loads `path` (never unloaded: its code stays in use until exit) and adds its bindings.
inline void load_plugin(const std::string& path, plugin_bindings& into) {
  if (!std::ifstream(path, std::ios::binary)) throw input_error{"--bind: cannot open " + path};
  // A bare name would be searched for on the library path, not in the current directory.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    throw input_error{path + ": not a loadable shared library (dlopen: " + (why ? why : "failed") + ")"};
  }
  const auto info = reinterpret_cast<const ctff::plugin_info* (*)()>(dlsym(lib, "ctff_plugin_info"));
  const auto entry = reinterpret_cast<void (*)(ctff::binding_registry&)>(dlsym(lib, "ctff_register_bindings"));
  if (!info || !entry)
    throw input_error{path + ": not a ctff plugin (no " +
                      std::string(!info ? "ctff_plugin_info" : "ctff_register_bindings") +
                      "; define its entry point with CTFF_PLUGIN, <ctff/run/plugin.hpp>)"};
  const ctff::plugin_info* p = info();
  if (!p) throw input_error{path + ": not a ctff plugin (ctff_plugin_info returned null)"};
  if (const std::string why = ctff::plugin_mismatch(*p); !why.empty())
    throw input_error{path + ": " + why + "; rebuild the plugin against the headers of this ctff-run"};
  ctff::binding_registry registry;
  try {
    entry(registry);
  } catch (const std::exception& e) {
    throw input_error{path + ": registering its bindings failed: " + e.what()};
  } catch (...) {
    throw input_error{path + ": registering its bindings failed (not a std::exception)"};
  }
  if (registry.bindings().empty()) throw input_error{path + ": the plugin binds nothing"};
  for (const auto& [key, fn] : registry.bindings()) {
    if (const std::string* other = into.plugin_of(key))
      throw input_error{key + " is bound by both " + *other + " and " + path};
    if (!fn) throw input_error{path + ": the binding of " + key + " is empty"};
    into.by_key.emplace(key, std::pair{named_binding(fn, path), path});
  }
}

}  // namespace ctff_tools
