// The programs of benchmarks/ (compile-time benchmarks included) emit computations that protobuf
// parses back and ctff's checker accepts: the FedAvg round of benchmarks/compile/fedavg_round.hpp
// in both spellings of its model (ctff::tensor and std::array members: the same TFF type, so the
// same outputs, byte for byte), the federated evaluation round of
// benchmarks/compile/fedeval_round.hpp (also equal to Python's outputs for its twin,
// tests/goldens/python/benchmark_programs.py, its opaque TensorFlow computation included), and the
// FedAvg-like round of benchmarks/programs.hpp.
#include <catch2/catch.hpp>

#include <string>

#define CTFF_FEDAVG_STD_ARRAY 0
#define CTFF_FEDAVG_NAMESPACE fedavg_tensor
#include "../../benchmarks/compile/fedavg_round.hpp"
#undef CTFF_FEDAVG_STD_ARRAY
#undef CTFF_FEDAVG_NAMESPACE
#define CTFF_FEDAVG_STD_ARRAY 1
#define CTFF_FEDAVG_NAMESPACE fedavg_std_array
#include "../../benchmarks/compile/fedavg_round.hpp"
#include "../../benchmarks/compile/fedeval_round.hpp"

#include "../../benchmarks/programs.hpp"
#include "parse_back.hpp"
#include "python_goldens.hpp"

namespace {

constexpr std::string_view fedavg_type =
    "(<server_state=<model=<weights=float32[784,10],bias=float32[10]>,round_num=int32>@SERVER,"
    "client_data={<x=float32[?,784],y=int32[?]>*}@CLIENTS> -> "
    "<state=<model=<weights=float32[784,10],bias=float32[10]>,round_num=int32>@SERVER,"
    "loss=float32@SERVER,num_examples=float32@SERVER>)";
static_assert(fedavg_tensor::fedavg_round.type_string() == fedavg_type);
static_assert(fedavg_std_array::fedavg_round.type_string() == fedavg_type);
static_assert(std::is_same_v<ctff::tff_t<fedavg_tensor::model_t>, ctff::tff_t<fedavg_std_array::model_t>>);
static_assert(ctff_bench_fedeval::fedeval_round.type_string() ==
              "(<model=<weights=float32[784,10],bias=float32[10]>@SERVER,"
              "client_data={<x=float32[?,784],y=int32[?]>*}@CLIENTS> -> "
              "<loss=float32,accuracy=float32,num_examples=int32,max_loss=float32>@SERVER)");

}  // namespace

TEST_CASE("benchmark programs: the FedAvg round parses back, is checked, same in both spellings") {
  ctff_test::require_parses(fedavg_tensor::client_update.bytes());
  ctff_test::require_parses(fedavg_tensor::server_update.bytes());
  ctff_test::require_same_outputs(fedavg_tensor::fedavg_round, fedavg_std_array::fedavg_round);
  ctff_test::require_same_outputs(fedavg_std_array::fedavg_round, fedavg_tensor::fedavg_round);
  CHECK(fedavg_tensor::fedavg_round.type_string() == fedavg_std_array::fedavg_round.type_string());
}

// check_python parses each one back with protobuf and with ctff's reader, runs ctff's checker on
// it, and compares all five outputs with Python's.
TEST_CASE("benchmark programs: the federated evaluation round is checked and equals Python's") {
  ctff_test::check_python("benchmark_programs", "client_eval", ctff_bench_fedeval::client_eval);
  ctff_test::check_python("benchmark_programs", "fedeval_round", ctff_bench_fedeval::fedeval_round);
}

TEST_CASE("benchmark programs: programs.hpp's FedAvg-like round parses back and is checked") {
  ctff_test::require_parses(ctff_bench::fedavg.bytes());
  ctff_test::require_same_outputs(ctff_bench::runtime_fedavg(1.0f), ctff_bench::fedavg);
}
