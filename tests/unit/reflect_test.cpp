// C++ types as TFF types: scalars, std::array shapes, tuple/pair, aggregates with their member
// names (Boost.PFR), Boost.Hana structs, and the ctff::tff_type_of customization point.
#include "ctff/reflect/reflect.hpp"

#include <array>
#include <boost/hana/adapt_adt.hpp>
#include <boost/hana/adapt_struct.hpp>
#include <boost/hana/define_struct.hpp>
#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctff/types/aliases.hpp"
#include "ctff/types/type_string.hpp"

namespace {

using ctff::dtype;
using ctff::field;
using ctff::struct_t;
using ctff::tensor;
using ctff::tff_t;
using ctff::type_string;

struct point {
  float x;
  std::int32_t y;
};

struct with_containers {
  std::array<double, 3> weights;
  std::array<std::array<std::int64_t, 2>, 4> grid;
  std::tuple<bool, std::string> tagged;
  std::pair<float, point> pair_member;
};

struct nested {
  point origin;
  with_containers payload;
  std::uint8_t flags;
};

template <class T>
struct boxed {
  T value;  // the same name as the holder's member inside ctff: must still read "value"
  const T fixed;
};

struct empty {};

// 24 members: PFR's field count and one name per member.
struct wide {
  std::int32_t m00, m01, m02, m03, m04, m05, m06, m07, m08, m09, m10, m11;
  float f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11;
};

// A class that is not an aggregate, mapped by the user: a full specialization.
class celsius {
 public:
  constexpr explicit celsius(double v) : value_(v) {}
  constexpr double value() const { return value_; }

 private:
  double value_;
};

// An aggregate template mapped by the user: the partial specialization wins over reflection.
template <class T>
struct vec3 {
  T x, y, z;
};

// Users mapping types of their own, as documented in ctff/reflect/reflect.hpp.
struct reading {
  celsius temperature;
  vec3<float> position;
};

}  // namespace

template <>
struct ctff::tff_type_of<celsius> {
  using type = ctff::tff_t<double>;  // a TFF type; tff_t spells it through a C++ type
};

template <class T>
struct ctff::tff_type_of<vec3<T>> {
  using type = ctff::tff_t<std::array<T, 3>>;  // T[3] instead of <x=T,y=T,z=T>
};

namespace hana_types {

struct account {
  BOOST_HANA_DEFINE_STRUCT(account, (std::int64_t, id), (std::string, owner), (point, home));
};

// Adapted with a subset of the members, in another order: Hana's view wins over PFR's.
struct sample {
  double mean;
  std::int32_t count;
  float unused;
};

// Accessor functions (BOOST_HANA_ADAPT_ADT): member types come from what they return.
class meter {
 public:
  constexpr float reading() const { return reading_; }
  constexpr std::int32_t id() const { return id_; }

 private:
  float reading_ = 0;
  std::int32_t id_ = 0;
};

}  // namespace hana_types

BOOST_HANA_ADAPT_STRUCT(hana_types::sample, count, mean);
BOOST_HANA_ADAPT_ADT(hana_types::meter,
                     (value, [](const hana_types::meter& m) { return m.reading(); }),
                     (meter_id, [](const hana_types::meter& m) { return m.id(); }));

namespace {

// A plain aggregate holding Hana structs.
struct ledger {
  hana_types::account account;
  hana_types::sample stats;
};

}  // namespace

