// A bounded account of what taps saw (run/tap.hpp), for a million clients as for three: per
// path, how many values and where, the first few (the lowest client indices), and per numeric
// leaf the minimum, mean and maximum of its elements over all values. `ctff-run --tap` prints it.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctff/run/aggregation.hpp"
#include "ctff/run/numeric.hpp"
#include "ctff/run/tap.hpp"
#include "ctff/run/value.hpp"
#include "ctff/run/value_print.hpp"
#include "ctff/types/dtype.hpp"

namespace ctff {

class tap_summary {
 public:
  // Keeps the first `first` values of each path (by client index, then as they came).
  explicit tap_summary(std::size_t first = 3) : first_(first) {}

  // A value_callback (run_options::on_value = std::ref(summary)): not thread-safe itself, as
  // the callback is never called twice at once.
  void operator()(const tapped_value& v) {
    auto [it, fresh] = paths_.try_emplace(std::string(v.path));
    if (fresh) order_.push_back(&it->first);
    one_path& p = it->second;
    ++p.count;
    std::string where = v.placement ? std::string(placement_name(*v.placement)) : "no placement";
    if (!v.worker.empty()) where += " on " + std::string(v.worker);
    ++p.where[where];
    kept k{v.client, p.count, tap_origin(v), to_string(v.value)};
    auto at = std::upper_bound(p.first.begin(), p.first.end(), k, [](const kept& a, const kept& b) {
      return std::pair(a.client.value_or(npos), a.arrival) < std::pair(b.client.value_or(npos), b.arrival);
    });
    if (static_cast<std::size_t>(at - p.first.begin()) < first_) {
      p.first.insert(at, std::move(k));
      if (p.first.size() > first_) p.first.pop_back();
    }
    leaves(v.value, "", p);
  }

  // Per path, in the order first seen: `tap PATH: N values (W at CLIENTS, ...)`, the first values
  // and, for numeric leaves, `min .. mean .. max ..`.
  std::string text() const {
    std::string out;
    for (const std::string* name : order_) {
      const one_path& p = paths_.at(*name);
      out += "tap " + *name + ": " + std::to_string(p.count) + (p.count == 1 ? " value (" : " values (");
      bool comma = false;
      for (const auto& [where, n] : p.where) {
        out += (comma ? ", " : "") + std::to_string(n) + " " + where;
        comma = true;
      }
      out += ")\n";
      for (const kept& k : p.first) out += "  " + k.where + ": " + k.text + "\n";
      if (p.count > p.first.size()) out += "  ... " + std::to_string(p.count - p.first.size()) + " more\n";
      for (const auto& [leaf, s] : p.stats)
        out += "  " + (leaf.empty() ? std::string("value") : "value" + leaf) + ": min " + number(s.min) + "  mean " +
               number(s.sum / static_cast<double>(s.n)) + "  max " + number(s.max) + "\n";
    }
    return out;
  }

 private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  struct kept {
    std::optional<std::size_t> client;
    std::size_t arrival;
    std::string where, text;
  };
  struct leaf_stats {
    double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity(), sum = 0;
    std::size_t n = 0;
  };
  struct one_path {
    std::size_t count = 0;
    std::map<std::string, std::size_t> where;
    std::vector<kept> first;
    std::map<std::string, leaf_stats> stats;  // by leaf (`.name`, `[k]`), numeric leaves only
  };

  static std::string number(double x) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
  }

  static void leaves(const dynamic_value& v, const std::string& leaf, one_path& p) {
    if (!v) return;
    if (v.is(value_kind::struct_)) {
      const struct_data& s = v.structure();
      for (std::size_t k = 0; k != s.elements.size(); ++k)
        leaves(s.elements[k], leaf + (s.name(k).empty() ? "[" + std::to_string(k) + "]" : "." + std::string(s.name(k))), p);
      return;
    }
    if (!v.is(value_kind::tensor)) return;
    const tensor_data& t = v.tensor();
    visit_dtype(t.dt, [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      if constexpr (detail::has_extremes<D>) {
        const auto& e = t.get<D>();
        if (e.empty()) return;
        leaf_stats& s = p.stats[leaf];
        for (const auto& x : e) {
          const double y = static_cast<double>(detail::numeric<D>::load(x));
          s.min = std::min(s.min, y);
          s.max = std::max(s.max, y);
          s.sum += y;
          ++s.n;
        }
      }
    });
  }

  std::size_t first_;
  std::map<std::string, one_path> paths_;
  std::vector<const std::string*> order_;
};

}  // namespace ctff
