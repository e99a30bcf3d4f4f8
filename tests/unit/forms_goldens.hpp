// TFF's DistributeAggregateForms of tests/forms/goldens (made by TFF's own conversion: its
// README.md), read as ctff::distribute_aggregate_form, and small tools to build altered parts
// from bytes. CTFF_FORMS_GOLDENS_DIR is tests/forms/goldens.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

namespace ctff_test {

inline std::string forms_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  INFO("file " << path);
  REQUIRE(f.good());
  return std::string{std::istreambuf_iterator<char>(f), {}};
}
inline std::string forms_golden(const std::string& name) {
  return forms_file(std::string(CTFF_FORMS_GOLDENS_DIR) + "/" + name);
}
// s without its trailing newlines (the goldens' text files end in one).
inline std::string chomp(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// The rounds that TFF converted (those with a NAME.server_prepare.binpb), sorted.
inline std::vector<std::string> converted_rounds() {
  std::vector<std::string> names;
  const std::string suffix = ".server_prepare.binpb";
  for (const auto& e : std::filesystem::directory_iterator(CTFF_FORMS_GOLDENS_DIR)) {
    const std::string f = e.path().filename().string();
    if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
      names.push_back(f.substr(0, f.size() - suffix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline ctff::computation_tree golden_round(const std::string& name) {
  return ctff::read_computation(forms_golden(name + ".binpb"));
}
inline ctff::distribute_aggregate_form golden_form(const std::string& name) {
  auto part = [&](const char* p) { return ctff::read_computation(forms_golden(name + "." + p + ".binpb")); };
  return {part("server_prepare"), part("server_to_client_broadcast"), part("client_work"),
          part("client_to_server_aggregation"), part("server_result")};
}

// Computation bytes written by hand (fields in number order), for parts no conversion makes.
namespace bytes {
using w = ctff::detail::front_writer;
inline std::string computation(const std::string& type, std::uint32_t field, const std::string& body) {
  std::string out;
  w::message(out, 1, type);
  w::message(out, field, body);
  return out;
}
inline std::string reference(const std::string& name, const std::string& type) {
  return computation(type, 6, w::string_field(1, name));
}
inline std::string selection(const std::string& source, int index, const std::string& type) {
  std::string s;
  w::message(s, 1, source);
  if (index) {
    w::varint(s, 3 << 3);
    w::varint(s, static_cast<std::uint64_t>(index));
  }
  return computation(type, 9, s);
}
inline std::string call(const std::string& fn, const std::string& arg, const std::string& type) {
  std::string c;
  w::message(c, 1, fn);
  if (!arg.empty()) w::message(c, 2, arg);
  return computation(type, 7, c);
}
inline std::string lambda(const std::string& param, const std::string& result, const std::string& type) {
  std::string l = w::string_field(1, param);
  w::message(l, 2, result);
  return computation(type, 4, l);
}
// A Block of one local.
inline std::string block(const std::string& name, const std::string& value, const std::string& result,
                         const std::string& type) {
  std::string local = w::string_field(1, name), b;
  w::message(local, 2, value);
  w::message(b, 1, local);
  w::message(b, 2, result);
  return computation(type, 5, b);
}
inline std::string structure(const std::vector<std::string>& elems, const std::string& type) {
  std::string s;
  for (const std::string& v : elems) {
    std::string e;
    w::message(e, 2, v);
    w::message(s, 1, e);
  }
  return computation(type, 8, s);
}
// Type messages.
inline std::string type_of(const ctff::computation_tree& t, std::uint32_t node) {
  return ctff::detail::type_message(t.types, t.node(node).type);
}
inline std::string struct_type(const std::vector<std::string>& elems) {
  std::string st, out;
  for (const std::string& e : elems) {
    std::string el;
    w::message(el, 2, e);
    w::message(st, 1, el);
  }
  w::message(out, 2, st);
  return out;
}
inline std::string function_type(const std::string& param, const std::string& result) {
  std::string f, out;
  if (!param.empty()) w::message(f, 1, param);
  w::message(f, 2, result);
  w::message(out, 1, f);
  return out;
}
}  // namespace bytes

// The first node read of kind k (and text, if given); no_index: none.
inline std::uint32_t first_of(const ctff::computation_tree& t, ctff::block_kind k, std::string_view text = {}) {
  for (std::uint32_t i = 0; i != t.nodes.size(); ++i)
    if (t.node(i).kind == k && (text.empty() || t.text(i) == text)) return i;
  return ctff::no_index;
}

}  // namespace ctff_test
