// Sequence operators, on a sequence T* or, pointwise, on a federated sequence {T*}@P:
//   sequence_map(fn, s)         `sequence_map` of (<(T -> U),T*> -> U*) over <fn, s>. Federated:
//                               `(arg0 -> (arg1 -> sequence_map(<arg0,arg1>)))(fn)` bound to a
//                               local, then federated_map of that local over s.
//   sequence_reduce(s, zero, op)  `sequence_reduce` of (<T*,U,(<U,T> -> U)> -> U) over
//                               <s, zero, op'>, op' the `(a -> op(a))` wrapper when op's parameter
//                               struct has names. Federated (zero federated too): federated_map of
//                               `(arg -> sequence_reduce(<arg[0],arg[1],op'>))` over <s, zero>,
//                               which is zipped.
//   sequence_sum(s)             `sequence_sum` of (T* -> T); federated: federated_map of the bare
//                               intrinsic over s.
#pragma once

#include <source_location>
#include <tuple>
#include <utility>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/map.hpp"
#include "ctff/trace/binding_order.hpp"

namespace ctff {
namespace detail {

// The sequence a sequence operator works on: S itself, or the member of a federated S.
template <class S>
struct seq_operand {
  static constexpr bool ok = seq_info<S>::is_seq;
  static constexpr bool federated = false;
  using seq = S;
};
template <class M, placement_kind P, bool A>
struct seq_operand<federated_t<M, P, A>> {
  static constexpr bool ok = seq_info<M>::is_seq;
  static constexpr bool federated = true;
  using seq = M;
};
template <class S>
using seq_element_t = typename seq_info<typename seq_operand<S>::seq>::element;

// `(arg0 -> (arg1 -> sequence_map(<arg0,arg1>)))` for a mapping function of type FT.
template <class FT>
struct curried_sequence_map {};
template <class FT>
struct convert<curried_sequence_map<FT>> {
  static constexpr bool ok = true;
  using PS = sequence_t<typename fn_info<FT>::param>;
  using RS = sequence_t<typename fn_info<FT>::result>;
  using inner = function_t<PS, RS>;
  using type = function_t<FT, inner>;
  static constexpr void collect(const curried_sequence_map<FT>&, bool, scratch<operand>&) {}
  static constexpr std::uint32_t make(trace_ctx& c, const curried_sequence_map<FT>&) {
    using A = struct_t<FT, PS>;
    const std::uint32_t parts[] = {named_ref_node<FT>(c, "arg0"), named_ref_node<PS>(c, "arg1")};
    const std::uint32_t fn = intrinsic_node<function_t<A, RS>, row::sequence_map>(c);
    const std::uint32_t call = inline_call_node<RS>(c, fn, unnamed_struct_node<A>(c, parts));
    return lambda_node<type>(c, "arg0", lambda_node<inner>(c, "arg1", call));
  }
};

// `(arg -> sequence_reduce(<arg[0],arg[1],op'>))` over <S, U>, S a sequence of T.
template <class S, class U, class Op>
struct reduce_lambda {
  Op op;  // a reference type
};
template <class S, class U, class Op>
struct convert<reduce_lambda<S, U, Op>> {
  static constexpr bool ok = true;
  using P = struct_t<U, typename seq_info<S>::element>;
  using OpU = unnamed_fn_t<P, Op>;
  using R = typename fn_info<OpU>::result;
  using A = struct_t<S, U>;
  using type = function_t<A, R>;
  static constexpr void collect(const reduce_lambda<S, U, Op>& l, bool temp,
                                scratch<operand>& ops) {
    convert_t<Op>::collect(l.op, temp && !std::is_lvalue_reference_v<Op>, ops);
  }
  static constexpr std::uint32_t make(trace_ctx& c, const reduce_lambda<S, U, Op>& l) {
    using B = struct_t<S, U, OpU>;
    const std::uint32_t arg = named_ref_node<A>(c, "arg");
    const std::uint32_t parts[] = {selection_node<S>(c, arg, 0), selection_node<U>(c, arg, 1),
                                   unnamed_fn_node<P>(c, l.op)};
    const std::uint32_t fn = intrinsic_node<function_t<B, R>, row::sequence_reduce>(c);
    const std::uint32_t call = inline_call_node<R>(c, fn, unnamed_struct_node<B>(c, parts));
    return lambda_node<type>(c, "arg", call);
  }
};

// The result r of an operator that bound several locals itself, with a span that also covers its
// operands' temporaries (gathered first, in argument order).
template <class R>
constexpr value<R> compound_result(const value<R>& r, std::uint32_t operands_first,
                                   std::uint32_t own_first) {
  auto l = value_access::loc(r);
  return make_value<R>(*l.ctx, l.id, operands_first != no_node ? operands_first : own_first);
}

}  // namespace detail

template <class Fn, class S>
constexpr auto sequence_map(Fn&& fn, S&& s, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using FT = type_or_void_t<Fn>;
  using ST = type_or_void_t<S>;
  using SO = seq_operand<ST>;
  using Fallback = sequence_t<tensor<dtype::int32>>;
  if constexpr (!is_function_v<FT>) {
    CTFF_DIAGNOSE(report<labeled<"function", FT>>::shown,
                  "ctff: sequence_map: " CTFF_RULE_FUNCTION("the mapping function"));
    return poisoned<Fallback>();
  } else if constexpr (!SO::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                  "ctff: sequence_map: " CTFF_RULE_SEQUENCE("the value"));
    return poisoned<Fallback>();
  } else {
    using E = seq_element_t<ST>;
    using R = typename fn_info<FT>::result;
    using Guess = sequence_t<std::conditional_t<sequenceable_v<R>, R, tensor<dtype::int32>>>;
    if constexpr (!fn_info<FT>::has_param) {
      CTFF_DIAGNOSE(report<labeled<"function", FT>>::shown,
                    "ctff: sequence_map: " CTFF_RULE_TAKES_PARAMETER("the mapping function"));
      return poisoned<Guess>();
    } else if constexpr (!is_assignable_v<typename fn_info<FT>::param, E>) {
      CTFF_DIAGNOSE(
          report<labeled<"parameter", typename fn_info<FT>::param>, labeled<"element", E>>::shown,
          "ctff: sequence_map: the mapping function's parameter type is not assignable "
          "from the sequence's element type");
      return poisoned<Guess>();
    } else if constexpr (!sequenceable_v<R>) {
      CTFF_DIAGNOSE(report<labeled<"result", R>>::shown,
                    "ctff: sequence_map: the mapping function's result must not contain federated, "
                    "function or sequence types");
      return poisoned<Guess>();
    } else if constexpr (!SO::federated) {
      using F = function_t<struct_t<FT, ST>, sequence_t<R>>;
      return intrinsic_call<F, row::sequence_map>(where, static_cast<Fn&&>(fn),
                                                  static_cast<S&&>(s));
    } else if constexpr (at_server_v<ST> && !fed_info<ST>::all_equal) {
      CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                    "ctff: sequence_map: " CTFF_RULE_SERVER_SEQUENCE_ALL_EQUAL);
      return poisoned<federated_t<Guess, placement_kind::server, true>>();
    } else {
      auto g = gather(nullptr, static_cast<Fn&&>(fn), static_cast<S&&>(s));  // operands' order
      const auto own_first = static_cast<std::uint32_t>(g.ctx->bindings.size());
      auto local = call_function(curried_sequence_map<FT>{}, fn);
      // `local` is made here: a temporary, whatever context it was bound in.
      return compound_result(federated_map(std::move(local), s, where), g.span_first, own_first);
    }
  }
}

