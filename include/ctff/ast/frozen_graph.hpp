// A finished trace as a constant: the graph's pools copied into fixed-size arrays, so that a
// captureless computation is traced once (plus once to learn the pool sizes) and each of its
// outputs, a constant evaluation of its own, reads the recorded graph in place (view()) instead of
// tracing it again. Every pointer a finished graph holds points to static storage (type bytes,
// names, texts of other constant computations); heap data lives in the pools, by offset.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "ctff/core/defer.hpp"
#include "ctff/ast/graph.hpp"
#include "ctff/core/copy.hpp"

namespace ctff::detail {

// Pool sizes of a graph, and its root.
struct graph_shape {
  std::uint32_t nodes = 0, elems = 0, lits = 0, dims = 0, vals = 0, chars = 0, bytes = 0,
                embeds = 0, bindings = 0;
  std::uint32_t root = 0;
};

CTFF_DEFER
constexpr graph_shape shape_of(const graph& g, std::uint32_t root) {
  auto n = [](const auto& v) { return static_cast<std::uint32_t>(v.size()); };
  return graph_shape{n(g.nodes), n(g.elems),     n(g.lits),   n(g.dims),     n(g.vals),
                     n(g.chars), n(g.byte_pool), n(g.embeds), n(g.bindings), root};
}

template <graph_shape S>
struct frozen_graph {
  std::array<node, S.nodes> nodes{};
  std::array<struct_elem, S.elems> elems{};
  std::array<lit, S.lits> lits{};
  std::array<std::int64_t, S.dims> dims{};
  std::array<std::uint64_t, S.vals> vals{};
  std::array<char, S.chars> chars{};
  std::array<unsigned char, S.bytes> byte_pool{};
  std::array<embed, S.embeds> embeds{};
  std::array<std::uint32_t, S.bindings> bindings{};
  std::string_view name{};
  std::uint32_t suffix = 0;
};

// A frozen graph read in place (an output reads the constant without copying it into vectors
// first), and its root. (A function template, not a member: when the trace failed, S is not a
// constant and the call fails once instead of once per pool.)
struct frozen_read {
  graph_view g;
  std::uint32_t root = 0;
};
template <graph_shape S>
constexpr frozen_read read_frozen(const frozen_graph<S>& f) {
  frozen_read r;
  r.g.nodes = {f.nodes.data(), S.nodes};
  r.g.elems = {f.elems.data(), S.elems};
  r.g.lits = {f.lits.data(), S.lits};
  r.g.dims = {f.dims.data(), S.dims};
  r.g.vals = {f.vals.data(), S.vals};
  r.g.chars = {f.chars.data(), S.chars};
  r.g.byte_pool = {f.byte_pool.data(), S.bytes};
  r.g.embeds = {f.embeds.data(), S.embeds};
  r.g.bindings = {f.bindings.data(), S.bindings};
  r.g.name = f.name;
  r.g.suffix = f.suffix;
  r.root = S.root;
  return r;
}

template <class A, class V>
constexpr void copy_pool(A& to, const V& from) {
  copy_elems(to.data(), from.data(), to.size());
}

// g (with the shape S) as a constant.
template <graph_shape S>
constexpr frozen_graph<S> freeze(const graph& g) {
  frozen_graph<S> f{};
  copy_pool(f.nodes, g.nodes);
  copy_pool(f.elems, g.elems);
  copy_pool(f.lits, g.lits);
  copy_pool(f.dims, g.dims);
  copy_pool(f.vals, g.vals);
  copy_pool(f.chars, g.chars);
  copy_pool(f.byte_pool, g.byte_pool);
  copy_pool(f.embeds, g.embeds);
  copy_pool(f.bindings, g.bindings);
  f.name = g.name;
  f.suffix = g.suffix;
  return f;
}

}  // namespace ctff::detail
