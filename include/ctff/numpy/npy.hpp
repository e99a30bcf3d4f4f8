// numpy's .npy format (numpy/lib/format.py; versions 1.0, 2.0 and 3.0): the magic, a header that is
// a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}, then the elements.
// Reading trusts nothing: every size is checked against the bytes given before anything is
// allocated, and the elements come back in C order and the host's byte order (a big-endian or
// Fortran-order array is converted, one copy). Writing: C order, the host's byte order.
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/numpy/array_file_error.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {

// One array of a .npy file. numpy's kinds that ctff reads: 'b' (bool), 'i', 'u' (1, 2, 4, 8
// bytes), 'f' (2, 4, 8), 'c' (8, 16), 'S' (bytes, NUL-padded), 'U' (UTF-32 code units, NUL-padded)
// and 'V' of 2 bytes (bfloat16's raw bytes: numpy has no bfloat16).
struct npy_array {
  char kind = 'f';
  std::size_t itemsize = 0;
  std::vector<std::int64_t> shape;  // empty: a 0-d array (one element)
  std::size_t count = 1;            // elements: the product of shape
  std::string_view data;            // count * itemsize bytes, C order, host byte order
  std::vector<char> storage;        // what `data` views when the array owns its bytes

  npy_array() = default;
  npy_array(npy_array&&) = default;
  npy_array& operator=(npy_array&&) = default;
  // A copy would view the original's storage.
  npy_array(const npy_array&) = delete;
  npy_array& operator=(const npy_array&) = delete;
};

// The ctff dtype of numpy's kind and item size ('S' and 'U': str; 'V' of 2 bytes: bfloat16);
// dtype::invalid when ctff has none.
constexpr dtype npy_dtype(char kind, std::size_t itemsize) {
  switch (kind) {
    case 'b': return itemsize == 1 ? dtype::bool_ : dtype::invalid;
    case 'i':
      return itemsize == 1 ? dtype::int8 : itemsize == 2 ? dtype::int16 : itemsize == 4 ? dtype::int32
             : itemsize == 8 ? dtype::int64 : dtype::invalid;
    case 'u':
      return itemsize == 1 ? dtype::uint8 : itemsize == 2 ? dtype::uint16 : itemsize == 4 ? dtype::uint32
             : itemsize == 8 ? dtype::uint64 : dtype::invalid;
    case 'f':
      return itemsize == 2 ? dtype::float16 : itemsize == 4 ? dtype::float32 : itemsize == 8 ? dtype::float64
             : dtype::invalid;
    case 'c': return itemsize == 8 ? dtype::complex64 : itemsize == 16 ? dtype::complex128 : dtype::invalid;
    case 'S': case 'U': return dtype::str;
    case 'V': return itemsize == 2 ? dtype::bfloat16 : dtype::invalid;
    default: return dtype::invalid;
  }
}

namespace detail {

inline constexpr char npy_magic[] = "\x93NUMPY";
// numpy's own bound on the rank (NPY_MAXDIMS is 64 in numpy 2).
inline constexpr std::size_t npy_max_rank = 64;

// The header dict, read as numpy writes it (and as Python would read it: either quote, spaces,
// a trailing comma, keys in any order). Anything else is an error naming what was expected.
class npy_header_reader {
 public:
  npy_header_reader(std::string_view text, const std::string& member) : s_(text), member_(member) {}

  std::string descr;
  bool fortran = false;
  std::vector<std::int64_t> shape;

  void read() {
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    for (;;) {
      skip();
      if (peek() == '}') break;
      const std::string key = string_literal("a key");
      expect(':');
      skip();
      if (key == "descr") {
        if (peek() == '[') fail("structured arrays (a list as 'descr') are not read: one dtype per array");
        descr = string_literal("'descr', a dtype string");
        have_descr = true;
      } else if (key == "fortran_order") {
        if (s_.substr(i_, 4) == "True") {
          fortran = true;
          i_ += 4;
        } else if (s_.substr(i_, 5) == "False") {
          i_ += 5;
        } else {
          fail("'fortran_order' is neither True nor False");
        }
        have_order = true;
      } else if (key == "shape") {
        tuple();
        have_shape = true;
      } else {
        fail("unexpected key '" + key + "' in the header");
      }
      skip();
      if (peek() == ',') ++i_;
      else if (peek() != '}') fail("expected , or } in the header dict");
    }
    ++i_;
    for (; i_ < s_.size(); ++i_)
      if (s_[i_] != ' ' && s_[i_] != '\n' && s_[i_] != '\t' && s_[i_] != '\r' && s_[i_] != '\0')
        fail("text after the header dict");
    if (!have_descr || !have_order || !have_shape)
      fail(std::string("the header has no '") + (!have_descr ? "descr" : !have_order ? "fortran_order" : "shape") + "'");
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const { throw array_file_error(member_, "bad .npy header: " + problem); }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    skip();
    if (peek() != c) fail(std::string("expected ") + c);
    ++i_;
  }
  std::string string_literal(const char* what) {
    skip();
    const char q = peek();
    if (q != '\'' && q != '"') fail(std::string("expected ") + what);
    const std::size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) fail("an unterminated string");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    if (out.find('\\') != std::string::npos) fail("an escape in a string");
    i_ = end + 1;
    return out;
  }
  void tuple() {
    if (peek() != '(') fail("'shape' is not a tuple");
    ++i_;
    for (;;) {
      skip();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') fail("'shape' holds something other than a non-negative integer");
      std::uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        v = v * 10 + static_cast<std::uint64_t>(peek() - '0');
        if (v > (std::uint64_t{1} << 62)) fail("a dimension beyond 2^62");
        ++i_;
      }
      if (peek() == 'L') ++i_;  // Python 2's long
      if (shape.size() == npy_max_rank) fail("more than " + std::to_string(npy_max_rank) + " dimensions");
      shape.push_back(static_cast<std::int64_t>(v));
      skip();
      if (peek() == ',') ++i_;
      else if (peek() != ')') fail("expected , or ) in 'shape'");
    }
    ++i_;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  const std::string& member_;
};

// Reverses the bytes of each `width`-byte part of the elements.
inline void npy_swap(char* p, std::size_t bytes, std::size_t width) {
  for (std::size_t at = 0; at + width <= bytes; at += width)
    for (std::size_t a = at, b = at + width - 1; a < b; ++a, --b) std::swap(p[a], p[b]);
}

// The elements of a Fortran-order array in C order.
inline std::vector<char> npy_c_order(std::string_view f, std::span<const std::int64_t> shape, std::size_t itemsize) {
  std::vector<char> out(f.size());
  const std::size_t rank = shape.size();
  std::vector<std::size_t> index(rank, 0), stride(rank, 1);
  for (std::size_t k = 1; k < rank; ++k) stride[k] = stride[k - 1] * static_cast<std::size_t>(shape[k - 1]);
  std::size_t from = 0;  // the Fortran offset of `index`, in elements
  for (std::size_t to = 0; to != out.size(); to += itemsize) {
    std::memcpy(out.data() + to, f.data() + from * itemsize, itemsize);
    for (std::size_t k = rank; k-- > 0;) {  // the odometer, last index fastest
      from += stride[k];
      if (++index[k] != static_cast<std::size_t>(shape[k])) break;
      from -= stride[k] * index[k];
      index[k] = 0;
    }
  }
  return out;
}

inline std::uint32_t npy_le(const unsigned char* p, int n) {
  std::uint32_t v = 0;
  for (int k = n; k-- > 0;) v = v << 8 | p[k];
  return v;
}

}  // namespace detail