template <class S, class Z, class Op>
constexpr auto sequence_reduce(S&& s, Z&& zero, Op&& op,
                               std::source_location where = std::source_location::current()) {
  using namespace detail;
  using ST = type_or_void_t<S>;
  using ZT = type_or_void_t<Z>;
  using OpT = type_or_void_t<Op>;
  using SO = seq_operand<ST>;
  using Fallback = tensor<dtype::int32>;
  if constexpr (!SO::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                  "ctff: sequence_reduce: " CTFF_RULE_SEQUENCE("the value"));
    return poisoned<Fallback>();
  } else if constexpr (SO::federated && !same_placement_v<ST, ZT>) {
    CTFF_DIAGNOSE(report<labeled<"value", ST>, labeled<"zero", ZT>>::shown,
                  "ctff: sequence_reduce: with a federated sequence, the zero must be federated at "
                  "the same placement");
    return poisoned<federated_t<Fallback, placement_kind::clients, false>>();
  } else if constexpr (std::is_void_v<ZT>) {
    static_assert(
        cxx_types<Z>::shown,
        "ctff: sequence_reduce: the zero must be a traced value, a constant or a tuple of "
        "them");
    return poisoned<Fallback>();
  } else {
    using E = seq_element_t<ST>;
    using U = unplaced_t<ZT>;  // the zero's type, unplaced
    using Result = std::conditional_t<
        SO::federated,
        federated_t<U, at_clients_v<ST> ? placement_kind::clients : placement_kind::server,
                    !at_clients_v<ST>>,
        U>;
    if constexpr (!is_function_v<OpT>) {
      CTFF_DIAGNOSE(report<labeled<"op", OpT>>::shown,
                    "ctff: sequence_reduce: " CTFF_RULE_FUNCTION("op"));
      return poisoned<Result>();
    } else if constexpr (!fn_info<OpT>::has_param ||
                         !is_assignable_v<typename fn_info<OpT>::param, struct_t<U, E>> ||
                         !is_equivalent_v<typename fn_info<OpT>::result, U>) {
      CTFF_DIAGNOSE(report<labeled<"op", OpT>, labeled<"zero", U>, labeled<"element", E>>::shown,
                    "ctff: sequence_reduce: op must have type (<U,T> -> U), with U the type of the "
                    "zero and T the element type of the sequence");
      return poisoned<Result>();
    } else if constexpr (!SO::federated) {
      using P = struct_t<U, E>;
      using F = function_t<struct_t<ST, U, unnamed_fn_t<P, Op&&>>, typename fn_info<OpT>::result>;
      return intrinsic_call<F, row::sequence_reduce>(where, static_cast<S&&>(s),
                                                     static_cast<Z&&>(zero),
                                                     unname_fn<P>(static_cast<Op&&>(op)));
    } else {
      using Seq = typename SO::seq;
      auto g = gather(nullptr, static_cast<S&&>(s), static_cast<Z&&>(zero), static_cast<Op&&>(op));
      const auto own_first = static_cast<std::uint32_t>(g.ctx->bindings.size());
      return compound_result(
          federated_map(reduce_lambda<Seq, U, Op&>{op}, std::tuple<S&, Z&>(s, zero), where),
          g.span_first,
          own_first);
    }
  }
}

