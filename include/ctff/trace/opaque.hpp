// Opaque local computations with a declared type, usable wherever a function value (or, for Data,
// a value) is: federated_map / apply / aggregate arguments, calls inside a trace, struct elements.
//
//   ctff::tensorflow_computation<F>(graph_def, [parameter,] result [, ctff::tf_options{...}])
//       Computation.tensorflow: graph_def packed as google.protobuf.Any
//       (type.googleapis.com/tensorflow.GraphDef), TensorFlow.Binding for parameter and result
//       (ctff::tf_tensor, ctff::tf_struct, ctff::tf_sequence, ctff::tf_sequence_graph_def),
//       initialize_op, cache_key, session_token_tensor_name.
//   ctff::xla_computation<F>(hlo_module, [parameter,] result)
//       Computation.xla: hlo_module as Any (type.googleapis.com/xla.HloModuleProto), Xla.Binding
//       (ctff::xla_index, ctff::xla_struct).
//   ctff::data<T>(type_url, value)
//       Computation.data: Data.content = Any{type_url, value}, of declared type T.
//
// The parameter binding is given exactly when F has a parameter; bindings must mirror the
// structure of the types they bind (checked on construction). TensorFlow types hold tensors,
// structs and sequences only; XLA types tensors and structs only.
//
// Storage. Given views (string literals, std::string_view, ctff::byte_view, `unsigned char`
// arrays), the object only refers to them: it is a literal type, so `constexpr` objects made from
// literals are usable in compile-time traces. Given a std::string or std::vector<unsigned char>
// as the graph_def / hlo_module / value, the object owns a copy of every string it uses (binding
// names and options included), for run-time construction.
//
// Printing: TensorFlow and XLA print as Python prints a CompiledComputation, `comp#<adler32 of the
// serialized Computation, lowercase hex, no zero padding>`. Python prints Data as the id() of its
// content object, which is not reproducible; ctff prints the decimal adler32 of the serialized
// Computation instead (docs/opaque_computations.md).
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
#include "ctff/core/sink.hpp"
#include "ctff/trace/call.hpp"
#include "ctff/trace/embed.hpp"
#include "ctff/types/aliases.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/type_string.hpp"

namespace ctff {

// Bytes an opaque computation refers to (not copied). A char array is taken as a string literal:
// all its characters but the terminating NUL (embedded NULs are kept).
class bytes_ref {
 public:
  constexpr bytes_ref() = default;
  template <std::size_t N>
  constexpr bytes_ref(const char (&s)[N]) : c_(s), n_(N - 1) {}
  template <std::size_t N>
  constexpr bytes_ref(const unsigned char (&s)[N]) : u_(s), n_(N) {}
  constexpr bytes_ref(std::string_view s) : c_(s.data()), n_(s.size()) {}
  constexpr bytes_ref(byte_view b) : u_(b.data()), n_(b.size()) {}

  constexpr std::size_t size() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  constexpr unsigned char operator[](std::size_t i) const {
    return c_ ? static_cast<unsigned char>(c_[i]) : u_[i];
  }
  constexpr void write(detail::byte_sink& s) const {
    if (c_) {
      s.chars(std::string_view(c_, n_));
    } else {
      s.bytes(u_, n_);
    }
  }

 private:
  const char* c_ = nullptr;
  const unsigned char* u_ = nullptr;
  std::size_t n_ = 0;
};

// A name an opaque computation refers to (not copied): a string literal, std::string_view, or an
// lvalue std::string (a temporary std::string is refused: the view would dangle).
class text_ref {
 public:
  constexpr text_ref(const char* s) : v_(s) {}
  constexpr text_ref(std::string_view s) : v_(s) {}
  text_ref(const std::string& s) : v_(s) {}
  text_ref(std::string&&) = delete;
  constexpr std::string_view view() const { return v_; }

