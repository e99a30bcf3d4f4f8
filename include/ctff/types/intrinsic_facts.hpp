// The intrinsic table's rows (types/signatures.hpp) as the rooms that read, run and split
// computations ask them, by a URI read from a tree or carried by a function value: the row's index,
// its facts, its identity (`row_index<row::federated_map>`).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "ctff/types/signatures.hpp"

namespace ctff::detail {

struct intrinsic_entry {
  std::string_view uri;
  intrinsic_facts facts;
};
// The rows in table order, then one for a URI not in the table (kind none).
template <class... Rows>
constexpr std::array<intrinsic_entry, sizeof...(Rows) + 1> entries_of(intrinsic_rows<Rows...>) {
  return {{{Rows::uri, Rows::facts}..., {}}};
}
inline constexpr auto intrinsic_entries = entries_of(intrinsic_table{});
inline constexpr std::size_t intrinsic_count = intrinsic_entries.size() - 1;

// The row of uri; intrinsic_count: none.
constexpr std::size_t intrinsic_row_of(std::string_view uri) {
  std::size_t k = 0;
  while (k != intrinsic_count && intrinsic_entries[k].uri != uri) ++k;
  return k;
}
constexpr const intrinsic_facts& intrinsic_facts_of(std::string_view uri) {
  return intrinsic_entries[intrinsic_row_of(uri)].facts;
}
// A row's index, to compare with intrinsic_row_of's.
template <class Row>
inline constexpr std::size_t row_index = intrinsic_row_of(Row::uri);
// The per-client intrinsics whose function reads each client's own value (federated_map,
// federated_eval_at_clients), which a client backend runs where the clients are; the selects'
// functions read the server's value.
constexpr bool ships_per_client(const intrinsic_facts& f) {
  return f.per_client && f.kind != intrinsic_kind::broadcast;
}
// Whether uri is the row's.
template <class Row>
constexpr bool is_intrinsic(std::string_view uri) {
  return uri == Row::uri;
}

}  // namespace ctff::detail
