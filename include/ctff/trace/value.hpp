// ctff::value<T>: a traced value whose static TFF type is T. It names a node of a trace context;
// operators on it record building blocks instead of computing.
#pragma once

#include <type_traits>
#include <utility>

#include "ctff/trace/context.hpp"
#include "ctff/types/type.hpp"

namespace ctff {

template <tff_type T>
class value;

namespace detail {
// What the tracer reads and makes of a value (not part of its public interface).
struct value_access {
  template <class T>
  static constexpr value<T> make(location l) {
    return value<T>(l);
  }
  template <class T>
  static constexpr location loc(const value<T>& v) {
    return v.loc();
  }
  template <class T>
  static constexpr bool pinned(const value<T>& v) {
    return v.pinned_;
  }
};
}  // namespace detail

template <tff_type T>
class value {
 public:
  using type = T;

  // A copy is a named use: it never moves when sibling arguments are reordered.
  constexpr value(const value& o) : loc_(o.loc_), pinned_(true) { hold(); }
  constexpr value(value&& o) noexcept : loc_(o.loc_), pinned_(o.pinned_) { hold(); }
  constexpr value& operator=(const value& o) {
    if (this != &o) {
      value tmp(o);
      swap(tmp);
      pinned_ = true;
    }
    return *this;
  }
  constexpr value& operator=(value&& o) noexcept {
    if (this != &o) {
      value tmp(static_cast<value&&>(o));
      swap(tmp);
    }
    return *this;
  }
  constexpr ~value() {
    detail::track(loc_, -1);
    detail::release(loc_.ctx);
  }

  // Selection sugar and calls are declared in trace/struct_ops.hpp and trace/call.hpp.
  template <class Index>
  constexpr auto operator[](Index) const&;
  template <class Index>
  constexpr auto operator[](Index) &&;
  template <class... A>
  constexpr auto operator()(A&&... a) const;

 private:
  friend struct detail::value_access;
  constexpr explicit value(detail::location l) : loc_(l) { hold(); }
  constexpr detail::location loc() const { return detail::resolve(loc_); }

  constexpr void hold() {
    detail::retain(loc_.ctx);
    detail::track(loc_, 1);
  }
  constexpr void swap(value& o) noexcept {
    auto l = loc_;
    loc_ = o.loc_;
    o.loc_ = l;
    bool p = pinned_;
    pinned_ = o.pinned_;
    o.pinned_ = p;
  }

  detail::location loc_;
  bool pinned_ = false;
};

namespace detail {
template <class X> inline constexpr bool is_value_v = false;
template <class T> inline constexpr bool is_value_v<value<T>> = true;
}  // namespace detail

template <class X>
concept traced = detail::is_value_v<std::remove_cvref_t<X>>;

}  // namespace ctff
