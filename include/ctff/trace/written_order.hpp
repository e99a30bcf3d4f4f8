// Calls that g++'s generated code made right to left where no ctff operation received them
// together to put them back (trace/binding_order.hpp, restore_order): `auto t =
// std::tuple(federated_sum(a), federated_max(b));` read with std::get, or a user's
// `pair_up(federated_sum(a), federated_max(b))` taking values. Their run-time events are those of
// a correct program with the other Python order (docs/design.md, "What a run-time trace compiled
// by g++ cannot see"); where each call was written is not: the intrinsics take a
// std::source_location, remembered by a g++ run-time trace (bound_call, trace/build.hpp).
//
// The rule, on the final binding order (after every restore_order, so the temporaries ctff put
// back are never refused): a call bound after another of the same trace, written in the same
// function on the same line and to its left, can only have been made later by C++'s right-to-left
// evaluation of one call's arguments, unless it uses the other's result (an outer call:
// `federated_sum(federated_map(f, v))`), or a new invocation of the line began between them (a
// helper called twice, a loop: a call written at a column already seen since the group began).
// Such a pair fails the trace with ctff::trace_failure, naming the line: ctff cannot see the
// windows of the two arguments, so it does not reorder them. Run by trace_into through
// trace_ctx::check_order, which only run-time traces set (runtime_outputs::trace).
// Not caught: calls inside helpers (different functions), operators (`a + b`: no default
// argument), variadic operations (make_struct, federated_zip(a, b, ...)), macros (one column).
// Refused though correct (rare): calls written right to left on one line whose later one does
// not use the earlier (`r = k ? federated_sum(a) : federated_max(b)` in a one-line loop; a
// one-line helper choosing between two intrinsics, called twice, right one first).
#pragma once

#include <cstdint>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/core/defer.hpp"
#include "ctff/core/enum_is.hpp"
#include "ctff/trace/binding_order.hpp"
#include "ctff/trace/error.hpp"
#include "ctff/trace/fault.hpp"

namespace ctff::detail {

#if !defined(__clang__)

// Whether two sites are on one line of one function.
inline bool same_line(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && std::string_view(a.function_name()) == b.function_name() &&
         std::string_view(a.file_name()) == b.file_name();
}

// Whether the bound call at binding position `to` uses the one at `from` (< to), directly or
// through the calls bound between them. `mark`: one flag per node, all clear; left clear.
CTFF_DEFER
bool uses_call(const trace_ctx& c, std::uint32_t from, std::uint32_t to,
               std::vector<unsigned char>& mark) {
  const auto hit = [&](std::uint32_t k) {
    const node& n = c.nodes[k];
    return is(n.kind, node_kind::symbol_ref) && mark[n.a] != 0;
  };
  mark[c.bindings[from]] = 1;
  for (std::uint32_t k = from + 1; k <= to; ++k) {
    const node& n = c.nodes[c.bindings[k]];
    if (any_inline(c, n.a, hit) || any_inline(c, n.b, hit)) mark[c.bindings[k]] = 1;
  }
  const bool used = mark[c.bindings[to]] != 0;
  for (std::uint32_t k = from; k <= to; ++k) mark[c.bindings[k]] = 0;
  return used;
}

// The name of a bound call's function: its intrinsic's URI.
CTFF_DEFER
std::string_view call_name(const trace_ctx& c, std::uint32_t call) {
  const node& f = c.nodes[c.nodes[call].a];
  return is(f.kind, node_kind::intrinsic) ? f.text : std::string_view("call");
}

// Fails the trace (ctff::trace_failure) if two of its calls were made right to left as above.
// Run time, g++ only; an error already waiting is thrown first (runtime_outputs::trace).
CTFF_DEFER
void check_written_order(const trace_ctx& c) {
  if (c.sites.size() < 2 || pending_trace_error()) return;
  // The sites in binding order, with their positions.
  std::vector<std::uint32_t> site_of(c.nodes.size(), no_node);
  for (std::uint32_t i = 0; i != c.sites.size(); ++i) site_of[c.sites[i].call] = i;
  struct entry {
    std::uint32_t pos, site, prev, first;  // prev: the group's entry before; first: its segment's
  };
  std::vector<entry> in_order;
  for (std::uint32_t k = 0; k != c.bindings.size(); ++k)
    if (site_of[c.bindings[k]] != no_node)
      in_order.push_back({k, site_of[c.bindings[k]], no_node, no_node});
  if (in_order.size() < 2) return;
  // Groups (one function's line): the last entry of each, by open addressing on the line.
  std::size_t slots = 4;
  while (slots < 2 * in_order.size()) slots *= 2;
  std::vector<std::uint32_t> last(slots, no_node);
  std::vector<unsigned char> mark;
  const auto where = [&](std::uint32_t e) -> const std::source_location& {
    return c.sites[in_order[e].site].where;
  };
  for (std::uint32_t j = 0; j != in_order.size(); ++j) {
    const std::source_location& s = where(j);
    std::size_t h = (s.line() * 0x9E3779B1u) & (slots - 1);
    while (last[h] != no_node && !same_line(where(last[h]), s)) h = (h + 1) & (slots - 1);
    entry& e = in_order[j];
    e.prev = last[h];
    last[h] = j;
    e.first = e.prev == no_node ? j : in_order[e.prev].first;
    bool again = false;  // a column seen since the segment began: the line runs anew
    for (std::uint32_t i = e.prev; i != no_node && i >= e.first && !again; i = in_order[i].prev)
      again = where(i).column() == s.column();
    if (again) {
      e.first = j;
      continue;
    }
    for (std::uint32_t i = e.prev; i != no_node && i >= e.first; i = in_order[i].prev) {
      if (where(i).column() <= s.column()) continue;
      if (mark.empty()) mark.assign(c.nodes.size(), 0);
      if (uses_call(c, in_order[i].pos, e.pos, mark)) continue;
      const std::uint32_t left = c.sites[e.site].call, right = c.sites[in_order[i].site].call;
      std::string m = CTFF_WRITTEN_ORDER_MESSAGE " (";
      m.append(s.file_name()).append(":").append(std::to_string(s.line()));
      m.append(": ").append(call_name(c, left)).append(" at column ");
      m.append(std::to_string(s.column())).append(" was made after ");
      m.append(call_name(c, right)).append(" at column ").append(std::to_string(where(i).column()));
      m.append(")");
      throw trace_failure(m);
    }
  }
}

#endif

}  // namespace ctff::detail
