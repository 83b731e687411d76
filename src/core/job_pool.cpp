// SPDX-License-Identifier: MIT
#include "critter/core/job_pool.h"

#include <algorithm>

namespace critter {

JobPool::JobPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads_ = threads;
  shares_ = std::make_unique<Share[]>(threads);
  workers_.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { worker_main(t); });
}

JobPool::~JobPool() {
  stop_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void JobPool::run(std::size_t count, std::size_t grain, Body body, void* context) {
  if (count == 0) return;
  grain_ = std::max<std::size_t>(grain, 1);
  // Too little work to be worth waking anyone: the caller runs it alone.
  if (threads_ == 1 || count <= grain_) {
    for (std::size_t b = 0; b < count; b += grain_) body(context, b, std::min(count, b + grain_));
    return;
  }
  body_ = body;
  context_ = context;
  for (unsigned t = 0; t < threads_; ++t) {
    shares_[t].next.store(count * t / threads_, std::memory_order_relaxed);
    shares_[t].end = count * (t + 1) / threads_;
  }
  // Sequentially consistent with the worker's join (busy_ then open_) below: either the worker
  // sees the loop closed and leaves, or the caller sees it joined and waits for it.
  open_.store(true, std::memory_order_seq_cst);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  work(0);
  // Every chunk is claimed: close the loop, then wait for the workers inside it.
  open_.store(false, std::memory_order_seq_cst);
  for (std::uint32_t b = busy_.load(std::memory_order_seq_cst); b != 0;
       b = busy_.load(std::memory_order_acquire))
    busy_.wait(b, std::memory_order_acquire);
}

void JobPool::work(unsigned self) {
  const Body body = body_;
  void* const context = context_;
  const std::size_t grain = grain_;
  // Own share first, then the others' in turn, starting with the next thread's.
  for (unsigned k = 0; k < threads_; ++k) {
    Share& s = shares_[(self + k) % threads_];
    for (;;) {
      const std::size_t b = s.next.fetch_add(grain, std::memory_order_relaxed);
      if (b >= s.end) break;
      body(context, b, std::min(s.end, b + grain));
    }
  }
}

void JobPool::worker_main(unsigned self) {
  std::uint32_t seen = 0;
  for (;;) {
    generation_.wait(seen, std::memory_order_acquire);
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_relaxed)) return;
    busy_.fetch_add(1, std::memory_order_seq_cst);
    // Open: the loop's fields (set before it opened) are this loop's, and the caller waits for
    // this worker. Closed: the caller may already have returned; leave without reading them.
    if (open_.load(std::memory_order_seq_cst)) work(self);
    // Release: the caller sees this worker's writes once busy_ reaches 0.
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) busy_.notify_one();
  }
}

}  // namespace critter
