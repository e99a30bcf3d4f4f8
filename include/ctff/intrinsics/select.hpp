// federated_select(keys, max_key, server_val, select_fn) and federated_secure_select(...):
// `federated_select` / `federated_secure_select` of
//   (<{Ks}@CLIENTS,int32@SERVER,S@SERVER,(<S,int32> -> U)> -> {U*}@CLIENTS)
// called with <keys, max_key, server_val, select_fn'>; select_fn' is `(a -> select_fn(a))` with the
// unnamed parameter <S,int32> when select_fn's parameter struct has names. The keys are a rank-1
// int32 tensor of known size at CLIENTS; a polymorphic select_fn is traced with <S,int32>.
#pragma once

#include <source_location>

#include "ctff/core/rule_sentences.hpp"
#include "ctff/intrinsics/zip.hpp"

namespace ctff {
namespace detail {

template <class T>
struct select_keys : std::false_type {};
template <std::int64_t N>
struct select_keys<tensor<dtype::int32, N>> : std::bool_constant<(N >= 0)> {};

}  // namespace detail

// federated_select and federated_secure_select: one definition (select.def) for both names.
#define CTFF_OP federated_select
#include "ctff/intrinsics/select.def"
#define CTFF_OP federated_secure_select
#include "ctff/intrinsics/select.def"

}  // namespace ctff
