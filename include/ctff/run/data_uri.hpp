// Data that lives where the run is (ctff-worker --data DIR, ctff-run --data DIR): the URI of a
// federated_language Data computation names a file under DIR, read as a value of the Data's type
// (docs/distributed.md, "Data on the workers"):
//   PATH      a .npy file (one tensor), or a .npz file: a struct's tensors named by their paths in
//             it (`x`, `model.bias`, `[0]`, as ctff-run's .npz argument names them without its
//             leading `arg`; np.savez's positional `arr_K` for element K); a tensor type: an .npz
//             of one array, whatever its name;
//   PATH#I    row I of a shard file: every array's leading axis is the client index.
// PATH is relative to DIR: absolute paths, `..` and symbolic links leading out of DIR are refused.
// Every problem (no such file, a dtype or shape the type does not allow, a row out of range) is a
// data_error naming the URI and the file; nothing is allocated beyond the file's size. `resolved`
// reads the data references (run/data_reference.hpp) a value holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/numpy/npy.hpp"
#include "ctff/numpy/npz.hpp"
#include "ctff/read/reader.hpp"
#include "ctff/run/array_read.hpp"
#include "ctff/run/data_reference.hpp"
#include "ctff/run/error.hpp"
#include "ctff/run/value.hpp"
#include "ctff/types/desc.hpp"

namespace ctff {

// A URI that names no usable data; what() names the URI, the file and the problem.
class data_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A URI's parts: the file under the data directory and, for a shard file, the client's row.
struct data_uri {
  std::string file;
  std::optional<std::size_t> row;
};

// Parses `PATH` or `PATH#I`, refusing what could name a file outside the directory.
inline data_uri parse_data_uri(std::string_view uri) {
  const auto fail = [&](const std::string& why) -> void {
    throw data_error("data URI `" + std::string(uri.substr(0, 256)) + "`: " + why);
  };
  if (uri.empty()) fail("an empty URI");
  if (uri.size() > 4096) fail("longer than 4096 characters");
  data_uri out;
  std::string_view path = uri;
  if (const std::size_t hash = uri.rfind('#'); hash != std::string_view::npos) {
    path = uri.substr(0, hash);
    const std::string_view row = uri.substr(hash + 1);
    std::size_t r = 0;
    if (row.empty() || row.size() > 18) fail("`#` is followed by a row number (PATH#I), not `" + std::string(row) + "`");
    for (const char c : row) {
      if (c < '0' || c > '9') fail("`#` is followed by a row number (PATH#I), not `" + std::string(row) + "`");
      r = r * 10 + static_cast<std::size_t>(c - '0');
    }
    out.row = r;
  }
  if (path.empty()) fail("no file before `#`");
  if (path.front() == '/') fail("an absolute path (URIs are relative to the data directory)");
  if (path.find('\0') != std::string_view::npos || path.find('\\') != std::string_view::npos)
    fail("a NUL or backslash in the path");
  for (std::size_t b = 0; b <= path.size();) {
    const std::size_t e = std::min(path.find('/', b), path.size());
    if (path.substr(b, e - b) == "..") fail("`..` in the path (URIs stay inside the data directory)");
    b = e + 1;
  }
  const auto ends = [&](std::string_view tail) {
    return path.size() > tail.size() && path.substr(path.size() - tail.size()) == tail;
  };
  if (!ends(".npy") && !ends(".npz")) fail("the file is not a .npy or .npz file");
  out.file = std::string(path);
  return out;
}

namespace detail {

// An array viewing another's bytes (the other must outlive it): all of it, or row `row` of its
// leading axis.
inline npy_array npy_view(const npy_array& a, std::optional<std::size_t> row) {
  npy_array v;
  v.kind = a.kind;
  v.itemsize = a.itemsize;
  if (!row) {
    v.shape = a.shape;
    v.count = a.count;
    v.data = a.data;
    return v;
  }
  const std::size_t rows = static_cast<std::size_t>(a.shape.front());
  v.shape.assign(a.shape.begin() + 1, a.shape.end());
  v.count = rows ? a.count / rows : 0;
  v.data = a.data.substr(*row * v.count * a.itemsize, v.count * a.itemsize);
  return v;
}

}  // namespace detail

// The files under one directory, read as values by URI. Thread-safe; the last few shard files
// read are kept (a shard is read once for all the clients whose rows it holds).
class data_dir {
 public:
  explicit data_dir(const std::filesystem::path& root, std::uint64_t max_file_bytes = std::uint64_t{4} << 30)
      : max_file_bytes_(max_file_bytes) {
    std::error_code ec;
    root_ = std::filesystem::canonical(root, ec);
    if (ec || !std::filesystem::is_directory(root_, ec))
      throw data_error("data directory `" + root.string() + "`: not a directory" + (ec ? ": " + ec.message() : ""));
  }

  const std::filesystem::path& root() const { return root_; }