TEST_CASE("scalars map to rank-0 tensors", "[reflect]") {
  STATIC_REQUIRE(type_string<bool>() == "bool");
  STATIC_REQUIRE(type_string<std::int8_t>() == "int8");
  STATIC_REQUIRE(type_string<std::int16_t>() == "int16");
  STATIC_REQUIRE(type_string<std::int32_t>() == "int32");
  STATIC_REQUIRE(type_string<std::int64_t>() == "int64");
  STATIC_REQUIRE(type_string<std::uint8_t>() == "uint8");
  STATIC_REQUIRE(type_string<std::uint16_t>() == "uint16");
  STATIC_REQUIRE(type_string<std::uint32_t>() == "uint32");
  STATIC_REQUIRE(type_string<std::uint64_t>() == "uint64");
  STATIC_REQUIRE(type_string<float>() == "float32");
  STATIC_REQUIRE(type_string<double>() == "float64");
  STATIC_REQUIRE(type_string<std::complex<float>>() == "complex64");
  STATIC_REQUIRE(type_string<std::complex<double>>() == "complex128");
  STATIC_REQUIRE(type_string<std::string>() == "str");
  STATIC_REQUIRE(type_string<std::string_view>() == "str");
  STATIC_REQUIRE(std::is_same_v<tff_t<int>, tensor<dtype::int32>>);
  STATIC_REQUIRE(std::is_same_v<tff_t<const double&>, tensor<dtype::float64>>);
  STATIC_REQUIRE(std::is_same_v<tff_t<std::string>, tff_t<std::string_view>>);
}

TEST_CASE("types without a TFF type are not reflectable", "[reflect]") {
  STATIC_REQUIRE_FALSE(ctff::reflectable<void*>);
  STATIC_REQUIRE_FALSE(ctff::reflectable<int*>);
  STATIC_REQUIRE_FALSE(ctff::reflectable<char>);  // no stated width: not an integer dtype
  STATIC_REQUIRE_FALSE(ctff::reflectable<std::vector<int>>);
  STATIC_REQUIRE_FALSE(ctff::reflectable<int[3]>);
  STATIC_REQUIRE(ctff::reflectable<celsius>);  // only through its specialization
}

TEST_CASE("std::array maps to a tensor with its shape", "[reflect]") {
  STATIC_REQUIRE(type_string<std::array<float, 3>>() == "float32[3]");
  STATIC_REQUIRE(type_string<std::array<std::array<std::int32_t, 3>, 2>>() == "int32[2,3]");
  STATIC_REQUIRE(type_string<std::array<std::array<std::array<bool, 4>, 3>, 2>>() == "bool[2,3,4]");
  STATIC_REQUIRE(type_string<std::array<std::string, 2>>() == "str[2]");
  STATIC_REQUIRE(type_string<std::array<std::complex<double>, 1>>() == "complex128[1]");
  STATIC_REQUIRE(type_string<std::array<std::uint8_t, 0>>() == "uint8[0]");
  STATIC_REQUIRE(type_string<std::array<const double, 2>>() == "float64[2]");
  STATIC_REQUIRE(
      std::is_same_v<tff_t<std::array<std::array<float, 5>, 4>>, tensor<dtype::float32, 4, 5>>);
}

TEST_CASE("std::tuple and std::pair map to unnamed structs", "[reflect]") {
  STATIC_REQUIRE(type_string<std::tuple<>>() == "<>");
  STATIC_REQUIRE(type_string<std::tuple<std::int32_t>>() == "<int32>");
  STATIC_REQUIRE(type_string<std::tuple<std::int32_t, float, std::string>>() ==
                 "<int32,float32,str>");
  STATIC_REQUIRE(type_string<std::pair<bool, double>>() == "<bool,float64>");
  STATIC_REQUIRE(type_string<std::tuple<std::array<float, 2>, std::pair<std::int64_t, bool>>>() ==
                 "<float32[2],<int64,bool>>");
  STATIC_REQUIRE(std::is_same_v<tff_t<std::pair<int, float>>, tff_t<std::tuple<int, float>>>);
  STATIC_REQUIRE(std::is_same_v<tff_t<std::tuple<float>>, struct_t<tensor<dtype::float32>>>);
}