// Reads a .npy file. `file` is all of it (its bytes, or `buffer` when given: the array then owns
// them, and `file` is ignored); `member` names it in errors (an .npz member; empty: a file). The
// array views `file`, which must outlive it. Throws array_file_error.
inline npy_array read_npy(std::string_view file, const std::string& member = {}, std::vector<char>&& buffer = {}) {
  npy_array a;
  if (!buffer.empty()) {
    a.storage = std::move(buffer);
    file = std::string_view(a.storage.data(), a.storage.size());
  }
  const auto fail = [&](const std::string& problem) -> void { throw array_file_error(member, problem); };
  if (file.size() < 10 || file.substr(0, 6) != std::string_view(detail::npy_magic, 6))
    fail("not a .npy file (no \\x93NUMPY magic)");
  const auto* u = reinterpret_cast<const unsigned char*>(file.data());
  const unsigned major = u[6];
  if (major < 1 || major > 3 || u[7] != 0)
    fail("an .npy format version " + std::to_string(major) + "." + std::to_string(u[7]) + " (1.0, 2.0 and 3.0 are read)");
  const std::size_t head = major == 1 ? 10 : 12;
  if (file.size() < head) fail("the file ends inside its header");
  const std::size_t header_len = detail::npy_le(u + 8, major == 1 ? 2 : 4);
  if (header_len > file.size() - head) fail("the header is longer than the file");
  detail::npy_header_reader h(file.substr(head, header_len), member);
  h.read();

  // The dtype: byte order, kind, item size ('<f4', '|b1', '>i8', '<U7').
  const std::string& d = h.descr;
  if (d.size() < 2 || (d[0] != '<' && d[0] != '>' && d[0] != '|' && d[0] != '='))
    fail("the dtype '" + d + "' is not read (a byte order, a kind and a size, e.g. '<f4')");
  std::size_t size = 0;
  for (std::size_t k = 2; k < d.size(); ++k) {
    if (d[k] < '0' || d[k] > '9' || size > (std::size_t{1} << 32)) fail("the dtype '" + d + "' is not read");
    size = size * 10 + static_cast<std::size_t>(d[k] - '0');
  }
  a.kind = d[1];
  a.itemsize = a.kind == 'U' ? size * 4 : size;
  if (d.size() == 2 || npy_dtype(a.kind, a.itemsize) == dtype::invalid || a.itemsize == 0)
    fail("the dtype '" + d + "' has no ctff dtype" +
         (a.kind == 'O' ? std::string(" (an object array: pickled Python objects are not read)") : std::string()));
  const bool big = d[0] == '>' || (d[0] == '=' && std::endian::native == std::endian::big);
  const bool swap = d[0] != '|' && a.itemsize > 1 && big != (std::endian::native == std::endian::big);

  // The elements: exactly the bytes after the header.
  a.shape = std::move(h.shape);
  const std::size_t avail = file.size() - head - header_len;
  // The product of the dimensions, saturated beyond what any file holds (an empty dimension: 0).
  constexpr std::uint64_t cap = std::uint64_t{1} << 62;
  std::uint64_t count = 1;
  for (const std::int64_t n : a.shape) {
    const auto k = static_cast<std::uint64_t>(n);
    count = k == 0 || count == 0 ? 0 : count > cap / k ? cap : count * k;
  }
  const std::uint64_t need = count >= cap / a.itemsize ? cap : count * a.itemsize;
  if (need != avail) {
    std::string shape = "(";
    for (std::size_t k = 0; k != a.shape.size(); ++k) shape += (k ? ", " : "") + std::to_string(a.shape[k]);
    fail("the shape " + shape + (a.shape.size() == 1 ? ",)" : ")") + " needs " +
         (need == cap ? "more than 2^62" : std::to_string(need)) + " bytes of elements, the file has " +
         std::to_string(avail));
  }
  a.count = count;
  a.data = file.substr(head + header_len);
  if (swap || (h.fortran && a.shape.size() > 1)) {
    std::vector<char> out = h.fortran && a.shape.size() > 1 ? detail::npy_c_order(a.data, a.shape, a.itemsize)
                                                              : std::vector<char>(a.data.begin(), a.data.end());
    if (swap) detail::npy_swap(out.data(), out.size(), a.kind == 'c' ? a.itemsize / 2 : a.kind == 'U' ? 4 : a.itemsize);
    a.storage = std::move(out);
    a.data = std::string_view(a.storage.data(), a.storage.size());
  }
  return a;
}

