// The benchmarked programs built by hand with the protobuf C++ API: what code without ctff writes
// to produce the same federated_language::Computation. This is the cost floor for getting a
// message object, and (with SerializeToString) the baseline for run-time tracing.
//
// Style: what a careful hand-writer does. Every message is built in place through mutable_*()
// (no temporaries, no CopyFrom), types are filled by small composable helpers, names are
// std::strings, no arena. Each builder's output is checked against ctff's bytes before any
// benchmark runs (check_same_bytes in bench_common.hpp).
#pragma once

#include <federated_language/proto/computation.pb.h>

#include <cstdint>
#include <string>
#include <utility>

namespace hand_built {

namespace fl = federated_language;

// ---------------------------------------------------------------------------------------------
// Types: each helper returns a callable that fills a fl::Type in place.

inline auto tensor(fl::DataType dt) {
  return [dt](fl::Type* t) { t->mutable_tensor()->set_dtype(dt); };
}
inline auto tensor(fl::DataType dt, std::int64_t dim) {
  return [dt, dim](fl::Type* t) {
    auto* x = t->mutable_tensor();
    x->set_dtype(dt);
    x->add_dims(dim);
  };
}
template <class M>
auto federated(M member, const char* where, bool all_equal) {
  return [member, where, all_equal](fl::Type* t) {
    auto* f = t->mutable_federated();
    f->mutable_placement()->mutable_value()->set_uri(where);
    f->set_all_equal(all_equal);
    member(f->mutable_member());
  };
}
template <class M>
auto at_server(M m) {
  return federated(m, "server", true);
}
template <class M>
auto at_clients(M m) {
  return federated(m, "clients", false);
}
template <class M>
auto at_clients_eq(M m) {
  return federated(m, "clients", true);
}

template <class P, class R>
auto function(P param, R result) {
  return [param, result](fl::Type* t) {
    auto* f = t->mutable_function();
    param(f->mutable_parameter());
    result(f->mutable_result());
  };
}
template <class R>
auto function_no_param(R result) {
  return [result](fl::Type* t) { result(t->mutable_function()->mutable_result()); };
}

// A struct element: name ("" for none) and type.
template <class T>
struct elem {
  const char* name;
  T type;
};
template <class T>
elem<T> named(const char* n, T t) {
  return {n, t};
}
template <class T>
elem<T> unnamed(T t) {
  return {"", t};
}

template <class... E>
auto struct_of(E... e) {
  return [e...](fl::Type* t) {
    auto* s = t->mutable_struct_();
    auto add = [s](const auto& el) {
      auto* x = s->add_element();
      if (*el.name) x->set_name(el.name);
      el.type(x->mutable_value());
    };
    (add(e), ...);
  };
}

// ---------------------------------------------------------------------------------------------
// Computations: helpers fill a fl::Computation in place.

template <class T>
void reference(fl::Computation* c, T type, const std::string& name) {
  type(c->mutable_type());
  c->mutable_reference()->set_name(name);
}

// Selection `source[index]` of a referenced struct.
template <class T, class S>
void select(fl::Computation* c, T type, S source_type, const std::string& source, int index) {
  type(c->mutable_type());
  auto* s = c->mutable_selection();
  reference(s->mutable_source(), source_type, source);
  if (index) s->set_index(index);
}

// The function part of a Call of an intrinsic.
template <class F>
void intrinsic(fl::Computation* c, F type, const char* uri) {
  type(c->mutable_type());
  c->mutable_intrinsic()->set_uri(uri);
}

inline std::string symbol(const std::string& comp, int k) {
  return "fc_" + comp + "_symbol_" + std::to_string(k);
}

// A Block local `name = Call(intrinsic uri : fn_type, <argument filled by arg>)` of type `type`.
template <class T, class F, class A>
void bind_intrinsic(fl::Block* block, const std::string& name, T type, F fn_type, const char* uri,
                    A arg) {
  auto* local = block->add_local();
  local->set_name(name);
  auto* v = local->mutable_value();
  type(v->mutable_type());
  auto* call = v->mutable_call();
  intrinsic(call->mutable_function(), fn_type, uri);
  arg(call->mutable_argument());
}

inline auto i32 = tensor(fl::DT_INT32);
inline auto f32 = tensor(fl::DT_FLOAT);

// ---------------------------------------------------------------------------------------------
// The goldens.

// add_one: (add_one_arg -> (let fc_add_one_symbol_0=generic_plus(<add_one_arg,1>) in ...)).
inline void add_one(fl::Computation* c) {
  function(i32, i32)(c->mutable_type());
  auto* lam = c->mutable_lambda();
  lam->set_parameter_name("add_one_arg");
  auto* res = lam->mutable_result();
  i32(res->mutable_type());
  auto* block = res->mutable_block();
  const std::string s0 = symbol("add_one", 0);
  auto pair = struct_of(unnamed(i32), unnamed(i32));
  bind_intrinsic(block, s0, i32, function(pair, i32), "generic_plus", [&](fl::Computation* a) {
    pair(a->mutable_type());
    auto* s = a->mutable_struct_();
    reference(s->add_element()->mutable_value(), i32, "add_one_arg");
    auto* one = s->add_element()->mutable_value();
    i32(one->mutable_type());
    auto* arr = one->mutable_literal()->mutable_value();
    arr->set_dtype(fl::DT_INT32);
    arr->mutable_shape();
    arr->mutable_int32_list()->add_value(1);
  });
  reference(block->mutable_result(), i32, s0);
}

inline fl::Computation add_one() {
  fl::Computation c;
  add_one(&c);
  return c;
}

inline fl::Computation sum_clients() {
  fl::Computation c;
  auto arg_t = at_clients(i32);
  auto res_t = at_server(i32);
  function(arg_t, res_t)(c.mutable_type());
  auto* lam = c.mutable_lambda();
  lam->set_parameter_name("sum_clients_arg");
  auto* res = lam->mutable_result();
  res_t(res->mutable_type());
  auto* block = res->mutable_block();
  const std::string s0 = symbol("sum_clients", 0);
  bind_intrinsic(block, s0, res_t, function(arg_t, res_t), "federated_sum",
                 [&](fl::Computation* a) { reference(a, arg_t, "sum_clients_arg"); });
  reference(block->mutable_result(), res_t, s0);
  return c;
}

// Steps of the broadcast -> map(add_one) -> sum cycle, bound in `block` as symbol k of `comp`,
// consuming `prev` (a reference of the type the step expects).
inline void broadcast_step(fl::Block* block, const std::string& comp, int k,
                           const std::string& prev) {
  auto s = at_server(i32);
  auto ce = at_clients_eq(i32);
  bind_intrinsic(block, symbol(comp, k), ce, function(s, ce), "federated_broadcast",
                 [&](fl::Computation* a) { reference(a, s, prev); });
}
inline void map_step(fl::Block* block, const std::string& comp, int k, const std::string& prev) {
  auto ce = at_clients_eq(i32);
  auto c = at_clients(i32);
  auto fn = function(i32, i32);
  bind_intrinsic(block, symbol(comp, k), c, function(struct_of(unnamed(fn), unnamed(c)), c),
                 "federated_map", [&](fl::Computation* a) {
                   struct_of(unnamed(fn), unnamed(ce))(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   add_one(st->add_element()->mutable_value());
                   reference(st->add_element()->mutable_value(), ce, prev);
                 });
}
inline void sum_step(fl::Block* block, const std::string& comp, int k, const std::string& prev) {
  auto c = at_clients(i32);
  auto s = at_server(i32);
  bind_intrinsic(block, symbol(comp, k), s, function(c, s), "federated_sum",
                 [&](fl::Computation* a) { reference(a, c, prev); });
}

// A computation `comp` of n calls of the cycle from an int32@SERVER parameter (n >= 1).
inline fl::Computation cycle(const std::string& comp, int n) {
  fl::Computation c;
  auto fill_result = [n](fl::Type* t) {
    switch (n % 3) {
      case 0:
        at_server(i32)(t);
        break;
      case 1:
        at_clients_eq(i32)(t);
        break;
      default:
        at_clients(i32)(t);
        break;
    }
  };
  function(at_server(i32), fill_result)(c.mutable_type());
  auto* lam = c.mutable_lambda();
  const std::string param = comp + "_arg";
  lam->set_parameter_name(param);
  auto* res = lam->mutable_result();
  fill_result(res->mutable_type());
  auto* block = res->mutable_block();
  std::string prev = param;
  for (int k = 0; k != n; ++k) {
    switch (k % 3) {
      case 0:
        broadcast_step(block, comp, k, prev);
        break;
      case 1:
        map_step(block, comp, k, prev);
        break;
      default:
        sum_step(block, comp, k, prev);
        break;
    }
    prev = symbol(comp, k);
  }
  reference(block->mutable_result(), fill_result, prev);
  return c;
}

inline fl::Computation simple() { return cycle("simple", 3); }
inline fl::Computation chain(int n) { return cycle("chain", n); }

inline fl::Computation named_params() {
  fl::Computation c;
  auto alpha = at_server(i32);
  auto beta = at_clients(f32);
  auto param_t = struct_of(named("alpha", alpha), named("beta", beta), named("gamma", i32));
  auto total = at_server(f32);
  auto res_t = struct_of(named("total", total), named("first", alpha), named("last", i32));
  function(param_t, res_t)(c.mutable_type());
  auto* lam = c.mutable_lambda();
  const std::string param = "named_params_arg";
  lam->set_parameter_name(param);
  auto* res = lam->mutable_result();
  res_t(res->mutable_type());
  auto* block = res->mutable_block();
  const std::string s0 = symbol("named_params", 0);
  bind_intrinsic(block, s0, total, function(beta, total), "federated_mean",
                 [&](fl::Computation* a) { select(a, beta, param_t, param, 1); });
  auto* out = block->mutable_result();
  res_t(out->mutable_type());
  auto* st = out->mutable_struct_();
  auto* e0 = st->add_element();
  e0->set_name("total");
  reference(e0->mutable_value(), total, s0);
  auto* e1 = st->add_element();
  e1->set_name("first");
  select(e1->mutable_value(), alpha, param_t, param, 0);
  auto* e2 = st->add_element();
  e2->set_name("last");
  select(e2->mutable_value(), i32, param_t, param, 2);
  return c;
}

inline fl::Computation zip_unnamed() {
  fl::Computation c;
  auto a_t = at_clients(i32);
  auto b_t = at_clients(f32);
  auto param_t = struct_of(named("a", a_t), named("b", b_t));
  auto arg_t = struct_of(unnamed(a_t), unnamed(b_t));
  auto res_t = at_clients(struct_of(unnamed(i32), unnamed(f32)));
  function(param_t, res_t)(c.mutable_type());
  auto* lam = c.mutable_lambda();
  const std::string param = "zip_unnamed_arg";
  lam->set_parameter_name(param);
  auto* res = lam->mutable_result();
  res_t(res->mutable_type());
  auto* block = res->mutable_block();
  const std::string s0 = symbol("zip_unnamed", 0);
  bind_intrinsic(block, s0, res_t, function(arg_t, res_t), "federated_zip_at_clients",
                 [&](fl::Computation* a) {
                   arg_t(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   select(st->add_element()->mutable_value(), a_t, param_t, param, 0);
                   select(st->add_element()->mutable_value(), b_t, param_t, param, 1);
                 });
  reference(block->mutable_result(), res_t, s0);
  return c;
}

inline fl::Computation federated_values() {
  fl::Computation c;
  auto s_t = at_server(i32);
  auto c_t = at_clients_eq(f32);
  auto res_t = struct_of(unnamed(s_t), unnamed(c_t));
  function_no_param(res_t)(c.mutable_type());
  auto* res = c.mutable_lambda()->mutable_result();
  res_t(res->mutable_type());
  auto* block = res->mutable_block();
  const std::string s0 = symbol("federated_values", 0);
  const std::string s1 = symbol("federated_values", 1);
  bind_intrinsic(block, s0, s_t, function(i32, s_t), "federated_value_at_server",
                 [](fl::Computation* a) {
                   i32(a->mutable_type());
                   auto* arr = a->mutable_literal()->mutable_value();
                   arr->set_dtype(fl::DT_INT32);
                   arr->mutable_shape();
                   arr->mutable_int32_list()->add_value(10);
                 });
  bind_intrinsic(block, s1, c_t, function(f32, c_t), "federated_value_at_clients",
                 [](fl::Computation* a) {
                   f32(a->mutable_type());
                   auto* arr = a->mutable_literal()->mutable_value();
                   arr->set_dtype(fl::DT_FLOAT);
                   arr->mutable_shape();
                   arr->mutable_float32_list()->add_value(2.5f);
                 });
  auto* out = block->mutable_result();
  res_t(out->mutable_type());
  auto* st = out->mutable_struct_();
  reference(st->add_element()->mutable_value(), s_t, s0);
  reference(st->add_element()->mutable_value(), c_t, s1);
  return c;
}

// ---------------------------------------------------------------------------------------------
// The FedAvg-like round of programs.hpp.

// (comp_arg -> (let fc_comp_symbol_0=generic_plus(<comp_arg[0],comp_arg[1]>) in ...)) over
// <float32[10],float32[10]>: local_update and apply_update.
inline void model_plus(fl::Computation* c, const std::string& comp) {
  auto m = tensor(fl::DT_FLOAT, 10);
  auto pair = struct_of(unnamed(m), unnamed(m));
  function(pair, m)(c->mutable_type());
  auto* lam = c->mutable_lambda();
  const std::string param = comp + "_arg";
  lam->set_parameter_name(param);
  auto* res = lam->mutable_result();
  m(res->mutable_type());
  auto* block = res->mutable_block();
  const std::string s0 = symbol(comp, 0);
  bind_intrinsic(block, s0, m, function(pair, m), "generic_plus", [&](fl::Computation* a) {
    pair(a->mutable_type());
    auto* st = a->mutable_struct_();
    select(st->add_element()->mutable_value(), m, pair, param, 0);
    select(st->add_element()->mutable_value(), m, pair, param, 1);
  });
  reference(block->mutable_result(), m, s0);
}

inline fl::Computation fedavg() {
  fl::Computation c;
  const std::string comp = "fedavg";
  const std::string param = "fedavg_arg";
  auto m = tensor(fl::DT_FLOAT, 10);
  auto model_t = at_server(m);
  auto data_t = at_clients(m);
  auto weight_t = at_clients(f32);
  auto param_t =
      struct_of(named("model", model_t), named("data", data_t), named("weight", weight_t));
  auto examples_t = at_server(f32);
  auto res_t = struct_of(named("model", model_t), named("examples", examples_t));
  auto pair = struct_of(unnamed(m), unnamed(m));
  auto fn_t = function(pair, m);
  function(param_t, res_t)(c.mutable_type());
  auto* lam = c.mutable_lambda();
  lam->set_parameter_name(param);
  auto* res = lam->mutable_result();
  res_t(res->mutable_type());
  auto* block = res->mutable_block();
  std::string s[7];
  for (int k = 0; k != 7; ++k) s[k] = symbol(comp, k);

  // 0: broadcast the model.
  auto bcast_t = at_clients_eq(m);
  bind_intrinsic(block, s[0], bcast_t, function(model_t, bcast_t), "federated_broadcast",
                 [&](fl::Computation* a) { select(a, model_t, param_t, param, 0); });
  // 1: zip <broadcast model, data> at CLIENTS.
  auto zipped_t = at_clients(pair);
  bind_intrinsic(block, s[1], zipped_t,
                 function(struct_of(unnamed(data_t), unnamed(data_t)), zipped_t),
                 "federated_zip_at_clients", [&](fl::Computation* a) {
                   struct_of(unnamed(bcast_t), unnamed(data_t))(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   reference(st->add_element()->mutable_value(), bcast_t, s[0]);
                   select(st->add_element()->mutable_value(), data_t, param_t, param, 1);
                 });
  // 2: map local_update.
  auto updates_t = at_clients(m);
  bind_intrinsic(block, s[2], updates_t,
                 function(struct_of(unnamed(fn_t), unnamed(zipped_t)), updates_t), "federated_map",
                 [&](fl::Computation* a) {
                   struct_of(unnamed(fn_t), unnamed(zipped_t))(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   model_plus(st->add_element()->mutable_value(), "local_update");
                   reference(st->add_element()->mutable_value(), zipped_t, s[1]);
                 });
  // 3: weighted mean.
  bind_intrinsic(block, s[3], model_t,
                 function(struct_of(unnamed(updates_t), unnamed(weight_t)), model_t),
                 "federated_weighted_mean", [&](fl::Computation* a) {
                   struct_of(unnamed(updates_t), unnamed(weight_t))(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   reference(st->add_element()->mutable_value(), updates_t, s[2]);
                   select(st->add_element()->mutable_value(), weight_t, param_t, param, 2);
                 });
  // 4: zip <model, delta> at SERVER.
  auto server_pair_t = struct_of(unnamed(model_t), unnamed(model_t));
  auto zipped_s_t = at_server(pair);
  bind_intrinsic(block, s[4], zipped_s_t, function(server_pair_t, zipped_s_t),
                 "federated_zip_at_server", [&](fl::Computation* a) {
                   server_pair_t(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   select(st->add_element()->mutable_value(), model_t, param_t, param, 0);
                   reference(st->add_element()->mutable_value(), model_t, s[3]);
                 });
  // 5: apply apply_update.
  bind_intrinsic(block, s[5], model_t,
                 function(struct_of(unnamed(fn_t), unnamed(zipped_s_t)), model_t),
                 "federated_apply", [&](fl::Computation* a) {
                   struct_of(unnamed(fn_t), unnamed(zipped_s_t))(a->mutable_type());
                   auto* st = a->mutable_struct_();
                   model_plus(st->add_element()->mutable_value(), "apply_update");
                   reference(st->add_element()->mutable_value(), zipped_s_t, s[4]);
                 });
  // 6: sum of the weights.
  bind_intrinsic(block, s[6], examples_t, function(weight_t, examples_t), "federated_sum",
                 [&](fl::Computation* a) { select(a, weight_t, param_t, param, 2); });

  auto* out = block->mutable_result();
  res_t(out->mutable_type());
  auto* st = out->mutable_struct_();
  auto* e0 = st->add_element();
  e0->set_name("model");
  reference(e0->mutable_value(), model_t, s[5]);
  auto* e1 = st->add_element();
  e1->set_name("examples");
  reference(e1->mutable_value(), examples_t, s[6]);
  return c;
}

}  // namespace hand_built
