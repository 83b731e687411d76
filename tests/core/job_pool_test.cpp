// SPDX-License-Identifier: MIT
#include "critter/core/job_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include "support/allocation_counter.h"

namespace critter {
namespace {

// Every index of [0, count) is handed out exactly once, in ranges no longer than the grain.
void expect_covers_once(JobPool& pool, std::size_t count, std::size_t grain) {
  std::vector<std::atomic<int>> hits(count);
  std::atomic<bool> too_long{false};
  pool.parallel_for(count, grain, [&](std::size_t begin, std::size_t end) {
    if (end <= begin || end - begin > std::max<std::size_t>(grain, 1)) too_long = true;
    for (std::size_t i = begin; i < end; ++i) hits[i].fetch_add(1);
  });
  EXPECT_FALSE(too_long) << "count " << count << " grain " << grain;
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_EQ(hits[i].load(), 1) << "index " << i << " of " << count << ", grain " << grain;
}

TEST(JobPool, ThreadCountIncludesTheCaller) {
  EXPECT_EQ(JobPool(1).thread_count(), 1u);
  EXPECT_EQ(JobPool(3).thread_count(), 3u);
  EXPECT_GE(JobPool(0).thread_count(), 1u);
}

TEST(JobPool, EveryIndexRunsExactlyOnce) {
  for (unsigned threads : {1u, 2u, 4u}) {
    JobPool pool(threads);
    for (std::size_t count : {0u, 1u, 7u, 64u, 1000u, 100003u})
      for (std::size_t grain : {0u, 1u, 16u, 5000u}) expect_covers_once(pool, count, grain);
  }
}

TEST(JobPool, ManyLoopsInARowEachFinishBeforeReturning) {
  JobPool pool(3);
  std::vector<std::size_t> values(257);
  for (int loop = 0; loop < 2000; ++loop) {
    pool.parallel_for(values.size(), 8, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) values[i] += i;
    });
  }
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], 2000 * i) << "index " << i;
}

TEST(JobPool, OtherThreadsTakeWorkWhileOneRangeIsBusy) {
  // The range holding index 0 (the caller's share) waits until some other range has run: that
  // only ends if another thread works on the loop at the same time.
  JobPool pool(2);
  std::atomic<bool> other_ran{false};
  std::atomic<bool> waited_out{false};
  pool.parallel_for(64, 1, [&](std::size_t begin, std::size_t) {
    if (begin != 0) {
      other_ran = true;
      return;
    }
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!other_ran) {
      if (std::chrono::steady_clock::now() > give_up) {
        waited_out = true;
        return;
      }
      std::this_thread::yield();
    }
  });
  EXPECT_TRUE(other_ran);
  EXPECT_FALSE(waited_out);
}

TEST(JobPool, UnevenWorkIsStolen) {
  // Every slow item sits in the caller's share; the worker, done with its own share, takes them.
  JobPool pool(2);
  std::atomic<int> by_worker{0};
  const auto caller = std::this_thread::get_id();
  pool.parallel_for(200, 1, [&](std::size_t begin, std::size_t) {
    if (begin < 100) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (begin < 100 && std::this_thread::get_id() != caller) by_worker.fetch_add(1);
  });
  EXPECT_GT(by_worker.load(), 0);
}

TEST(JobPool, ParallelForAllocatesNothing) {
  JobPool pool(2);
  std::vector<int> out(4096);
  const auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out[i] = static_cast<int>(i);
  };
  pool.parallel_for(out.size(), 64, body);
  ASSERT_TRUE(testing::AllocationCounter::works());
  testing::AllocationCounter counter;
  for (int loop = 0; loop < 100; ++loop) pool.parallel_for(out.size(), 64, body);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace critter
