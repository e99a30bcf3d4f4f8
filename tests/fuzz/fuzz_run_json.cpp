// libFuzzer target over the JSON -> value path of ctff-run (ctff/run/json.hpp). The first byte
// picks one of a few parameter types (the goldens' and one with every kind of value), the rest is
// the JSON text. Invariants besides "no crash, no leak, no undefined behaviour, no unbounded
// memory":
//   * the only exception is ctff::argument_error;
//   * what is read is written (value_to_json throws nothing), and what is written reads back
//     into the same text.
//   * the one-pass reader (value_from_json_text, run/json_text_read.hpp) makes the same value and
//     client count as the tree reader, or throws the same error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <ctff/run/json.hpp>
#include <ctff/types/desc.hpp>
#include <ctff/types/type.hpp>

namespace {

using ctff::dtype;
using ctff::federated_t;
using ctff::field;
using ctff::placement_kind;
using ctff::struct_t;
using ctff::tensor;
using ctff::unknown_dim;
using ctff::unknown_rank;

template <class T>
using at_clients = federated_t<T, placement_kind::clients, false>;
template <class T>
using at_server = federated_t<T, placement_kind::server, true>;

// named_params, zip_unnamed and sum_clients (tests/goldens), and every kind of value.
using named_params = struct_t<field<"alpha", at_server<tensor<dtype::int32>>>,
                              field<"beta", at_clients<tensor<dtype::float32>>>, field<"gamma", tensor<dtype::int32>>>;
using zip_unnamed = struct_t<field<"a", at_clients<tensor<dtype::int32>>>, field<"b", at_clients<tensor<dtype::float32>>>>;
using sum_clients = at_clients<tensor<dtype::int32>>;
using every = struct_t<
    field<"i8", tensor<dtype::int8>>, field<"u64", tensor<dtype::uint64>>, field<"i64", tensor<dtype::int64, 2, unknown_dim>>,
    field<"f16", tensor<dtype::float16, unknown_dim>>, field<"bf", tensor<dtype::bfloat16>>,
    field<"f64", tensor<dtype::float64, unknown_rank>>, field<"c64", tensor<dtype::complex64, unknown_rank>>,
    field<"c128", tensor<dtype::complex128, 2>>, field<"s", tensor<dtype::str, unknown_dim>>, field<"b", tensor<dtype::bool_>>,
    struct_t<tensor<dtype::uint16>, struct_t<>>, field<"seq", ctff::sequence_t<struct_t<field<"x", tensor<dtype::int16>>>>>,
    field<"cl", at_clients<struct_t<tensor<dtype::uint32>, field<"y", tensor<dtype::float32, unknown_dim>>>>>,
    field<"ae", federated_t<tensor<dtype::uint8>, placement_kind::clients, true>>>;

const ctff::type_desc types[] = {ctff::describe<named_params>(), ctff::describe<zip_unnamed>(),
                                 ctff::describe<sum_clients>(), ctff::describe<every>()};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const ctff::type_desc& d = types[data[0] % (sizeof types / sizeof types[0])];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string out, error;
  std::optional<std::size_t> n;
  try {
    const ctff::dynamic_value v = ctff::value_from_json(ctff::parse_json(text), d, d.root, n);
    out = ctff::value_to_json(v, d, d.root);
  } catch (const ctff::argument_error& e) {
    error = e.what();
  }
  std::optional<std::size_t> m;
  try {
    const ctff::dynamic_value w = ctff::value_from_json_text(text, d, d.root, m);
    if (!error.empty() || m != n || ctff::value_to_json(w, d, d.root) != out) std::abort();
  } catch (const ctff::argument_error& e) {
    if (error != e.what()) std::abort();
  }
  if (!error.empty()) return 0;
  n.reset();
  const ctff::dynamic_value again = ctff::value_from_json(ctff::parse_json(out), d, d.root, n);
  if (ctff::value_to_json(again, d, d.root) != out) std::abort();
  return 0;
}
