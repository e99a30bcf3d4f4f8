// numpy's files (ctff/numpy/npy.hpp, zip_archive.hpp, npz.hpp) and values as arrays
// (ctff/run/array_read.hpp, array_write.hpp): files written by numpy (tools/ctff_run/testdata/numpy,
// make_files.py) read to hand-written values, round trips, and every error of untrusted bytes.
#include <catch2/catch.hpp>

#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ctff/numpy/npy.hpp>
#include <ctff/numpy/npz.hpp>
#include <ctff/numpy/zip_archive.hpp>
#include <ctff/run/array_read.hpp>
#include <ctff/run/array_write.hpp>
#include <ctff/run/json.hpp>
#include <ctff/types/desc.hpp>
#include <ctff/types/type.hpp>

namespace {

using ctff::dtype;
using ctff::field;
using ctff::placement_kind;
using ctff::struct_t;
using ctff::tensor;
using ctff::unknown_dim;
using ctff::unknown_rank;
template <class T>
using at_clients = ctff::federated_t<T, placement_kind::clients, false>;

std::string file_bytes(const std::string& name) {
  std::ifstream f(std::string(CTFF_NUMPY_TESTDATA_DIR) + "/" + name, std::ios::binary);
  REQUIRE(f);
  return {std::istreambuf_iterator<char>(f), {}};
}

// An .npy file of the given header dict text and element bytes (version 1.0).
std::string npy_file(const std::string& dict, const std::string& elements, char major = 1) {
  std::string out("\x93NUMPY", 6);
  out += major;
  out += '\0';
  const std::size_t len = dict.size();
  out += static_cast<char>(len & 0xff);
  out += static_cast<char>(len >> 8);
  if (major != 1) out += std::string(2, '\0');
  return out + dict + elements;
}

template <class E>
std::string bytes_of(std::initializer_list<E> xs) {
  std::string out;
  for (E x : xs) out.append(reinterpret_cast<const char*>(&x), sizeof x);
  return out;
}

std::string npy_error(const std::string& file) {
  try {
    (void)ctff::read_npy(file, "m.npy");
  } catch (const ctff::array_file_error& e) {
    return e.what();
  }
  return "no error";
}

std::string npz_error(const std::string& file, std::uint64_t budget = 1 << 20) {
  try {
    (void)ctff::read_npz(file, budget);
  } catch (const ctff::array_file_error& e) {
    return e.what();
  }
  return "no error";
}

// The arrays of an .npz read as T, as JSON (`path`: the root's name).
template <class T>
std::string json_of(const ctff::npz_arrays& arrays, std::optional<std::size_t> n = {}, const std::string& path = "arg",
                    const ctff::run_limits& limits = {}) {
  const auto d = ctff::describe<T>();
  return ctff::value_to_json(ctff::value_from_arrays(arrays, d, d.root, n, path, limits), d, d.root);
}

template <class T>
std::string arrays_error(const ctff::npz_arrays& arrays, std::optional<std::size_t> n = {},
                         const ctff::run_limits& limits = {}) {
  try {
    (void)json_of<T>(arrays, n, "arg", limits);
  } catch (const ctff::argument_error& e) {
    return e.what();
  }
  return "no error";
}

// JSON -> value -> arrays -> .npz bytes -> arrays -> value -> JSON, for T.
template <class T>
std::string npz_round_trip(const std::string& json, std::optional<std::size_t> n = {}) {
  const auto d = ctff::describe<T>();
  std::optional<std::size_t> m = n;
  const ctff::dynamic_value v = ctff::value_from_json(ctff::parse_json(json), d, d.root, m);
  const std::string bytes = ctff::write_npz(ctff::value_to_arrays(v, d, d.root, m, "x"));
  const ctff::npz_arrays back = ctff::read_npz(bytes, 1 << 20);
  std::optional<std::size_t> k = n;
  const std::string out = ctff::value_to_json(ctff::value_from_arrays(back, d, d.root, k, "x"), d, d.root);
  CHECK(k == m);
  return out;
}

ctff::npz_arrays one(const std::string& name, std::string npy) {
  ctff::npz_arrays a;
  std::vector<char> buffer(npy.begin(), npy.end());
  a.emplace(name, ctff::read_npy({}, name, std::move(buffer)));
  return a;
}

}  // namespace

