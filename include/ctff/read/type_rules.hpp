// The type system's own rules on a type read from the wire, as federated_language applies them
// when it builds a type: a federated member holds no federated or function type; a sequence
// holds no federated, function or sequence type; struct element names are unique; a tensor of
// unknown rank has no dims, and each dim is >= 0, or -1 when unknown; an abstract type has a
// label (and, inside a Computation, there is none). Written once for the Type reader
// (proto/type_reader.hpp: the first violation is a type_error) and the checker
// (read/checker.hpp: every violation is a check_error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "ctff/read/name_hash.hpp"
#include "ctff/read/path.hpp"
#include "ctff/types/desc.hpp"

namespace ctff::detail {

// Walks type node i of d, `path` its location (frames pushed for what lies below, popped again),
// and calls report(problem) with `path` at each violation; report may throw to stop at the first.
template <class Report>
class type_rule_walk {
 public:
  type_rule_walk(const type_desc& d, std::vector<path_frame>& path, bool abstract_allowed, Report& report)
      : d_(d), path_(path), abstract_allowed_(abstract_allowed), report_(report) {}

  void walk(std::uint32_t i) { node(i, none, none); }

 private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // fed, seq: the path length of the innermost enclosing federated and sequence type.
  void node(std::uint32_t i, std::size_t fed, std::size_t seq) {
    const type_node& n = d_.node(i);
    switch (n.kind) {
      case type_kind::tensor:
        if (n.unknown_rank && n.dim_count)
          at({"tensor", -1, {}}, "unknown_rank is set together with " + std::to_string(n.dim_count) +
                                     " dims; a shape of unknown rank has no dims");
        for (std::uint32_t k = 0; k != n.dim_count; ++k)
          if (const std::int64_t v = d_.dims[n.dim_begin + k]; v < -1)
            at({"tensor.dims", k, {}},
               "dimension " + std::to_string(v) + " is invalid; a dimension is >= 0, or -1 when unknown");
        return;
      case type_kind::struct_: {
        // Each name's first element: linear in the elements (hostile input may have millions).
        std::unordered_map<std::string_view, std::uint32_t, name_hash> first;
        for (std::uint32_t k = 0; k != n.kid_count; ++k) {
          const std::uint32_t c = d_.kid(i, k);
          const std::string_view name = d_.name(c);
          path_.push_back(path_frame{"struct", k, name});
          if (!name.empty())
            if (const auto [at, fresh] = first.emplace(name, k); !fresh)
              report_("duplicate struct element name `" + std::string(name) + "` (element " +
                      std::to_string(at->second) + " has the same name)");
          node(c, fed, seq);
          path_.pop_back();
        }
        return;
      }
      case type_kind::sequence:
        if (seq != none) inside("sequence", seq, in_sequence);
        below("sequence.element", d_.kid(i, 0), fed, path_.size());
        return;
      case type_kind::function:
        not_nested("function", fed, seq);
        if (n.has_param) below("function.parameter", d_.kid(i, 0), fed, seq);
        below("function.result", d_.kid(i, n.has_param ? 1 : 0), fed, seq);
        return;
      case type_kind::federated:
        not_nested("federated", fed, seq);
        below("federated.member", d_.kid(i, 0), path_.size(), seq);
        return;
      case type_kind::placement:
        return;
      case type_kind::abstract:
        if (!abstract_allowed_)
          report_("an abstract type (`" + std::string(d_.label(i)) +
                  "`); federated_language cannot read abstract types back");
        else if (d_.label(i).empty())
          at({"abstract.label", -1, {}}, "the abstract type has an empty label");
        return;
    }
  }

  void below(const char* what, std::uint32_t kid, std::size_t fed, std::size_t seq) {
    path_.push_back(path_frame{what, -1, {}});
    node(kid, fed, seq);
    path_.pop_back();
  }
  void at(path_frame f, const std::string& problem) {
    path_.push_back(f);
    report_(problem);
    path_.pop_back();
  }
  static constexpr const char* in_federated[] = {
      "federated", "; a federated member cannot contain federated or function types"};
  static constexpr const char* in_sequence[] = {
      "sequence", "; a sequence cannot contain federated, function or sequence types"};

  void not_nested(const char* what, std::size_t fed, std::size_t seq) {
    if (fed != none) inside(what, fed, in_federated);
    if (seq != none) inside(what, seq, in_sequence);
  }
  // A `what` type inside the enclosing type whose path is the first `depth` frames.
  void inside(const char* what, std::size_t depth, const char* const (&outer)[2]) {
    const std::string where = path_string(path_, depth);
    report_(std::string("a ") + what + " type inside the " + outer[0] + " type at " +
            (where.empty() ? std::string("(top level)") : where) + outer[1]);
  }

  const type_desc& d_;
  std::vector<path_frame>& path_;
  bool abstract_allowed_;
  Report& report_;
};

template <class Report>
void check_type_rules(const type_desc& d, std::uint32_t i, std::vector<path_frame>& path, bool abstract_allowed,
                      Report&& report) {
  type_rule_walk<std::remove_reference_t<Report>>(d, path, abstract_allowed, report).walk(i);
}

}  // namespace ctff::detail