 private:
  std::string_view v_;
};

// One node of a binding tree, in preorder: a struct is followed by its elements' subtrees.
enum class binding_kind : std::uint8_t { struct_, tensor, sequence_variant, sequence_graph_def };

struct binding_entry {
  binding_kind kind = binding_kind::tensor;
  std::uint32_t count = 0;  // struct: number of elements
  std::string_view name{};  // TensorFlow: tensor name
  std::int32_t index = 0;   // XLA: tensor index
};

// A TensorFlow (Xla = false) or XLA (Xla = true) binding of N preorder entries.
template <bool Xla, std::size_t N>
struct binding {
  std::array<binding_entry, N> entries{};
};
template <std::size_t N>
using tf_binding = binding<false, N>;
template <std::size_t N>
using xla_binding = binding<true, N>;

namespace detail {
template <bool Xla>
constexpr binding<Xla, 1> leaf_binding(binding_kind k, std::string_view name, std::int32_t index) {
  binding<Xla, 1> b{};
  b.entries[0] = binding_entry{k, 0, name, index};
  return b;
}
template <bool Xla, std::size_t... N>
constexpr binding<Xla, 1 + (N + ... + 0)> struct_binding(const binding<Xla, N>&... elements) {
  binding<Xla, 1 + (N + ... + 0)> b{};
  b.entries[0] =
      binding_entry{binding_kind::struct_, static_cast<std::uint32_t>(sizeof...(N)), {}, 0};
  [[maybe_unused]] std::size_t at = 1;
  (
      [&] {
        for (const auto& e : elements.entries) b.entries[at++] = e;
      }(),
      ...);
  return b;
}
}  // namespace detail

// TensorBinding{tensor_name}, e.g. tf_tensor("x:0").
constexpr tf_binding<1> tf_tensor(text_ref tensor_name) {
  return detail::leaf_binding<false>(binding_kind::tensor, tensor_name.view(), 0);
}
// SequenceBinding{variant_tensor_name}.
constexpr tf_binding<1> tf_sequence(text_ref variant_tensor_name) {
  return detail::leaf_binding<false>(binding_kind::sequence_variant, variant_tensor_name.view(), 0);
}
// SequenceBinding{graph_def_tensor_name}.
constexpr tf_binding<1> tf_sequence_graph_def(text_ref graph_def_tensor_name) {
  return detail::leaf_binding<false>(binding_kind::sequence_graph_def, graph_def_tensor_name.view(),
                                     0);
}
// StructBinding{element...}, positional.
template <std::size_t... N>
constexpr auto tf_struct(const tf_binding<N>&... elements) {
  return detail::struct_binding<false>(elements...);
}

// Xla.TensorBinding{index}.
constexpr xla_binding<1> xla_index(std::int32_t index) {
  return detail::leaf_binding<true>(binding_kind::tensor, {}, index);
}
// Xla.StructBinding{element...}.
template <std::size_t... N>
constexpr auto xla_struct(const xla_binding<N>&... elements) {
  return detail::struct_binding<true>(elements...);
}

// Optional fields of the TensorFlow message (empty / 0: not written).
struct tf_options {
  std::string_view initialize_op{};
  std::uint64_t cache_key = 0;  // TensorFlow.CacheKey.id
  std::string_view session_token_tensor_name{};
};

inline constexpr std::string_view tensorflow_graph_def_type_url =
    "type.googleapis.com/tensorflow.GraphDef";
inline constexpr std::string_view xla_hlo_module_type_url =
    "type.googleapis.com/xla.HloModuleProto";

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

// google.protobuf.Any{type_url = 1, value = 2}.
constexpr void write_any(byte_sink& s, std::string_view type_url, const bytes_ref& value) {
  s.string_field(1, type_url);
  if (!value.empty()) {
    s.tag(2, 2);
    s.varint(value.size());
    value.write(s);
  }
}

constexpr std::size_t binding_end(const binding_entry* e, std::size_t i) {
  if (e[i].kind != binding_kind::struct_) return i + 1;
  std::size_t j = i + 1;
  for (std::uint32_t k = 0; k != e[i].count; ++k) j = binding_end(e, j);
  return j;
}

// The body of the Binding message for entry i (TensorFlow.Binding or Xla.Binding). Oneof members
// are written even when empty or zero: a set oneof field has presence.
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
        m.tag(b.kind == binding_kind::sequence_variant ? 2 : 3, 2);
        m.varint(b.name.size());
        m.chars(b.name);
      });
      return;
  }
}

// Checks that the binding subtree at entry i mirrors type node t; returns the entry after it.
constexpr std::size_t check_binding(const type_desc& d, std::uint32_t t, const binding_entry* e,
                                    std::size_t n, std::size_t i) {
  if (i >= n) throw std::invalid_argument("ctff: opaque computation: the binding is incomplete");
  const binding_entry& b = e[i];
  const type_node& tn = d.node(t);
  switch (b.kind) {
    case binding_kind::struct_: {
      if (tn.kind != type_kind::struct_ || tn.kid_count != b.count)
        throw std::invalid_argument(
            "ctff: opaque computation: a struct binding must bind a struct type with as many "
            "elements");
      std::size_t j = i + 1;
      for (std::uint32_t k = 0; k != b.count; ++k) j = check_binding(d, d.kid(t, k), e, n, j);
      return j;
    }
    case binding_kind::tensor:
      if (tn.kind != type_kind::tensor)
        throw std::invalid_argument(
            "ctff: opaque computation: a tensor binding must bind a tensor type");
      return i + 1;
    case binding_kind::sequence_variant:
    case binding_kind::sequence_graph_def:
      if (tn.kind != type_kind::sequence)
        throw std::invalid_argument(
            "ctff: opaque computation: a sequence binding must bind a sequence type");
      return i + 1;
  }
  return i + 1;
}

