// Opaque computations, part 1: the byte and name references they hold and the binding trees
// (TensorFlow.Binding, Xla.Binding) users build with tf_tensor / tf_struct / xla_index / ...
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

// The payload `google.protobuf.Any()`: no type_url and no value, as Python's `any_pb2.Any()`
// (TFF's own test helpers build TensorFlow computations with such a graph_def). It is written as a
// present, empty submessage.
struct empty_any_t {
  explicit constexpr empty_any_t() = default;
};
inline constexpr empty_any_t empty_any{};

namespace detail {
// Writes the wire bytes of an opaque computation or of the bytes it refers to (not part of their
// public interface: the sink is the library's).
struct opaque_access {
  template <class C>
  static constexpr void write(const C& c, byte_sink& s) {
    c.write(s);
  }
};
}  // namespace detail

// Bytes an opaque computation refers to (not copied). A char array is taken as a string literal:
// all its characters but the terminating NUL (embedded NULs are kept).
class bytes_ref {
 public:
  constexpr bytes_ref() = default;
  constexpr bytes_ref(empty_any_t) : empty_any_(true) {}
  template <std::size_t N>
  constexpr bytes_ref(const char (&s)[N]) : c_(s), n_(N - 1), chars_(true) {}
  template <std::size_t N>
  constexpr bytes_ref(const unsigned char (&s)[N]) : u_(s), n_(N) {}
  constexpr bytes_ref(std::string_view s) : c_(s.data()), n_(s.size()), chars_(true) {}
  constexpr bytes_ref(byte_view b) : u_(b.data()), n_(b.size()) {}

  constexpr std::size_t size() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  // Made from ctff::empty_any: the enclosing Any has neither type_url nor value.
  constexpr bool is_empty_any() const { return empty_any_; }
  constexpr unsigned char operator[](std::size_t i) const {
    return chars_ ? static_cast<unsigned char>(c_[i]) : u_[i];
  }

 private:
  friend struct detail::opaque_access;
  constexpr void write(detail::byte_sink& s) const {
    if (chars_) {
      s.chars(std::string_view(c_, n_));
    } else {
      s.bytes(u_, n_);
    }
  }
  const char* c_ = nullptr;
  const unsigned char* u_ = nullptr;
  std::size_t n_ = 0;
  bool empty_any_ = false;
  // (A flag, not a null test on c_: g++'s -fsanitize=undefined makes comparing a static array's
  // address with null non-constant.)
  bool chars_ = false;
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

namespace detail {
// The shape of a binding tree as a type, so that a binding that cannot bind its type is a compile
// error at the user's call (opaque/make.hpp). void: unknown (checked when the computation is made).
struct tensor_shape {};
struct sequence_shape {};
template <class... S>
struct struct_shape {};
template <class... S>
using struct_shape_t = std::conditional_t<(std::is_void_v<S> || ...), void, struct_shape<S...>>;
}  // namespace detail

// A TensorFlow (Xla = false) or XLA (Xla = true) binding of N preorder entries, of shape Shape.
template <bool Xla, std::size_t N, class Shape = void>
struct binding {
  using shape = Shape;
  std::array<binding_entry, N> entries{};

  constexpr binding() = default;
  // Forgets the shape (a binding of unknown shape is checked when the computation is made).
  template <class S>
    requires(std::is_void_v<Shape> && !std::is_void_v<S>)
  constexpr binding(const binding<Xla, N, S>& b) : entries(b.entries) {}
};
template <std::size_t N>
using tf_binding = binding<false, N>;
template <std::size_t N>
using xla_binding = binding<true, N>;

namespace detail {
template <bool Xla, class Shape>
constexpr binding<Xla, 1, Shape> leaf_binding(binding_kind k, std::string_view name,
                                              std::int32_t index) {
  binding<Xla, 1, Shape> b{};
  b.entries[0] = binding_entry{k, 0, name, index};
  return b;
}
template <bool Xla, std::size_t... N, class... S>
constexpr auto struct_binding(const binding<Xla, N, S>&... elements) {
  binding<Xla, 1 + (N + ... + 0), struct_shape_t<S...>> b{};
  b.entries[0] =
      binding_entry{binding_kind::struct_, static_cast<std::uint32_t>(sizeof...(N)), {}, 0};
  [[maybe_unused]] std::size_t at = 1;
  // Each element passed to the lambda, not captured: clang 22's bytecode interpreter cannot read
  // a captured reference parameter that refers to a global ("function parameter with unknown
  // value").
  (
      [&](const auto& element) {
        for (const auto& e : element.entries) b.entries[at++] = e;
      }(elements),
      ...);
  return b;
}
}  // namespace detail

// TensorBinding{tensor_name}, e.g. tf_tensor("x:0").
constexpr auto tf_tensor(text_ref tensor_name) {
  return detail::leaf_binding<false, detail::tensor_shape>(binding_kind::tensor,
                                                           tensor_name.view(), 0);
}
// SequenceBinding{variant_tensor_name}.
constexpr auto tf_sequence(text_ref variant_tensor_name) {
  return detail::leaf_binding<false, detail::sequence_shape>(binding_kind::sequence_variant,
                                                             variant_tensor_name.view(), 0);
}
// SequenceBinding{graph_def_tensor_name}.
constexpr auto tf_sequence_graph_def(text_ref graph_def_tensor_name) {
  return detail::leaf_binding<false, detail::sequence_shape>(binding_kind::sequence_graph_def,
                                                             graph_def_tensor_name.view(), 0);
}
// StructBinding{element...}, positional.
template <std::size_t... N, class... S>
constexpr auto tf_struct(const binding<false, N, S>&... elements) {
  return detail::struct_binding<false>(elements...);
}

// Xla.TensorBinding{index}.
constexpr auto xla_index(std::int32_t index) {
  return detail::leaf_binding<true, detail::tensor_shape>(binding_kind::tensor, {}, index);
}
// Xla.StructBinding{element...}.
template <std::size_t... N, class... S>
constexpr auto xla_struct(const binding<true, N, S>&... elements) {
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

}  // namespace ctff
