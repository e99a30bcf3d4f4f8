// A DistributeAggregateForm composed back into the round it stands for, as TFF's
// get_computation_for_distribute_aggregate_form (form_utils.py) traces it:
//
//   (computation_arg -> (let
//     fc_computation_symbol_0=server_prepare(computation_arg[0]),
//     fc_computation_symbol_1=server_to_client_broadcast(fc_computation_symbol_0[0]),
//     fc_computation_symbol_2=client_work(<computation_arg[1],fc_computation_symbol_1>),
//     fc_computation_symbol_3=client_to_server_aggregation(<fc_computation_symbol_0[1],fc_computation_symbol_2>),
//     fc_computation_symbol_4=server_result(<fc_computation_symbol_0[1],fc_computation_symbol_3>)
//    in <fc_computation_symbol_4[0],fc_computation_symbol_4[1]>))
//
// each part embedded as it is (its own Lambda, its own names), the argument structs named as the
// part's parameter names its elements (as Python packs arguments). Written as Computation bytes,
// fields in number order, and read back, so the result is an ordinary tree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/core/front_wire.hpp"
#include "ctff/core/sink.hpp"
#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/validate.hpp"
#include "ctff/read/checker.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/read/writer.hpp"
#include "ctff/types/desc.hpp"
#include "ctff/types/wire.hpp"

namespace ctff {
namespace detail {

// Protobuf fields written front to back (a message's payload known before its header).
struct front_writer {
  static void varint(std::string& out, std::uint64_t v) { put_varint(out, v); }
  static void message(std::string& out, std::uint32_t field, std::string_view payload) {
    put_message(out, field, payload);
  }
  static std::string string_field(std::uint32_t field, std::string_view s) {
    std::string out;
    if (!s.empty()) message(out, field, s);
    return out;
  }
};

// The Type message of node ty of d.
inline std::string type_message(const type_desc& d, std::uint32_t ty) {
  growing_back_sink s(64);
  write_type(d, ty, s);
  return std::string(reinterpret_cast<const char*>(s.data()), s.size());
}

class form_composer {
 public:
  form_composer(const distribute_aggregate_form& f, const type_desc* round)
      : parts_(f.parts()), round_(round) {}

  std::string bytes() const {
    using w = front_writer;
    // Types: of each part's parameter and result, and of their elements.
    // The round's parameter: its own type when known, else <S,{D}@CLIENTS> of the parts.
    const std::uint32_t round_param = round_ ? round_->kid(round_->root, 0) : no_index;
    const std::string state = round_ ? type_message(*round_, round_->kid(round_param, 0)) : param(0);
    const std::string client_data = round_ ? type_message(*round_, round_->kid(round_param, 1)) : param_elem(2, 0);
    const std::string prepared = result(0), prepared_b = result_elem(0, 0), prepared_t = result_elem(0, 1);
    const std::string broadcast_out = result(1), client_out = result(2), aggregated = result(3);
    const std::string round_out = result(4), out_s = result_elem(4, 0), out_x = result_elem(4, 1);
    const std::string arg_type =
        round_ ? type_message(*round_, round_param) : struct_type({{"", state}, {"", client_data}});
    const std::string out_type = struct_type({{"", out_s}, {"", out_x}});

    const std::string arg = reference("computation_arg", arg_type);
    const std::string sym[5] = {"fc_computation_symbol_0", "fc_computation_symbol_1", "fc_computation_symbol_2",
                                "fc_computation_symbol_3", "fc_computation_symbol_4"};
    const std::string s0 = reference(sym[0], prepared);
    const std::string locals[5] = {
        call(0, selection(arg, 0, state), prepared),
        call(1, selection(s0, 0, prepared_b), broadcast_out),
        call(2, pair(2, selection(arg, 1, client_data), client_data, reference(sym[1], broadcast_out), broadcast_out),
             client_out),
        call(3, pair(3, selection(s0, 1, prepared_t), prepared_t, reference(sym[2], client_out), client_out),
             aggregated),
        call(4, pair(4, selection(s0, 1, prepared_t), prepared_t, reference(sym[3], aggregated), aggregated),
             round_out),
    };
    const std::string s4 = reference(sym[4], round_out);
    std::string block;
    for (int k = 0; k != 5; ++k) {
      std::string local = w::string_field(1, sym[k]);
      w::message(local, 2, locals[k]);
      w::message(block, 1, local);
    }
    w::message(block, 2, structure({{"", selection(s4, 0, out_s)}, {"", selection(s4, 1, out_x)}}, out_type));
    std::string lambda = w::string_field(1, "computation_arg");
    w::message(lambda, 2, computation(out_type, computation_field::block, block));
    std::string fn;
    w::message(fn, function_parameter_field, arg_type);
    w::message(fn, function_result_field, out_type);
    std::string fn_type;
    w::message(fn_type, type_field(type_kind::function), fn);
    return computation(fn_type, computation_field::lambda, lambda);
  }

