// ctff::computation<"name", Params...>(fn): traces fn into a federated_language Computation.
// For a captureless fn the trace runs during constant evaluation and its bytes and texts have
// static storage; a fn with captures is traced at run time, once, by the same code.
#pragma once

#include <cstdint>
#include <memory>
#include <source_location>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/core/defer.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/core/rule_sentences.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/trace/error.hpp"
#include "ctff/trace/nested.hpp"
#include "ctff/trace/runtime_outputs.hpp"
#include "ctff/trace/static_outputs.hpp"
#include "ctff/trace/trace_into.hpp"

namespace ctff {
namespace detail {

template <class Fn>
inline constexpr bool is_static_fn = std::is_empty_v<Fn> && std::is_default_constructible_v<Fn>;

}  // namespace detail

// A traced computation. Captureless: every output is a constant expression.
template <fixed_string Name, class Fn, class P>
class computation_t {
 public:
  using fn_type = Fn;
  using param_type = P;
  using result_type = detail::value_type_t<typename detail::body_result<Fn, P>::type>;
  using type = function_t<P, result_type>;

  constexpr computation_t() = default;
  constexpr explicit computation_t(Fn) {}

  static constexpr std::string_view name() { return Name.view(); }
  static constexpr byte_view bytes() {
    return byte_view(detail::wire_v<computation_t>.data(), detail::wire_size_v<computation_t>);
  }
  static constexpr std::string_view compact() {
    return {detail::text_out_v<computation_t, false>.data(), detail::comp_text_size_v<computation_t, false>};
  }
  static constexpr std::string_view formatted() {
    return {detail::text_out_v<computation_t, true>.data(), detail::comp_text_size_v<computation_t, true>};
  }
  // Python's structural_representation(): the building-block tree drawn in ASCII.
  static constexpr std::string_view structural() {
    return {detail::structural_v<computation_t, false>.data,
            detail::structural_info_v<computation_t>.size};
  }
  static constexpr std::string_view type_string() { return ctff::type_string<type>(); }
  static constexpr std::string_view formatted_type_string() {
    return ctff::formatted_type_string<type>();
  }

  // Inside a trace: call the computation (embedded whole, bound to a Block local).
  template <class... X>
  constexpr auto operator()(X&&... x) const {
    return detail::call_function(*this, static_cast<X&&>(x)...);
  }
};

// A computation over a lambda with captures: traced once, at run time, when constructed (inside
// a run-time trace, as that trace's child: see runtime_outputs::trace). Made inside a
// compile-time trace (during constant evaluation), it traces nothing itself: the enclosing trace
// traces its function in place, as Python traces a computation defined inside another one; hence
// a literal type, its outputs held through a pointer.
template <fixed_string Name, class Fn, class P>
class runtime_computation_t {
 public:
  using fn_type = Fn;
  using param_type = P;
  using result_type = detail::value_type_t<typename detail::body_result<Fn, P>::type>;
  using type = function_t<P, result_type>;

  // `where`: the user's line that made it, named by the diagnostic of a trace that fails on it.
  constexpr explicit runtime_computation_t(Fn fn, const std::source_location& where = {})
      : fn_(fn), made_(where) {
    if (std::is_constant_evaluated()) {
      // Freed with this object. A constant that would keep it (a constexpr variable, or a
      // variable of static storage that the compiler tries to initialise at compile time) is then
      // not a constant expression: the first is an error, which shows the next line, the second
      // is initialised at run time, where its function is traced.
      transient_ = new bool(true);  // ctff: a computation whose function has captures is traced at run time: not a constexpr variable
    } else {
      out_ = detail::runtime_outputs::traced<Fn, P>(fn_, Name.view());
    }
  }
  constexpr runtime_computation_t(const runtime_computation_t& o) : fn_(o.fn_), made_(o.made_) {
    if (o.transient_) transient_ = new bool(true);
    if (o.out_) out_ = new outputs_ptr(*o.out_);
  }
  constexpr runtime_computation_t& operator=(const runtime_computation_t& o)
    requires std::is_copy_assignable_v<Fn>
  {
    runtime_computation_t copy(o);
    std::swap(out_, copy.out_);
    std::swap(transient_, copy.transient_);
    fn_ = copy.fn_;
    made_ = copy.made_;
    return *this;
  }
  constexpr ~runtime_computation_t() {
    if (out_) delete out_;
    delete transient_;
  }

