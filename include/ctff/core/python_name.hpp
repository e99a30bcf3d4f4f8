// The names Python accepts where ctff takes a name (federated_language's rules, reference §1 and
// §3.1):
//   - a computation is named after its Python function, a parameter after the function's
//     parameter: both are Python identifiers, never keywords ("<lambda>" is the name Python gives
//     a lambda, accepted for computations);
//   - a struct element may have any name but the empty one (it would read back as unnamed) and
//     the attribute names of Python's StructType class (dir(StructType): its methods, the slots of
//     structure.Struct, and every dunder name); a parameter name becomes an element name too.
// Non-ASCII bytes count as identifier characters (Python accepts Unicode letters; their classes
// are not checked here).
#pragma once

#include <cstddef>
#include <string_view>

#include "ctff/core/defer.hpp"
#include "ctff/core/diagnostic.hpp"
#include "ctff/core/fixed_string.hpp"
#include "ctff/core/sink.hpp"

namespace ctff::detail {

CTFF_DEFER
constexpr bool is_python_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i != s.size(); ++i) {
    const char c = s[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                        static_cast<unsigned char>(c) >= 0x80;
    if (!letter && !(i != 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// Python 3's keyword.kwlist (soft keywords such as `match` are valid names).
inline constexpr std::string_view python_keywords[] = {
    "False",  "None",   "True",    "and",      "as",       "assert", "async",  "await",
    "break",  "class",  "continue", "def",     "del",      "elif",   "else",   "except",
    "finally", "for",   "from",    "global",   "if",       "import", "in",     "is",
    "lambda", "nonlocal", "not",   "or",       "pass",     "raise",  "return", "try",
    "while",  "with",   "yield"};

// dir(StructType) without the dunder names (federated_language's computation_types.py and
// structure.py; the union over the versions the reference lists).
inline constexpr std::string_view struct_type_attributes[] = {
    "check_assignable_from", "check_equivalent_to", "check_identical_to", "children",
    "compact_representation", "fields", "formatted_representation", "from_proto",
    "is_assignable_from", "is_equivalent_to", "is_identical_to", "items", "named",
    "python_container", "to_proto", "unnamed", "_abc_impl", "_asdict", "_element_array",
    "_elements", "_elements_cache", "_hash", "_hashable_from_init_args", "_is_protocol",
    "_name_array", "_name_to_index"};

CTFF_DEFER
constexpr bool is_python_keyword(std::string_view s) {
  for (std::string_view k : python_keywords)
    if (s == k) return true;
  return false;
}

CTFF_DEFER
constexpr bool is_reserved_element_name(std::string_view s) {
  if (s.size() >= 4 && s.substr(0, 2) == "__" && s.substr(s.size() - 2) == "__") return true;
  for (std::string_view a : struct_type_attributes)
    if (s == a) return true;
  return false;
}

template <fixed_string Name>
inline constexpr bool reserved_name_free = !is_reserved_element_name(Name.view());

// A computation's name: its Python function's name.
CTFF_DEFER
constexpr bool is_valid_computation_name(std::string_view s) {
  return s == "<lambda>" || (is_python_identifier(s) && !is_python_keyword(s));
}

// A parameter's name: an identifier, and an element name of the parameter struct.
CTFF_DEFER
constexpr bool is_valid_parameter_name(std::string_view s) {
  return is_python_identifier(s) && !is_python_keyword(s) && !is_reserved_element_name(s);
}

// A struct element's name.
CTFF_DEFER
constexpr bool is_valid_element_name(std::string_view s) {
  return !s.empty() && !is_reserved_element_name(s);
}

// Shows a name in the compiler's account of a failed check: `name: "my comp"`.
template <fixed_string Label, fixed_string Name>
struct name_writer {
  constexpr void operator()(text_sink& s) const {
    s.put(Label.view());
    s.put(": \"");
    s.put(Name.view());
    s.put('"');
  }
};

template <fixed_string Label, fixed_string Name>
using name_report = diagnostic_for<name_writer<Label, Name>>;

// `names: "a", "a"`: the element names given to make_struct.
template <fixed_string... Names>
struct element_names_writer {
  constexpr void operator()(text_sink& s) const {
    s.put("names:");
    bool first = true;
    ((s.put(first ? " \"" : ", \""), first = false, s.put(Names.view()), s.put('"')), ...);
  }
};
template <fixed_string... Names>
using element_names_report = diagnostic_for<element_names_writer<Names...>>;

template <fixed_string... Names>
constexpr bool distinct_names() {
  constexpr std::string_view names[] = {std::string_view{}, Names.view()...};
  for (std::size_t i = 1; i != sizeof...(Names) + 1; ++i)
    for (std::size_t j = i + 1; j != sizeof...(Names) + 1; ++j)
      if (names[i] == names[j]) return false;
  return true;
}

}  // namespace ctff::detail
