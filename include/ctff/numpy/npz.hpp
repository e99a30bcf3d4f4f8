// numpy's .npz (np.savez, np.savez_compressed): a ZIP archive whose members are .npy files named
// by their keys plus `.npy` (numpy/zip_archive.hpp, numpy/npy.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctff/numpy/array_file_error.hpp"
#include "ctff/numpy/npy.hpp"
#include "ctff/numpy/zip_archive.hpp"

namespace ctff {

// Arrays by key (np.load(file)[key]).
using npz_arrays = std::map<std::string, npy_array, std::less<>>;

// The arrays of an .npz archive by key (the member name without `.npy`). Stored members view
// `archive`, which must outlive them; deflated ones own their inflated bytes, at most `max_bytes`
// of them in all (charged before each is allocated). Throws array_file_error naming the member.
inline npz_arrays read_npz(std::string_view archive, std::uint64_t max_bytes) {
  npz_arrays out;
  for (const zip_entry& e : read_zip_entries(archive)) {
    if (e.name.size() < 4 || e.name.compare(e.name.size() - 4, 4, ".npy") != 0)
      throw array_file_error(e.name, "not an .npy member (an .npz holds only NAME.npy files)");
    std::vector<char> buffer;
    const std::string_view bytes = zip_entry_bytes(e, buffer, max_bytes);
    out.emplace(e.name.substr(0, e.name.size() - 4),
                buffer.empty() ? read_npy(bytes, e.name) : read_npy({}, e.name, std::move(buffer)));
  }
  return out;
}

// A temporary string would leave stored members viewing freed bytes.
template <class S>
  requires std::same_as<S, std::string>
npz_arrays read_npz(S&& archive, std::uint64_t max_bytes) = delete;

// The .npz archive of arrays by key, stored as np.savez writes them (in the order given).
inline std::string write_npz(const std::vector<std::pair<std::string, npy_array>>& arrays) {
  zip_writer z;
  for (const auto& [key, a] : arrays) z.add(key + ".npy", write_npy(a));
  return z.finish();
}

}  // namespace ctff
