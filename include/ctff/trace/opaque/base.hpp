// Opaque computations, part 2: wire helpers (Any, bindings), type checks of bindings, the
// printed label and the base class the three kinds share.
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

#include "ctff/core/defer.hpp"
#include "ctff/core/adler32.hpp"
#include "ctff/core/byte_view.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/report.hpp"
#include "ctff/types/type_string.hpp"
#include "ctff/trace/opaque/refs.hpp"

namespace ctff {

namespace detail {

// A length-delimited field whose payload `w(byte_sink&)` writes (run once to size, once to write).
template <class W>
constexpr void message_field(byte_sink& s, std::uint32_t field, const W& w) {
  byte_sink count{};
  w(count);
  s.tag(field, 2);
  s.varint(count.n);
  w(s);
}

// google.protobuf.Any{type_url = 1, value = 2}; nothing for ctff::empty_any.
CTFF_DEFER
constexpr void write_any(byte_sink& s, std::string_view type_url, const bytes_ref& value) {
  if (value.is_empty_any()) return;
  s.string_field(1, type_url);
  if (!value.empty()) {
    s.tag(2, 2);
    s.varint(value.size());
    opaque_access::write(value, s);
  }
}

CTFF_DEFER
constexpr std::size_t binding_end(const binding_entry* e, std::size_t i) {
  if (!detail::is(e[i].kind, binding_kind::struct_)) return i + 1;
  std::size_t j = i + 1;
  for (std::uint32_t k = 0; k != e[i].count; ++k) j = binding_end(e, j);
  return j;
}

// The body of the Binding message for entry i (TensorFlow.Binding or Xla.Binding). Oneof members
// are written even when empty or zero: a set oneof field has presence.
CTFF_DEFER
constexpr void write_binding(const binding_entry* e, std::size_t i, bool xla, byte_sink& s) {
  const binding_entry& b = e[i];
  switch (b.kind) {
    case binding_kind::struct_:
      message_field(s, 1, [&](byte_sink& m) {
        std::size_t j = i + 1;
        for (std::uint32_t k = 0; k != b.count; ++k) {
          message_field(m, 1, [&](byte_sink& x) { write_binding(e, j, xla, x); });
          j = binding_end(e, j);
        }
      });
      return;
    case binding_kind::tensor:
      message_field(s, 2, [&](byte_sink& m) {
        if (xla) {
          m.tag(1, 0);
          m.varint(static_cast<std::uint64_t>(static_cast<std::int64_t>(b.index)));
        } else {
          m.tag(1, 2);
          m.varint(b.name.size());
          m.chars(b.name);
        }
      });
      return;
    case binding_kind::sequence_variant:
    case binding_kind::sequence_graph_def:
      message_field(s, 3, [&](byte_sink& m) {
        m.tag(detail::is(b.kind, binding_kind::sequence_variant) ? 2 : 3, 2);
        m.varint(b.name.size());
        m.chars(b.name);
      });
      return;
  }
}

// Checks that the binding subtree at entry i mirrors type node t; returns the entry after it.
CTFF_DEFER
constexpr std::size_t check_binding(const type_desc& d, std::uint32_t t, const binding_entry* e,
                                    std::size_t n, std::size_t i) {
  if (i >= n) throw std::invalid_argument("ctff: opaque computation: the binding is incomplete");
  const binding_entry& b = e[i];
  const type_node& tn = d.node(t);
  switch (b.kind) {
    case binding_kind::struct_: {
      if (!detail::is(tn.kind, type_kind::struct_) || tn.kid_count != b.count)
        throw std::invalid_argument(
            "ctff: opaque computation: a struct binding must bind a struct type with as many "
            "elements");
      std::size_t j = i + 1;
      for (std::uint32_t k = 0; k != b.count; ++k) j = check_binding(d, d.kid(t, k), e, n, j);
      return j;
    }
    case binding_kind::tensor:
      if (!detail::is(tn.kind, type_kind::tensor))
        throw std::invalid_argument(
            "ctff: opaque computation: a tensor binding must bind a tensor type");
      return i + 1;
    case binding_kind::sequence_variant:
    case binding_kind::sequence_graph_def:
      if (!detail::is(tn.kind, type_kind::sequence))
        throw std::invalid_argument(
            "ctff: opaque computation: a sequence binding must bind a sequence type");
      return i + 1;
  }
  return i + 1;
}

template <class T, bool Xla, std::size_t N>
constexpr void check_binding_for(const binding<Xla, N>& b) {
  const auto d = describe<T>();
  if (check_binding(d, d.root, b.entries.data(), N, 0) != N)
    throw std::invalid_argument("ctff: opaque computation: the binding has extra entries");
}

// Whether a binding of shape S can bind type T (S void: not known until the binding is checked).
template <class T, class S>
inline constexpr bool binding_fits_v = std::is_void_v<S>;
template <class T>
inline constexpr bool binding_fits_v<T, tensor_shape> = is_tensor_v<T>;
template <class T>
inline constexpr bool binding_fits_v<T, sequence_shape> = is_sequence_v<T>;
template <class... E, class... S>
inline constexpr bool binding_fits_v<struct_t<E...>, struct_shape<S...>> = [] {
  if constexpr (sizeof...(E) != sizeof...(S)) {
    return false;
  } else {
    return (binding_fits_v<typename elem<E>::type, S> && ...);
  }
}();

// A binding's shape in a diagnostic, as the builders spell it: `tf_struct(tf_tensor,tf_sequence)`.
template <bool Xla, class S>
struct shape_writer;
template <bool Xla>
struct shape_writer<Xla, tensor_shape> {
  static constexpr void write(text_sink& s) { s.put(Xla ? "xla_index" : "tf_tensor"); }
};
template <bool Xla>
struct shape_writer<Xla, sequence_shape> {
  static constexpr void write(text_sink& s) { s.put("tf_sequence"); }
};
template <bool Xla, class... S>
struct shape_writer<Xla, struct_shape<S...>> {
  static constexpr void write(text_sink& s) {
    s.put(Xla ? "xla_struct(" : "tf_struct(");
    bool first = true;
    ((s.put(first ? "" : ","), first = false, shape_writer<Xla, S>::write(s)), ...);
    s.put(')');
  }
};

// `<label>: <shape>` in a failed check's report (types/report.hpp).
template <fixed_string Label, bool Xla, class S>
struct labeled_binding {};
template <fixed_string Label, bool Xla, class S>
struct report_item<labeled_binding<Label, Xla, S>> {
  static constexpr void write(text_sink& s) {
    s.put(Label.view());
    s.put(": ");
    shape_writer<Xla, S>::write(s);
  }
};

// Whether a type holds only tensors, structs and (if allowed) sequences (a trait: no type_desc).
template <class T, bool Sequences>
inline constexpr bool local_kinds_v = false;
template <dtype D, std::int64_t... N, bool Sequences>
inline constexpr bool local_kinds_v<tensor<D, N...>, Sequences> = true;
template <class T, bool Sequences>
inline constexpr bool local_kinds_v<sequence_t<T>, Sequences> = Sequences;
template <class... E, bool Sequences>
inline constexpr bool local_kinds_v<struct_t<E...>, Sequences> =
    (local_kinds_v<typename elem<E>::type, Sequences> && ... && true);
template <class T>
inline constexpr bool tf_local_v = local_kinds_v<T, true>;
template <class T>
inline constexpr bool xla_local_v = local_kinds_v<T, false>;
template <>
inline constexpr bool tf_local_v<void> = true;
template <>
inline constexpr bool xla_local_v<void> = true;

// The printed form, computed once on construction: `comp#<hex>` or (Data) `<decimal>`; and the
// structural label: `Compiled(<hex>)` or `Data(<decimal>)`.
struct opaque_label {
  std::array<char, 16> text{};
  std::uint32_t size = 0;
  std::uint32_t checksum = 0;
  std::array<char, 24> structural{};
  std::uint32_t structural_size = 0;
};

template <class W>
constexpr opaque_label make_label(const W& write, bool decimal) {
  byte_sink count{};
  write(count);
  scratch<unsigned char> buf;
  buf.assign(count.n, 0);
  byte_sink out{buf.data()};
  write(out);
  opaque_label l{};
  l.checksum = adler32(buf.data(), buf.size());
  text_sink t{l.text.data()};
  if (decimal) {
    t.put_uint(l.checksum);
  } else {
    t.put("comp#");
    put_hex(t, l.checksum);
  }
  l.size = static_cast<std::uint32_t>(t.n);
  text_sink d{l.structural.data()};
  if (decimal) {
    d.put("Data(");
    d.put_uint(l.checksum);
  } else {
    d.put("Compiled(");
    put_hex(d, l.checksum);
  }
  d.put(')');
  l.structural_size = static_cast<std::uint32_t>(d.n);
  return l;
}

template <class C>
class owned_opaque;

// What the three opaque kinds share: printed forms, bytes, calls. D provides `type`,
// `write(byte_sink&)` (the whole Computation message) and `decimal_label`.
template <class D>
class opaque_base {
 public:
  // The serialized Computation.
  constexpr std::size_t size() const {
    byte_sink c{};
    detail::opaque_access::write(self(), c);
    return c.n;
  }
  auto bytes() const -> dependent_t<D, std::vector<unsigned char>> {
    decltype(bytes()) out(size());  // (named through D: core/defer.hpp)
    byte_sink s{out.data()};
    detail::opaque_access::write(self(), s);
    return out;
  }
  // adler32 of the serialized Computation.
  constexpr std::uint32_t checksum() const { return label_.checksum; }
  constexpr std::string_view compact() const { return {label_.text.data(), label_.size}; }
  constexpr std::string_view formatted() const { return compact(); }
  // Python's structural_representation(): one node, `Compiled(<hex>)` or `Data(<decimal>)`.
  constexpr std::string_view structural() const {
    return {label_.structural.data(), label_.structural_size};
  }
  static constexpr std::string_view type_string() { return ctff::type_string<typename D::type>(); }
  static constexpr std::string_view formatted_type_string() {
    return ctff::formatted_type_string<typename D::type>();
  }

  // Inside a trace: Call(this, arg), bound to a Block local.
  template <class... X>
  constexpr auto operator()(X&&... x) const {
    return call_function(self(), static_cast<X&&>(x)...);
  }

 protected:
  constexpr void finish() {
    label_ = make_label([this](byte_sink& s) { opaque_access::write(self(), s); }, D::decimal_label);
  }

 private:
  constexpr const D& self() const { return static_cast<const D&>(*this); }
  opaque_label label_{};
};

template <class T>
constexpr void write_type_field(byte_sink& s) {
  auto tb = type_bytes<T>();
  s.tag(1, 2);
  s.varint(tb.size());
  s.bytes(tb.data(), tb.size());
}

template <class F>
struct opaque_fn {  // not a function type: reported by the caller
  using param = void;
  using result = void;
};
template <class P, class R>
struct opaque_fn<function_t<P, R>> {
  using param = P;
  using result = R;
};

}  // namespace detail

}  // namespace ctff
