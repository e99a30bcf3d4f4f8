// The body of the compile-time benchmarks' TUs (tools/compile_realistic.sh): every output of one
// program used, at compile time and in the object file. The TU defines CTFF_BENCH_PROGRAM (the
// computation) and includes the program's header before including this one.
#include <cstddef>

static_assert(CTFF_BENCH_PROGRAM.bytes().size() > 0);
static_assert(CTFF_BENCH_PROGRAM.type_string().size() > 0);
static_assert(CTFF_BENCH_PROGRAM.compact().size() > 0);
static_assert(CTFF_BENCH_PROGRAM.formatted().size() > 0);
static_assert(CTFF_BENCH_PROGRAM.structural().size() > 0);
extern const unsigned char* const ctff_bench_bytes;
const unsigned char* const ctff_bench_bytes = CTFF_BENCH_PROGRAM.bytes().data();
extern const std::size_t ctff_bench_size;
const std::size_t ctff_bench_size = CTFF_BENCH_PROGRAM.bytes().size();
extern const char* const ctff_bench_type_string;
const char* const ctff_bench_type_string = CTFF_BENCH_PROGRAM.type_string().data();
extern const char* const ctff_bench_compact;
const char* const ctff_bench_compact = CTFF_BENCH_PROGRAM.compact().data();
extern const char* const ctff_bench_formatted;
const char* const ctff_bench_formatted = CTFF_BENCH_PROGRAM.formatted().data();
extern const char* const ctff_bench_structural;
const char* const ctff_bench_structural = CTFF_BENCH_PROGRAM.structural().data();
