// ctff::computation<"name", Params...>(fn): traces fn into a federated_language Computation.
// For a captureless fn the trace runs during constant evaluation and its bytes and texts have
// static storage; a fn with captures is traced at run time, once, by the same code.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/ast/frozen_graph.hpp"
#include "ctff/ast/print.hpp"
#include "ctff/ast/serialize.hpp"
#include "ctff/ast/structural.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/trace/error.hpp"
#include "ctff/trace/struct_ops.hpp"
#include "ctff/types/aliases.hpp"

namespace ctff {

// A named parameter: computation<"f", arg<"alpha", float>, arg<"beta", int>> has the parameter
// type <alpha=float32,beta=int32>.
template <fixed_string Name, class T>
struct arg {};

namespace detail {

template <class P> struct strip_arg { using type = tff_t<P>; };
template <fixed_string N, class T> struct strip_arg<arg<N, T>> { using type = tff_t<T>; };
template <class P> struct named_arg { using type = tff_t<P>; };
template <fixed_string N, class T> struct named_arg<arg<N, T>> { using type = field<N, tff_t<T>>; };
template <class P> inline constexpr bool is_arg_v = false;
template <fixed_string N, class T> inline constexpr bool is_arg_v<arg<N, T>> = true;
template <class P> inline constexpr fixed_string arg_name_v = "";
template <fixed_string N, class T> inline constexpr fixed_string arg_name_v<arg<N, T>> = N;

// Python's packing: none -> no parameter; one -> its type; n -> one struct, named when every
// parameter is named.
template <class... Ps> struct param_of {
  using type = std::conditional_t<(is_arg_v<Ps> && ...), struct_t<typename named_arg<Ps>::type...>,
                                  struct_t<typename strip_arg<Ps>::type...>>;
};
template <> struct param_of<> { using type = void; };
template <class P> struct param_of<P> { using type = typename strip_arg<P>::type; };

// The traced function takes the parameter whole, or one argument per struct element.
template <class Fn, class P, std::size_t... I>
constexpr auto call_unpacked(const Fn& fn, const value<P>& p, std::index_sequence<I...>) {
  return fn(select<I>(p)...);
}

template <class Fn, class P>
constexpr auto call_body(const Fn& fn, value<P> p) {
  if constexpr (std::is_invocable_v<const Fn&, value<P>>) {
    return fn(std::move(p));
  } else if constexpr (struct_info<P>::is_struct) {
    return call_unpacked(fn, p, std::make_index_sequence<struct_info<P>::size>{});
  } else {
    static_assert(std::is_invocable_v<const Fn&, value<P>>,
                  "ctff: computation: the traced function must take the parameter whole, or one "
                  "argument per element of a struct parameter");
  }
}

// Whether call_body can call fn (checked by computation() before anything instantiates call_body).
template <class Fn, class P, std::size_t... I>
constexpr bool invocable_unpacked(std::index_sequence<I...>) {
  return std::is_invocable_v<const Fn&, decltype(select<I>(std::declval<const value<P>&>()))...>;
}
template <class Fn, class P>
constexpr bool body_invocable() {
  if constexpr (std::is_void_v<P>)
    return std::is_invocable_v<const Fn&>;
  else if constexpr (std::is_invocable_v<const Fn&, value<P>>)
    return true;
  else if constexpr (struct_info<P>::is_struct)
    return invocable_unpacked<Fn, P>(std::make_index_sequence<struct_info<P>::size>{});
  else
    return false;
}

template <class Fn, class P>
struct body_result {
  using type = decltype(call_body(std::declval<const Fn&>(), std::declval<value<P>>()));
};
template <class Fn>
struct body_result<Fn, void> {
  using type = decltype(std::declval<const Fn&>()());
};

// The trace event at which the traced function's result was complete: the last new handle on the
// values it holds (in ctx; 0 if none).
template <class R>
constexpr std::uint32_t made_at(trace_ctx& ctx, const R& result) {
  scratch<operand> ops;
  convert_t<R>::collect(result, false, ops);
  std::uint32_t at = 0;
  for (const auto& o : ops) {
    const location l = resolve(o.loc);
    if (l.ctx != &ctx) continue;
    const node* n = &ctx.nodes[l.id];
    if (n->kind == node_kind::symbol_ref) n = &ctx.nodes[n->a];
    if (n->held > at) at = n->held;
  }
  return at;
}

// Records the whole computation into ctx and returns the root Lambda node.
template <class Fn, class P>
constexpr std::uint32_t trace_into(const Fn& fn, std::string_view name, trace_ctx& ctx) {
  using Res = typename body_result<Fn, P>::type;
  static_assert(!std::is_void_v<Res>, "ctff: computation: the traced function returned nothing");
  static_assert(convertible<Res>,
                "ctff: computation: the traced function must return a traced value, a constant, "
                "or a tuple of them");
  using R = value_type_t<Res>;
  ctx.name = name;
  std::uint32_t r;
  {
    auto result = [&] {
      if constexpr (std::is_void_v<P>) {
        return fn();
      } else {
        node ref{};
        ref.kind = node_kind::param_ref;
        return call_body(fn, make_value<P>(ctx, ctx.add_typed<P>(ref), no_node));
      }
    }();
    // A bare value may be a variable returned by name (`return v;`): gathered as one, so that a
    // floating context it belongs to counts as reached through a variable. Tuple elements are
    // copies (named) or moved temporaries, which collect tells apart.
    // The body's locals died after its result was made, a helper's before: ordering the result's
    // elements, those count as alive (restore_order's variables).
    ctx.alive_after = made_at(ctx, result);
    if constexpr (is_value_v<Res>) {
      gather(&ctx, result);
    } else {
      gather(&ctx, std::move(result));
    }
    ctx.alive_after = 0;
    r = convert_t<Res>::make(ctx, result);
  }
  std::uint32_t body = r;
  if (!ctx.bindings.empty()) {
    node b{};
    b.kind = node_kind::block;
    b.a = r;
    body = ctx.add_typed<R>(b);
  }
  node lam{};
  lam.kind = node_kind::lambda;
  lam.a = body;
  lam.b = std::is_void_v<P> ? 0 : 1;
  return ctx.add_typed<function_t<P, R>>(lam);
}

// Static storage of a captureless computation's outputs. Each size and each output is its own
// variable template, so each is a separate constant evaluation with its own step budget: one trace
// plus one output, never all of them at once.
// The trace runs twice, to size the constant holding the recorded graph, then to fill it; every
// output copies that graph (ast/frozen_graph.hpp) instead of tracing again.
template <class C>
constexpr std::uint32_t trace_live(trace_ctx& ctx) {
  return trace_into<typename C::fn_type, typename C::param_type>({}, C::name(), ctx);
}

template <class C>
inline constexpr graph_shape graph_shape_v = [] {
  trace_ctx ctx;
  const auto root = trace_live<C>(ctx);
  return shape_of(ctx, root);
}();

template <class C>
inline constexpr auto frozen_v = [] {
  trace_ctx ctx;
  trace_live<C>(ctx);
  return freeze<graph_shape_v<C>>(ctx);
}();

// The recorded graph of C, read in place by every output, and its root.
template <class C>
constexpr frozen_read static_graph() {
  return read_frozen(frozen_v<C>);
}

template <class C>
inline constexpr std::size_t wire_size_v = [] {
  const frozen_read f = static_graph<C>();
  return serializer(f.g).size(f.root);
}();

template <class C, bool Formatted>
inline constexpr std::size_t comp_text_size_v = [] {
  const frozen_read f = static_graph<C>();
  text_sink t{};
  t.formatted = Formatted;
  printer(f.g).print(f.root, t);
  return t.n;
}();

template <class C>
inline constexpr auto wire_v = [] {
#if defined(__clang__)
  std::array<unsigned char, wire_size_v<C>> out{};
#else
  // g++ keeps a constant array's elements in order of first write; writing back to front would
  // insert each byte before all others (quadratic). An array made by bit_cast has every element
  // already, so each write is a plain update; g++ builds it natively, several times faster than
  // a loop touching each byte (the array is rounded up to whole words: bytes() knows the size).
  constexpr std::size_t words = (wire_size_v<C> + 7) / 8;
  auto out = std::bit_cast<std::array<unsigned char, words * 8>>(std::array<std::uint64_t, words>{});
#endif
  const frozen_read f = static_graph<C>();
  serializer(f.g).write_into(f.root, out.data(), wire_size_v<C>);
  return out;
}();

// `Encoded`: the formatted text for embedding (text_sink::encode_breaks; same size).
template <class C, bool Formatted, bool Encoded = false>
inline constexpr auto text_out_v = [] {
  std::array<char, comp_text_size_v<C, Formatted> + 1> out{};
  const frozen_read f = static_graph<C>();
  text_sink t{out.data()};
  t.formatted = Formatted;
  t.encode_breaks = Encoded;
  printer(f.g).print(f.root, t);
  return out;
}();

// Whether the formatted text for embedding differs from the formatted text: only when a literal
// spans lines, which shows in the compact text.
template <class C>
inline constexpr bool literal_breaks_v = [] {
  for (char c : C::compact())
    if (c == '\n') return true;
  return false;
}();


// The structural drawing (ast/structural.hpp), laid out once: the pieces are counted (a walk of
// the tree), laid out into a constant, then written as text, plain or encoded for embedding;
// each its own evaluation.
template <class C>
inline constexpr std::size_t structural_pieces_v = [] {
  const frozen_read f = static_graph<C>();
  return structural_writer::count_pieces(f.g, f.root);
}();

template <std::size_t N>
struct structural_layout {
  std::array<drawn_piece, N> pieces{};
  std::size_t size = 0;  // characters of the text
  bool breaks = false;   // a row holds a line break (a multi-line literal)
  bool counted = false;  // N is the number of pieces laid out (count_pieces agrees)
};

template <class C>
inline constexpr auto structural_layout_v = [] {
  const frozen_read f = static_graph<C>();
  const structural_writer w(f.g, f.root, false);
  structural_layout<structural_pieces_v<C>> out{};
  out.counted = w.piece_count() == out.pieces.size();
  if (out.counted) w.drawn(out.pieces.data());
  out.size = w.size();
  out.breaks = w.has_breaks();
  return out;
}();

struct structural_info {
  std::size_t size = 0;
  bool breaks = false;
};
template <class C>
inline constexpr structural_info structural_info_v{structural_layout_v<C>.size,
                                                   structural_layout_v<C>.breaks};

template <class C, bool Encoded>
inline constexpr auto structural_v = [] {
  constexpr auto& l = structural_layout_v<C>;
  static_assert(l.counted, "ctff: internal error: count_pieces disagrees with the layout");
  return structural_writer(static_graph<C>().g, Encoded, structural_writer::labels_only{})
      .text<l.size>(l.pieces.data(), l.pieces.size());
}();

// Defined in trace/polymorphic.hpp (included at the end of this file).
constexpr std::uint32_t context_suffix(const trace_ctx* parent, std::string_view name);

// Outputs of a run-time trace. The bytes are written at once; the printed forms only when first
// asked for (printing is most of a run-time trace's cost), from the recorded graph kept here.
class runtime_outputs {
 public:
  runtime_outputs() = default;
  runtime_outputs(const runtime_outputs&) = delete;
  runtime_outputs& operator=(const runtime_outputs&) = delete;

