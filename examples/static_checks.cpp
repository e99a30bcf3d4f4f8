// Computations are constant expressions: their types, type strings, printed forms and bytes can
// be checked with static_assert, so a unit test of a federated computation runs in the compiler.
// A change that alters the emitted program breaks the build at the line that states it.
#include <array>
#include <cstdint>
#include <type_traits>

#include <ctff/ctff.hpp>

#include "example_output.hpp"

namespace {

struct point {
  float x;
  float y;
};

// C++ types and their TFF types.
static_assert(ctff::type_string<point>() == "<x=float32,y=float32>");
static_assert(ctff::type_string<std::array<std::int64_t, 3>>() == "int64[3]");
static_assert(ctff::type_string<ctff::at_clients<point>>() == "{<x=float32,y=float32>}@CLIENTS");
static_assert(ctff::type_string<ctff::at_clients<point, ctff::all_equal>>() ==
              "<x=float32,y=float32>@CLIENTS");
// Equal TFF types are the same C++ type, whichever way they are spelled.
static_assert(std::is_same_v<ctff::tff_t<point>,
                             ctff::struct_<ctff::field<"x", float>, ctff::field<"y", float>>>);
// Python's assignability: a named struct accepts an unnamed one, {T}@CLIENTS accepts T@CLIENTS.
static_assert(ctff::is_assignable_v<ctff::tff_t<point>, ctff::struct_<float, float>>);
static_assert(ctff::is_assignable_v<ctff::at_clients<float>, ctff::at_clients<float, ctff::all_equal>>);
static_assert(!ctff::is_assignable_v<ctff::at_clients<float, ctff::all_equal>, ctff::at_clients<float>>);

constexpr auto centroid = ctff::computation<"centroid", ctff::at_clients<point>>(
    [](auto points) { return ctff::federated_mean(points); });

// A computation's C++ type carries its TFF type.
static_assert(std::is_same_v<decltype(centroid)::type,
                             ctff::function<ctff::at_clients<point>, ctff::at_server<point>>>);
static_assert(centroid.type_string() ==
              "({<x=float32,y=float32>}@CLIENTS -> <x=float32,y=float32>@SERVER)");
static_assert(centroid.compact() ==
              "(centroid_arg -> (let fc_centroid_symbol_0=federated_mean(centroid_arg) "
              "in fc_centroid_symbol_0))");
static_assert(centroid.formatted() ==
              "(centroid_arg -> (let\n"
              "  fc_centroid_symbol_0=federated_mean(centroid_arg)\n"
              " in fc_centroid_symbol_0))");

// Bytes too: the serialized message starts with its type (field 1, a FunctionType).
static_assert(centroid.bytes().size() > 0 && centroid.bytes()[0] == 0x0a);

}  // namespace

int main(int argc, char** argv) { return example::output(centroid, argc, argv); }
