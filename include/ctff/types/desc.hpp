// A TFF type as data: the one representation that the printer, the wire serializer and the type
// relations work on, built from a static type during constant evaluation or from a Type message
// at run time. Nodes live in flat vectors (no recursion through pointers, no ownership graph).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ctff/core/defer.hpp"
#include "ctff/types/type.hpp"

namespace ctff {

enum class type_kind : std::uint8_t { tensor, struct_, sequence, function, federated, placement, abstract };

struct type_node {
  type_kind kind = type_kind::tensor;
  dtype dt = dtype::invalid;        // tensor
  bool unknown_rank = false;        // tensor
  bool all_equal = false;           // federated
  bool has_param = false;           // function
  placement_kind where = placement_kind::clients;  // federated
  std::uint32_t kid_begin = 0, kid_count = 0;      // children, in `kids`
  std::uint32_t dim_begin = 0, dim_count = 0;      // tensor dims, in `dims`
  std::uint32_t name_begin = 0, name_len = 0;      // element name in the parent struct (in `chars`)
  const char* name_at = nullptr;    // or there, in static storage (describe<T>(): no copy),
  bool name_static = false;         // when this is set (g++'s -fsanitize=undefined rejects
                                    // comparing a static object's address with null in a constant)
  std::uint32_t label_begin = 0, label_len = 0;    // abstract label (in `chars`)
};

// Children: struct -> its elements; sequence -> element; federated -> member;
// function -> [parameter,] result.
struct type_desc {
  std::vector<type_node> nodes;
  std::vector<std::uint32_t> kids;
  std::vector<std::int64_t> dims;
  std::vector<char> chars;
  std::uint32_t root = 0;

  constexpr const type_node& node(std::uint32_t i) const { return nodes[i]; }
  constexpr std::uint32_t kid(std::uint32_t i, std::uint32_t k) const {
    return kids[nodes[i].kid_begin + k];
  }
  constexpr std::string_view name(std::uint32_t i) const {
    const auto& n = nodes[i];
    if (!n.name_len) return {};
    return std::string_view(n.name_static ? n.name_at : chars.data() + n.name_begin, n.name_len);
  }
  constexpr std::string_view label(std::uint32_t i) const {
    const auto& n = nodes[i];
    return n.label_len ? std::string_view(chars.data() + n.label_begin, n.label_len)
                       : std::string_view{};
  }
  // The mutators are templates whose bodies depend on D (never given): a TU that includes ctff
  // and describes nothing instantiates none of std::vector's growth (core/defer.hpp).
  template <class D = void>
  constexpr std::uint32_t add(const type_node& n) {
    detail::dependent<D>(nodes).push_back(n);
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }
  template <class D = void>
  constexpr std::uint32_t add_chars(std::string_view s) {
    auto at = static_cast<std::uint32_t>(chars.size());
    for (char c : s) detail::dependent<D>(chars).push_back(c);
    return at;
  }
  template <class D = void>
  constexpr void set_name(std::uint32_t i, std::string_view s) {
    nodes[i].name_static = false;
    nodes[i].name_begin = add_chars<D>(s);
    nodes[i].name_len = static_cast<std::uint32_t>(s.size());
  }
  template <class D = void, std::size_t N>
  constexpr void set_kids(std::uint32_t i, const std::uint32_t (&k)[N], std::size_t n) {
    nodes[i].kid_begin = static_cast<std::uint32_t>(kids.size());
    nodes[i].kid_count = static_cast<std::uint32_t>(n);
    for (std::size_t j = 0; j != n; ++j) detail::dependent<D>(kids).push_back(k[j]);
  }
};

namespace detail {

template <class T> struct desc_builder;

// (Desc is type_desc: a parameter, so that what the builders do with it is instantiated only
// when a type is described.)
template <class T, class Desc>
constexpr std::uint32_t add_type(Desc& d) {
  static_assert(is_complete_v<T>);  // runs the checks of T's class template (see type.hpp)
  return desc_builder<T>::add(d);
}

template <dtype D, std::int64_t... Dims>
struct desc_builder<tensor<D, Dims...>> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    type_node n{.kind = type_kind::tensor, .dt = D};
    constexpr std::int64_t dims[] = {0, Dims...};
    if constexpr (sizeof...(Dims) == 1 && ((Dims == unknown_rank) && ...)) {
      n.unknown_rank = true;
    } else {
      n.dim_begin = static_cast<std::uint32_t>(d.dims.size());
      n.dim_count = sizeof...(Dims);
      for (std::size_t i = 1; i <= sizeof...(Dims); ++i) d.dims.push_back(dims[i]);
    }
    return d.add(n);
  }
};

