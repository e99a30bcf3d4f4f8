// The executor's workers: per-client work (maps, evals, selects) split over a fixed set of threads.
// Each index writes its own result slot, so results do not depend on the number of threads; the
// error reported is the one of the lowest failing index, for the same reason.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ctff::detail {

class thread_pool {
 public:
  // `threads` workers in all, the calling thread included (0 or 1: no extra threads).
  explicit thread_pool(unsigned threads) {
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~thread_pool() {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // f(i) for i in [0, n), on every thread; nested calls (from inside f) run inline.
  void for_each(std::size_t n, const std::function<void(std::size_t)>& f) {
    if (workers_.empty() || n < 2 || inside_) {
      for (std::size_t i = 0; i != n; ++i) f(i);
      return;
    }
    // One job at a time: runs started from several threads on one executor take turns.
    std::lock_guard turn(busy_);
    job j;
    j.f = &f;
    j.n = n;
    // Chunks of indices, about 8 per thread: one lock per chunk, not per index, and still work
    // left to balance uneven clients.
    j.chunk = std::max<std::size_t>(1, n / (8 * size()));
    {
      std::lock_guard lock(m_);
      job_ = &j;
      ++generation_;
    }
    wake_.notify_all();
    run(j);
    std::unique_lock lock(m_);
    job_ = nullptr;  // no worker takes it any more; wait for those that did
    done_.wait(lock, [&] { return j.active == 0; });
    lock.unlock();
    if (j.error) std::rethrow_exception(j.error);
  }

 private:
  struct job {
    const std::function<void(std::size_t)>* f = nullptr;
    std::size_t n = 0;
    std::size_t chunk = 1;
    std::size_t next = 0;
    unsigned active = 0;  // workers inside run(), the caller not counted
    std::atomic<std::size_t> error_index{static_cast<std::size_t>(-1)};
    std::exception_ptr error;
  };

  // Takes chunks of indices until none is left; a chunk stops at an index above one that failed.
  void run(job& j) {
    inside_ = true;
    for (;;) {
      std::size_t begin, end;
      {
        std::lock_guard lock(m_);
        if (j.next == j.n) break;
        begin = j.next;
        end = std::min(j.n, begin + j.chunk);
        j.next = end;
      }
      std::exception_ptr e;
      std::size_t failed = end;
      for (std::size_t i = begin; i != end && i < j.error_index.load(std::memory_order_relaxed); ++i) {
        try {
          (*j.f)(i);
        } catch (...) {
          e = std::current_exception();
          failed = i;
          break;
        }
      }
      if (!e) continue;
      std::lock_guard lock(m_);
      if (failed < j.error_index.load(std::memory_order_relaxed)) {
        j.error_index.store(failed, std::memory_order_relaxed);
        j.error = e;
        j.next = j.n;  // every lower index is taken already: skip the rest
      }
    }
    inside_ = false;
  }

  void work() {
    std::size_t seen = 0;
    for (;;) {
      job* j;
      {
        std::unique_lock lock(m_);
        wake_.wait(lock, [&] { return stop_ || (job_ && generation_ != seen); });
        if (stop_) return;
        seen = generation_;
        j = job_;
        ++j->active;
      }
      run(*j);
      std::lock_guard lock(m_);
      if (--j->active == 0) done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex m_, busy_;
  std::condition_variable wake_, done_;
  job* job_ = nullptr;
  std::size_t generation_ = 0;
  bool stop_ = false;
  static inline thread_local bool inside_ = false;
};

}  // namespace ctff::detail