template <class S>
concept reads_npy = requires(S&& s) { ctff::read_npy(std::forward<S>(s)); };
template <class S>
concept reads_npz = requires(S&& s) { ctff::read_npz(std::forward<S>(s), 1); };

TEST_CASE("npy: an array views its file, so a temporary file does not compile", "[numpy]") {
  STATIC_REQUIRE(reads_npy<const std::string&>);
  STATIC_REQUIRE(reads_npy<std::string_view>);
  STATIC_REQUIRE(!reads_npy<std::string>);
  STATIC_REQUIRE(reads_npz<const std::string&>);
  STATIC_REQUIRE(!reads_npz<std::string>);
}

TEST_CASE("npy: headers of every version, byte order, Fortran order, 0-d", "[numpy]") {
  const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n";
  for (char major : {'\1', '\2', '\3'}) {
    const std::string file = npy_file(dict, bytes_of<std::int32_t>({1, 2, 3}), major);
    const ctff::npy_array a = ctff::read_npy(file);
    CHECK(a.kind == 'i');
    CHECK(a.itemsize == 4);
    CHECK(a.shape == std::vector<std::int64_t>{3});
    CHECK(a.data == bytes_of<std::int32_t>({1, 2, 3}));
  }
  // Big-endian: swapped to the host's order; complex: each part swapped.
  const std::string be_file =
      npy_file("{\"descr\": \">i2\", \"shape\": (2,), \"fortran_order\": False}", std::string("\x01\x02\x00\x03", 4));
  const ctff::npy_array be = ctff::read_npy(be_file);
  CHECK(be.data == bytes_of<std::int16_t>({0x0102, 0x0003}));
  // Fortran order: transposed to C order; a trailing comma, Python 2's `L`.
  const std::string f_file =
      npy_file("{'descr': '<i4', 'fortran_order': True, 'shape': (2L, 3L,), }", bytes_of<std::int32_t>({1, 4, 2, 5, 3, 6}));
  const ctff::npy_array f = ctff::read_npy(f_file);
  CHECK(f.data == bytes_of<std::int32_t>({1, 2, 3, 4, 5, 6}));
  const std::string f3_file =
      npy_file("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 2, 2)}", std::string("\0\4\2\6\1\5\3\7", 8));
  const ctff::npy_array f3 = ctff::read_npy(f3_file);
  CHECK(f3.data == std::string("\0\1\2\3\4\5\6\7", 8));
  // 0-d and empty.
  const std::string s_file = npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': ()}", bytes_of<double>({2.5}));
  const ctff::npy_array s = ctff::read_npy(s_file);
  CHECK(s.shape.empty());
  CHECK(s.count == 1);
  const std::string e_file = npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (4, 0)}", "");
  const ctff::npy_array e = ctff::read_npy(e_file);
  CHECK(e.count == 0);
  // What ctff writes, numpy's layout: the elements at a multiple of 64.
  ctff::npy_array w;
  w.kind = 'f';
  w.itemsize = 4;
  w.shape = {2};
  const std::string elements = bytes_of<float>({1.5f, -2.0f});
  w.data = elements;
  const std::string file = ctff::write_npy(w);
  CHECK(file.substr(0, 10) == std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  CHECK(file.substr(10, 60) == "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }   ");
  CHECK(file.size() == 128 + 8);
  CHECK(ctff::read_npy(file).data == elements);
}