// A temporary string would leave the array viewing freed bytes.
template <class S>
  requires std::same_as<S, std::string>
npy_array read_npy(S&& file, const std::string& member = {}, std::vector<char>&& buffer = {}) = delete;

// numpy's descr of an element type in the host's byte order ('<f4', '|b1', '<U7', '|V2').
inline std::string npy_descr(char kind, std::size_t itemsize) {
  const bool plain = itemsize == 1 || kind == 'b' || kind == 'S' || kind == 'V';
  const char order = plain ? '|' : std::endian::native == std::endian::big ? '>' : '<';
  return std::string{order, kind} + std::to_string(kind == 'U' ? itemsize / 4 : itemsize);
}

// numpy's kind and item size of a ctff dtype (str: 'S' of `str_size` bytes; bfloat16: 'V' of 2);
// {'\0', 0} for dtype::invalid.
constexpr std::pair<char, std::size_t> npy_kind(dtype dt, std::size_t str_size = 1) {
  switch (dt) {
    case dtype::bool_: return {'b', 1};
    case dtype::int8: return {'i', 1};
    case dtype::int16: return {'i', 2};
    case dtype::int32: return {'i', 4};
    case dtype::int64: return {'i', 8};
    case dtype::uint8: return {'u', 1};
    case dtype::uint16: return {'u', 2};
    case dtype::uint32: return {'u', 4};
    case dtype::uint64: return {'u', 8};
    case dtype::float16: return {'f', 2};
    case dtype::float32: return {'f', 4};
    case dtype::float64: return {'f', 8};
    case dtype::complex64: return {'c', 8};
    case dtype::complex128: return {'c', 16};
    case dtype::bfloat16: return {'V', 2};
    case dtype::str: return {'S', str_size};
    case dtype::invalid: break;
  }
  return {'\0', 0};
}

// Appends the .npy header of an array of `descr` and `shape` (C order) to `out`: version 1.0, or
// 2.0 when the header needs more than 65535 bytes; padded so that the elements start at a
// multiple of 64, as numpy does. The elements follow it.
inline void write_npy_header(std::string& out, std::string_view descr, std::span<const std::int64_t> shape) {
  std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t k = 0; k != shape.size(); ++k) {
    if (k) dict += ", ";
    dict += std::to_string(shape[k]);
  }
  dict += shape.size() == 1 ? ",), }" : "), }";
  const bool v2 = dict.size() + 1 + 10 + 64 > 65535;
  const std::size_t head = v2 ? 12 : 10;
  dict.append(63 - (head + dict.size()) % 64, ' ');
  dict += '\n';
  out.append(detail::npy_magic, 6);
  out += static_cast<char>(v2 ? 2 : 1);
  out += '\0';
  for (std::size_t k = 0; k != (v2 ? 4u : 2u); ++k) out += static_cast<char>((dict.size() >> (8 * k)) & 0xff);
  out += dict;
}

// The .npy file of an array (its `data`, C order, host byte order).
inline std::string write_npy(const npy_array& a) {
  std::string out;
  write_npy_header(out, npy_descr(a.kind, a.itemsize), a.shape);
  out.append(a.data);
  return out;
}

}  // namespace ctff
