// The types of a federated zip and the inline zip an argument gets implicitly (Python's
// ensure_federated_value and zip_if_needed): federated_zip_at_clients / federated_zip_at_server of
// a (nested) struct of federated values with one placement. The parameter is the struct's type
// with CLIENTS all_equal leaves made not all_equal; the result is the struct with the placements
// stripped (names and nesting kept), {..}@CLIENTS or ..@SERVER.
#pragma once

#include <string_view>
#include <type_traits>
#include <vector>

#include "ctff/core/enum_is.hpp"
#include "ctff/types/signatures.hpp"
#include "ctff/trace/build.hpp"
#include "ctff/trace/convert.hpp"
#include "ctff/types/inspect.hpp"

namespace ctff::detail {

// Placement stripped from every federated leaf (the member type of a zip's result).
template <class T>
using strip_fed = map_leaves<unplaced, T>;

// A CLIENTS all_equal leaf as not all_equal.
template <class T>
struct clients_unequal {
  using type = T;
};
template <class T, bool A>
struct clients_unequal<federated_t<T, placement_kind::clients, A>> {
  using type = clients_t<T>;
};
// CLIENTS all_equal leaves normalised to not all_equal (a zip's parameter type).
template <class T>
using norm_zip = map_leaves<clients_unequal, T>;

// What a zip of T would see: whether every leaf is federated, and the placements met (bit 1:
// CLIENTS, bit 2: SERVER).
template <class T>
struct zip_info {
  static constexpr bool leaves_federated = false;
  static constexpr unsigned placements = 0;
};
template <class T, placement_kind P, bool A>
struct zip_info<federated_t<T, P, A>> {
  static constexpr bool leaves_federated = true;
  static constexpr unsigned placements = is(P, placement_kind::clients) ? 1u : 2u;
};
template <class... E>
struct zip_info<struct_t<E...>> {
  static constexpr bool leaves_federated =
      (zip_info<typename elem<E>::type>::leaves_federated && ...);
  static constexpr unsigned placements = (0u | ... | zip_info<typename elem<E>::type>::placements);
};

// Whether T is a struct that federated_zip accepts.
template <class T>
inline constexpr bool zippable_v = struct_info<T>::is_struct&& zip_info<T>::leaves_federated &&
                                   (zip_info<T>::placements == 1u || zip_info<T>::placements == 2u);

template <class T, bool Clients = zip_info<T>::placements == 1u>
struct zip_of {  // at CLIENTS
  using result = clients_t<typename strip_fed<T>::type>;
  using fn = function_t<typename norm_zip<T>::type, result>;
  using intrinsic = row::federated_zip_at_clients;
};
template <class T>
struct zip_of<T, false> {  // at SERVER
  using result = server_t<typename strip_fed<T>::type>;
  using fn = function_t<T, result>;
  using intrinsic = row::federated_zip_at_server;
};

// An argument zipped inline: Call(Intrinsic(federated_zip_at_*), x), not bound.
template <class X>
struct auto_zip {
  X x;  // a reference type
};
template <class X>
struct convert<auto_zip<X>> {
  static constexpr bool ok = true;
  using Z = zip_of<value_type_t<X>>;
  using type = typename Z::result;
  static constexpr void collect(const auto_zip<X>& z, bool temp, scratch<operand>& ops) {
    convert_t<X>::collect(z.x, temp && !std::is_lvalue_reference_v<X>, ops);
  }
  static constexpr std::uint32_t make(trace_ctx& c, const auto_zip<X>& z) {
    const std::uint32_t arg = convert_t<X>::make(c, z.x);
    return inline_call_node<type>(c, intrinsic_node<typename Z::fn, typename Z::intrinsic>(c), arg);
  }
};

}  // namespace ctff::detail