TEST_CASE("npy: every problem of untrusted bytes is named", "[numpy]") {
  const auto dict = [](const std::string& descr, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + "}";
  };
  CHECK(npy_error("PK\3\4") == "member `m.npy`: not a .npy file (no \\x93NUMPY magic)");
  CHECK(npy_error(npy_file(dict("<i4", "()"), "1234", 4)) ==
        "member `m.npy`: an .npy format version 4.0 (1.0, 2.0 and 3.0 are read)");
  std::string long_header = npy_file(dict("<i4", "()"), "");
  long_header[8] = '\x7f';
  CHECK(npy_error(long_header) == "member `m.npy`: the header is longer than the file");
  CHECK(npy_error(npy_file("{'descr': '<i4', 'shape': ()}", "1234")) == "member `m.npy`: bad .npy header: the header has no 'fortran_order'");
  CHECK(npy_error(npy_file(dict("<i4", "()") + ", 'x': 1", "1234")) ==
        "member `m.npy`: bad .npy header: text after the header dict");
  CHECK(npy_error(npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (), 'x': 1}", "1234")) ==
        "member `m.npy`: bad .npy header: unexpected key 'x' in the header");
  CHECK(npy_error(npy_file("{'descr': '<i4', 'fortran_order': 0, 'shape': ()}", "1234")) ==
        "member `m.npy`: bad .npy header: 'fortran_order' is neither True nor False");
  CHECK(npy_error(npy_file(dict("<i4", "(-1,)"), "")) ==
        "member `m.npy`: bad .npy header: 'shape' holds something other than a non-negative integer");
  CHECK(npy_error(npy_file(dict("<i4", "(99999999999999999999,)"), "")) ==
        "member `m.npy`: bad .npy header: a dimension beyond 2^62");
  CHECK(npy_error(npy_file(dict("<i4", "(" + std::string(65 * 2, ',').replace(0, 130, [] {
                                  std::string s;
                                  for (int i = 0; i != 65; ++i) s += "1,";
                                  return s;
                                }()) + ")"), "1234")) ==
        "member `m.npy`: bad .npy header: more than 64 dimensions");
  CHECK(npy_error(npy_file(dict("|O", "(1,)"), "12345678")) ==
        "member `m.npy`: the dtype '|O' has no ctff dtype (an object array: pickled Python objects are not read)");
  CHECK(npy_error(npy_file(dict("<f16", "()"), std::string(16, '\0'))) == "member `m.npy`: the dtype '<f16' has no ctff dtype");
  CHECK(npy_error(npy_file(dict("<M8[s]", "()"), "")) == "member `m.npy`: the dtype '<M8[s]' is not read");
  CHECK(npy_error(npy_file(dict("<i4", "(3,)"), "12345678")) ==
        "member `m.npy`: the shape (3,) needs 12 bytes of elements, the file has 8");
  CHECK(npy_error(npy_file(dict("<i4", "(1,)"), "12345678")) ==
        "member `m.npy`: the shape (1,) needs 4 bytes of elements, the file has 8");
  CHECK(npy_error(npy_file(dict("<i4", "(4611686018427387904, 4611686018427387904)"), "1234")) ==
        "member `m.npy`: the shape (4611686018427387904, 4611686018427387904) needs more than 2^62 bytes of elements, the file has 4");
}

TEST_CASE("npz: files written by numpy read to their values", "[numpy]") {
  using identity_t = struct_t<
      field<"i8", tensor<dtype::int8>>, field<"u64", tensor<dtype::uint64>>, field<"i64", tensor<dtype::int64, 2, unknown_dim>>,
      field<"f16", tensor<dtype::float16, 3>>, field<"bf", tensor<dtype::bfloat16>>, field<"f32", tensor<dtype::float32, unknown_dim>>,
      field<"f64", tensor<dtype::float64>>, field<"c64", tensor<dtype::complex64, 2>>, field<"s", tensor<dtype::str>>,
      field<"b", tensor<dtype::bool_, 2>>, field<"u", struct_t<tensor<dtype::int32>, struct_t<>>>,
      field<"seq", ctff::sequence_t<tensor<dtype::int32>>>, field<"r", tensor<dtype::float32, unknown_rank>>,
      field<"srv", ctff::federated_t<tensor<dtype::int32>, placement_kind::server, true>>,
      field<"cl", at_clients<tensor<dtype::float64>>>,
      field<"ae", ctff::federated_t<tensor<dtype::int32>, placement_kind::clients, true>>>;
  const std::string want =
      R"({"i8":-128,"u64":18446744073709551615,"i64":[[9007199254740993,-1],[0,2]],"f16":[0.0999755859375,65504.0,"-inf"],)"
      R"("bf":1.5,"f32":[0.10000000149011612,-0.0,1.0000000200408773e+20,"nan"],"f64":1e-07,"c64":[[1.0,2.0],[0.5,"inf"]],)"
      R"("s":"hé\"llo","b":[true,false],"u":[7,[]],"seq":[1,2,3],"r":[[1.0,2.0]],"srv":5,"cl":[1.5,2.0],"ae":9})";
  for (const char* name : {"identity.npz", "identity_compressed.npz", "identity_swapped.npz"}) {
    const std::string bytes = file_bytes(name);
    std::optional<std::size_t> n;
    CHECK(json_of<identity_t>(ctff::read_npz(bytes, 1 << 20), n) == want);
    // Written by ctff and read back: the same value.
    const auto d = ctff::describe<identity_t>();
    const ctff::dynamic_value v = ctff::value_from_arrays(ctff::read_npz(bytes, 1 << 20), d, d.root, n);
    const std::string again = ctff::write_npz(ctff::value_to_arrays(v, d, d.root, n, "arg"));
    CHECK(json_of<identity_t>(ctff::read_npz(again, 1 << 20)) == want);
  }
  for (const char* name : {"sum_v1.npy", "sum_v2.npy", "sum_v3.npy"}) {
    const std::string file = file_bytes(name);
    const ctff::npy_array a = ctff::read_npy(file);
    CHECK(a.data == bytes_of<std::int32_t>({1, 2, 3}));
  }
}