template <class T, bool Xla, std::size_t N>
constexpr void check_binding_for(const binding<Xla, N>& b) {
  const type_desc d = describe<T>();
  if (check_binding(d, d.root, b.entries.data(), N, 0) != N)
    throw std::invalid_argument("ctff: opaque computation: the binding has extra entries");
}

// Whether type node i holds only tensors, structs and (if allowed) sequences.
constexpr bool local_kinds_only(const type_desc& d, std::uint32_t i, bool sequences) {
  const type_node& n = d.node(i);
  switch (n.kind) {
    case type_kind::tensor:
      return true;
    case type_kind::sequence:
      return sequences;
    case type_kind::struct_:
      for (std::uint32_t k = 0; k != n.kid_count; ++k)
        if (!local_kinds_only(d, d.kid(i, k), sequences)) return false;
      return true;
    default:
      return false;
  }
}
template <class T>
inline constexpr bool tf_local_v = local_kinds_only(describe<T>(), describe<T>().root, true);
template <class T>
inline constexpr bool xla_local_v = local_kinds_only(describe<T>(), describe<T>().root, false);
template <>
inline constexpr bool tf_local_v<void> = true;
template <>
inline constexpr bool xla_local_v<void> = true;

// The printed form, computed once on construction: `comp#<hex>` or (Data) `<decimal>`.
struct opaque_label {
  std::array<char, 16> text{};
  std::uint32_t size = 0;
  std::uint32_t checksum = 0;
};

template <class W>
constexpr opaque_label make_label(const W& write, bool decimal) {
  byte_sink count{};
  write(count);
  std::vector<unsigned char> buf;
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
    self().write(c);
    return c.n;
  }
  std::vector<unsigned char> bytes() const {
    std::vector<unsigned char> out(size());
    byte_sink s{out.data()};
    self().write(s);
    return out;
  }
  // adler32 of the serialized Computation.
  constexpr std::uint32_t checksum() const { return label_.checksum; }
  constexpr std::string_view compact() const { return {label_.text.data(), label_.size}; }
  constexpr std::string_view formatted() const { return compact(); }
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
    label_ = make_label([this](byte_sink& s) { self().write(s); }, D::decimal_label);
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

// A TensorFlow computation (Computation.tensorflow). NP = 0: no parameter binding.
template <class F, std::size_t NP, std::size_t NR>
class tensorflow_computation_t : public detail::opaque_base<tensorflow_computation_t<F, NP, NR>> {
  static_assert(detail::is_function_v<F>,
                "ctff: tensorflow_computation: the type must be a function type");
  using P = typename detail::opaque_fn<F>::param;
  using R = typename detail::opaque_fn<F>::result;
  static_assert(detail::tf_local_v<P> && detail::tf_local_v<R>,
                "ctff: tensorflow_computation: parameter and result may hold only tensors, structs "
                "and sequences");
  static_assert((NP == 0) == std::is_void_v<P>,
                "ctff: tensorflow_computation: give a parameter binding exactly when the function "
                "type has a parameter");
  static_assert(NR > 0, "ctff: tensorflow_computation: the result needs a binding");

 public:
  using type = F;
  static constexpr bool decimal_label = false;

  constexpr tensorflow_computation_t(bytes_ref graph_def, const tf_binding<NP>& parameter,
                                     const tf_binding<NR>& result, const tf_options& options)
      : graph_def_(graph_def), parameter_(parameter), result_(result), options_(options) {
    if constexpr (detail::tf_local_v<P> && detail::tf_local_v<R>) {  // else: reported above
      if constexpr (NP != 0) detail::check_binding_for<P>(parameter_);
      detail::check_binding_for<R>(result_);
    }
    this->finish();
  }

  constexpr void write(detail::byte_sink& s) const {
    detail::write_type_field<F>(s);
    detail::message_field(s, 2, [this](detail::byte_sink& m) {
      detail::message_field(m, 1, [this](detail::byte_sink& a) {
        detail::write_any(a, tensorflow_graph_def_type_url, graph_def_);
      });
      if constexpr (NP != 0) {
        detail::message_field(m, 2, [this](detail::byte_sink& b) {
          detail::write_binding(parameter_.entries.data(), 0, false, b);
        });
      }
      detail::message_field(m, 3, [this](detail::byte_sink& b) {
        detail::write_binding(result_.entries.data(), 0, false, b);
      });
      m.string_field(4, options_.initialize_op);
      if (options_.cache_key != 0) {
        detail::message_field(m, 5, [this](detail::byte_sink& k) {
          k.tag(1, 0);
          k.varint(options_.cache_key);
        });
      }
      m.string_field(6, options_.session_token_tensor_name);
    });
  }