  // The value `uri` names, read as the type node `type` of `types`.
  dynamic_value resolve(std::string_view uri, const type_desc& types, std::uint32_t type,
                        const run_limits& limits = {}) const {
    const data_uri u = parse_data_uri(uri);
    const std::filesystem::path file = root_ / u.file;
    const std::string where = "data URI `" + std::string(uri) + "` (file " + file.string() + "): ";
    const auto fail = [&](const std::string& why) -> void { throw data_error(where + why); };
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(file, ec);
    if (ec) fail("no such file (" + ec.message() + ")");
    const std::string r = real.string(), d = root_.string();
    if (r.size() <= d.size() || r.compare(0, d.size(), d) != 0 || (d.back() != '/' && r[d.size()] != '/'))
      fail("a link leading out of the data directory " + d);
    if (!std::filesystem::is_regular_file(real, ec)) fail("not a regular file");
    std::shared_ptr<const loaded> f;
    try {
      f = load(real, u.row.has_value(), where);
    } catch (const array_file_error& e) {
      fail(e.what());
    }
    npz_arrays named;
    const bool tensor = types.node(type).kind == type_kind::tensor;
    for (const auto& [key, a] : f->arrays) {
      if (u.row && (a.shape.empty() || static_cast<std::uint64_t>(a.shape.front()) <= *u.row))
        fail("no row " + std::to_string(*u.row) + " in the array " + (key.empty() ? "" : "`" + key + "` ") + "of " +
             detail::npy_what(a) + " (a shard file's leading axis is the client index)");
      named.emplace(path_of(key, tensor && f->arrays.size() == 1), detail::npy_view(a, u.row));
    }
    try {
      std::optional<std::size_t> clients;
      return value_from_arrays(named, types, type, clients, "arg", limits);
    } catch (const argument_error& e) {
      const std::string& p = e.path();
      fail((p.size() > 3 ? "at `" + p.substr(p[3] == '.' ? 4 : 3) + "`: " : std::string()) + e.problem());
    }
    return {};  // (not reached)
  }

 private:
  struct loaded {
    std::string bytes;
    npz_arrays arrays;  // viewing `bytes` (an .npy: one array, key "")
  };

  // An npz key as value_from_arrays names it: `arg.x`, `arg[0]` (np.savez's `arr_0` too).
  static std::string path_of(const std::string& key, bool only) {
    if (key.empty() || only) return "arg";
    if (key.front() == '[') return "arg" + key;
    if (key.size() > 4 && key.compare(0, 4, "arr_") == 0 && key.find_first_not_of("0123456789", 4) == std::string::npos)
      return "arg[" + key.substr(4) + "]";
    return "arg." + key;
  }

  std::shared_ptr<const loaded> load(const std::filesystem::path& file, bool keep, const std::string& where) const {
    if (keep) {
      std::lock_guard lock(m_);
      for (const auto& [p, f] : recent_)
        if (p == file) return f;
    }
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec) throw data_error(where + "cannot read its size (" + ec.message() + ")");
    if (size > max_file_bytes_)
      throw data_error(where + std::to_string(size) + " bytes, more than the " + std::to_string(max_file_bytes_) +
                       " a data file may have");
    auto f = std::make_shared<loaded>();
    f->bytes.resize(static_cast<std::size_t>(size));
    std::ifstream in(file, std::ios::binary);
    if (!in || !in.read(f->bytes.data(), static_cast<std::streamsize>(size)))
      throw data_error(where + "cannot be read");
    const std::string_view b = f->bytes;
    if (b.substr(0, 6) == "\x93NUMPY") f->arrays.emplace("", read_npy(b));
    else f->arrays = read_npz(b, max_file_bytes_);
    if (keep) {
      std::lock_guard lock(m_);
      if (recent_.size() >= 4) recent_.erase(recent_.begin());
      recent_.emplace_back(file, f);
    }
    return f;
  }

  std::filesystem::path root_;
  std::uint64_t max_file_bytes_;
  mutable std::mutex m_;
  mutable std::vector<std::pair<std::filesystem::path, std::shared_ptr<const loaded>>> recent_;
};

// v with every data reference read from `dir` (the rest shared, not copied).
inline dynamic_value resolved(const dynamic_value& v, const data_dir& dir, const run_limits& limits = {}) {
  if (const data_reference* d = data_reference::of(v)) {
    const computation_tree t = read_computation(d->computation());
    return dir.resolve(d->uri(), t.types, t.node(t.root).type, limits);
  }
  if (!detail::holds_data_reference(v)) return v;
  if (v.is(value_kind::struct_)) {
    std::vector<dynamic_value> e;
    for (const dynamic_value& x : v.structure().elements) e.push_back(resolved(x, dir, limits));
    return make_struct_value(std::move(e), v.structure().names);
  }
  const federated_data& f = v.federated();
  std::vector<dynamic_value> m;
  m.reserve(f.members.size());
  for (const dynamic_value& x : f.members) m.push_back(resolved(x, dir, limits));
  return make_federated(f.where, f.all_equal, std::move(m));
}

}  // namespace ctff
