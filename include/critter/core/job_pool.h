// SPDX-License-Identifier: MIT
// JobPool: a fixed set of worker threads that run parallel loops over index ranges, for per-frame
// work on many independent items (a crowd's creatures, their palettes). The calling thread takes
// part in every loop, so a pool of N threads starts N - 1 workers.
//
// Scheduling is work stealing over index ranges: each thread owns an equal contiguous share of
// [0, count) and takes chunks of `grain` items from its front; a thread whose share is used up
// takes chunks from the other threads' shares, so an uneven load still finishes together. Shares
// are claimed with atomic counters and idle workers sleep on a futex (std::atomic::wait): nothing
// spins between loops. A worker that wakes after the loop has closed (the caller has taken every
// chunk) leaves without touching it, so on a loaded machine the caller never waits for a worker
// the scheduler has not run yet, only for chunks workers are running.
//
//   critter::JobPool pool(2);
//   pool.parallel_for(items.size(), 64, [&](std::size_t begin, std::size_t end) {
//     for (std::size_t i = begin; i < end; ++i) update(items[i]);
//   });
//
// One loop at a time: parallel_for is not reentrant and must be called from one thread at a time
// (the owner's). The pool allocates only in its constructor; parallel_for never allocates.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

namespace critter {

class JobPool {
 public:
  // A pool of `threads` threads in all (the caller and threads - 1 workers); 0 means
  // std::thread::hardware_concurrency() (at least 1). A pool of 1 runs every loop on the caller.
  explicit JobPool(unsigned threads = 0);
  // Stops and joins the workers.
  ~JobPool();
  JobPool(const JobPool&) = delete;
  JobPool& operator=(const JobPool&) = delete;

  // Threads taking part in a loop, the caller included (>= 1).
  unsigned thread_count() const { return threads_; }

  // Calls fn(begin, end) on disjoint ranges that cover [0, count) exactly once, each at most
  // `grain` items long (grain 0 is taken as 1), on the pool's threads, and returns when every
  // call has returned. fn must not throw. Ranges run in no particular order or thread.
  template <class Fn>
  void parallel_for(std::size_t count, std::size_t grain, Fn&& fn) {
    using F = std::remove_reference_t<Fn>;
    run(
        count, grain, [](void* f, std::size_t b, std::size_t e) { (*static_cast<F*>(f))(b, e); },
        const_cast<void*>(static_cast<const void*>(&fn)));
  }

 private:
  using Body = void (*)(void*, std::size_t, std::size_t);

  // One thread's share of the current loop: the next index to take and its end. Each on its own
  // cache line, so claims on different shares do not contend.
  struct alignas(64) Share {
    std::atomic<std::size_t> next{0};
    std::size_t end = 0;
  };

  void run(std::size_t count, std::size_t grain, Body body, void* context);
  void work(unsigned self);
  void worker_main(unsigned self);

  unsigned threads_ = 1;
  std::unique_ptr<Share[]> shares_;  // threads_ entries
  std::vector<std::thread> workers_;
  Body body_ = nullptr;
  void* context_ = nullptr;
  std::size_t grain_ = 1;
  // Bumped to start a loop; workers wait for it to change.
  std::atomic<std::uint32_t> generation_{0};
  // True from the start of a loop until the caller has finished its own work on it; a worker
  // joins a loop only while it is open.
  std::atomic<bool> open_{false};
  // Workers inside the current loop (joined, not yet left); the caller waits for 0 once it has
  // closed the loop.
  std::atomic<std::uint32_t> busy_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace critter