TEST_CASE("npz: values round-trip through arrays", "[numpy]") {
  CHECK(npz_round_trip<tensor<dtype::int32>>("7") == "7");
  CHECK(npz_round_trip<tensor<dtype::complex128, 2>>("[[1,-2],[\"nan\",0.5]]") == "[[1.0,-2.0],[\"nan\",0.5]]");
  CHECK(npz_round_trip<tensor<dtype::str, unknown_dim>>("[\"a\",\"\",\"bc\\u0000d\"]") == "[\"a\",\"\",\"bc\\u0000d\"]");
  // Clients stacked (one shape), per client (shapes differ), none (the type's shape, `?` as 0).
  using pts = at_clients<struct_t<field<"x", tensor<dtype::float32, unknown_dim>>, field<"k", tensor<dtype::int8>>>>;
  CHECK(npz_round_trip<pts>(R"([{"x":[1],"k":1},{"x":[2],"k":2}])") == R"([{"x":[1.0],"k":1},{"x":[2.0],"k":2}])");
  CHECK(npz_round_trip<pts>(R"([{"x":[1],"k":1},{"x":[2,3],"k":2}])") == R"([{"x":[1.0],"k":1},{"x":[2.0,3.0],"k":2}])");
  CHECK(npz_round_trip<pts>("[]") == "[]");
  CHECK(npz_round_trip<at_clients<tensor<dtype::float32, unknown_rank>>>("[]") == "[]");
  CHECK(npz_round_trip<at_clients<struct_t<>>>("[[],[]]", 2) == "[[],[]]");
  // Per client: N is one more than the largest index (a last client without arrays needs N given).
  CHECK(npz_round_trip<at_clients<ctff::sequence_t<tensor<dtype::uint8>>>>("[[1,2],[],[3]]") == "[[1,2],[],[3]]");
  CHECK(npz_round_trip<at_clients<ctff::sequence_t<tensor<dtype::uint8>>>>("[[1],[]]", 2) == "[[1],[]]");
  // The names: stacked clients have no index; per-client values and sequences do.
  const auto d = ctff::describe<pts>();
  std::optional<std::size_t> n;
  const auto v = ctff::value_from_json(ctff::parse_json(R"([{"x":[1],"k":1},{"x":[2,3],"k":2}])"), d, d.root, n);
  std::vector<std::string> names;
  for (const auto& [name, a] : ctff::value_to_arrays(v, d, d.root, n)) names.push_back(name);
  CHECK(names == std::vector<std::string>{"result[0].x", "result[0].k", "result[1].x", "result[1].k"});
  const auto v2 = ctff::value_from_json(ctff::parse_json(R"([{"x":[1],"k":1},{"x":[2],"k":2}])"), d, d.root, n);
  const auto stacked = ctff::value_to_arrays(v2, d, d.root, n);
  REQUIRE(stacked.size() == 2);
  CHECK(stacked[0].first == "result.x");
  CHECK(stacked[0].second.shape == std::vector<std::int64_t>{2, 1});
  // An all_equal value where the type has one member per client: N copies.
  using ints = at_clients<tensor<dtype::int32>>;
  const auto di = ctff::describe<ints>();
  const auto ae = ctff::make_federated(placement_kind::clients, true, {ctff::make_scalar<dtype::int32>(4)});
  const auto copies = ctff::value_to_arrays(ae, di, di.root, 3);
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].second.data == bytes_of<std::int32_t>({4, 4, 4}));
}

