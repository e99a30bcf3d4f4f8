// The workers a controller drives, and failover: work on a slice of the clients runs on the
// slice's own worker, and when that worker fails as a worker does (worker_down: it died, hangs
// past the deadline, is stopped), again on the next worker that answers, in order, up to
// `retries` times; when it restarted (executor_gone), once more there on a new executor. A worker
// that failed is probed in the background and used again once it answers. The slices do not
// change (they are cut by the workers reached at the start; those left out then are spares for
// failover), so which worker ran a slice changes no result.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ctff/remote/worker_link.hpp"
#include "ctff/run/fault.hpp"

namespace ctff::detail {

struct failover_policy {
  std::size_t retries = 3;                      // runs of a slice on another worker, at most
  std::chrono::milliseconds slice_deadline{0};  // per attempt at a slice (0: per request only)
  std::chrono::milliseconds probe_every{500};   // how often a failed worker is asked again
  std::chrono::milliseconds wait_for_one{5000};  // when no worker answers, how long to wait for one
};

// Sets attempt_ends for the requests of one attempt at a slice, on this thread.
class attempt_deadline {
 public:
  explicit attempt_deadline(std::chrono::milliseconds d) : saved_(attempt_ends) {
    if (d.count() > 0) attempt_ends = std::chrono::system_clock::now() + d;
  }
  ~attempt_deadline() { attempt_ends = saved_; }
  attempt_deadline(const attempt_deadline&) = delete;
  attempt_deadline& operator=(const attempt_deadline&) = delete;

 private:
  std::chrono::system_clock::time_point saved_;
};

class worker_pool {
 public:
  worker_pool(std::vector<std::shared_ptr<worker_link>> home, std::vector<std::shared_ptr<worker_link>> spares,
              failover_policy p)
      : home_(std::move(home)), all_(home_), p_(p) {
    for (auto& s : spares) {
      s->set_up(false);
      all_.push_back(std::move(s));
    }
    prober_ = std::thread([this] { probe(); });
  }
  ~worker_pool() {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    prober_.join();
  }
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  // The workers slices are cut for (reached at the start), in order; and all, spares included.
  const std::vector<std::shared_ptr<worker_link>>& home() const { return home_; }
  const std::vector<std::shared_ptr<worker_link>>& all() const { return all_; }

  // f(worker) for clients [begin, end), first on `first`, failing over as above; a run_fault
  // saying what was tried when no worker could run it.
  template <class F>
  auto run(const std::shared_ptr<worker_link>& first, std::size_t begin, std::size_t end, const F& f)
      -> decltype(f(first)) {
    std::string tried;
    std::size_t failures = 0;
    bool waited = false;
    const std::size_t at = static_cast<std::size_t>(std::find(all_.begin(), all_.end(), first) - all_.begin());
    for (;;) {
      for (std::size_t k = 0; k != all_.size(); ++k) {
        const std::shared_ptr<worker_link>& w = all_[(at + k) % all_.size()];
        if (!w->up()) continue;
        try {
          attempt_deadline by(p_.slice_deadline);
          try {
            return f(w);
          } catch (const executor_gone&) {  // it restarted: what it had is gone, once more there
            w->forget_all();
            return f(w);
          }
        } catch (const worker_down& e) {
          down(*w);
          tried += std::string(tried.empty() ? "" : "; ") + e.what();
          if (++failures > p_.retries) give_up(begin, end, tried, "no retries left (remote_options::retries)");
        }
      }
      if (waited || !wait_for_one()) give_up(begin, end, tried, "no worker answers");
      waited = true;
    }
  }

 private:
  [[noreturn]] void give_up(std::size_t begin, std::size_t end, const std::string& tried, const char* why) const {
    std::string down;
    for (const auto& w : all_)
      if (!w->up()) down += (down.empty() ? "" : ", ") + w->address();
    throw run_fault("clients " + std::to_string(begin) + " to " + std::to_string(end - 1) + ": " + why +
                    (tried.empty() ? std::string() : "; tried: " + tried) +
                    (down.empty() ? std::string() : "; down: " + down));
  }

  void down(worker_link& w) {
    w.set_up(false);
    cv_.notify_all();
  }

  // Whether a worker answers within wait_for_one (the prober brings it back).
  bool wait_for_one() {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, p_.wait_for_one, [&] {
      return stop_ || std::any_of(all_.begin(), all_.end(), [](const auto& w) { return w->up(); });
    }) && !stop_;
  }

  void probe() {
    std::unique_lock lock(m_);
    while (!stop_) {
      cv_.wait_for(lock, p_.probe_every);
      if (stop_) return;
      std::vector<std::shared_ptr<worker_link>> ask;
      for (const auto& w : all_)
        if (!w->up()) ask.push_back(w);
      if (ask.empty()) continue;
      lock.unlock();
      bool any = false;
      for (const auto& w : ask)
        if (w->answers(std::min<std::chrono::milliseconds>(p_.probe_every * 2, std::chrono::seconds(2)))) {
          w->set_up(true);
          any = true;
        }
      lock.lock();
      if (any) cv_.notify_all();
    }
  }

  std::vector<std::shared_ptr<worker_link>> home_, all_;
  failover_policy p_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread prober_;
};

}  // namespace ctff::detail
