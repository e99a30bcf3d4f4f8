// A function value of a run as a standalone Computation: wire bytes that a worker reads with
// read_computation and evaluates to the same function, so that a remote executor can ship
// per-client work (the function of a federated_map) instead of running it itself.
//   - a closure: its Lambda, inside a Block whose locals give the lambda's free references the
//     values they have in the closure's scope (run/evaluate.hpp, `closure`);
//   - an intrinsic: its Intrinsic (uri and type);
//   - a bound opaque computation: its TensorFlow/Xla/Data building block as read, so that the
//     worker's own binding for the same key runs it.
// A captured value is written as a Literal (a tensor), a Struct (names kept) or, for a function,
// recursively as above. A federated value, a sequence or a placement has no closed form here:
// the function is then not shipped (nullopt) and the caller runs it.
#pragma once

#include <bit>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/core/front_wire.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/writer.hpp"
#include "ctff/run/evaluate.hpp"
#include "ctff/run/resolve.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/wire.hpp"

namespace ctff::detail {

// Writes function values (and the values their closures capture) as Computation messages.
class function_writer {
 public:
  // Where a closure's Lambda is in a written Computation (a path as read/block_paths.hpp spells
  // it): a tap inside it is at that path and the tap's path from the Lambda on.
  struct placed_closure {
    std::string path;
    const closure* c;
  };
  // A Computation message and its Type message (unset: the type is not known); its closures.
  struct written {
    std::string bytes;
    std::optional<std::string> type;
    std::vector<placed_closure> closures{};
  };

  explicit function_writer(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  std::optional<written> function(const function_impl& f) {
    if (const auto* c = dynamic_cast<const closure*>(&f)) return closure_of(*c);
    if (const auto* i = dynamic_cast<const tree_intrinsic*>(&f)) return as_read(i->tree(), i->node());
    if (const auto* b = dynamic_cast<const bound_fn*>(&f)) return as_read(b->tree(), b->node());
    return std::nullopt;  // a function_impl of another kind: nothing says what it computes
  }

  std::optional<written> value(const dynamic_value& v) {
    // Closures capture closures, each level a recursion here: a chain deeper than this is run
    // where it is rather than risk the stack.
    if (!v || depth_ == max_depth) return std::nullopt;
    ++depth_;
    std::optional<written> w;
    switch (v.kind()) {
      case value_kind::tensor: w = literal(v.tensor()); break;
      case value_kind::struct_: w = structure(v.structure()); break;
      case value_kind::function:
        if (v.function().impl) w = function(*v.function().impl);
        break;
      case value_kind::federated:
      case value_kind::sequence:
      case value_kind::placement: break;
    }
    --depth_;
    return w;
  }

 private:
  static constexpr std::size_t max_depth = 256;

  // w, unless it is larger than allowed.
  std::optional<written> bounded(written w) const {
    if (w.bytes.size() > max_bytes_) return std::nullopt;
    return w;
  }

  static std::optional<std::string> type_bytes(const computation_tree& t, std::uint32_t node) {
    const std::uint32_t ty = t.node(node).type;
    if (ty == no_index) return std::nullopt;
    growing_back_sink s(64);
    write_type(t.types, ty, s);
    return std::string(reinterpret_cast<const char*>(s.data()), s.size());
  }

  // A Computation of the given type (if known) whose `computation` oneof is `field`.
  static std::string computation(const std::optional<std::string>& type, std::uint32_t field,
                                 std::string_view body) {
    return computation_bytes(type ? &*type : nullptr, field, body);
  }

  // A building block of a read tree, as it was read (an Intrinsic, an opaque computation).
  std::optional<written> as_read(const computation_tree& t, std::uint32_t node) const {
    return bounded(written{serialize(t, node), type_bytes(t, node)});
  }

  // A tensor as a Literal of its tensor type: a one-node tree, written by the tree writer (so the
  // Array is the shared Array writer's, read/writer.hpp).
  std::optional<written> literal(const tensor_data& x) const {
    computation_tree t;
    graph& g = tree_access::pool(t);
    lit l{};
    l.dt = x.dt;
    l.dim_begin = static_cast<std::uint32_t>(g.dims.size());
    l.dim_count = static_cast<std::uint32_t>(x.shape.size());
    for (std::int64_t d : x.shape) g.dims.push_back(d);
    l.val_begin = static_cast<std::uint32_t>(g.vals.size());
    // The slots as the reader stores them (read/array_message.hpp) and the evaluator reads them
    // (run/evaluate.hpp, literal_value): bit patterns, signed integers sign-extended, complex
    // numbers as two parts, strings as offset and length in the character pool.
    auto slot = [&](std::uint64_t v) { g.vals.push_back(v); };
    visit_dtype(x.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      for (const auto& e : x.get<D>()) {
        if constexpr (D == dtype::str) {
          slot(g.add_chars(e));
          slot(e.size());
        } else if constexpr (D == dtype::float32) {
          slot(std::bit_cast<std::uint32_t>(e));
        } else if constexpr (D == dtype::float64) {
          slot(std::bit_cast<std::uint64_t>(e));
        } else if constexpr (D == dtype::complex64) {
          slot(std::bit_cast<std::uint32_t>(e.real()));
          slot(std::bit_cast<std::uint32_t>(e.imag()));
        } else if constexpr (D == dtype::complex128) {
          slot(std::bit_cast<std::uint64_t>(e.real()));
          slot(std::bit_cast<std::uint64_t>(e.imag()));
        } else if constexpr (D == dtype::float16 || D == dtype::bfloat16) {
          slot(e.bits);
        } else if constexpr (D == dtype::bool_) {
          slot(e != 0);
        } else if constexpr (std::is_signed_v<std::remove_cvref_t<decltype(e)>>) {
          slot(static_cast<std::uint64_t>(static_cast<std::int64_t>(e)));
        } else {
          slot(static_cast<std::uint64_t>(e));
        }
      }
    });
    l.val_count = static_cast<std::uint32_t>(g.vals.size() - l.val_begin);
    g.lits.push_back(l);

    type_node tn;
    tn.kind = type_kind::tensor;
    tn.dt = x.dt;
    tn.dim_begin = static_cast<std::uint32_t>(t.types.dims.size());
    tn.dim_count = static_cast<std::uint32_t>(x.shape.size());
    for (std::int64_t d : x.shape) t.types.dims.push_back(d);
    block_node n;
    n.kind = block_kind::literal;
    n.type = t.types.add(tn);
    n.b = 0;
    t.nodes.push_back(n);
    t.root = 0;
    return bounded(written{serialize(t), type_bytes(t, 0)});
  }

