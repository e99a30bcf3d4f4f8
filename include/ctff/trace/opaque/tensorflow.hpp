// Opaque computations: a compiled TensorFlow graph (Computation.tensorflow).
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
#include "ctff/trace/opaque/base.hpp"

namespace ctff {

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
                                     const tf_binding<NR>& result, const tf_options& options,
                                     bool shapes_checked = false)
      : graph_def_(graph_def), parameter_(parameter), result_(result), options_(options) {
    // (shapes_checked: the bindings' shapes were checked at compile time, opaque/make.hpp.)
    if constexpr (detail::is_function_v<F> && NR != 0 && (NP == 0) == std::is_void_v<P> &&
                  detail::tf_local_v<P> && detail::tf_local_v<R>) {  // else: reported above
      if (!shapes_checked) {
        if constexpr (NP != 0) detail::check_binding_for<P>(parameter_);
        detail::check_binding_for<R>(result_);
      }
    }
    this->finish();
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
  friend struct detail::opaque_access;
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
        if constexpr (NR != 0)  // (else: rejected above)
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

  bytes_ref graph_def_;
  tf_binding<NP> parameter_;
  tf_binding<NR> result_;
  tf_options options_;
};

}  // namespace ctff
