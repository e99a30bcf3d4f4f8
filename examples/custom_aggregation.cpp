// A custom aggregation with federated_aggregate: the mean of client values computed from a
// <sum,count> accumulator, with its four parts written as computations:
//   zero        the initial accumulator, <sum=0.0,count=0.0>
//   accumulate  adds one client value to an accumulator
//   merge       adds two accumulators
//   report      turns the final accumulator into the result, sum / count
//
// The same program in Python. Python's tracer has no arithmetic on values (Value.__add__ was
// removed in TFF 0.68), so `+` and `/` here are the generic_plus / generic_divide intrinsics,
// called as Call(Intrinsic('generic_plus', (<T,T> -> T)), <a,b>) and bound like any intrinsic:
//
//   acc_type = StructType([('sum', np.float32), ('count', np.float32)])
//
//   @federated_computation(acc_type, np.float32)
//   def accumulate(acc, value):
//     return collections.OrderedDict(sum=generic_plus(acc.sum, value),
//                                    count=generic_plus(acc.count, 1.0))
//
//   @federated_computation(acc_type, acc_type)
//   def merge(a, b):
//     return collections.OrderedDict(sum=generic_plus(a.sum, b.sum),
//                                    count=generic_plus(a.count, b.count))
//
//   @federated_computation(acc_type)
//   def report(acc):
//     return generic_divide(acc.sum, acc.count)
//
//   @federated_computation(FederatedType(np.float32, CLIENTS))
//   def mean_of(values):
//     zero = collections.OrderedDict(sum=0.0, count=0.0)
//     return federated_aggregate(values, zero, accumulate, merge, report)
#include <ctff/ctff.hpp>

#include "example_output.hpp"

namespace {

struct accumulator {
  float sum;
  float count;
};

constexpr auto accumulate =
    ctff::computation<"accumulate", ctff::arg<"acc", accumulator>, ctff::arg<"value", float>>(
        [](auto acc, auto value) {
          return ctff::make_struct<"sum", "count">(ctff::get<"sum">(acc) + value,
                                                   ctff::get<"count">(acc) + 1.0f);
        });

constexpr auto merge =
    ctff::computation<"merge", ctff::arg<"a", accumulator>, ctff::arg<"b", accumulator>>(
        [](auto a, auto b) {
          return ctff::make_struct<"sum", "count">(ctff::get<"sum">(a) + ctff::get<"sum">(b),
                                                   ctff::get<"count">(a) + ctff::get<"count">(b));
        });

constexpr auto report = ctff::computation<"report", accumulator>(
    [](auto acc) { return ctff::get<"sum">(acc) / ctff::get<"count">(acc); });

static_assert(accumulate.type_string() ==
              "(<acc=<sum=float32,count=float32>,value=float32> -> <sum=float32,count=float32>)");
static_assert(report.compact() ==
              "(report_arg -> (let fc_report_symbol_0=generic_divide(<report_arg[0],report_arg[1]>) "
              "in fc_report_symbol_0))");

constexpr auto mean_of =
    ctff::computation<"mean_of", ctff::at_clients<float>>([](auto values) {
      // The zero: a named struct of constants (float literals: 0.0f is float32, like Python's 0.0).
      return ctff::federated_aggregate(values, ctff::make_struct<"sum", "count">(0.0f, 0.0f),
                                       accumulate, merge, report);
    });

static_assert(mean_of.type_string() == "({float32}@CLIENTS -> float32@SERVER)");

// What Python prints: accumulate and merge have named parameters, so federated_aggregate passes
// them wrapped in a lambda with an unnamed parameter, (a -> accumulate(a)); report is passed as is.
static_assert(mean_of.compact() ==
              "(mean_of_arg -> (let fc_mean_of_symbol_0=federated_aggregate(<mean_of_arg,"
              "<sum=0.0,count=0.0>,"
              "(a -> (accumulate_arg -> (let "
              "fc_accumulate_symbol_0=generic_plus(<accumulate_arg[0][0],accumulate_arg[1]>),"
              "fc_accumulate_symbol_1=generic_plus(<accumulate_arg[0][1],1.0>) "
              "in <sum=fc_accumulate_symbol_0,count=fc_accumulate_symbol_1>))(a)),"
              "(a -> (merge_arg -> (let "
              "fc_merge_symbol_0=generic_plus(<merge_arg[0][0],merge_arg[1][0]>),"
              "fc_merge_symbol_1=generic_plus(<merge_arg[0][1],merge_arg[1][1]>) "
              "in <sum=fc_merge_symbol_0,count=fc_merge_symbol_1>))(a)),"
              "(report_arg -> (let fc_report_symbol_0=generic_divide(<report_arg[0],report_arg[1]>) "
              "in fc_report_symbol_0))>) in fc_mean_of_symbol_0))");

}  // namespace

int main(int argc, char** argv) {
  example::print("accumulate", accumulate.compact());
  example::print("merge", merge.compact());
  example::print("report", report.compact());
  return example::output(mean_of, argc, argv);
}
