// Opaque computations: an XLA HLO module (Computation.xla).
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
                              const xla_binding<NR>& result, bool shapes_checked = false)
      : hlo_module_(hlo_module), parameter_(parameter), result_(result) {
    // (shapes_checked: the bindings' shapes were checked at compile time, opaque/make.hpp.)
    if constexpr (detail::is_function_v<F> && NR != 0 && (NP == 0) == std::is_void_v<P> &&
                  detail::xla_local_v<P> && detail::xla_local_v<R>) {  // else: reported above
      if (!shapes_checked) {
        if constexpr (NP != 0) detail::check_binding_for<P>(parameter_);
        detail::check_binding_for<R>(result_);
      }
    }
    this->finish();
  }

  constexpr bytes_ref hlo_module() const { return hlo_module_; }

  template <class V>
  constexpr void visit_refs(V&& v) {
    v(hlo_module_);
  }

 private:
  friend struct detail::opaque_access;
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
        if constexpr (NR != 0)  // (else: rejected above)
          detail::write_binding(result_.entries.data(), 0, true, b);
      });
    });
  }

  bytes_ref hlo_module_;
  xla_binding<NP> parameter_;
  xla_binding<NR> result_;
};

}  // namespace ctff