template <class... E>
struct desc_builder<struct_t<E...>> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    // Children first (left to right: braced initialisation is sequenced), then their names.
    const std::uint32_t k[] = {0u, add_type<typename elem<E>::type>(d)...};
    constexpr std::string_view names[] = {std::string_view{}, elem<E>::name...};
    for (std::size_t i = 1; i <= sizeof...(E); ++i)
      if (!names[i].empty()) {
        d.nodes[k[i]].name_at = names[i].data();
        d.nodes[k[i]].name_static = true;
        d.nodes[k[i]].name_len = static_cast<std::uint32_t>(names[i].size());
      }
    auto id = d.add(type_node{.kind = type_kind::struct_});
    d.nodes[id].kid_begin = static_cast<std::uint32_t>(d.kids.size());
    d.nodes[id].kid_count = sizeof...(E);
    for (std::size_t i = 1; i <= sizeof...(E); ++i) d.kids.push_back(k[i]);
    return id;
  }
};

template <class T>
struct desc_builder<sequence_t<T>> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    const std::uint32_t k[] = {add_type<T>(d)};
    auto id = d.add(type_node{.kind = type_kind::sequence});
    d.set_kids(id, k, 1);
    return id;
  }
};

template <class P, class R>
struct desc_builder<function_t<P, R>> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    type_node n{.kind = type_kind::function};
    if constexpr (std::is_void_v<P>) {
      const std::uint32_t k[] = {add_type<R>(d)};
      auto id = d.add(n);
      d.set_kids(id, k, 1);
      return id;
    } else {
      const std::uint32_t k[] = {add_type<P>(d), add_type<R>(d)};
      n.has_param = true;
      auto id = d.add(n);
      d.set_kids(id, k, 2);
      return id;
    }
  }
};

template <class T, placement_kind P, bool A>
struct desc_builder<federated_t<T, P, A>> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    const std::uint32_t k[] = {add_type<T>(d)};
    auto id = d.add(type_node{.kind = type_kind::federated, .all_equal = A, .where = P});
    d.set_kids(id, k, 1);
    return id;
  }
};

template <>
struct desc_builder<placement_t> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    return d.add(type_node{.kind = type_kind::placement});
  }
};

template <fixed_string L>
struct desc_builder<abstract_t<L>> {
  template <class Desc>
  static constexpr std::uint32_t add(Desc& d) {
    type_node n{.kind = type_kind::abstract};
    n.label_begin = d.add_chars(L.view());
    n.label_len = static_cast<std::uint32_t>(L.size());
    return d.add(n);
  }
};

// How many entries describe<T>() puts in each vector of a type_desc, so that it reserves them
// once: growing a vector during constant evaluation copies it, which the evaluators charge most.
struct desc_sizes {
  std::size_t nodes = 1, kids = 0, dims = 0, chars = 0;
  constexpr desc_sizes operator+(const desc_sizes& o) const {
    return {nodes + o.nodes, kids + o.kids, dims + o.dims, chars + o.chars};
  }
};
template <class T> inline constexpr desc_sizes desc_sizes_v{};  // placement
template <dtype D, std::int64_t... N>
inline constexpr desc_sizes desc_sizes_v<tensor<D, N...>>{
    1, 0, sizeof...(N) == 1 && ((N == unknown_rank) && ...) ? 0 : sizeof...(N), 0};
template <class... E>
inline constexpr desc_sizes desc_sizes_v<struct_t<E...>> =
    (desc_sizes{1, sizeof...(E), 0, 0} + ... +
     desc_sizes_v<typename elem<E>::type>);
template <class T>
inline constexpr desc_sizes desc_sizes_v<sequence_t<T>> = desc_sizes{1, 1, 0, 0} + desc_sizes_v<T>;
template <class R>
inline constexpr desc_sizes desc_sizes_v<function_t<void, R>> = desc_sizes{1, 1, 0, 0} + desc_sizes_v<R>;
template <class P, class R>
inline constexpr desc_sizes desc_sizes_v<function_t<P, R>> =
    desc_sizes{1, 2, 0, 0} + desc_sizes_v<P> + desc_sizes_v<R>;
template <class T, placement_kind P, bool A>
inline constexpr desc_sizes desc_sizes_v<federated_t<T, P, A>> = desc_sizes{1, 1, 0, 0} + desc_sizes_v<T>;
template <fixed_string L>
inline constexpr desc_sizes desc_sizes_v<abstract_t<L>>{1, 0, 0, L.size()};

}  // namespace detail

// The description of a static type (usable in constant evaluation).
template <tff_type T>
constexpr type_desc describe() {
  detail::dependent_t<T, type_desc> d;
  constexpr detail::desc_sizes n = detail::desc_sizes_v<T>;
  d.nodes.reserve(n.nodes);
  d.kids.reserve(n.kids);
  d.dims.reserve(n.dims);
  d.chars.reserve(n.chars);
  d.root = detail::add_type<T>(d);
  return d;
}

}  // namespace ctff
