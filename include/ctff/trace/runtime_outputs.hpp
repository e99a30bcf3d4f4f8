// The outputs of a run-time trace (a computation whose lambda has captures): the bytes at once,
// the printed forms when first asked for.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "ctff/ast/print.hpp"
#include "ctff/ast/serialize.hpp"
#include "ctff/ast/structural.hpp"
#include "ctff/core/byte_view.hpp"
#include "ctff/core/defer.hpp"
#include "ctff/trace/error.hpp"
#include "ctff/trace/nested.hpp"
#include "ctff/trace/trace_into.hpp"
#include "ctff/trace/written_order.hpp"

namespace ctff::detail {

// Outputs of a run-time trace. The bytes are written at once; the printed forms only when first
// asked for (printing is most of a run-time trace's cost), from the recorded graph kept here.
class runtime_outputs {
 public:
  runtime_outputs() = default;
  runtime_outputs(const runtime_outputs&) = delete;
  runtime_outputs& operator=(const runtime_outputs&) = delete;

  template <class Fn, class P>
  void trace(const Fn& fn, std::string_view name) {
    // A run-time trace may run inside another: the enclosing trace's error waits meanwhile.
    struct pending_guard {
      const char* outer = pending_trace_error();
      ~pending_guard() { pending_trace_error() = outer; }
    } guard;
    pending_trace_error() = nullptr;
    // Made while another run-time trace runs: traced as its child, named under its chain, and
    // embedded as it is wherever it is used (as Python does).
    if (trace_ctx* const parent = active_trace()) {
      ctx_.parent = parent;
      ctx_.suffix = context_suffix(parent, name);
      inside_ = true;
    }
#if !defined(__clang__)
    ctx_.check_order = &check_written_order<>;  // (trace/written_order.hpp)
#endif
    {
      const active_trace_scope<> active(&ctx_);
      root_ = trace_into<Fn, P>(fn, name, ctx_);
    }
    ctx_.parent = nullptr;  // (the enclosing trace may end first)
    if (const char* e = pending_trace_error()) throw trace_failure(e);
    bytes_ = runtime_bytes(ctx_, root_);
  }

  byte_view bytes() const { return byte_view(bytes_.data(), bytes_.size()); }
  // Whether it was traced inside another run-time trace (named under that trace's chain).
  bool inside() const { return inside_; }

  // The outputs of tracing fn, in a shared_ptr of their own (runtime_computation_t's).
  template <class Fn, class P>
  static std::shared_ptr<runtime_outputs>* traced(const Fn& fn, std::string_view name) {
    using outputs = dependent_t<Fn, runtime_outputs>;  // (core/defer.hpp)
    auto out = std::make_shared<outputs>();
    out->template trace<Fn, P>(fn, name);
    return new std::shared_ptr<outputs>(std::move(out));
  }

  // `encoded`: the formatted text for embedding (text_sink::encode_breaks).
  template <class Printer = printer>  // (a template: see basic_printer)
  std::string_view text(bool formatted, bool encoded = false) const {
    const int f = encoded ? 2 : formatted ? 1 : 0;
    std::call_once(once_[f], [&] {
      Printer p(ctx_);
      text_sink count{};
      count.formatted = formatted;
      count.encode_breaks = encoded;
      p.print(root_, count);
      text_[f].assign(count.n, '\0');
      text_sink t{text_[f].data()};
      t.formatted = formatted;
      t.encode_breaks = encoded;
      p.print(root_, t);
    });
    return text_[f];
  }

  // The structural drawing, plain or encoded for embedding (ast/structural.hpp). (A template:
  // see basic_structural_writer.)
  template <class Writer = structural_writer>
  std::string_view structural(bool encoded) const {
    const int f = encoded ? 1 : 0;
    std::call_once(structural_once_[f], [&] {
      const Writer w(ctx_, root_, encoded);
      structural_[f].assign(w.size(), '\0');
      w.write(structural_[f].data());
    });
    return structural_[f];
  }

 private:
  trace_ctx ctx_;
  std::uint32_t root_ = 0;
  bool inside_ = false;
  scratch<unsigned char> bytes_;
  mutable std::once_flag once_[3];
  mutable std::string text_[3];
  mutable std::once_flag structural_once_[2];
  mutable std::string structural_[2];
};

}  // namespace ctff::detail
