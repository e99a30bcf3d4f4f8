// Values as text, laid out as TFF's Python prints the value it returns (docs/running.md, "Printing
// values"): a tensor as numpy 1.24's str() (`5`, `2.5`, `True`, `b'hi'`, `(1+2j)`, `[1 2 3]`,
// `[[1 2]\n [3 4]]`), by the numpy printers that print literals (numpy/literal_print.hpp); a
// struct as Struct's str() (`<a=1,b=2>`, `<1,2>`, `<>`); `{T}@CLIENTS` and a sequence as a Python
// list (`[1, 2, 3]`), `T@SERVER` and all_equal `T@CLIENTS` as their member; a function as
// `<function NAME>` (NAME: what errors call it, function_impl::describe); a placement as
// `CLIENTS` or `SERVER`; no value (a null dynamic_value) as `None`. No nlohmann/json: this is
// text for people, not value_to_json's format for programs.
//
// Only <iosfwd> here: operator<< is a template, instantiated where the caller's stream is complete,
// so run.hpp does not pull <ostream> in. std::formatter<dynamic_value> is defined where the standard
// library has <format> and says so (__cpp_lib_format: libstdc++ 13, libc++ 22; not libstdc++ 12).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ctff/core/sink.hpp"
#include "ctff/numpy/literal.hpp"
#include "ctff/numpy/literal_print.hpp"
#include "ctff/run/client_column.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/dtype.hpp"
#include "ctff/types/print.hpp"

#if __has_include(<version>)
#include <version>
#endif
#if defined(__cpp_lib_format) && __has_include(<format>)
#include <format>
#define CTFF_VALUE_FORMATTER 1
#endif

namespace ctff {
namespace detail {

// (The printers are templates on D, never given, as numpy's are (core/defer.hpp): a TU that
// includes run.hpp and prints nothing compiles none of them.)

// A tensor as the numpy printers read a literal (numpy/literal.hpp): one 64-bit pattern per slot.
template <class D = void>
class tensor_text {
 public:
  explicit tensor_text(const tensor_data& t) : t_(t) {
    std::size_t total = 1;
    for (auto d : t.shape) {
      if (d < 0) throw execution_error("", "a tensor has a negative dimension");
      total *= static_cast<std::size_t>(d);
    }
    if (total != t.size())
      throw execution_error("", "a tensor has " + std::to_string(t.size()) + " elements for its shape's " +
                                    std::to_string(total));
    visit_dtype(t.dt, [&](auto c) {
      constexpr dtype T = decltype(c)::value;
      const auto* e = std::get_if<stored_t<T>>(&t.elements);
      if (!e || t.dt == dtype::invalid) throw execution_error("", "a tensor's elements do not match its dtype");
      vals_.reserve(e->size() * slots_per_value(T));
      for (const auto& x : *e) slots<T>(x);
    });
  }

  void append_to(std::string& out) const {
    const literal_ref l{t_.dt, static_cast<std::uint32_t>(t_.shape.size()), t_.shape.data(), vals_.data(),
                        chars_.data()};
    text_sink count{};
    print_literal<D>(l, count);
    const std::size_t at = out.size();
    out.resize(at + count.n);
    text_sink s{out.data() + at};
    print_literal<D>(l, s);
  }

 private:
  template <dtype T, class X>
  void slots(const X& x) {
    if constexpr (T == dtype::str) {
      vals_.push_back(chars_.size());
      vals_.push_back(x.size());
      chars_ += x;
    } else if constexpr (T == dtype::float16 || T == dtype::bfloat16) {
      vals_.push_back(x.bits);
    } else if constexpr (T == dtype::float32) {
      vals_.push_back(std::bit_cast<std::uint32_t>(x));
    } else if constexpr (T == dtype::float64) {
      vals_.push_back(std::bit_cast<std::uint64_t>(x));
    } else if constexpr (T == dtype::complex64) {
      vals_.push_back(std::bit_cast<std::uint32_t>(x.real()));
      vals_.push_back(std::bit_cast<std::uint32_t>(x.imag()));
    } else if constexpr (T == dtype::complex128) {
      vals_.push_back(std::bit_cast<std::uint64_t>(x.real()));
      vals_.push_back(std::bit_cast<std::uint64_t>(x.imag()));
    } else {  // integers (signed ones sign-extended, as literals hold them) and bool
      vals_.push_back(static_cast<std::uint64_t>(static_cast<element_t<T>>(x)));
    }
  }

  const tensor_data& t_;
  std::vector<std::uint64_t> vals_;
  std::string chars_;
};

// The printer; `types` (with `type`, a node of it) when the value is read by its type.
template <class D = void>
class value_printer {
 public:
  value_printer(const type_desc* types, std::optional<std::size_t> clients) : types_(types), clients_(clients) {}

