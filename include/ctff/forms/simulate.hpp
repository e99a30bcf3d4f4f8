// A deployment of a DistributeAggregateForm simulated in one process, each part its own run as a
// deployment runs them apart: the server runs server_prepare and the broadcast; each client runs
// client_work on its own data and its own view of what was broadcast (a run of one client); the
// platform aggregates what the clients sent (client_to_server_aggregation, a run of N clients);
// the server runs server_result.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/validate.hpp"
#include "ctff/read/tree.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/executor.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/type.hpp"

namespace ctff {
namespace detail {

// What client i receives of a broadcast value: an all_equal value as it is, one member of a
// per-client value.
inline dynamic_value client_view(const dynamic_value& v, std::size_t i) {
  if (v.is(value_kind::federated)) {
    const federated_data& f = v.federated();
    if (f.where != placement_kind::clients || f.all_equal) return v;
    return make_federated(placement_kind::clients, false, {client_member(f, i)});
  }
  if (v.is(value_kind::struct_)) {
    std::vector<dynamic_value> e;
    for (std::size_t k = 0; k != v.structure().elements.size(); ++k)
      e.push_back(client_view(v.structure().elements[k], i));
    return make_struct_value(std::move(e), v.structure().names);
  }
  return v;
}

// What the platform collects from the clients' results (each a run of one client): one member
// per client of each per-client value; any other value as the first client has it (a value equal
// at every client).
inline dynamic_value gathered_from_clients(const std::vector<dynamic_value>& sent, const std::string& where) {
  const dynamic_value& first = sent.front();
  if (first.is(value_kind::federated) && first.federated().where == placement_kind::clients &&
      !first.federated().all_equal) {
    std::vector<dynamic_value> members;
    for (std::size_t i = 0; i != sent.size(); ++i) {
      if (!sent[i].is(value_kind::federated))
        throw execution_error(where, "client " + std::to_string(i) + " sent a value of another shape");
      const std::vector<dynamic_value> m = listed_members(sent[i].federated());
      if (m.size() != 1)
        throw execution_error(where, "client " + std::to_string(i) + " sent " + std::to_string(m.size()) +
                                         " members of a per-client value, not one");
      members.push_back(m.front());
    }
    return make_federated(placement_kind::clients, false, std::move(members));
  }
  if (first.is(value_kind::struct_)) {
    const std::size_t n = first.structure().elements.size();
    std::vector<dynamic_value> e;
    for (std::size_t k = 0; k != n; ++k) {
      std::vector<dynamic_value> column;
      for (std::size_t i = 0; i != sent.size(); ++i) {
        if (!sent[i].is(value_kind::struct_) || sent[i].structure().elements.size() != n)
          throw execution_error(where, "client " + std::to_string(i) + " sent a value of another shape");
        column.push_back(sent[i].structure().elements[k]);
      }
      e.push_back(gathered_from_clients(column, where + step_text(first.structure().name(k), k)));
    }
    return make_struct_value(std::move(e), first.structure().names);
  }
  return first;
}

inline constexpr std::size_t no_client = static_cast<std::size_t>(-1);

inline const dynamic_value& pair_element(const dynamic_value& v, std::size_t k, const char* part) {
  if (!v.is(value_kind::struct_) || v.structure().elements.size() != 2)
    throw execution_error(part, "the result is not a pair");
  return v.structure().elements[k];
}

// One run of a part; its errors name the part (and the client) in front of their paths.
inline dynamic_value run_part(executor& ex, const std::shared_ptr<const computation_tree>& part, const char* name,
                              const dynamic_value& arg, std::size_t clients, std::size_t client = no_client) {
  const std::string who = client == no_client ? std::string() : "client " + std::to_string(client) + ": ";
  try {
    return ex.run(part, arg, clients);
  } catch (const execution_error& e) {
    std::throw_with_nested(
        execution_error(e.path().empty() ? std::string(name) : std::string(name) + "." + e.path(), who + e.problem()));
  } catch (const argument_error& e) {
    std::throw_with_nested(argument_error(std::string(name) + " " + e.path(), who + e.problem()));
  }
}

}  // namespace detail

// Runs one round of `f` on `ex` as a deployment would, part by part: `state` is S (the server
// state, e.g. `x@SERVER`), `client_data` {D}@CLIENTS (one member per client: N). Returns the
// round's result <S, X> as server_result gives it. Each client's client_work is a run of one
// client (on ex's threads); the server's parts run with N clients, whatever run_options::clients
// says (it counts the clients only of an all_equal `client_data`). Throws form_error for parts
// that are no form (ctff::validate), argument_error for arguments that do not fit,
// execution_error as the runs do, with the part in front of the path
// (`client_work.lambda.result...`) and the client in front of the problem (`client 3: `).
inline dynamic_value simulate_deployment(executor& ex, const distribute_aggregate_form& f, const dynamic_value& state,
                                         const dynamic_value& client_data) {
  validate(f);
  if (!client_data.is(value_kind::federated) || client_data.federated().where != placement_kind::clients)
    throw argument_error("arg[1]", "the client data must be a value placed at CLIENTS");
  const federated_data& data = client_data.federated();
  std::vector<dynamic_value> members;
  std::size_t n = 0;
  if (data.all_equal) {
    if (data.members.size() != 1) throw argument_error("arg[1]", "an all_equal value must have one member");
    if (!ex.options().clients)
      throw argument_error("arg[1]", "an all_equal value does not say how many clients there are: "
                                     "set run_options::clients, or give one member per client");
    n = *ex.options().clients;
    members.assign(n, data.members.front());
  } else {
    members = detail::listed_members(data);
    n = members.size();
  }
  auto part = [](const computation_tree& t) { return std::make_shared<const computation_tree>(t); };
  const auto work = part(f.client_work);

  // The server: B_I and T, then what is broadcast (once, for the N clients).
  const dynamic_value prepared = detail::run_part(ex, part(f.server_prepare), "server_prepare", state, n);
  const dynamic_value& temporary = detail::pair_element(prepared, 1, "server_prepare");
  const dynamic_value broadcast =
      detail::run_part(ex, part(f.server_to_client_broadcast), "server_to_client_broadcast",
                       detail::pair_element(prepared, 0, "server_prepare"), n);
  // The clients, each on its own; no client: client_work run once for none, for what it sends.
  dynamic_value sent;
  if (n == 0) {
    sent = detail::run_part(ex, work, "client_work",
                            make_struct_value({make_federated(placement_kind::clients, false, {}), broadcast}), 0);
  } else {
    std::vector<dynamic_value> per_client;
    per_client.reserve(n);
    for (std::size_t i = 0; i != n; ++i)
      per_client.push_back(detail::run_part(
          ex, work, "client_work",
          make_struct_value({make_federated(placement_kind::clients, false, {members[i]}), detail::client_view(broadcast, i)}),
          1, i));
    sent = detail::gathered_from_clients(per_client, "client_work");
  }
  // The platform's aggregation, then the server's update.
  const dynamic_value aggregated = detail::run_part(ex, part(f.client_to_server_aggregation),
                                                    "client_to_server_aggregation", make_struct_value({temporary, sent}), n);
  return detail::run_part(ex, part(f.server_result), "server_result", make_struct_value({temporary, aggregated}), n);
}

}  // namespace ctff
