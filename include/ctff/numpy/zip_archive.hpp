// ZIP archives as numpy's .npz uses them (PKWARE APPNOTE 6.3): reading members stored (np.savez)
// or deflated (np.savez_compressed), zip64 included; writing stored members, zip64 where sizes or
// offsets need it. The bytes are untrusted: every offset and size is checked against the archive,
// a member's declared size is charged to a byte budget before its buffer is allocated, and CRC-32s
// are verified. Needs zlib (<zlib.h>, link -lz; Debian zlib1g-dev) for deflate and CRC-32.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ctff/numpy/array_file_error.hpp"

namespace ctff {

// One member of an archive, as its central directory describes it.
struct zip_entry {
  std::string name;
  std::uint16_t method = 0;      // 0 stored, 8 deflated
  std::uint32_t crc = 0;
  std::uint64_t size = 0;        // uncompressed
  std::string_view compressed;   // its bytes in the archive
};

namespace detail {

inline std::uint64_t zip_get(std::string_view s, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int k = n; k-- > 0;) v = v << 8 | static_cast<unsigned char>(s[at + static_cast<std::size_t>(k)]);
  return v;
}
inline void zip_put(std::string& out, std::uint64_t v, int n) {
  for (int k = 0; k != n; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
}

// Deflate makes at most 1032 bytes of one (RFC 1951: a 258-byte match in 2 bits, and block
// overhead): a member declaring more than this is lying, whatever the budget.
inline constexpr std::uint64_t deflate_max_ratio = 1032;

inline std::uint32_t zip_crc(std::string_view s) {
  uLong crc = crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < s.size();) {  // zlib takes 32-bit lengths
    const auto n = static_cast<uInt>(std::min<std::size_t>(s.size() - at, 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(s.data() + at), n);
    at += n;
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace detail

// The members of a ZIP archive, in the order of its central directory. Throws array_file_error
// for anything that is not a well-formed archive of stored or deflated, unencrypted members with
// distinct names.
inline std::vector<zip_entry> read_zip_entries(std::string_view z) {
  using detail::zip_get;
  const auto fail = [](const std::string& member, const std::string& problem) -> void {
    throw array_file_error(member, problem);
  };
  // The end of central directory record: the last one, within a comment's length of the end.
  if (z.size() < 22) fail("", "not a ZIP archive (shorter than its end record)");
  std::size_t eocd = z.size() - 22;
  for (;; --eocd) {
    if (zip_get(z, eocd, 4) == 0x06054b50 && eocd + 22 + zip_get(z, eocd + 20, 2) == z.size()) break;
    if (eocd == 0 || z.size() - eocd > 22 + 65535) fail("", "not a ZIP archive (no end of central directory record)");
  }
  std::uint64_t count = zip_get(z, eocd + 10, 2), cd_size = zip_get(z, eocd + 12, 4), cd_at = zip_get(z, eocd + 16, 4);
  if (zip_get(z, eocd + 4, 2) != 0 || zip_get(z, eocd + 6, 2) != 0 || zip_get(z, eocd + 8, 2) != count)
    fail("", "a ZIP archive of several disks");
  std::size_t cd_end = eocd;  // where the central directory must end
  if (count == 0xffff || cd_size == 0xffffffff || cd_at == 0xffffffff) {
    // zip64: the locator just before the end record points at the zip64 end record.
    if (eocd < 20 || zip_get(z, eocd - 20, 4) != 0x07064b50) fail("", "a zip64 archive without its zip64 locator");
    const std::uint64_t at = zip_get(z, eocd - 20 + 8, 8);
    if (at > eocd - 20 || eocd - 20 - at < 56 || zip_get(z, at, 4) != 0x06064b50)
      fail("", "a zip64 locator that points at no zip64 end record");
    if (zip_get(z, at + 16, 4) != 0 || zip_get(z, at + 20, 4) != 0 || zip_get(z, at + 24, 8) != zip_get(z, at + 32, 8))
      fail("", "a ZIP archive of several disks");
    count = zip_get(z, at + 32, 8);
    cd_size = zip_get(z, at + 40, 8);
    cd_at = zip_get(z, at + 48, 8);
    cd_end = static_cast<std::size_t>(at);
  }
  if (cd_at > cd_end || cd_size != cd_end - cd_at) fail("", "a central directory that is not where the end record says");
  if (count > cd_size / 46) fail("", "more members than the central directory can hold");

  std::vector<zip_entry> out;
  out.reserve(static_cast<std::size_t>(count));
  std::set<std::string_view> names;
  std::size_t p = static_cast<std::size_t>(cd_at);
  for (std::uint64_t i = 0; i != count; ++i) {
    if (cd_end - p < 46 || zip_get(z, p, 4) != 0x02014b50) fail("", "a damaged central directory");
    const std::size_t name_len = zip_get(z, p + 28, 2), extra_len = zip_get(z, p + 30, 2),
                      comment_len = zip_get(z, p + 32, 2);
    if (cd_end - p - 46 < name_len + extra_len + comment_len) fail("", "a damaged central directory");
    zip_entry e;
    e.name.assign(z.substr(p + 46, name_len));
    const std::uint16_t flags = static_cast<std::uint16_t>(zip_get(z, p + 8, 2));
    e.method = static_cast<std::uint16_t>(zip_get(z, p + 10, 2));
    e.crc = static_cast<std::uint32_t>(zip_get(z, p + 16, 4));
    std::uint64_t csize = zip_get(z, p + 20, 4), size = zip_get(z, p + 24, 4), local = zip_get(z, p + 42, 4);
    // zip64 extended information: the 64-bit values of the fields that hold 0xffffffff, in order.
    const std::string_view extra = z.substr(p + 46 + name_len, extra_len);
    for (std::size_t x = 0; x + 4 <= extra.size();) {
      const std::size_t id = zip_get(extra, x, 2), len = zip_get(extra, x + 2, 2);
      if (len > extra.size() - x - 4) fail(e.name, "a damaged extra field");
      if (id == 1) {
        std::size_t f = x + 4;
        for (std::uint64_t* v : {&size, &csize, &local}) {
          if (*v != 0xffffffff) continue;
          if (f + 8 > x + 4 + len) fail(e.name, "a zip64 field too short for its sizes");
          *v = zip_get(extra, f, 8);
          f += 8;
        }
      }
      x += 4 + len;
    }
    p += 46 + name_len + extra_len + comment_len;
    if (flags & 1) fail(e.name, "an encrypted member");
    if (e.method != 0 && e.method != 8)
      fail(e.name, "compression method " + std::to_string(e.method) + " (stored and deflated members are read)");
    if (e.method == 0 && csize != size) fail(e.name, "a stored member whose sizes differ");
    // Its local header (its own name and extra field) and then its bytes, all before the directory.
    if (local > cd_at || cd_at - local < 30 || zip_get(z, local, 4) != 0x04034b50)
      fail(e.name, "no local header where the central directory says");
    const std::uint64_t data = local + 30 + zip_get(z, local + 26, 2) + zip_get(z, local + 28, 2);
    if (data > cd_at || csize > cd_at - data) fail(e.name, "its bytes run past the end of the archive's members");
    e.compressed = z.substr(static_cast<std::size_t>(data), static_cast<std::size_t>(csize));
    e.size = size;
    out.push_back(std::move(e));
  }
  for (const zip_entry& e : out)
    if (!names.insert(e.name).second) fail(e.name, "two members of this name");
  return out;
}

// The uncompressed bytes of a member: a view of the archive (stored), or of `buffer`, which it
// fills (deflated). Its declared size is charged to `budget` (bytes left) before `buffer` is
// allocated. Throws array_file_error for a budget exceeded, bad deflate data, a size that is not
// the declared one, or a CRC-32 that does not match.
inline std::string_view zip_entry_bytes(const zip_entry& e, std::vector<char>& buffer, std::uint64_t& budget) {
  if (e.method == 0) {
    if (detail::zip_crc(e.compressed) != e.crc) throw array_file_error(e.name, "CRC-32 mismatch (a damaged member)");
    return e.compressed;
  }
  if (e.size > (e.compressed.size() + 1) * detail::deflate_max_ratio)
    throw array_file_error(e.name, "declares " + std::to_string(e.size) + " bytes from " +
                                       std::to_string(e.compressed.size()) + " deflated: more than deflate can make");
  if (e.size > budget)
    throw array_file_error(e.name, "inflates to " + std::to_string(e.size) + " bytes, beyond the " +
                                       std::to_string(budget) + " bytes left of the limit (run_limits::max_value_bytes)");
  budget -= e.size;
  buffer.assign(static_cast<std::size_t>(e.size), '\0');
  z_stream s{};
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK) throw array_file_error(e.name, "zlib cannot start inflating");
  struct end_stream {
    z_stream& s;
    ~end_stream() { inflateEnd(&s); }
  } ender{s};
  // The output window is the buffer, 1 GiB at a time (zlib's lengths are 32-bit), then one spare
  // byte: a stream that writes it inflates to more than it declares.
  std::size_t in = 0, given = 0;
  unsigned char spare = 0;
  bool spare_mode = false;
  for (;;) {
    if (s.avail_in == 0 && in < e.compressed.size()) {
      const auto n = static_cast<uInt>(std::min<std::size_t>(e.compressed.size() - in, 1u << 30));
      s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(e.compressed.data() + in));
      s.avail_in = n;
      in += n;
    }
    if (s.avail_out == 0) {
      if (spare_mode)
        throw array_file_error(e.name, "inflates to more than its declared " + std::to_string(e.size) + " bytes");
      if (given < buffer.size()) {
        const auto n = static_cast<uInt>(std::min<std::size_t>(buffer.size() - given, 1u << 30));
        s.next_out = reinterpret_cast<Bytef*>(buffer.data() + given);
        s.avail_out = n;
        given += n;
      } else {
        spare_mode = true;
        s.next_out = &spare;
        s.avail_out = 1;
      }
    }
    const int rc = inflate(&s, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && s.avail_in == 0 && in == e.compressed.size())
      throw array_file_error(e.name, "deflate data that ends early");
    if (rc != Z_OK)
      throw array_file_error(e.name, std::string("bad deflate data") + (s.msg ? std::string(" (") + s.msg + ")" : ""));
  }
  if (spare_mode && s.avail_out == 0)
    throw array_file_error(e.name, "inflates to more than its declared " + std::to_string(e.size) + " bytes");
  const std::size_t out = spare_mode ? given : given - s.avail_out;
  if (out != buffer.size())
    throw array_file_error(e.name, "inflates to " + std::to_string(out) + " bytes, not its declared " + std::to_string(e.size));
  const std::string_view bytes(buffer.data(), buffer.size());
  if (detail::zip_crc(bytes) != e.crc) throw array_file_error(e.name, "CRC-32 mismatch (a damaged member)");
  return bytes;
}

// Writes a ZIP archive of stored members, as np.savez does (fixed timestamps: the same members
// make the same bytes). zip64 records where a size, an offset or the count needs them, or always
// (`force_zip64`, for tests).
class zip_writer {
 public:
  explicit zip_writer(bool force_zip64 = false) : force_(force_zip64) {}

  void add(std::string_view name, std::string_view data) {
    using detail::zip_put;
    const std::uint32_t crc = detail::zip_crc(data);
    const std::uint64_t offset = out_.size();
    const bool big = force_ || data.size() >= 0xffffffff;
    write_header(0x04034b50, name, crc, data.size(), offset, big, false);
    out_.append(data);
    const bool far = force_ || offset >= 0xffffffff;
    out_.swap(directory_);  // the central directory entry: the local header's fields and more
    zip_put(out_, 0x02014b50, 4);
    zip_put(out_, (big || far) ? 45 : 20, 2);  // made by: version 4.5 (zip64) or 2.0
    write_header(0, name, crc, data.size(), offset, big, far);
    out_.swap(directory_);
    ++count_;
  }

  // The archive's bytes; the writer is spent.
  std::string finish() {
    using detail::zip_put;
    const std::uint64_t cd_at = out_.size(), cd_size = directory_.size();
    out_ += directory_;
    const bool z64 = force_ || count_ >= 0xffff || cd_at >= 0xffffffff || cd_size >= 0xffffffff;
    if (z64) {
      const std::uint64_t at = out_.size();
      zip_put(out_, 0x06064b50, 4);
      zip_put(out_, 44, 8);  // the record's size after this field
      zip_put(out_, 45, 2);
      zip_put(out_, 45, 2);
      zip_put(out_, 0, 4);
      zip_put(out_, 0, 4);
      zip_put(out_, count_, 8);
      zip_put(out_, count_, 8);
      zip_put(out_, cd_size, 8);
      zip_put(out_, cd_at, 8);
      zip_put(out_, 0x07064b50, 4);
      zip_put(out_, 0, 4);
      zip_put(out_, at, 8);
      zip_put(out_, 1, 4);
    }
    zip_put(out_, 0x06054b50, 4);
    zip_put(out_, 0, 4);
    zip_put(out_, z64 ? 0xffff : count_, 2);
    zip_put(out_, z64 ? 0xffff : count_, 2);
    zip_put(out_, z64 ? 0xffffffff : cd_size, 4);
    zip_put(out_, z64 ? 0xffffffff : cd_at, 4);
    zip_put(out_, 0, 2);
    return std::move(out_);
  }

 private:
  // A local header (sig 0x04034b50) or, from `version needed` on, a central directory entry
  // (sig 0: the caller wrote the first fields).
  void write_header(std::uint32_t sig, std::string_view name, std::uint32_t crc, std::uint64_t size,
                    std::uint64_t offset, bool big, bool far) {
    using detail::zip_put;
    const bool central = sig == 0;
    if (!central) zip_put(out_, sig, 4);
    zip_put(out_, (big || far) ? 45 : 20, 2);  // version needed
    zip_put(out_, 0x800, 2);                    // flags: the name is UTF-8
    zip_put(out_, 0, 2);                        // stored
    zip_put(out_, 0, 2);                        // 00:00:00
    zip_put(out_, 0x21, 2);                     // 1980-01-01
    zip_put(out_, crc, 4);
    zip_put(out_, big ? 0xffffffff : size, 4);
    zip_put(out_, big ? 0xffffffff : size, 4);
    zip_put(out_, name.size(), 2);
    const std::size_t extra = (big ? 16 : 0) + (far ? 8 : 0);
    zip_put(out_, extra ? 4 + extra : 0, 2);
    if (central) {
      zip_put(out_, 0, 2);  // comment
      zip_put(out_, 0, 2);  // disk
      zip_put(out_, 0, 2);  // internal attributes
      zip_put(out_, 0, 4);  // external attributes
      zip_put(out_, far ? 0xffffffff : offset, 4);
    }
    out_.append(name);
    if (extra) {
      zip_put(out_, 1, 2);
      zip_put(out_, extra, 2);
      if (big) {
        zip_put(out_, size, 8);
        zip_put(out_, size, 8);
      }
      if (far) zip_put(out_, offset, 8);
    }
  }

  bool force_;
  std::string out_, directory_;
  std::uint64_t count_ = 0;
};

}  // namespace ctff
