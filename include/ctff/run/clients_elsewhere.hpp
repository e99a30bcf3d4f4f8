// The members of a CLIENTS value that are held somewhere else (ctff::remote_executor with
// remote_options::aggregate_on_workers: on the workers that computed them). Such a value is a
// federated_data with no members and `elsewhere` set; the aggregations the holder can run there
// stay there, and anything else that reads the members fetches them first (the executor does,
// in one place: detail::call), in client order. Dropping the last reference lets the holder free
// them.
#pragma once

#include <cstddef>
#include <vector>

namespace ctff {

class dynamic_value;

class clients_elsewhere {
 public:
  virtual ~clients_elsewhere() = default;
  // How many clients' members there are.
  virtual std::size_t clients() const = 0;
  // The members, client by client (fetched once; an error is a run fault naming the holder).
  virtual std::vector<dynamic_value> fetch() const = 0;
};

}  // namespace ctff
