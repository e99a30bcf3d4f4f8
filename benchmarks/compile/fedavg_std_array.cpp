// Compile-time benchmark (tools/compile_realistic.sh): the FedAvg round of fedavg_round.hpp with
// the model's members spelled as std::array<std::array<float, 10>, 784>, every output used.
#define CTFF_FEDAVG_STD_ARRAY 1
#include "fedavg_round.hpp"
#define CTFF_BENCH_PROGRAM ctff_bench_fedavg::fedavg_round
#include "program_outputs.hpp"
