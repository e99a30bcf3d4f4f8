// Opaque computations: owning copies for run-time construction, embedding in a trace, and the
// factory functions tensorflow_computation / xla_computation / data.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/core/byte_view.hpp"
#include "ctff/core/defer.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/type_string.hpp"
#include "ctff/trace/opaque/data.hpp"
#include "ctff/trace/opaque/tensorflow.hpp"
#include "ctff/trace/opaque/xla.hpp"

namespace ctff {

namespace detail {

template <class X>
inline constexpr bool owning_bytes_v =
    std::is_same_v<std::remove_cvref_t<X>, std::string> ||
    std::is_same_v<std::remove_cvref_t<X>, std::vector<unsigned char>> ||
    std::is_same_v<std::remove_cvref_t<X>, std::vector<char>>;

template <class X>
constexpr bytes_ref as_bytes_ref(const X& x) {
  using U = std::remove_cvref_t<X>;
  if constexpr (std::is_same_v<U, std::string> || std::is_same_v<U, std::vector<char>>) {
    return bytes_ref(std::string_view(x.data(), x.size()));
  } else if constexpr (std::is_same_v<U, std::vector<unsigned char>>) {
    return bytes_ref(byte_view(x.data(), x.size()));
  } else if constexpr (constexpr bool bytes = std::is_constructible_v<bytes_ref, const X&>; !bytes) {
    // (A named bool: clang 22 explains a failed trait as a second error.)
    static_assert(bytes,
                  "ctff: opaque computation: give the bytes as a string literal, std::string_view, "
                  "ctff::byte_view, an unsigned char array, std::string or "
                  "std::vector<unsigned char>");
    return bytes_ref();  // rejected above: no follow-on error
  } else {
    return bytes_ref(x);
  }
}

// An opaque computation owning copies of all the strings it refers to.
template <class C>
class owned_opaque {
 public:
  using type = typename C::type;
  using core_type = C;

  explicit owned_opaque(const C& core)
      : store_(std::make_shared<dependent_t<C, std::string>>()), core_(core) {
    std::size_t total = 0;
    core_.visit_refs([&](const auto& r) { total += r.size(); });
    store_->reserve(total);
    detail::scratch<std::size_t> at;
    core_.visit_refs([&](const auto& r) {
      at.push_back(store_->size());
      for (std::size_t i = 0; i != r.size(); ++i) store_->push_back(static_cast<char>(r[i]));
    });
    std::size_t k = 0;
    core_.visit_refs([&](auto& r) {
      using R = std::remove_cvref_t<decltype(r)>;
      r = R(std::string_view(store_->data() + at[k++], r.size()));
    });
  }

  const C& core() const { return core_; }
  std::size_t size() const { return core_.size(); }
  std::vector<unsigned char> bytes() const { return core_.bytes(); }
  std::uint32_t checksum() const { return core_.checksum(); }
  std::string_view compact() const { return core_.compact(); }
  std::string_view formatted() const { return core_.formatted(); }
  std::string_view structural() const { return core_.structural(); }
  static constexpr std::string_view type_string() { return C::type_string(); }
  static constexpr std::string_view formatted_type_string() { return C::formatted_type_string(); }

  template <class... X>
  auto operator()(X&&... x) const {
    return call_function(*this, static_cast<X&&>(x)...);
  }

 private:
  friend struct opaque_access;
  void write(byte_sink& s) const { opaque_access::write(core_, s); }

  std::shared_ptr<dependent_t<C, std::string>> store_;  // (dependent: see core/defer.hpp)
  C core_;
};

template <class C, class G>
constexpr auto finish_opaque(const C& core) {
  if constexpr (owning_bytes_v<G>) {
    return owned_opaque<C>(core);
  } else {
    return core;
  }
}

// Embeds an opaque computation: its bytes and printed forms written into the graph's pools.
template <class C>
constexpr std::uint32_t embed_opaque(trace_ctx& c, const C& x) {
  embed e{};
  // `&x = x`, not `&`: clang 22's bytecode interpreter cannot read a reference parameter captured
  // by reference when it refers to a global (the computation), see refs.hpp.
  own_bytes(c, e, [&x = x](byte_sink& s) { opaque_access::write(x, s); });
  own_text(
      c, [&x = x](text_sink& t) { t.put(x.compact()); }, false, e.compact_off, e.compact_len);
  e.formatted_off = e.compact_off;
  e.formatted_len = e.compact_len;
  own_structural(c, e, x.structural());
  c.embeds.push_back(e);
  return embedded_node(c, static_cast<std::uint32_t>(c.embeds.size() - 1));
}

template <class C>
struct opaque_convert {
  static constexpr bool ok = true;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const C& x) { return embed_opaque(c, x); }
};

template <class F, std::size_t NP, std::size_t NR>
struct convert<tensorflow_computation_t<F, NP, NR>>
    : opaque_convert<tensorflow_computation_t<F, NP, NR>> {};
template <class F, std::size_t NP, std::size_t NR>
struct convert<xla_computation_t<F, NP, NR>> : opaque_convert<xla_computation_t<F, NP, NR>> {};
template <class T>
struct convert<data_t<T>> : opaque_convert<data_t<T>> {};
template <class C>
struct convert<owned_opaque<C>> {
  static constexpr bool ok = true;
  using type = typename C::type;
  static constexpr void collect(const owned_opaque<C>&, bool, scratch<operand>&) {}
  static std::uint32_t make(trace_ctx& c, const owned_opaque<C>& x) {
    return embed_opaque(c, x.core());
  }
};

}  // namespace detail

