// The bytes of tensors a run may make (run_limits::max_value_bytes): byte_budget, charged
// through the running thread before a tensor is allocated (charge_elements).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "ctff/run/fault.hpp"

namespace ctff::detail {

// The bytes of tensors a run may still make (run_limits::max_value_bytes), charged before a tensor
// is allocated; found through the running thread, so that arithmetic needs no context argument.
class byte_budget {
 public:
  explicit byte_budget(std::uint64_t max) : max_(max) {}
  void charge(std::uint64_t bytes) {
    const std::uint64_t before = used_.fetch_add(bytes, std::memory_order_relaxed);
    if (bytes > max_ || before > max_ - bytes)
      throw run_fault("the run made more than run_limits::max_value_bytes (" +
                      std::to_string(max_) + ") bytes of tensors");
  }
  std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  static byte_budget*& current() {
    thread_local byte_budget* b = nullptr;
    return b;
  }

 private:
  std::uint64_t max_;
  std::atomic<std::uint64_t> used_{0};
};

// Charges n elements of `size` bytes each to the running thread's budget (none: not running).
inline void charge_elements(std::uint64_t n, std::uint64_t size) {
  if (byte_budget* b = byte_budget::current())
    b->charge(n > (std::uint64_t{1} << 62) / size ? std::uint64_t{1} << 62 : n * size);
}

}  // namespace ctff::detail
