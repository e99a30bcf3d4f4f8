// The names a trace's texts spell again and again, spelled once per output: `<ctx>_arg` and
// `fc_<ctx>_symbol_` (then the symbol's number), where <ctx> is the computation's name followed
// by `_<suffix>` when it was renamed. Writing one string where five pieces were written is most
// of what printing a symbol costs the constant evaluators.
#pragma once

#include <cstddef>
#include <string_view>

#include "ctff/ast/graph.hpp"
#include "ctff/core/scratch.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

class context_names {
 public:
  // Spelled twice through text_sink: counted, then written into a buffer of that size.
  constexpr explicit context_names(const graph_view& g) {
    text_sink count{};
    spell(g, count);
    buf_.assign(count.n, ' ');
    text_sink out{buf_.data()};
    spell(g, out);
    ctx_len_ = (count.n - fixed) / 2;
  }

  // <ctx>
  constexpr std::string_view ctx() const { return {buf_.data() + 3, ctx_len_}; }
  // fc_<ctx>_symbol_
  constexpr std::string_view symbol_prefix() const { return {buf_.data(), ctx_len_ + 11}; }
  // <ctx>_arg
  constexpr std::string_view arg() const { return {buf_.data() + ctx_len_ + 11, ctx_len_ + 4}; }
  // fc_<ctx>_symbol_<ctx>_arg: symbol_prefix() then arg()
  constexpr std::string_view all() const { return {buf_.data(), buf_.size()}; }

 private:
  static constexpr std::size_t fixed = 15;  // "fc_", "_symbol_", "_arg"
  // "fc_" <ctx> "_symbol_" <ctx> "_arg"
  static constexpr void spell(const graph_view& g, text_sink& s) {
    s.put("fc_");
    ctx_name(g, s);
    s.put("_symbol_");
    ctx_name(g, s);
    s.put("_arg");
  }
  static constexpr void ctx_name(const graph_view& g, text_sink& s) {
    s.put(g.name);
    if (g.suffix) {
      s.put('_');
      s.put_uint(g.suffix);
    }
  }

  scratch<char> buf_;
  std::size_t ctx_len_ = 0;
};

}  // namespace ctff::detail
