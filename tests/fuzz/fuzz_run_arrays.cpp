// libFuzzer target over the numpy -> value path of ctff-run: .npz and .npy bytes (numpy/npz.hpp,
// numpy/npy.hpp) read against a type into a value (run/array_read.hpp). The first byte picks one
// of a few parameter types (bits 0-1) and the format (bit 2: a lone .npy, the array `arg`); the
// rest is the file. Invariants besides "no crash, no leak, no undefined behaviour, no unbounded
// memory" (the limits are small: 1 MiB of tensors, 64 clients, charged before allocating):
//   * the only exceptions are ctff::array_file_error and ctff::argument_error;
//   * what is read is written (value_to_arrays, write_npz throw nothing), and what is written
//     reads back into the same value (compared as JSON: NaN equals itself there).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <ctff/numpy/npy.hpp>
#include <ctff/numpy/npz.hpp>
#include <ctff/run/array_read.hpp>
#include <ctff/run/array_write.hpp>
#include <ctff/run/json_write.hpp>
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

// sum_clients and named_params (tests/goldens), every dtype, and clients of structs, sequences.
using sum_clients = at_clients<tensor<dtype::int32>>;
using named_params = struct_t<field<"alpha", at_server<tensor<dtype::int32>>>,
                              field<"beta", at_clients<tensor<dtype::float32>>>, field<"gamma", tensor<dtype::int32>>>;
using every = struct_t<
    field<"i8", tensor<dtype::int8>>, field<"u64", tensor<dtype::uint64, 2>>, field<"i64", tensor<dtype::int64, 2, unknown_dim>>,
    field<"f16", tensor<dtype::float16, unknown_dim>>, field<"bf", tensor<dtype::bfloat16>>,
    field<"f64", tensor<dtype::float64, unknown_rank>>, field<"c64", tensor<dtype::complex64, unknown_dim>>,
    field<"c128", tensor<dtype::complex128>>, field<"s", tensor<dtype::str, unknown_dim>>, field<"b", tensor<dtype::bool_>>,
    struct_t<tensor<dtype::uint16>, struct_t<>>, field<"u32", tensor<dtype::uint32>>, field<"i16", tensor<dtype::int16>>,
    field<"u8", tensor<dtype::uint8>>, field<"f32", tensor<dtype::float32>>>;
using clients_of = struct_t<
    field<"cl", at_clients<struct_t<tensor<dtype::uint32>, field<"y", tensor<dtype::float32, unknown_dim>>>>>,
    field<"seq", at_clients<ctff::sequence_t<struct_t<field<"x", tensor<dtype::int16, unknown_dim>>>>>>,
    field<"ae", federated_t<tensor<dtype::uint8>, placement_kind::clients, true>>>;

const ctff::type_desc types[] = {ctff::describe<sum_clients>(), ctff::describe<named_params>(),
                                 ctff::describe<every>(), ctff::describe<clients_of>()};

const ctff::run_limits limits{.max_value_bytes = 1 << 20, .max_clients = 64};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const ctff::type_desc& d = types[data[0] & 3];
  const bool npy = data[0] & 4;
  const std::string_view file(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string json;
  std::string written;
  try {
    ctff::npz_arrays arrays;
    if (npy) arrays.emplace("arg", ctff::read_npy(file));
    else arrays = ctff::read_npz(file, limits.max_value_bytes);
    std::optional<std::size_t> n;
    const ctff::dynamic_value v = ctff::value_from_arrays(arrays, d, d.root, n, "arg", limits);
    json = ctff::value_to_json(v, d, d.root, n);
    written = ctff::write_npz(ctff::value_to_arrays(v, d, d.root, n, "arg"));
  } catch (const ctff::array_file_error&) {
    return 0;
  } catch (const ctff::argument_error&) {
    return 0;
  }
  std::optional<std::size_t> n;
  const ctff::dynamic_value again =
      ctff::value_from_arrays(ctff::read_npz(written, limits.max_value_bytes), d, d.root, n, "arg", limits);
  if (ctff::value_to_json(again, d, d.root, n) != json) std::abort();
  return 0;
}