  constexpr bytes_ref graph_def() const { return graph_def_; }
  constexpr const tf_binding<NP>& parameter_binding() const { return parameter_; }
  constexpr const tf_binding<NR>& result_binding() const { return result_; }
  constexpr const tf_options& options() const { return options_; }

  // Every string the object refers to (for owned_opaque).
  template <class V>
  constexpr void visit_refs(V&& v) {
    v(graph_def_);
    for (auto& e : parameter_.entries) v(e.name);
    for (auto& e : result_.entries) v(e.name);
    v(options_.initialize_op);
    v(options_.session_token_tensor_name);
  }

 private:
  bytes_ref graph_def_;
  tf_binding<NP> parameter_;
  tf_binding<NR> result_;
  tf_options options_;
};

// An XLA computation (Computation.xla). NP = 0: no parameter binding.
template <class F, std::size_t NP, std::size_t NR>
class xla_computation_t : public detail::opaque_base<xla_computation_t<F, NP, NR>> {
  static_assert(detail::is_function_v<F>,
                "ctff: xla_computation: the type must be a function type");
  using P = typename detail::opaque_fn<F>::param;
  using R = typename detail::opaque_fn<F>::result;
  static_assert(detail::xla_local_v<P> && detail::xla_local_v<R>,
                "ctff: xla_computation: parameter and result may hold only tensors and structs");
  static_assert((NP == 0) == std::is_void_v<P>,
                "ctff: xla_computation: give a parameter binding exactly when the function type "
                "has a parameter");
  static_assert(NR > 0, "ctff: xla_computation: the result needs a binding");

 public:
  using type = F;
  static constexpr bool decimal_label = false;

  constexpr xla_computation_t(bytes_ref hlo_module, const xla_binding<NP>& parameter,
                              const xla_binding<NR>& result)
      : hlo_module_(hlo_module), parameter_(parameter), result_(result) {
    if constexpr (detail::xla_local_v<P> && detail::xla_local_v<R>) {  // else: reported above
      if constexpr (NP != 0) detail::check_binding_for<P>(parameter_);
      detail::check_binding_for<R>(result_);
    }
    this->finish();
  }

  constexpr void write(detail::byte_sink& s) const {
    detail::write_type_field<F>(s);
    detail::message_field(s, 12, [this](detail::byte_sink& m) {
      detail::message_field(m, 1, [this](detail::byte_sink& a) {
        detail::write_any(a, xla_hlo_module_type_url, hlo_module_);
      });
      if constexpr (NP != 0) {
        detail::message_field(m, 2, [this](detail::byte_sink& b) {
          detail::write_binding(parameter_.entries.data(), 0, true, b);
        });
      }
      detail::message_field(m, 3, [this](detail::byte_sink& b) {
        detail::write_binding(result_.entries.data(), 0, true, b);
      });
    });
  }

  constexpr bytes_ref hlo_module() const { return hlo_module_; }

  template <class V>
  constexpr void visit_refs(V&& v) {
    v(hlo_module_);
  }

 private:
  bytes_ref hlo_module_;
  xla_binding<NP> parameter_;
  xla_binding<NR> result_;
};

// External data of declared type T (Computation.data, Data.content).
template <class T>
class data_t : public detail::opaque_base<data_t<T>> {
 public:
  using type = T;
  static constexpr bool decimal_label = true;

  constexpr data_t(text_ref type_url, bytes_ref value) : type_url_(type_url.view()), value_(value) {
    this->finish();
  }

  constexpr void write(detail::byte_sink& s) const {
    detail::write_type_field<T>(s);
    detail::message_field(s, 10, [this](detail::byte_sink& m) {
      detail::message_field(
          m, 3, [this](detail::byte_sink& a) { detail::write_any(a, type_url_, value_); });
    });
  }

  constexpr std::string_view type_url() const { return type_url_; }
  constexpr bytes_ref value() const { return value_; }

  template <class V>
  constexpr void visit_refs(V&& v) {
    v(type_url_);
    v(value_);
  }

