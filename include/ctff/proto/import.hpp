// ctff::from_proto<ctff::function<P, R>>(const federated_language::Computation&): a computation
// made elsewhere, checked and usable inside traces (see ctff/import/from_proto.hpp, which also takes
// the serialized bytes).
#pragma once

#include <federated_language/proto/computation.pb.h>

#include "ctff/import/from_proto.hpp"

namespace ctff {

template <class F>
imported_computation<tff_t<F>> from_proto(const federated_language::Computation& m, read_limits limits = {}) {
  return from_proto<F>(std::string_view(m.SerializeAsString()), limits);
}

}  // namespace ctff
