// The rules between the parts of a form, and between the form and its round (forms/form_rules.hpp):
// broadcast_input, broadcast_output, aggregation_input, aggregation_output, intermediate_state,
// server_state, client_data, server_output and round_type. An error is located at the part that
// receives (`server_to_client_broadcast`); one about the round alone, nowhere (an empty path).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_report.hpp"
#include "ctff/forms/part_rules.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/print.hpp"
#include "ctff/types/relations.hpp"

namespace ctff::detail {

class link_rules {
 public:
  link_rules(form_report& r, const std::array<form_part<const computation_tree>, 5>& parts,
             const std::array<part_shape, 5>& shapes)
      : r_(r), parts_(parts), shapes_(shapes) {}

  // The parts with each other; with `round` (not null), with the round's type too.
  void check(const type_desc* round) {
    using p = part_at;
    link(form_rule::broadcast_input, p::broadcast, part_end(p::broadcast, 0), "server_to_client_broadcast's parameter",
         part_end(p::prepare, 1, 0), "server_prepare's result[0]");
    link(form_rule::broadcast_output, p::client_work, part_end(p::client_work, 0, 1), "client_work's parameter[1]",
         part_end(p::broadcast, 1), "server_to_client_broadcast's result");
    link(form_rule::aggregation_input, p::aggregation, part_end(p::aggregation, 0, 1),
         "client_to_server_aggregation's parameter[1]", part_end(p::client_work, 1), "client_work's result");
    link(form_rule::aggregation_output, p::result, part_end(p::result, 0, 1), "server_result's parameter[1]",
         part_end(p::aggregation, 1), "client_to_server_aggregation's result");
    link(form_rule::intermediate_state, p::aggregation, part_end(p::aggregation, 0, 0),
         "client_to_server_aggregation's parameter[0]", part_end(p::prepare, 1, 1), "server_prepare's result[1]");
    link(form_rule::intermediate_state, p::result, part_end(p::result, 0, 0), "server_result's parameter[0]",
         part_end(p::prepare, 1, 1), "server_prepare's result[1]");
    if (!round) {
      link(form_rule::server_state, p::result, part_end(p::result, 1, 0), "server_result's result[0]",
           part_end(p::prepare, 0), "server_prepare's parameter");
      return;
    }
    const type_desc& d = *round;
    const type_node& fn = d.node(d.root);
    if (fn.kind != type_kind::function || !fn.has_param || d.node(d.kid(d.root, 0)).kind != type_kind::struct_ ||
        d.node(d.kid(d.root, 0)).kid_count != 2 || d.node(d.kid(d.root, 1)).kind != type_kind::struct_ ||
        d.node(d.kid(d.root, 1)).kid_count != 2) {
      r_.error(form_rule::round_type, "",
               "the round's type " + type_text(d, d.root) +
                   " is not a function of a struct of two elements to a struct of two elements");
      return;
    }
    const end state{&d, d.kid(d.kid(d.root, 0), 0)}, data{&d, d.kid(d.kid(d.root, 0), 1)},
        next_state{&d, d.kid(d.kid(d.root, 1), 0)}, output{&d, d.kid(d.kid(d.root, 1), 1)};
    link(form_rule::server_state, p::prepare, part_end(p::prepare, 0), "server_prepare's parameter", state,
         "the round's parameter[0]");
    link(form_rule::server_state, p::result, part_end(p::result, 1, 0), "server_result's result[0]", state,
         "the round's parameter[0]");
    link(form_rule::server_state, nowhere, next_state, "the round's result[0]", state, "the round's parameter[0]");
    link(form_rule::client_data, p::client_work, part_end(p::client_work, 0, 0), "client_work's parameter[0]", data,
         "the round's parameter[1]");
    link(form_rule::server_output, p::result, part_end(p::result, 1, 1), "server_result's result[1]", output,
         "the round's result[1]");
  }

 private:
  static constexpr std::size_t nowhere = 5;  // (an error about the round alone)

  // A type: node ty of *d (none: d null).
  struct end {
    const type_desc* d = nullptr;
    std::uint32_t ty = no_index;
    explicit operator bool() const { return d != nullptr; }
  };
  // The type of part k's parameter (side 0) or result (side 1), element `elem` of it (-1: all).
  end part_end(std::size_t k, int side, int elem = -1) const {
    const part_shape& s = shapes_[k];
    if (s.fn == no_index) return {};
    const type_desc& d = parts_[k].tree->types;
    std::uint32_t ty = d.kid(s.fn, static_cast<std::uint32_t>(side));
    if (elem >= 0) {
      if (!(side == 0 ? s.param_pair : s.result_pair)) return {};
      ty = d.kid(ty, static_cast<std::uint32_t>(elem));
    }
    return {&d, ty};
  }
  // `to` (at part `at`) must accept what `from` gives.
  void link(form_rule rule, std::size_t at, end to, std::string_view to_what, end from, std::string_view from_what) {
    if (!to || !from) return;
    if (assignable(*to.d, to.ty, *from.d, from.ty)) return;
    r_.error(rule, at == nowhere ? std::string() : std::string(parts_[at].name),
             std::string(to_what) + " of type " + type_text(*to.d, to.ty) + " does not accept " +
                 std::string(from_what) + " of type " + type_text(*from.d, from.ty));
  }

  form_report& r_;
  const std::array<form_part<const computation_tree>, 5>& parts_;
  const std::array<part_shape, 5>& shapes_;
};

}  // namespace ctff::detail
