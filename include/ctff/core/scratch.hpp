// A growable array for the data of traces and of their outputs, which mostly live in constant
// evaluations. std::vector's push_back goes through allocator_traits and construct_at, and
// resize/assign construct element by element: both compilers' constant evaluators run that several
// times slower than scratch (a TU doing nothing but 100,000 push_backs of a four-field struct into
// reserved storage: std::vector, clang 4.2 s and g++ 2.3 s / 490 MiB; scratch with new T[n], clang
// 1.2 s and g++ 1.4 s / 190 MiB; allocated storage and construct_at, clang 1.9 s and g++ 1.0 s;
// whole-TU CPU times on this project's 2-core machine, each including ~0.3 s of parsing).
// Elements are trivially copyable and destructible. A T that is trivially default constructible
// lives in an array from new T[n] and is assigned; any other T (one with member initializers,
// which new T[n] would run for every element: slow on g++) in allocated storage, constructed in
// place as it is added.
#pragma once

#include <cstddef>
#include <memory>

#include "ctff/core/copy.hpp"

namespace ctff::detail {

template <class T>
class scratch {
  static_assert(trivially_copyable_v<T> && trivially_destructible_v<T>,
                "ctff: internal error: scratch<T> holds trivially copyable, destructible T");
  static constexpr bool plain = trivially_default_constructible_v<T>;

 public:
  using value_type = T;

  constexpr scratch() = default;
  constexpr scratch(const scratch& o) { copy_from(o); }
  constexpr scratch(scratch&& o) noexcept : p_(o.p_), n_(o.n_), cap_(o.cap_) {
    o.p_ = nullptr;
    o.n_ = o.cap_ = 0;
  }
  constexpr scratch& operator=(const scratch& o) {
    if (this != &o) {
      n_ = 0;
      copy_from(o);
    }
    return *this;
  }
  constexpr scratch& operator=(scratch&& o) noexcept {
    if (this != &o) {
      release();
      p_ = o.p_;
      n_ = o.n_;
      cap_ = o.cap_;
      o.p_ = nullptr;
      o.n_ = o.cap_ = 0;
    }
    return *this;
  }
  constexpr ~scratch() { release(); }

  constexpr void reserve(std::size_t c) {
    if (c > cap_) grow(c);
  }
  constexpr void push_back(const T& x) {
    if (n_ == cap_) grow(n_ ? 2 * n_ : 16);
    if constexpr (plain)  // (put() written out: a call costs the constant evaluators most)
      p_[n_++] = x;
    else
      std::construct_at(p_ + n_++, x);
  }
  // The k elements at p (not from this scratch).
  constexpr void append(const T* p, std::size_t k) {
    make_room(k);
    if constexpr (plain)
      copy_elems(p_ + n_, p, k);
    else
      for (std::size_t i = 0; i != k; ++i) put(n_ + i, p[i]);
    n_ += k;
  }
  // k copies of x at the end.
  constexpr void append_n(std::size_t k, const T& x) {
    make_room(k);
    for (std::size_t i = 0; i != k; ++i) put(n_ + i, x);
    n_ += k;
  }
  // Adds k elements to be assigned through the pointer returned (a T that is trivially default
  // constructible only); pointers into the scratch stay valid until it grows again.
  constexpr T* extend(std::size_t k) {
    static_assert(plain, "ctff: internal error: scratch<T>::extend needs a trivial T");
    make_room(k);
    n_ += k;
    return p_ + (n_ - k);
  }
  constexpr void pop_back() { --n_; }
  // Removes the last element and returns it.
  constexpr T take_back() { return p_[--n_]; }
  constexpr void clear() { n_ = 0; }
  // n copies of x (the previous elements are dropped).
  constexpr void assign(std::size_t n, const T& x) {
    n_ = 0;
    reserve(n);
    for (; n_ != n; ++n_) put(n_, x);
  }

  constexpr std::size_t size() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  constexpr T& operator[](std::size_t i) { return p_[i]; }
  constexpr const T& operator[](std::size_t i) const { return p_[i]; }
  constexpr T& front() { return p_[0]; }
  constexpr const T& front() const { return p_[0]; }
  constexpr T& back() { return p_[n_ - 1]; }
  constexpr const T& back() const { return p_[n_ - 1]; }
  constexpr T* data() { return p_; }
  constexpr const T* data() const { return p_; }
  constexpr T* begin() { return p_; }
  constexpr T* end() { return p_ + n_; }
  constexpr const T* begin() const { return p_; }
  constexpr const T* end() const { return p_ + n_; }

 private:
  constexpr void make_room(std::size_t k) {
    if (n_ + k > cap_) grow(n_ + k > 2 * cap_ ? n_ + k : 2 * cap_);
  }
  constexpr void put(std::size_t i, const T& x) {
    if constexpr (plain)
      p_[i] = x;
    else
      std::construct_at(p_ + i, x);
  }
  constexpr void copy_from(const scratch& o) {
    reserve(o.n_);
    if constexpr (plain) {
      copy_elems(p_, o.p_, o.n_);
      n_ = o.n_;
    } else {
      for (; n_ != o.n_; ++n_) put(n_, o.p_[n_]);
    }
  }
  constexpr void grow(std::size_t c) {
    T* q;  // (if constexpr, not ?:, so that a plain T instantiates none of std::allocator<T>)
    if constexpr (plain) {
      q = new T[c];
      copy_elems(q, p_, n_);
    } else {
      q = std::allocator<T>().allocate(c);
      for (std::size_t i = 0; i != n_; ++i) std::construct_at(q + i, p_[i]);
    }
    release();
    p_ = q;
    cap_ = c;
  }
  constexpr void release() {
    if (!p_) return;
    if constexpr (plain)
      delete[] p_;
    else
      std::allocator<T>().deallocate(p_, cap_);
    p_ = nullptr;
  }

  T* p_ = nullptr;
  std::size_t n_ = 0, cap_ = 0;
};

}  // namespace ctff::detail