TEST_CASE("aggregates map to named structs with their member names", "[reflect]") {
  STATIC_REQUIRE(type_string<point>() == "<x=float32,y=int32>");
  STATIC_REQUIRE(std::is_same_v<tff_t<point>, struct_t<field<"x", tensor<dtype::float32>>,
                                                       field<"y", tensor<dtype::int32>>>>);
  STATIC_REQUIRE(type_string<with_containers>() ==
                 "<weights=float64[3],grid=int64[4,2],tagged=<bool,str>,"
                 "pair_member=<float32,<x=float32,y=int32>>>");
  STATIC_REQUIRE(type_string<nested>() ==
                 "<origin=<x=float32,y=int32>,payload=<weights=float64[3],grid=int64[4,2],"
                 "tagged=<bool,str>,pair_member=<float32,<x=float32,y=int32>>>,flags=uint8>");
  STATIC_REQUIRE(type_string<boxed<std::int16_t>>() == "<value=int16,fixed=int16>");
  STATIC_REQUIRE(type_string<boxed<point>>() ==
                 "<value=<x=float32,y=int32>,fixed=<x=float32,y=int32>>");
  STATIC_REQUIRE(type_string<empty>() == "<>");
  STATIC_REQUIRE(type_string<std::tuple<point, std::array<float, 2>>>() ==
                 "<<x=float32,y=int32>,float32[2]>");
  STATIC_REQUIRE(type_string<wide>() ==
                 "<m00=int32,m01=int32,m02=int32,m03=int32,m04=int32,m05=int32,m06=int32,"
                 "m07=int32,m08=int32,m09=int32,m10=int32,m11=int32,f00=float32,f01=float32,"
                 "f02=float32,f03=float32,f04=float32,f05=float32,f06=float32,f07=float32,"
                 "f08=float32,f09=float32,f10=float32,f11=float32>");
  STATIC_REQUIRE(ctff::formatted_type_string<point>() == "<\n  x=float32,\n  y=int32\n>");
}

TEST_CASE("a local aggregate maps too", "[reflect]") {
  struct local_pair {
    std::int64_t key;
    double weight;
  };
  STATIC_REQUIRE(type_string<local_pair>() == "<key=int64,weight=float64>");
}

TEST_CASE("Boost.Hana structs map with Hana's member names and order", "[reflect]") {
  STATIC_REQUIRE(type_string<hana_types::account>() ==
                 "<id=int64,owner=str,home=<x=float32,y=int32>>");
  STATIC_REQUIRE(type_string<hana_types::sample>() == "<count=int32,mean=float64>");
  STATIC_REQUIRE(type_string<hana_types::meter>() == "<value=float32,meter_id=int32>");
  STATIC_REQUIRE(type_string<ledger>() ==
                 "<account=<id=int64,owner=str,home=<x=float32,y=int32>>,"
                 "stats=<count=int32,mean=float64>>");
}

TEST_CASE("users map their own types by specializing ctff::tff_type_of", "[reflect]") {
  STATIC_REQUIRE(type_string<celsius>() == "float64");
  STATIC_REQUIRE(type_string<vec3<float>>() == "float32[3]");  // not <x=float32,y=...>
  STATIC_REQUIRE(type_string<reading>() == "<temperature=float64,position=float32[3]>");
}

TEST_CASE("reflected types inside federated and sequence types", "[reflect]") {
  STATIC_REQUIRE(type_string<ctff::at_clients<point>>() == "{<x=float32,y=int32>}@CLIENTS");
  STATIC_REQUIRE(type_string<ctff::at_clients<point, ctff::all_equal>>() ==
                 "<x=float32,y=int32>@CLIENTS");
  STATIC_REQUIRE(type_string<ctff::at_server<std::array<float, 2>>>() == "float32[2]@SERVER");
  STATIC_REQUIRE(type_string<ctff::at_clients<hana_types::sample>>() ==
                 "{<count=int32,mean=float64>}@CLIENTS");
  STATIC_REQUIRE(type_string<ctff::sequence<std::tuple<point, double>>>() ==
                 "<<x=float32,y=int32>,float64>*");
  STATIC_REQUIRE(type_string<ctff::function<point, std::pair<float, float>>>() ==
                 "(<x=float32,y=int32> -> <float32,float32>)");
  STATIC_REQUIRE(std::is_same_v<ctff::at_clients<point>,
                                ctff::at_clients<tff_t<point>>>);  // one C++ type per TFF type
}