TEST_CASE("arrays: missing, extra, wrong arrays and limits name the path", "[numpy]") {
  const auto i32 = [](std::initializer_list<std::int32_t> xs, const std::string& shape) {
    return npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': " + shape + "}", bytes_of<std::int32_t>(xs));
  };
  using named = struct_t<field<"a", tensor<dtype::int32>>, field<"b", at_clients<tensor<dtype::int32>>>>;
  CHECK(arrays_error<named>(one("arg.a", i32({1}, "()"))) ==
        "ctff: bad argument at arg.b: no array of this name (the clients' values of {int32}@CLIENTS, stacked: the clients first)");
  CHECK(arrays_error<tensor<dtype::int32>>(one("arg.x", i32({1}, "()"))) ==
        "ctff: bad argument at arg: no array of this name (the type is int32)");
  CHECK(arrays_error<tensor<dtype::int64>>(one("arg", i32({1}, "()"))) ==
        "ctff: bad argument at arg: an array of '<i4' (int32) of shape () where the type is int64");
  CHECK(arrays_error<tensor<dtype::int32, 2>>(one("arg", i32({1, 2, 3}, "(3,)"))) ==
        "ctff: bad argument at arg: an array of '<i4' (int32) of shape (3,) where the type is int32[2]");
  CHECK(arrays_error<at_clients<tensor<dtype::int32, 2>>>(one("arg", i32({1, 2}, "(2,)"))) ==
        "ctff: bad argument at arg: an array of '<i4' (int32) of shape (2,) where the type is {int32[2]}@CLIENTS, stacked: the clients first");
  CHECK(arrays_error<at_clients<tensor<dtype::int32>>>(one("arg", i32({1, 2}, "(2,)")), 3) ==
        "ctff: bad argument at arg: an array of 2 client values (its first dimension), but the number of clients is 3");
  CHECK(arrays_error<at_clients<tensor<dtype::int32>>>(one("arg", i32({1, 2}, "(2,)")), {}, {.max_clients = 1}) ==
        "ctff: bad argument at arg: an array of 2 client values (its first dimension): more clients than run_limits::max_clients (1)");
  CHECK(arrays_error<tensor<dtype::int32, 3>>(one("arg", i32({1, 2, 3}, "(3,)")), {}, {.max_value_bytes = 16}) ==
        "ctff: bad argument at arg: the arrays make more than run_limits::max_value_bytes (16) bytes of tensors");
  CHECK(arrays_error<ctff::function_t<tensor<dtype::int32>, tensor<dtype::int32>>>({}) ==
        "ctff: bad argument at arg: a function ((int32 -> int32)) cannot be given as arrays");
  // A 'U' element that is no code point.
  CHECK(arrays_error<tensor<dtype::str>>(one("arg", npy_file("{'descr': '<U1', 'fortran_order': False, 'shape': ()}",
                                                             bytes_of<std::uint32_t>({0xd800})))) ==
        "ctff: bad argument at arg: a 'U' string holding 55296, which is no Unicode code point");
  // 'U' to UTF-8 (trailing NULs dropped), bools other than 0 and 1 are true.
  CHECK(json_of<tensor<dtype::str>>(one("arg", npy_file("{'descr': '<U3', 'fortran_order': False, 'shape': ()}",
                                                        bytes_of<std::uint32_t>({0xe9, 0x1f600, 0})))) ==
        "\"\xc3\xa9\xf0\x9f\x98\x80\"");
  CHECK(json_of<tensor<dtype::bool_, 2>>(one("arg", npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (2,)}",
                                                             std::string("\0\7", 2)))) == "[false,true]");
}