template <class S>
constexpr auto sequence_sum(S&& s, std::source_location where = std::source_location::current()) {
  using namespace detail;
  using ST = type_or_void_t<S>;
  using SO = seq_operand<ST>;
  if constexpr (!SO::ok) {
    CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                  "ctff: sequence_sum: " CTFF_RULE_SEQUENCE("the value"));
    return poisoned<tensor<dtype::int32>>();
  } else {
    using E = seq_element_t<ST>;
    using Result = std::conditional_t<
        SO::federated,
        federated_t<E, at_clients_v<ST> ? placement_kind::clients : placement_kind::server,
                    !at_clients_v<ST>>,
        E>;
    if constexpr (!sum_numeric_v<E>) {
      CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                    "ctff: sequence_sum: " CTFF_RULE_NUMERIC_STRUCTURE("the element type"));
      return poisoned<Result>();
    } else if constexpr (!fully_defined_v<E>) {
      CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                    "ctff: sequence_sum: " CTFF_RULE_FULLY_DEFINED("the element type"));
      return poisoned<Result>();
    } else if constexpr (!SO::federated) {
      return intrinsic_call<function_t<ST, E>, row::sequence_sum>(where, static_cast<S&&>(s));
    } else if constexpr (at_server_v<ST> && !fed_info<ST>::all_equal) {
      CTFF_DIAGNOSE(report<labeled<"value", ST>>::shown,
                    "ctff: sequence_sum: " CTFF_RULE_SERVER_SEQUENCE_ALL_EQUAL);
      return poisoned<Result>();
    } else {
      using Seq = typename SO::seq;
      return federated_map(bare_intrinsic<function_t<Seq, E>, row::sequence_sum>{},
                           static_cast<S&&>(s), where);
    }
  }
}

}  // namespace ctff
