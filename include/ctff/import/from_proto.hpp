// Computations made elsewhere (Python, a file, a server, ctff itself) used inside traces:
// ctff::from_proto<ctff::function<P, R>>(bytes) reads the bytes, checks the tree
// (ctff/read/checker.hpp) and compares its type with the declared one, then gives an object that
// a trace calls, passes to federated_map & co., or embeds like any computation: its bytes and
// printed forms are written into the using trace verbatim (an embedded node of the declared
// type, as for nested and opaque computations). The protobuf message overload is in
// ctff/proto/import.hpp.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "ctff/core/byte_view.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/read/print.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/read/structural.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/relations.hpp"
#include "ctff/types/type_string.hpp"

namespace ctff {

// The imported computation's type is not the declared one (what() prints both in TFF notation),
// or it is not valid (what() lists the checker's errors).
class import_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A checked computation of TFF function type F, owning its bytes and printed forms (shared
// between copies).
template <class F>
class imported_computation {
 public:
  using type = F;

  imported_computation(std::string bytes, const computation_tree& t)
      : d_(std::make_shared<const parts>(parts{std::move(bytes), ctff::compact(t), ctff::formatted(t),
                                               detail::tree_text(t, t.root, true, true),
                                               detail::tree_drawer(t).text(t.root, true),
                                               ctff::structural(t)})) {}

  byte_view bytes() const {
    return byte_view(reinterpret_cast<const unsigned char*>(d_->bytes.data()), d_->bytes.size());
  }
  std::string_view compact() const { return d_->compact; }
  std::string_view formatted() const { return d_->formatted; }
  std::string_view structural() const { return d_->structural; }
  static constexpr std::string_view type_string() { return ctff::type_string<F>(); }
  static constexpr std::string_view formatted_type_string() { return ctff::formatted_type_string<F>(); }
  // The formatted text and the structural drawing as a trace embeds them (a literal's line breaks
  // as text_sink's literal_break; a line break inside a drawing's row as structural_break).
  std::string_view formatted_encoded() const { return d_->formatted_encoded; }
  std::string_view structural_encoded() const { return d_->structural_encoded; }

  // Inside a trace: Call(this, arg), bound to a Block local.
  template <class... X>
  auto operator()(X&&... x) const {
    return detail::call_function(*this, static_cast<X&&>(x)...);
  }

 private:
  struct parts {
    std::string bytes, compact, formatted, formatted_encoded, structural_encoded, structural;
  };
  std::shared_ptr<const parts> d_;
};

// Reads, checks and type-checks serialized Computation bytes as a computation of type F.
// Throws ctff::read_error (unreadable bytes) or ctff::import_error (invalid, or another type).
template <class F>
imported_computation<tff_t<F>> from_proto(std::string_view bytes, read_limits limits = {}) {
  using T = tff_t<F>;
  static_assert(detail::is_function_v<T>, "ctff: from_proto: declare the computation's type as ctff::function<P, R>");
  const computation_tree t = read_computation(bytes, limits);
  auto errors = check(t);
  if (!errors.empty()) {
    std::string m = "ctff: from_proto: the computation is not valid:";
    for (const auto& e : errors) m += "\n  " + e.message();
    throw import_error(m);
  }
  const type_desc declared = describe<T>();
  const type_desc actual = t.type_of(t.root);
  if (!is_equivalent(declared, actual))
    throw import_error("ctff: from_proto: the computation has type " + to_string(actual) +
                       ", not the declared type " + to_string(declared));
  return imported_computation<T>(std::string(bytes), t);
}
template <class F>
imported_computation<tff_t<F>> from_proto(byte_view bytes, read_limits limits = {}) {
  return from_proto<F>(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), limits);
}

namespace detail {

template <class F>
struct convert<imported_computation<F>> {
  static constexpr bool ok = true;
  using type = F;
  static constexpr void collect(const imported_computation<F>&, bool, scratch<operand>&) {}
  static std::uint32_t make(trace_ctx& c, const imported_computation<F>& x) {
    embed e{};
    const byte_view b = x.bytes();
    own_bytes(c, e, [&](byte_sink& s) { s.bytes(b.data(), b.size()); });
    e.compact_off = c.add_chars(x.compact());
    e.compact_len = static_cast<std::uint32_t>(x.compact().size());
    e.formatted_off = c.add_chars(x.formatted_encoded());
    e.formatted_len = static_cast<std::uint32_t>(x.formatted_encoded().size());
    own_structural(c, e, x.structural_encoded());
    c.embeds.push_back(e);
    return embedded_node(c, static_cast<std::uint32_t>(c.embeds.size() - 1));
  }
};

}  // namespace detail
}  // namespace ctff