TEST_CASE("zip: stored, deflated, zip64, and every problem named", "[numpy]") {
  // Stored and zip64 (forced) archives of ctff's writer read back.
  for (bool z64 : {false, true}) {
    ctff::zip_writer w(z64);
    w.add("a.npy", "hello");
    w.add("b.npy", "");
    const std::string z = w.finish();
    const auto entries = ctff::read_zip_entries(z);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].name == "a.npy");
    CHECK(entries[0].compressed == "hello");
    std::vector<char> buffer;
    std::uint64_t budget = 0;
    CHECK(ctff::zip_entry_bytes(entries[0], buffer, budget) == "hello");
  }
  // A deflated member, made here with zlib: inflated within the budget, its sizes checked.
  const std::string text(3000, 'x');
  std::string deflated(200, '\0');
  z_stream s{};
  REQUIRE(deflateInit2(&s, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(deflated.data());
  s.avail_out = static_cast<uInt>(deflated.size());
  REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
  deflated.resize(s.total_out);
  deflateEnd(&s);
  ctff::zip_entry e{"d.npy", 8, static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(text.data()), 3000)),
                    3000, deflated};
  const auto inflate_error = [&](ctff::zip_entry x, std::uint64_t budget) -> std::string {
    std::vector<char> buffer;
    try {
      const std::string_view got = ctff::zip_entry_bytes(x, buffer, budget);
      return got == text ? "ok" : "wrong bytes";
    } catch (const ctff::array_file_error& err) {
      return err.what();
    }
  };
  CHECK(inflate_error(e, 3000) == "ok");
  CHECK(inflate_error(e, 2999) ==
        "member `d.npy`: inflates to 3000 bytes, beyond the 2999 bytes left of the limit (run_limits::max_value_bytes)");
  auto more = e;
  more.size = 3001;
  CHECK(inflate_error(more, 1 << 20) == "member `d.npy`: inflates to 3000 bytes, not its declared 3001");
  auto less = e;
  less.size = 2999;
  CHECK(inflate_error(less, 1 << 20) == "member `d.npy`: inflates to more than its declared 2999 bytes");
  auto bomb = e;
  bomb.size = std::uint64_t{1} << 40;
  CHECK(inflate_error(bomb, std::uint64_t{1} << 62) ==
        "member `d.npy`: declares 1099511627776 bytes from " + std::to_string(deflated.size()) +
            " deflated: more than deflate can make");
  auto cut = e;
  cut.compressed = cut.compressed.substr(0, cut.compressed.size() - 2);
  CHECK(inflate_error(cut, 1 << 20) == "member `d.npy`: deflate data that ends early");
  auto crc = e;
  crc.crc ^= 1;
  CHECK(inflate_error(crc, 1 << 20) == "member `d.npy`: CRC-32 mismatch (a damaged member)");
  std::string junk = deflated;
  junk[0] = '\xff';
  auto bad = e;
  bad.compressed = junk;
  CHECK(inflate_error(bad, 1 << 20).rfind("member `d.npy`: bad deflate data", 0) == 0);

  // The archive's structure.
  ctff::zip_writer w;
  w.add("a.npy", "hello");
  const std::string z = w.finish();
  CHECK(npz_error("") == "not a ZIP archive (shorter than its end record)");
  CHECK(npz_error(z.substr(0, z.size() - 1)) == "not a ZIP archive (no end of central directory record)");
  std::string encrypted = z;
  encrypted[z.find("PK\1\2") + 8] = 1;
  CHECK(npz_error(encrypted) == "member `a.npy`: an encrypted member");
  std::string method = z;
  method[z.find("PK\1\2") + 10] = 12;
  CHECK(npz_error(method) == "member `a.npy`: compression method 12 (stored and deflated members are read)");
  std::string moved = z;
  moved[z.find("PK\1\2") + 42] = 1;
  CHECK(npz_error(moved) == "member `a.npy`: no local header where the central directory says");
  std::string count = z;
  count[z.find("PK\5\6") + 10] = 2;
  count[z.find("PK\5\6") + 8] = 2;
  CHECK(npz_error(count) == "more members than the central directory can hold");
  CHECK(npz_error(z) == "member `a.npy`: not a .npy file (no \\x93NUMPY magic)");
  ctff::zip_writer twice;
  twice.add("a.npy", "");
  twice.add("a.npy", "");
  CHECK(npz_error(twice.finish()) == "member `a.npy`: two members of this name");
  ctff::zip_writer other;
  other.add("a.txt", "");
  CHECK(npz_error(other.finish()) == "member `a.txt`: not an .npy member (an .npz holds only NAME.npy files)");
}