  // A Struct of the elements' Computations, names kept; typed when every element's type is known.
  std::optional<written> structure(const struct_data& s) {
    std::string body, type_body;
    bool all_typed = true;
    std::vector<placed_closure> closures;
    for (std::size_t k = 0; k != s.elements.size(); ++k) {
      std::optional<written> e = value(s.elements[k]);
      if (!e) return std::nullopt;
      place(closures, *e, "struct", k, s.name(k));
      std::string element;
      if (!s.name(k).empty()) put_message(element, 1, s.name(k));
      std::string element_type = element;
      put_message(element, 2, e->bytes);
      put_message(body, 1, element);
      if (e->type) {
        put_message(element_type, 2, *e->type);
        put_message(type_body, 1, element_type);
      }
      all_typed = all_typed && e->type;
      if (body.size() > max_bytes_) return std::nullopt;
    }
    std::optional<std::string> type;
    if (all_typed) {
      type.emplace();
      put_message(*type, type_field(type_kind::struct_), type_body);
    }
    return bounded(written{computation(type, computation_field::struct_, body), std::move(type), std::move(closures)});
  }

  // The closures of e, a part of the Computation being written at step `what[k](name)`.
  static void place(std::vector<placed_closure>& out, const written& e, const char* what, std::size_t k,
                    std::string_view name) {
    const std::string step = path_string({path_frame{what, static_cast<std::int64_t>(k), name}});
    for (const placed_closure& c : e.closures) out.push_back({c.path.empty() ? step : step + "." + c.path, c.c});
  }

  // A free reference of a lambda: its name and where its value is, counted from the scope the
  // closure was made in.
  struct free_reference {
    std::string_view name;
    frame_slot at;
  };

