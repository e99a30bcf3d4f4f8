// The body of fedavg_tensor.cpp and fedavg_std_array.cpp (compile-time benchmarks, tools/
// compile_realistic.sh): the FedAvg round of fedavg_round.hpp, every output used. The TU defines
// CTFF_FEDAVG_STD_ARRAY (the model's spelling) before including it.
#include <cstddef>

#include "fedavg_round.hpp"

using ctff_bench_fedavg::fedavg_round;

static_assert(fedavg_round.bytes().size() > 0);
static_assert(fedavg_round.type_string().size() > 0);
static_assert(fedavg_round.compact().size() > 0);
static_assert(fedavg_round.formatted().size() > 0);
static_assert(fedavg_round.structural().size() > 0);
extern const unsigned char* const ctff_fedavg_bytes;
const unsigned char* const ctff_fedavg_bytes = fedavg_round.bytes().data();
extern const std::size_t ctff_fedavg_size;
const std::size_t ctff_fedavg_size = fedavg_round.bytes().size();
extern const char* const ctff_fedavg_type_string;
const char* const ctff_fedavg_type_string = fedavg_round.type_string().data();
extern const char* const ctff_fedavg_compact;
const char* const ctff_fedavg_compact = fedavg_round.compact().data();
extern const char* const ctff_fedavg_formatted;
const char* const ctff_fedavg_formatted = fedavg_round.formatted().data();
extern const char* const ctff_fedavg_structural;
const char* const ctff_fedavg_structural = fedavg_round.structural().data();