 private:
  using w = front_writer;

  const computation_tree& part(int k) const { return *parts_[static_cast<std::size_t>(k)].tree; }
  std::uint32_t fn(int k) const { return part(k).node(part(k).root).type; }
  std::string param(int k) const { return type_message(part(k).types, part(k).types.kid(fn(k), 0)); }
  std::string result(int k) const { return type_message(part(k).types, part(k).types.kid(fn(k), 1)); }
  std::string param_elem(int k, std::uint32_t e) const {
    const type_desc& d = part(k).types;
    return type_message(d, d.kid(d.kid(fn(k), 0), e));
  }
  std::string param_name(int k, std::uint32_t e) const {
    const type_desc& d = part(k).types;
    return std::string(d.name(d.kid(d.kid(fn(k), 0), e)));
  }
  std::string result_elem(int k, std::uint32_t e) const {
    const type_desc& d = part(k).types;
    return type_message(d, d.kid(d.kid(fn(k), 1), e));
  }

  static std::string computation(const std::string& type, std::uint32_t field, const std::string& body) {
    return computation_bytes(&type, field, body);
  }
  static std::string struct_type(const std::vector<std::pair<std::string, std::string>>& elems) {
    std::string st;
    for (const auto& [name, type] : elems) {
      std::string e = w::string_field(element_name_field, name);
      w::message(e, element_value_field, type);
      w::message(st, struct_element_field, e);
    }
    std::string out;
    w::message(out, type_field(type_kind::struct_), st);
    return out;
  }
  static std::string reference(const std::string& name, const std::string& type) {
    return computation(type, computation_field::reference, w::string_field(1, name));
  }
  static std::string selection(const std::string& source, std::int32_t index, const std::string& type) {
    std::string s;
    w::message(s, 1, source);
    if (index != 0) {
      w::varint(s, 3 << 3);
      w::varint(s, static_cast<std::uint64_t>(index));
    }
    return computation(type, computation_field::selection, s);
  }
  static std::string structure(const std::vector<std::pair<std::string, std::string>>& elems, const std::string& type) {
    std::string s;
    for (const auto& [name, value] : elems) {
      std::string e = w::string_field(1, name);
      w::message(e, 2, value);
      w::message(s, 1, e);
    }
    return computation(type, computation_field::struct_, s);
  }
  // The argument of part k: a pair named as its parameter names its elements.
  std::string pair(int k, const std::string& a, const std::string& a_type, const std::string& b,
                   const std::string& b_type) const {
    const std::string n0 = param_name(k, 0), n1 = param_name(k, 1);
    return structure({{n0, a}, {n1, b}}, struct_type({{n0, a_type}, {n1, b_type}}));
  }
  // A call of part k (embedded as it is) with `argument`.
  std::string call(int k, const std::string& argument, const std::string& type) const {
    std::string c;
    w::message(c, 1, serialize(part(k)));
    w::message(c, 2, argument);
    return computation(type, computation_field::call, c);
  }

  std::array<form_part<const computation_tree>, 5> parts_;
  const type_desc* round_;
};

// The composed bytes read back and checked.
inline computation_tree composed(const std::string& bytes) {
  // The parts are trees already (read under whatever limits): their composition is read unlimited.
  computation_tree t = read_computation(bytes, read_limits{.max_depth = static_cast<std::size_t>(-1),
                                                           .max_bytes = static_cast<std::size_t>(-1)});
  if (const auto e = check(t, 1); !e.empty())  // (the rules make it impossible)
    throw form_error(std::string(rule_name(form_rule::part_check)), e.front().path,
                     "the composed round does not check: " + e.front().problem);
  return t;
}

}  // namespace detail

// The round a form stands for: a Lambda over <S@SERVER,{D}@CLIENTS> calling the five parts in
// order (see above). Throws form_error when the parts are not a DistributeAggregateForm
// (ctff::validate, forms/validate.hpp); the result passes ctff::check.
inline computation_tree from_distribute_aggregate_form(const distribute_aggregate_form& f) {
  validate(f);
  return detail::composed(detail::form_composer(f, nullptr).bytes());
}
// The same with the round's type (`tree.type_of(tree.root)` of the round the form was split
// from), whose parameter the Lambda takes, names and all, as TFF's composition does: then the
// bytes are TFF's.
inline computation_tree from_distribute_aggregate_form(const distribute_aggregate_form& f, const type_desc& round_type) {
  validate(f, round_type);
  return detail::composed(detail::form_composer(f, &round_type).bytes());
}

}  // namespace ctff
