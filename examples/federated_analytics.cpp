// Federated analytics: statistics of client values without a model.
//   - secure sums: with a bit width, and with a bound on each client's input;
//   - the minimum and maximum of client values;
//   - federated_select: each client fetches the rows of a server table it names by key (an opaque
//     TensorFlow computation picks a row), then the server averages the clients' row sums.
//
// The same program in Python (federated_language / TFF):
//
//   @tff.tensorflow.computation(TensorType(np.float32, [10, 4]), np.int32)
//   def row_of(table, key): return tf.gather(table, key)      # (<float32[10,4],int32> -> float32[4])
//
//   @federated_computation(FederatedType(np.int32, CLIENTS), FederatedType(np.float32, CLIENTS),
//                          FederatedType(TensorType(np.int32, [2]), CLIENTS),
//                          FederatedType(TensorType(np.float32, [10, 4]), SERVER))
//   def analytics(counts, values, keys, table):
//     total = federated_secure_sum_bitwidth(counts, 16)
//     bounded = federated_secure_sum(counts, 1000)
//     low = federated_min(values)
//     high = federated_max(values)
//     rows = federated_select(keys, federated_value(10, SERVER), table, row_of)
//     mean_row = federated_mean(sequence_sum(rows))
//     return collections.OrderedDict(total=total, bounded=bounded, low=low, high=high,
//                                    mean_row=mean_row)
#include <array>
#include <cstdint>

#include <ctff/ctff.hpp>

#include "example_output.hpp"

namespace {

using table = std::array<std::array<float, 4>, 10>;  // float32[10,4]

// A serialized tensorflow.GraphDef stand-in: GraphDef{node {name: "row_of" op: "NoOp"}}.
constexpr char row_of_graph[] = "\x0a\x0e\x0a\x06row_of\x12\x04NoOp";

// The row function takes an unnamed <table,key> struct (as TFF's tf.gather-based selectors do).
constexpr auto row_of =
    ctff::tensorflow_computation<ctff::function<std::tuple<table, std::int32_t>, std::array<float, 4>>>(
        row_of_graph, ctff::tf_struct(ctff::tf_tensor("table:0"), ctff::tf_tensor("key:0")),
        ctff::tf_tensor("GatherV2:0"));

constexpr auto analytics = ctff::computation<
    "analytics", ctff::arg<"counts", ctff::at_clients<std::int32_t>>,
    ctff::arg<"values", ctff::at_clients<float>>,
    ctff::arg<"keys", ctff::at_clients<std::array<std::int32_t, 2>>>,
    ctff::arg<"table", ctff::at_server<table>>>([](auto counts, auto values, auto keys, auto table) {
  auto total = ctff::federated_secure_sum_bitwidth(counts, 16);
  auto bounded = ctff::federated_secure_sum(counts, 1000);
  auto low = ctff::federated_min(values);
  auto high = ctff::federated_max(values);
  // The max_key value is made in the call that uses it, as Python's evaluation order binds it.
  auto rows = ctff::federated_select(keys, ctff::federated_value(10, ctff::SERVER), table, row_of);
  auto mean_row = ctff::federated_mean(ctff::sequence_sum(rows));
  return ctff::make_struct<"total", "bounded", "low", "high", "mean_row">(total, bounded, low, high,
                                                                          mean_row);
});

static_assert(analytics.type_string() ==
              "(<counts={int32}@CLIENTS,values={float32}@CLIENTS,keys={int32[2]}@CLIENTS,"
              "table=float32[10,4]@SERVER> -> <total=int32@SERVER,bounded=int32@SERVER,"
              "low=float32@SERVER,high=float32@SERVER,mean_row=float32[4]@SERVER>)");

// What Python prints. comp#b8691efc: adler32 of row_of's message, computed independently (protoc
// --encode of the hand-written message, then zlib.adler32). sequence_sum on a federated sequence
// is Python's federated_map(<sequence_sum,rows>).
static_assert(analytics.compact() ==
              "(analytics_arg -> (let "
              "fc_analytics_symbol_0=federated_secure_sum_bitwidth(<analytics_arg[0],16>),"
              "fc_analytics_symbol_1=federated_secure_sum(<analytics_arg[0],1000>),"
              "fc_analytics_symbol_2=federated_min(analytics_arg[1]),"
              "fc_analytics_symbol_3=federated_max(analytics_arg[1]),"
              "fc_analytics_symbol_4=federated_value_at_server(10),"
              "fc_analytics_symbol_5=federated_select(<analytics_arg[2],fc_analytics_symbol_4,"
              "analytics_arg[3],comp#b8691efc>),"
              "fc_analytics_symbol_6=federated_map(<sequence_sum,fc_analytics_symbol_5>),"
              "fc_analytics_symbol_7=federated_mean(fc_analytics_symbol_6) "
              "in <total=fc_analytics_symbol_0,bounded=fc_analytics_symbol_1,"
              "low=fc_analytics_symbol_2,high=fc_analytics_symbol_3,mean_row=fc_analytics_symbol_7>))");

}  // namespace

int main(int argc, char** argv) {
  example::print("row_of", row_of.type_string());
  return example::output(analytics, argc, argv);
}