namespace detail {
// The binding of a parameter or result (type T) must have T's shape: one static_assert naming
// both at the user's call. Returns whether it is known to fit (else the computation checks it).
// (F not a function type, or one with other than local types: reported by the computation.)
template <class F, bool Xla, fixed_string Label, class S>
constexpr bool binding_checked() {
  using P = typename opaque_fn<F>::param;
  using R = typename opaque_fn<F>::result;
  using T = std::conditional_t<Label == fixed_string("parameter"), P, R>;
  constexpr bool local = Xla ? xla_local_v<P> && xla_local_v<R> : tf_local_v<P> && tf_local_v<R>;
  if constexpr (local && !std::is_void_v<T> && !binding_fits_v<T, S>) {
    CTFF_DIAGNOSE(report<labeled<Label, T>, labeled_binding<"binding", Xla, S>>::shown,
                  "ctff: opaque computation: the binding does not have the shape of the type it "
                  "binds");
  }
  return !std::is_void_v<S>;
}
}  // namespace detail

// tensorflow_computation<F>(graph_def, result [, options]) for a function type without parameter.
template <class F, class G, std::size_t NR, class SR>
constexpr auto tensorflow_computation(const G& graph_def, const binding<false, NR, SR>& result,
                                      const tf_options& options = {}) {
  using C = tensorflow_computation_t<tff_t<F>, 0, NR>;
  const bool checked = detail::binding_checked<tff_t<F>, false, "result", SR>();
  return detail::finish_opaque<C, G>(
      C(detail::as_bytes_ref(graph_def), tf_binding<0>{}, result, options, checked));
}

// tensorflow_computation<F>(graph_def, parameter, result [, options]).
template <class F, class G, std::size_t NP, class SP, std::size_t NR, class SR>
constexpr auto tensorflow_computation(const G& graph_def, const binding<false, NP, SP>& parameter,
                                      const binding<false, NR, SR>& result,
                                      const tf_options& options = {}) {
  using C = tensorflow_computation_t<tff_t<F>, NP, NR>;
  const bool checked =
      detail::binding_checked<tff_t<F>, false, "parameter", SP>() &&
      detail::binding_checked<tff_t<F>, false, "result", SR>();
  return detail::finish_opaque<C, G>(
      C(detail::as_bytes_ref(graph_def), parameter, result, options, checked));
}

// xla_computation<F>(hlo_module, result) for a function type without parameter.
template <class F, class G, std::size_t NR, class SR>
constexpr auto xla_computation(const G& hlo_module, const binding<true, NR, SR>& result) {
  using C = xla_computation_t<tff_t<F>, 0, NR>;
  const bool checked = detail::binding_checked<tff_t<F>, true, "result", SR>();
  return detail::finish_opaque<C, G>(
      C(detail::as_bytes_ref(hlo_module), xla_binding<0>{}, result, checked));
}

// xla_computation<F>(hlo_module, parameter, result).
template <class F, class G, std::size_t NP, class SP, std::size_t NR, class SR>
constexpr auto xla_computation(const G& hlo_module, const binding<true, NP, SP>& parameter,
                               const binding<true, NR, SR>& result) {
  using C = xla_computation_t<tff_t<F>, NP, NR>;
  const bool checked =
      detail::binding_checked<tff_t<F>, true, "parameter", SP>() &&
      detail::binding_checked<tff_t<F>, true, "result", SR>();
  return detail::finish_opaque<C, G>(
      C(detail::as_bytes_ref(hlo_module), parameter, result, checked));
}

// data<T>(type_url, value): Data{content: Any{type_url, value}} of type T. Owns its strings when
// either argument is a std::string (or the value a std::vector).
template <class T, class U, class V>
constexpr auto data(const U& type_url, const V& value) {
  using C = data_t<tff_t<T>>;
  static_assert(!std::is_same_v<V, empty_any_t>,
                "ctff: data: an empty Any is data<T>(\"\", \"\"); ctff::empty_any is for graph_def "
                "and hlo_module");
  if constexpr (std::is_same_v<U, std::string> && !detail::owning_bytes_v<V>) {
    return detail::owned_opaque<C>(C(text_ref(type_url), detail::as_bytes_ref(value)));
  } else {
    return detail::finish_opaque<C, V>(C(text_ref(type_url), detail::as_bytes_ref(value)));
  }
}

}  // namespace ctff
