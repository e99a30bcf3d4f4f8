// The words of Python's structural_representation() node labels, written once for the traced
// graph's drawing (ast/structural_text.hpp) and the read tree's (read/structural.hpp): each label
// is a word, or an opening word, what it names and `)` (`Ref(x)`, `Sel(0)`, `Lambda(None)`).
// Literal labels are numpy/literal_print.hpp's put_literal_label.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ctff::detail::label {

inline constexpr std::string_view ref = "Ref(";
inline constexpr std::string_view selection = "Sel(";
inline constexpr std::string_view lambda = "Lambda(";
inline constexpr std::string_view close = ")";
inline constexpr std::string_view no_parameter = "None";  // a lambda without parameter
inline constexpr std::string_view struct_ = "Struct";
inline constexpr std::string_view call = "Call";
inline constexpr std::string_view block = "Block";
inline constexpr std::string_view placement = "Placement";

// The length of `<open><inner>)`.
constexpr std::int32_t wrapped_len(std::string_view open, std::size_t inner) {
  return static_cast<std::int32_t>(open.size() + inner + close.size());
}

}  // namespace ctff::detail::label
