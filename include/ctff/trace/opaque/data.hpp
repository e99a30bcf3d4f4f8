// Opaque computations: external data of a declared type (Computation.data).
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

// External data of declared type T (Computation.data, Data.content).
template <class T>
class data_t : public detail::opaque_base<data_t<T>> {
 public:
  using type = T;
  static constexpr bool decimal_label = true;

  constexpr data_t(text_ref type_url, bytes_ref value) : type_url_(type_url.view()), value_(value) {
    this->finish();
  }

  constexpr std::string_view type_url() const { return type_url_; }
  constexpr bytes_ref value() const { return value_; }

  template <class V>
  constexpr void visit_refs(V&& v) {
    v(type_url_);
    v(value_);
  }

 private:
  friend struct detail::opaque_access;
  constexpr void write(detail::byte_sink& s) const {
    detail::write_type_field<T>(s);
    detail::message_field(s, 10, [this](detail::byte_sink& m) {
      detail::message_field(
          m, 3, [this](detail::byte_sink& a) { detail::write_any(a, type_url_, value_); });
    });
  }

  std::string_view type_url_;
  bytes_ref value_;
};

}  // namespace ctff