  template <class Fn, class P>
  void trace(const Fn& fn, std::string_view name) {
    // A run-time trace may run inside another: the enclosing trace's error waits meanwhile.
    struct pending_guard {
      const char* outer = pending_trace_error();
      ~pending_guard() { pending_trace_error() = outer; }
    } guard;
    pending_trace_error() = nullptr;
    // Made while another run-time trace runs: traced as its child, named under its chain, and
    // embedded as it is wherever it is used (as Python does).
    if (trace_ctx* const parent = active_trace()) {
      ctx_.parent = parent;
      ctx_.suffix = context_suffix(parent, name);
      inside_ = true;
    }
    {
      const active_trace_scope<> active(&ctx_);
      root_ = trace_into<Fn, P>(fn, name, ctx_);
    }
    ctx_.parent = nullptr;  // (the enclosing trace may end first)
    if (const char* e = pending_trace_error()) throw trace_failure(e);
    bytes_ = runtime_bytes(ctx_, root_);
  }

  byte_view bytes() const { return byte_view(bytes_); }
  // Whether it was traced inside another run-time trace (named under that trace's chain).
  bool inside() const { return inside_; }

  // The outputs of tracing fn, in a shared_ptr of their own (runtime_computation_t's).
  template <class Fn, class P>
  static std::shared_ptr<runtime_outputs>* traced(const Fn& fn, std::string_view name) {
    auto out = std::make_shared<runtime_outputs>();
    out->trace<Fn, P>(fn, name);
    return new std::shared_ptr<runtime_outputs>(std::move(out));
  }

