// The rule ctff adds to intrinsic_argument (forms/form_rules.hpp) for federated_aggregate in
// client_to_server_aggregation: its accumulate, merge and report may be whole functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/read/path.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"

namespace ctff {
namespace detail {

class aggregate_function_rule {
 public:
  // The first problem of function argument i of a federated_aggregate in a part whose parameter is
  // `param`, located below `at`: (path, problem); none if the function passes.
  std::optional<std::pair<std::string, std::string>> check(const computation_tree& t, std::uint32_t i,
                                                          std::string_view param, const std::vector<path_frame>& at) {
    frames_ = at;
    bound_in_function_.clear();
    error_.reset();
    walk(t, i, param);
    return std::move(error_);
  }

 private:
  // The extension of intrinsic_argument (form_rules.hpp): accumulate, merge and report are part
  // of the aggregation, so they may be whole functions, as long as the platform can run them
  // with nothing but the part's parameter: no federated type anywhere in them (they run on
  // members, not on placed values), and no free reference but Selection chains from the
  // parameter whose type holds no federated type (a value of T the function captures: the
  // splitter sends a server-computed value an accumulate uses that way). Reports the first
  // problem; false then.
  bool walk(const computation_tree& t, std::uint32_t i, std::string_view param) {
    const block_node& n = t.node(i);
    auto refuse = [&](const std::string& problem) {
      error_.emplace(path_string(frames_), problem + " (in a function argument of federated_aggregate)");
      return false;
    };
    if (n.kind == block_kind::selection) {
      std::uint32_t s = n.a;
      while (t.node(s).kind == block_kind::selection) s = t.node(s).a;
      if (t.node(s).kind == block_kind::reference && t.text(s) == param && !bound_in_function(param)) {
        if (!holds_federated(t.types, n.type)) return true;
        return refuse("a Selection from the parameter `" + std::string(param) + "` of type " +
                      detail::type_text(t.types, n.type) + ", which holds a federated type");
      }
    }
    if (n.kind == block_kind::reference && !bound_in_function(t.text(i)))
      return refuse("a free reference to `" + std::string(t.text(i)) +
                    "`; the function may use only what it binds and Selections from the parameter `" +
                    std::string(param) + "` of types that hold no federated type");
    if (holds_federated(t.types, n.type))
      return refuse(std::string(a_block(n.kind)) + " of type " + detail::type_text(t.types, n.type) + ", which holds a federated type");
    auto into = [&](std::uint32_t c, const char* what, std::int64_t index = -1, std::string_view nm = {}) {
      frames_.push_back(path_frame{what, index, nm});
      const bool ok = walk(t, c, param);
      frames_.pop_back();
      return ok;
    };
    const std::size_t depth = bound_in_function_.size();
    bool ok = true;
    switch (n.kind) {
      case block_kind::lambda:
        if (n.text_len) bound_in_function_.push_back(t.text(i));
        ok = into(n.a, "lambda.result");
        break;
      case block_kind::block:
        for (std::uint32_t k = 0; ok && k != n.count; ++k) {
          ok = into(t.elem(i, k).value, "block.local", k, t.name(t.elem(i, k)));
          bound_in_function_.push_back(t.name(t.elem(i, k)));
        }
        ok = ok && into(n.a, "block.result");
        break;
      case block_kind::call:
        ok = into(n.a, "call.function") && (n.b == no_index || into(n.b, "call.argument"));
        break;
      case block_kind::selection:
        ok = into(n.a, "selection.source");
        break;
      case block_kind::struct_:
        for (std::uint32_t k = 0; ok && k != n.count; ++k)
          ok = into(t.elem(i, k).value, "struct", k, t.name(t.elem(i, k)));
        break;
      default: break;
    }
    bound_in_function_.resize(depth);
    return ok;
  }
  bool bound_in_function(std::string_view name) const {
    for (std::string_view b : bound_in_function_)
      if (b == name) return true;
    return false;
  }
  // Whether a federated type occurs in type ty; memoized, since a type_desc may share kids.
  bool holds_federated(const type_desc& d, std::uint32_t ty) {
    if (federated_memo_of_ != &d) {
      federated_memo_.assign(d.nodes.size(), 0);
      federated_memo_of_ = &d;
    }
    if (federated_memo_[ty] == 0) {
      const type_node& n = d.node(ty);
      bool f = n.kind == type_kind::federated;
      for (std::uint32_t k = 0; !f && k != n.kid_count; ++k) f = holds_federated(d, d.kid(ty, k));
      federated_memo_[ty] = f ? 2 : 1;
    }
    return federated_memo_[ty] == 2;
  }

  std::vector<path_frame> frames_;
  std::vector<std::string_view> bound_in_function_;  // what the function walked binds
  std::optional<std::pair<std::string, std::string>> error_;
  const type_desc* federated_memo_of_ = nullptr;
  std::vector<std::uint8_t> federated_memo_;  // per type: 0 unknown, 1 no federated type, 2 one
};

}  // namespace detail
}  // namespace ctff
