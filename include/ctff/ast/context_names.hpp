// The names a trace's texts spell again and again, spelled once per output: `<ctx>_arg` and
// `fc_<ctx>_symbol_` (then the symbol's number), where <ctx> is the computation's name followed
// by `_<suffix>` when it was renamed. Writing one string where five pieces were written is most
// of what printing a symbol costs the constant evaluators.
#pragma once

#include <cstddef>
#include <string_view>

#include "ctff/ast/graph.hpp"
#include "ctff/core/scratch.hpp"

namespace ctff::detail {

class context_names {
 public:
  constexpr explicit context_names(const graph_view& g) {
    // One buffer: "fc_" <ctx> "_symbol_" <ctx> "_arg"; reserved whole, so that <ctx> can be
    // copied from it into it (<ctx> has at most 11 characters more than the name).
    buf_.reserve(2 * (g.name.size() + 11) + 15);
    put("fc_");
    const std::size_t ctx_at = buf_.size();
    put(g.name);
    if (g.suffix) {
      put("_");
      char tmp[10]{};
      int k = 0;
      for (std::uint32_t v = g.suffix; v; v /= 10) tmp[k++] = static_cast<char>('0' + v % 10);
      while (k) buf_.push_back(tmp[--k]);
    }
    ctx_len_ = buf_.size() - ctx_at;
    put("_symbol_");
    prefix_len_ = buf_.size();
    buf_.append(buf_.data() + ctx_at, ctx_len_);
    put("_arg");
  }

  // <ctx>
  constexpr std::string_view ctx() const { return {buf_.data() + 3, ctx_len_}; }
  // fc_<ctx>_symbol_
  constexpr std::string_view symbol_prefix() const { return {buf_.data(), prefix_len_}; }
  // <ctx>_arg
  constexpr std::string_view arg() const {
    return {buf_.data() + prefix_len_, buf_.size() - prefix_len_};
  }

 private:
  constexpr void put(std::string_view s) { buf_.append(s.data(), s.size()); }

  scratch<char> buf_;
  std::size_t ctx_len_ = 0, prefix_len_ = 0;
};

}  // namespace ctff::detail