  static constexpr std::string_view name() { return Name.view(); }
  byte_view bytes() const { return outputs().bytes(); }
  std::string_view compact() const { return outputs().text(false); }
  std::string_view formatted() const { return outputs().text(true); }
  std::string_view structural() const { return outputs().structural(false); }
  static constexpr std::string_view type_string() { return ctff::type_string<type>(); }
  static constexpr std::string_view formatted_type_string() {
    return ctff::formatted_type_string<type>();
  }

  template <class... X>
  constexpr auto operator()(X&&... x) const {
    return detail::call_function(*this, static_cast<X&&>(x)...);
  }

 private:
  friend struct detail::convert<runtime_computation_t>;  // embeds the encoded texts
  const detail::runtime_outputs& outputs() const { return **out_; }

  // (dependent: a TU tracing nothing at run time compiles no shared_ptr of them, core/defer.hpp)
  using outputs_ptr = detail::dependent_t<Fn, std::shared_ptr<detail::runtime_outputs>>;
  outputs_ptr* out_ = nullptr;  // shared by copies
  bool* transient_ = nullptr;  // made during constant evaluation (then out_ is null)
  Fn fn_;  // traced inside an enclosing trace: of the same name (name_1, ...) or at compile time
  detail::made_where made_{};  // the user's line that made it
};

namespace detail {

template <class P> inline constexpr bool parameter_name_ok = true;
template <fixed_string N, class T>
inline constexpr bool parameter_name_ok<arg<N, T>> = is_valid_parameter_name(N.view());

// Lists the rejected parameter names: `parameter: "items"`.
template <class... Params>
struct parameter_names_writer {
  template <class P>
  static constexpr void one(text_sink&, bool&) {}
  template <class P>
    requires is_arg_v<P>
  static constexpr void one(text_sink& s, bool& first) {
    if constexpr (!parameter_name_ok<P>) {
      s.put(first ? "" : ";\n");
      first = false;
      name_writer<"parameter", arg_name_v<P>>{}(s);
    }
  }
  constexpr void operator()(text_sink& s) const {
    bool first = true;
    (one<Params>(s, first), ...);
  }
};
template <class... Params>
using parameter_names_report = diagnostic_for<parameter_names_writer<Params...>>;

// What computation() returns after a failed check: a well-formed computation whose result is
// poisoned (trace/build.hpp), so that the user's uses of it add no further errors.
struct placeholder_fn {
  template <class... A>
  constexpr auto operator()(A&&...) const {
    return poisoned<void>();
  }
};
template <fixed_string Name, class P>
constexpr auto placeholder_computation() {
  return computation_t<Name, placeholder_fn, P>(placeholder_fn{});
}

}  // namespace detail

// `where` (left to its default) is the user's line: a computation with captures remembers it for
// the diagnostic of a compile-time trace that fails on it (trace/fault.hpp).
template <fixed_string Name, class... Params, class Fn>
constexpr auto computation(Fn fn, std::source_location where = std::source_location::current()) {
  static_assert((detail::is_arg_v<Params> && ...) || (!detail::is_arg_v<Params> && ...),
                "ctff: computation: name every parameter (ctff::arg<\"name\", T>) or none, as "
                "Python does; a partly named struct is one ctff::struct_<...> parameter");
  using P = typename detail::param_of<Params...>::type;
  // Checked here, in the function the user calls, so that the user's line shows on every
  // compiler; after a failed check a placeholder computation stops further errors.
  if constexpr (!detail::is_valid_computation_name(Name.view())) {
    CTFF_DIAGNOSE(detail::name_report<"name", Name>::shown,
                  "ctff: computation: " CTFF_RULE_PYTHON_NAME);
    return detail::placeholder_computation<Name, P>();
  } else if constexpr (!(detail::parameter_name_ok<Params> && ...)) {
    CTFF_DIAGNOSE(detail::parameter_names_report<Params...>::shown,
                  "ctff: computation: a parameter name (ctff::arg<\"name\", T>) must be a Python "
                  "identifier, not a keyword, and not an attribute name of Python's StructType");
    return detail::placeholder_computation<Name, void>();  // P would name the rejected fields
  } else if constexpr (!detail::body_invocable<Fn, P>()) {
    static_assert(detail::body_invocable<Fn, P>(),
                  "ctff: computation: the traced function must take the parameter whole, or one "
                  "argument per element of a struct parameter");
    return detail::placeholder_computation<Name, P>();
  } else if constexpr (std::is_void_v<typename detail::body_result<Fn, P>::type>) {
    static_assert(!std::is_void_v<typename detail::body_result<Fn, P>::type>,
                  "ctff: computation: the traced function returned nothing");
    return detail::placeholder_computation<Name, P>();
  } else if constexpr (!detail::convertible<typename detail::body_result<Fn, P>::type>) {
    static_assert(detail::convertible<typename detail::body_result<Fn, P>::type>,
                  "ctff: computation: the traced function must return a traced value, a constant, "
                  "or a tuple of them");
    return detail::placeholder_computation<Name, P>();
  } else if constexpr (detail::is_static_fn<Fn>) {
    return computation_t<Name, Fn, P>(fn);
  } else {
    return runtime_computation_t<Name, Fn, P>(std::move(fn), where);
  }
}

namespace detail {

template <fixed_string N, class Fn, class P>
struct convert<computation_t<N, Fn, P>> {
  static constexpr bool ok = true;
  using C = computation_t<N, Fn, P>;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const C&) {
    if (c.floating || context_suffix(&c, N.view()) != 0) {
      // Named like an enclosing trace (or the enclosing traces are not known yet): traced anew
      // inside the enclosing trace, as `name_1`, ... (Python's context naming).
      const auto index = static_cast<std::uint32_t>(c.embeds.size());
      c.embeds.push_back(embed{});
      if (c.floating)
        c.deferred.push_back(new deferred_trace<N, Fn, P>(Fn{}, index));
      else
        trace_nested<N, Fn, P>(c, Fn{}, index, {});
      return embedded_node(c, index);
    }
    embed e{};
    e.bytes = wire_v<C>.data();
    e.size = static_cast<std::uint32_t>(wire_size_v<C>);
    e.compact = C::compact();
    if constexpr (literal_breaks_v<C>)
      e.formatted = {(text_out_v<C, true, true>.data()), comp_text_size_v<C, true>};
    else
      e.formatted = C::formatted();
    if constexpr (structural_info_v<C>.breaks)  // the encoded drawing differs from the plain one
      e.structural = {structural_v<C, true>.data, structural_info_v<C>.size};
    else
      e.structural = C::structural();
    e.structural_breaks = structural_info_v<C>.breaks;
    c.embeds.push_back(e);
    const auto index = static_cast<std::uint32_t>(c.embeds.size() - 1);
    return c.add({.kind = node_kind::embedded, .a = index});
  }
};

template <fixed_string N, class Fn, class P>
struct convert<runtime_computation_t<N, Fn, P>> {
  static constexpr bool ok = true;
  using C = runtime_computation_t<N, Fn, P>;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const C& comp) {
    if (!comp.out_ && c.floating) {  // made during constant evaluation, used on constants only
      const auto index = static_cast<std::uint32_t>(c.embeds.size());
      c.embeds.push_back(embed{});
      trace_floating<N, Fn, P>(c, comp.fn_, index, comp.made_);
      return embedded_node(c, index);
    }
    // Made during constant evaluation (not traced on its own), or as for computation_t unless
    // traced inside the trace that made it (then named as Python names it, and embedded as it is).
    if (!comp.out_ ||
        (!comp.outputs().inside() && (c.floating || context_suffix(&c, N.view()) != 0))) {
      const auto index = static_cast<std::uint32_t>(c.embeds.size());
      c.embeds.push_back(embed{});
      if (c.floating)
        trace_in_floating<N, Fn, Fn, P>(c, comp.fn_, index, comp.made_);
      else
        trace_nested<N, Fn, P>(c, comp.fn_, index, comp.made_);
      return embedded_node(c, index);
    }
    // Copied into the trace's pools: the computation may be a temporary that dies before the
    // trace is written. A computation embedded again shares the first copy (same bytes, hence the
    // same texts: they are functions of the message).
    auto b = comp.bytes();
    if (const embed* prior = owned_copy_of(c, b)) {
      const embed copy = *prior;  // (pushing *prior itself would read it after embeds grows)
      c.embeds.push_back(copy);
      return embedded_node(c, static_cast<std::uint32_t>(c.embeds.size() - 1));
    }
    embed e{};
    own_bytes(c, e, [&](byte_sink& s) { s.bytes(b.data(), b.size()); });
    auto put_text = [&](std::string_view t, std::uint32_t& off, std::uint32_t& len) {
      off = c.add_chars(t);
      len = static_cast<std::uint32_t>(t.size());
    };
    put_text(comp.compact(), e.compact_off, e.compact_len);
    put_text(comp.outputs().text(true, true), e.formatted_off, e.formatted_len);
    own_structural(c, e, comp.outputs().structural(true));
    c.embeds.push_back(e);
    return embedded_node(c, static_cast<std::uint32_t>(c.embeds.size() - 1));
  }
};

}  // namespace detail
}  // namespace ctff
