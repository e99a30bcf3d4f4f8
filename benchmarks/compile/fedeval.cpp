// Compile-time benchmark (tools/compile_realistic.sh): the federated evaluation round of
// fedeval_round.hpp, every output used.
#include "fedeval_round.hpp"
#define CTFF_BENCH_PROGRAM ctff_bench_fedeval::fedeval_round
#include "program_outputs.hpp"