 private:
  std::string_view type_url_;
  bytes_ref value_;
};

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
  } else {
    static_assert(std::is_constructible_v<bytes_ref, const X&>,
                  "ctff: opaque computation: give the bytes as a string literal, std::string_view, "
                  "ctff::byte_view, an unsigned char array, std::string or "
                  "std::vector<unsigned char>");
    return bytes_ref(x);
  }
}

// An opaque computation owning copies of all the strings it refers to.
template <class C>
class owned_opaque {
 public:
  using type = typename C::type;
  using core_type = C;

  explicit owned_opaque(const C& core) : store_(std::make_shared<std::string>()), core_(core) {
    std::size_t total = 0;
    core_.visit_refs([&](const auto& r) { total += r.size(); });
    store_->reserve(total);
    std::vector<std::size_t> at;
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
  static constexpr std::string_view type_string() { return C::type_string(); }
  static constexpr std::string_view formatted_type_string() { return C::formatted_type_string(); }
  void write(byte_sink& s) const { core_.write(s); }

  template <class... X>
  auto operator()(X&&... x) const {
    return call_function(*this, static_cast<X&&>(x)...);
  }

 private:
  std::shared_ptr<std::string> store_;
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

// Embeds an opaque computation: its bytes and printed form written into the graph's pools.
template <class C>
constexpr std::uint32_t embed_opaque(trace_ctx& c, const C& x) {
  embed e{};
  own_bytes(c, e, [&](byte_sink& s) { x.write(s); });
  own_text(
      c, [&](text_sink& t) { t.put(x.compact()); }, false, e.compact_off, e.compact_len);
  e.formatted_off = e.compact_off;
  e.formatted_len = e.compact_len;
  c.embeds.push_back(e);
  return embedded_node(c, static_cast<std::uint32_t>(c.embeds.size() - 1));
}

template <class C>
struct opaque_convert {
  static constexpr bool ok = true;
  using type = typename C::type;
  static constexpr void collect(const C&, bool, std::vector<operand>&) {}
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
  static constexpr void collect(const owned_opaque<C>&, bool, std::vector<operand>&) {}
  static std::uint32_t make(trace_ctx& c, const owned_opaque<C>& x) {
    return embed_opaque(c, x.core());
  }
};

}  // namespace detail

// tensorflow_computation<F>(graph_def, result [, options]) for a function type without parameter.
template <class F, class G, std::size_t NR>
constexpr auto tensorflow_computation(const G& graph_def, const tf_binding<NR>& result,
                                      const tf_options& options = {}) {
  using C = tensorflow_computation_t<tff_t<F>, 0, NR>;
  return detail::finish_opaque<C, G>(
      C(detail::as_bytes_ref(graph_def), tf_binding<0>{}, result, options));
}

// tensorflow_computation<F>(graph_def, parameter, result [, options]).
template <class F, class G, std::size_t NP, std::size_t NR>
constexpr auto tensorflow_computation(const G& graph_def, const tf_binding<NP>& parameter,
                                      const tf_binding<NR>& result,
                                      const tf_options& options = {}) {
  using C = tensorflow_computation_t<tff_t<F>, NP, NR>;
  return detail::finish_opaque<C, G>(
      C(detail::as_bytes_ref(graph_def), parameter, result, options));
}

// xla_computation<F>(hlo_module, result) for a function type without parameter.
template <class F, class G, std::size_t NR>
constexpr auto xla_computation(const G& hlo_module, const xla_binding<NR>& result) {
  using C = xla_computation_t<tff_t<F>, 0, NR>;
  return detail::finish_opaque<C, G>(C(detail::as_bytes_ref(hlo_module), xla_binding<0>{}, result));
}

// xla_computation<F>(hlo_module, parameter, result).
template <class F, class G, std::size_t NP, std::size_t NR>
constexpr auto xla_computation(const G& hlo_module, const xla_binding<NP>& parameter,
                               const xla_binding<NR>& result) {
  using C = xla_computation_t<tff_t<F>, NP, NR>;
  return detail::finish_opaque<C, G>(C(detail::as_bytes_ref(hlo_module), parameter, result));
}

// data<T>(type_url, value): Data{content: Any{type_url, value}} of type T. Owns its strings when
// either argument is a std::string (or the value a std::vector).
template <class T, class U, class V>
constexpr auto data(const U& type_url, const V& value) {
  using C = data_t<tff_t<T>>;
  if constexpr (std::is_same_v<U, std::string> && !detail::owning_bytes_v<V>) {
    return detail::owned_opaque<C>(C(text_ref(type_url), detail::as_bytes_ref(value)));
  } else {
    return detail::finish_opaque<C, V>(C(text_ref(type_url), detail::as_bytes_ref(value)));
  }
}

}  // namespace ctff