  void print(const dynamic_value& v, std::uint32_t t) {
    if (!v) {
      out += "None";
      return;
    }
    if (v.is(value_kind::federated) && v.federated().elsewhere) return print(detail::fetched(v), t);  // held elsewhere
    const type_node* n = types_ ? &types_->node(t) : nullptr;
    if (n && !fits(v, *n)) throw execution_error("", "the value does not match its type " + type_text(t));
    switch (v.kind()) {
      case value_kind::tensor:
        tensor_text<D>(v.tensor()).append_to(out);
        return;
      case value_kind::struct_: {
        const struct_data& s = v.structure();
        out += '<';
        for (std::size_t i = 0; i != s.elements.size(); ++i) {
          if (i) out += ',';
          const auto k = static_cast<std::uint32_t>(i);
          const std::string_view name = n ? types_->name(types_->kid(t, k)) : s.name(i);
          if (!name.empty()) {
            out += name;
            out += '=';
          }
          print(s.elements[i], n ? types_->kid(t, k) : 0);
        }
        out += '>';
        return;
      }
      case value_kind::federated: {
        const federated_data& f = v.federated();
        const std::uint32_t member = n ? types_->kid(t, 0) : 0;
        const bool one = n ? n->all_equal || n->where == placement_kind::server
                           : f.all_equal || f.where == placement_kind::server;
        if (one && f.members.size() == 1) return print(f.members.front(), member);
        // An all_equal value where the type has a member per client: that many copies.
        // (Untyped, a malformed value with another number of members prints them all.)
        const bool copies = f.all_equal && f.members.size() == 1 && clients_;
        list(copies ? *clients_ : f.members.size(),
             [&](std::size_t i) { print(f.members[copies ? 0 : i], member); });
        return;
      }
      case value_kind::sequence: {
        const sequence_data& s = v.sequence();
        list(s.elements.size(), [&](std::size_t i) { print(s.elements[i], n ? types_->kid(t, 0) : 0); });
        return;
      }
      case value_kind::function: {
        const function_data& f = v.function();
        out += "<function ";
        out += f.impl ? f.impl->describe() : std::string("None");
        out += '>';
        return;
      }
      case value_kind::placement:
        out += placement_name(v.placement().where);
        return;
    }
  }

  std::string out;

 private:
  // Python's list: elements separated by ", ".
  template <class F>
  void list(std::size_t count, F&& element) {
    out += '[';
    for (std::size_t i = 0; i != count; ++i) {
      if (i) out += ", ";
      element(i);
    }
    out += ']';
  }

  bool fits(const dynamic_value& v, const type_node& n) const {
    switch (n.kind) {
      case type_kind::tensor: return v.is(value_kind::tensor);
      case type_kind::struct_: return v.is(value_kind::struct_) && v.structure().elements.size() == n.kid_count;
      case type_kind::sequence: return v.is(value_kind::sequence);
      case type_kind::function: return v.is(value_kind::function);
      case type_kind::placement: return v.is(value_kind::placement);
      case type_kind::abstract: return false;  // no value has an abstract type
      case type_kind::federated: {
        if (!v.is(value_kind::federated)) return false;
        const federated_data& f = v.federated();
        const bool one = n.all_equal || n.where == placement_kind::server;
        return f.where == n.where && (!one || f.members.size() == 1) && (!f.all_equal || f.members.size() == 1);
      }
    }
    return false;
  }

  std::string type_text(std::uint32_t t) const {
    text_sink count{};
    print_type(*types_, t, count);
    std::string s(count.n, '\0');
    text_sink w{s.data()};
    print_type(*types_, t, w);
    return s;
  }

  const type_desc* types_;
  std::optional<std::size_t> clients_;
};

}  // namespace detail

// v as TFF's Python prints it (see the header comment): struct names are the value's own. Throws
// execution_error only for a malformed tensor (elements that do not fill its shape or do not
// match its dtype). (A template on D, never given: see the printers.)
template <class D = void>
std::string to_string(const dynamic_value& v) {
  detail::value_printer<D> p(nullptr, {});
  p.print(detail::with_members(v), 0);
  return std::move(p.out);
}

// v read as the type node `type` of `types` (as value_to_json reads it): struct names come from
// the type, `T@SERVER` and all_equal `T@CLIENTS` print their member, `{T}@CLIENTS` a list, and
// an all_equal value where the type is `{T}@CLIENTS` as `clients` copies of its member when
// `clients` is given. For a run's result: `to_string(r, tree.types, result_type)` (see
// value_to_json for `result_type`). Throws execution_error when v does not match the type.
template <class D = void>
std::string to_string(const dynamic_value& v, const type_desc& types, std::uint32_t type,
                      std::optional<std::size_t> clients = {}) {
  detail::value_printer<D> p(&types, clients);
  p.print(detail::with_members(v), type);
  return std::move(p.out);
}

// Writes to_string(v). (A template: a stream is complete where it is used, not here.)
template <class Traits>
std::basic_ostream<char, Traits>& operator<<(std::basic_ostream<char, Traits>& os, const dynamic_value& v) {
  const std::string s = to_string(v);
  return os.write(s.data(), static_cast<std::streamsize>(s.size()));
}

}  // namespace ctff

#ifdef CTFF_VALUE_FORMATTER
// std::format("{}", v): to_string(v), with a string's width, fill and alignment (`{:>20}`).
template <>
struct std::formatter<ctff::dynamic_value, char> : std::formatter<std::string_view, char> {
  template <class Context>
  auto format(const ctff::dynamic_value& v, Context& ctx) const {
    return std::formatter<std::string_view, char>::format(ctff::to_string(v), ctx);
  }
};
#undef CTFF_VALUE_FORMATTER
#endif