  // The free references under node i, `level` frames inside the lambda. The frames are counted
  // as the resolver counts them (run/resolve.hpp): a named parameter makes one, a Block's locals
  // one from its first local on. A reference resolved to as many frames out as it is deep in the
  // lambda, or more, is bound outside it. False: a reference is bound nowhere.
  bool free_references(const program& p, std::uint32_t i, std::uint32_t level,
                       std::vector<free_reference>& out) const {
    const computation_tree& t = p.tree();
    if (i >= t.nodes.size()) return true;
    const block_node& n = t.node(i);
    switch (n.kind) {
      case block_kind::reference: {
        const frame_slot at = p.reference(i);
        if (at.up == no_index) return false;
        if (at.up >= level) out.push_back(free_reference{t.text(i), frame_slot{at.up - level, at.slot}});
        return true;
      }
      case block_kind::lambda:
        return free_references(p, n.a, t.text(i).empty() ? level : level + 1, out);
      case block_kind::block: {
        std::uint32_t inner = level;
        for (std::uint32_t k = 0; k != n.count; ++k) {
          if (!free_references(p, t.elem(i, k).value, inner, out)) return false;
          if (k == 0) ++inner;
        }
        return free_references(p, n.a, inner, out);
      }
      default:  // a selection, call or struct: its children; a leaf: none
        return for_each_child(t, i, [&](std::uint32_t k, const child_step&) {
          return free_references(p, k, level, out);
        });
    }
  }

  // A closure: its Lambda as read, and when it reads values from outside, a Block binding each
  // free name to its value, the Lambda its result. The locals' values are closed computations,
  // so their names capture nothing among themselves, and inside the Lambda its own bindings
  // still shadow them as they shadowed the originals.
  std::optional<written> closure_of(const closure& c) {
    const program& p = *c.prog();
    const computation_tree& t = p.tree();
    std::vector<free_reference> refs;
    if (!free_references(p, c.lambda(), 0, refs)) return std::nullopt;
    std::optional<std::string> type = type_bytes(t, c.lambda());
    std::string lambda = serialize(t, c.lambda());
    if (refs.empty()) return bounded(written{std::move(lambda), std::move(type), {{"", &c}}});

    // One local per name, in order of first use (every free use of a name resolves to the same
    // binding: the innermost one outside the lambda).
    std::vector<free_reference> names;
    for (const free_reference& r : refs) {
      bool seen = false;
      for (const free_reference& q : names) {
        if (q.name != r.name) continue;
        if (q.at.up != r.at.up || q.at.slot != r.at.slot) return std::nullopt;
        seen = true;
      }
      if (!seen) names.push_back(r);
    }
    std::string body;
    std::vector<placed_closure> closures{{"block.result", &c}};
    for (const free_reference& r : names) {
      const scope_node* s = c.made_in().get();
      for (std::uint32_t k = 0; s && k != r.at.up; ++k) s = s->frame->entry;
      if (!s || r.at.slot >= s->frame->slots.size()) return std::nullopt;
      std::optional<written> v = value(s->frame->slots[r.at.slot]->v);
      if (!v) return std::nullopt;
      place(closures, *v, "block.local", static_cast<std::size_t>(&r - names.data()), r.name);
      std::string local;
      put_message(local, 1, r.name);
      put_message(local, 2, v->bytes);
      put_message(body, 1, local);
      if (body.size() > max_bytes_) return std::nullopt;
    }
    put_message(body, 2, lambda);
    return bounded(written{computation(type, computation_field::block, body), std::move(type), std::move(closures)});
  }

  std::size_t max_bytes_;
  std::size_t depth_ = 0;
};

// The Computation bytes of a closed computation equivalent to the function value fn, or nullopt
// when there is none to ship (not a function; a closure that captured a federated value, a
// sequence or a placement; more than max_bytes, below protobuf's 2 GiB limit by default): the
// caller then runs fn itself.
inline std::optional<function_writer::written> written_function(const dynamic_value& fn,
                                                                std::size_t max_bytes = std::size_t{1} << 30) {
  if (!fn.is(value_kind::function) || !fn.function().impl) return std::nullopt;
  return function_writer(max_bytes).function(*fn.function().impl);
}
inline std::optional<std::string> function_computation(const dynamic_value& fn,
                                                       std::size_t max_bytes = std::size_t{1} << 30) {
  std::optional<function_writer::written> w = written_function(fn, max_bytes);
  if (!w) return std::nullopt;
  return std::move(w->bytes);
}

}  // namespace ctff::detail