  // `encoded`: the formatted text for embedding (text_sink::encode_breaks).
  std::string_view text(bool formatted, bool encoded = false) const {
    const int f = encoded ? 2 : formatted ? 1 : 0;
    std::call_once(once_[f], [&] {
      printer p(ctx_);
      text_sink count{};
      count.formatted = formatted;
      count.encode_breaks = encoded;
      p.print(root_, count);
      text_[f].assign(count.n, '\0');
      text_sink t{text_[f].data()};
      t.formatted = formatted;
      t.encode_breaks = encoded;
      p.print(root_, t);
    });
    return text_[f];
  }

  // The structural drawing, plain or encoded for embedding (ast/structural.hpp).
  std::string_view structural(bool encoded) const {
    const int f = encoded ? 1 : 0;
    std::call_once(structural_once_[f], [&] {
      const structural_writer w(ctx_, root_, encoded);
      structural_[f].assign(w.size(), '\0');
      w.write(structural_[f].data());
    });
    return structural_[f];
  }

 private:
  trace_ctx ctx_;
  std::uint32_t root_ = 0;
  bool inside_ = false;
  std::vector<unsigned char> bytes_;
  mutable std::once_flag once_[3];
  mutable std::string text_[3];
  mutable std::once_flag structural_once_[2];
  mutable std::string structural_[2];
};

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

// A computation over a lambda with captures: traced once, at run time, when constructed.
// Made inside a compile-time trace (during constant evaluation), it traces nothing itself: the
// enclosing trace traces its function in place, as Python traces a computation defined inside
// another one; hence a literal type, its outputs held through a pointer.
template <fixed_string Name, class Fn, class P>
class runtime_computation_t {
 public:
  using fn_type = Fn;
  using param_type = P;
  using result_type = detail::value_type_t<typename detail::body_result<Fn, P>::type>;
  using type = function_t<P, result_type>;

