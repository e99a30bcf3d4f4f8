// A read-only view of serialized bytes, comparable with == to other views and byte arrays.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ctff {

class byte_view {
 public:
  constexpr byte_view() = default;
  constexpr byte_view(const unsigned char* p, std::size_t n) : p_(p), n_(n) {}
  template <std::size_t N>
  constexpr byte_view(const std::array<unsigned char, N>& a) : p_(a.data()), n_(N) {}
  // Templates, like span() and str(): a TU that never calls them instantiates no std::vector,
  // std::span or std::string member for them (part of the cost of including ctff).
  template <class Alloc>
  byte_view(const std::vector<unsigned char, Alloc>& v) : p_(v.data()), n_(v.size()) {}

  constexpr const unsigned char* data() const { return p_; }
  constexpr std::size_t size() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  constexpr const unsigned char* begin() const { return p_; }
  constexpr const unsigned char* end() const { return p_ + n_; }
  constexpr unsigned char operator[](std::size_t i) const { return p_[i]; }
  template <class Span = std::span<const unsigned char>>
  constexpr Span span() const {
    return Span(p_, n_);
  }
  // The bytes as a std::string, the form protobuf's ParseFromString takes.
  template <class String = std::string>
  String str() const {
    return String(reinterpret_cast<const char*>(p_), n_);
  }

  friend constexpr bool operator==(byte_view a, byte_view b) {
    if (a.n_ != b.n_) return false;
    for (std::size_t i = 0; i != a.n_; ++i)
      if (a.p_[i] != b.p_[i]) return false;
    return true;
  }

 private:
  const unsigned char* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace ctff