  constexpr explicit runtime_computation_t(Fn fn) : fn_(fn) {
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
  constexpr runtime_computation_t(const runtime_computation_t& o) : fn_(o.fn_) {
    if (o.transient_) transient_ = new bool(true);
    if (o.out_) out_ = new std::shared_ptr<detail::runtime_outputs>(*o.out_);
  }
  constexpr runtime_computation_t& operator=(const runtime_computation_t& o)
    requires std::is_copy_assignable_v<Fn>
  {
    runtime_computation_t copy(o);
    std::swap(out_, copy.out_);
    std::swap(transient_, copy.transient_);
    fn_ = copy.fn_;
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

  std::shared_ptr<detail::runtime_outputs>* out_ = nullptr;  // shared by copies
  bool* transient_ = nullptr;  // made during constant evaluation (then out_ is null)
  Fn fn_;  // traced inside an enclosing trace: of the same name (name_1, ...) or at compile time
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

// What computation() returns after a failed check: a well-formed computation, so that the user's
// uses of it add no further errors.
struct placeholder_fn {
  template <class... A>
  constexpr std::int32_t operator()(A&&...) const {
    return 0;
  }
};
template <fixed_string Name, class P>
constexpr auto placeholder_computation() {
  return computation_t<Name, placeholder_fn, P>(placeholder_fn{});
}

}  // namespace detail

template <fixed_string Name, class... Params, class Fn>
constexpr auto computation(Fn fn) {
  static_assert((detail::is_arg_v<Params> && ...) || (!detail::is_arg_v<Params> && ...),
                "ctff: computation: name every parameter (ctff::arg<\"name\", T>) or none, as "
                "Python does; a partly named struct is one ctff::struct_<...> parameter");
  using P = typename detail::param_of<Params...>::type;
  // Checked here, in the function the user calls, so that the user's line shows on every
  // compiler; after a failed check a placeholder computation stops further errors.
  if constexpr (!detail::is_valid_computation_name(Name.view())) {
    static_assert(detail::name_report<"name", Name>::shown,
                  "ctff: computation: the name must be a Python identifier and not a keyword "
                  "(Python names a computation after its function)");
    return detail::placeholder_computation<Name, P>();
  } else if constexpr (!(detail::parameter_name_ok<Params> && ...)) {
    static_assert(detail::parameter_names_report<Params...>::shown,
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
    return runtime_computation_t<Name, Fn, P>(std::move(fn));
  }
}

namespace detail {

// Defined in trace/polymorphic.hpp (included at the end of this file).
template <fixed_string Name, class Body, class P>
constexpr void trace_nested(trace_ctx& into, const Body& body, std::uint32_t index);
template <fixed_string Name, class Body, class P>
struct deferred_trace;
template <fixed_string Name>
struct checked_embed;

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
        trace_nested<N, Fn, P>(c, Fn{}, index);
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
    node n{};
    n.kind = node_kind::embedded;
    n.a = static_cast<std::uint32_t>(c.embeds.size() - 1);
    return c.add(n);
  }
};

template <fixed_string N, class Fn, class P>
struct convert<runtime_computation_t<N, Fn, P>> {
  static constexpr bool ok = true;
  using C = runtime_computation_t<N, Fn, P>;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const C& comp) {
    if (!comp.out_ && c.floating) {
      // Made during constant evaluation and used on constants only: traced now, while what its
      // function captures lives (the context joins its trace later, perhaps after the traced
      // function returned), and checked when it joins.
      const auto index = static_cast<std::uint32_t>(c.embeds.size());
      c.embeds.push_back(embed{});
      auto* check = new checked_embed<N>;
      c.deferred.push_back(check);
      auto* const outer_log = c.name_log;
      c.name_log = &check->names;
      trace_nested<N, Fn, P>(c, comp.fn_, index);
      c.name_log = outer_log;
      return embedded_node(c, index);
    }
    // Made during constant evaluation (not traced on its own), or as for computation_t unless
    // traced inside the trace that made it (then named as Python names it, and embedded as it is).
    if (!comp.out_ ||
        (!comp.outputs().inside() && (c.floating || context_suffix(&c, N.view()) != 0))) {
      const auto index = static_cast<std::uint32_t>(c.embeds.size());
      c.embeds.push_back(embed{});
      if (c.floating)
        c.deferred.push_back(new deferred_trace<N, Fn, P>(comp.fn_, index));
      else
        trace_nested<N, Fn, P>(c, comp.fn_, index);
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

// Nested traces (context naming, trace_nested, deferred_trace) are defined with polymorphic
// computations, which need everything above; embedding a computation uses them.
#include "ctff/trace/polymorphic.hpp"
