// SPDX-License-Identifier: MIT
#include "critter/creature/crowd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <vector>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "critter/anim/denormal_scope.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/core/job_pool.h"
#include "critter/io/load.h"
#include "support/allocation_counter.h"
#include "support/cli_runner.h"

namespace critter::creature {
namespace {

class CrowdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto model = io::load(test_support::shared_model("greenman/greenman.glb"));
    ASSERT_TRUE(model) << model.error().to_string();
    model_ = std::make_unique<Model>(std::move(*model));
  }
  std::unique_ptr<Model> model_;
};

TEST_F(CrowdTest, GridIsCentredRowByRowWithPhaseOffsets) {
  CrowdOptions o;
  o.count = 5;  // 3 columns, 2 rows
  o.spacing = 2.0f;
  o.clip = 1;
  auto crowd = Crowd::create(*model_, o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  Crowd& c = **crowd;
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(&c.model(), model_.get());
  EXPECT_EQ(vec3(c.placement(0)[3]), vec3(-2.0f, 0.0f, -1.0f));
  EXPECT_EQ(vec3(c.placement(2)[3]), vec3(2.0f, 0.0f, -1.0f));
  EXPECT_EQ(vec3(c.placement(4)[3]), vec3(0.0f, 0.0f, 1.0f));
  // Cursor fract(i * 0.618034): 0, 0.618034, 0.236068, 0.854102.
  EXPECT_NEAR(c.player(0).cursor(), 0.0f, 1e-5f);
  EXPECT_NEAR(c.player(1).cursor(), 0.618034f, 1e-5f);
  EXPECT_NEAR(c.player(2).cursor(), 0.236068f, 1e-5f);
  EXPECT_NEAR(c.player(3).cursor(), 0.854102f, 1e-5f);
  const Aabb& rest = model_->bounds();
  EXPECT_NEAR(c.bounds().min.x, rest.min.x - 2.0f, 1e-5f);
  EXPECT_NEAR(c.bounds().max.z, rest.max.z + 1.0f, 1e-5f);
}

TEST_F(CrowdTest, RejectsBadOptions) {
  CrowdOptions o;
  o.count = 0;
  EXPECT_FALSE(Crowd::create(*model_, o));
  o.count = 4;
  o.clip = 4;  // greenman has clips 0..3
  auto bad = Crowd::create(*model_, o);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "no clip 4 (the model has 4)");
  o.clip = 0;
  o.spacing = std::nanf("");
  EXPECT_FALSE(Crowd::create(*model_, o));
  o.spacing = 0.0f;
  o.rate = std::nanf("");
  EXPECT_FALSE(Crowd::create(*model_, o));
}

// Crowd::update holds a DenormalScope per chunk for its players' jobs: the after-pose callback
// runs outside it, and the caller's floating-point mode is as it was after the update.
TEST_F(CrowdTest, UpdateRunsTheAfterPoseCallbackOutsideItsDenormalScope) {
  CrowdOptions o;
  o.count = 3;
  o.clip = 2;
  auto crowd = Crowd::create(*model_, o);
  ASSERT_TRUE(crowd);
#if defined(__SSE2__)
  const unsigned before = _mm_getcsr();
  _mm_setcsr(before & ~0x8040u);
#endif
  int calls = 0, inside = 0;
  (*crowd)->update(0.1f, nullptr, [&](std::size_t, std::size_t) {
    ++calls;
    if (anim::DenormalScope::active()) ++inside;
  });
  EXPECT_GT(calls, 0);
  EXPECT_EQ(inside, 0);
  EXPECT_FALSE(anim::DenormalScope::active());
#if defined(__SSE2__)
  EXPECT_EQ(_mm_getcsr() & 0x8040u, 0u);
  _mm_setcsr(before);
#endif
}

TEST_F(CrowdTest, CreaturesMoveApartInTime) {
  CrowdOptions o;
  o.count = 2;
  o.clip = 2;
  auto crowd = Crowd::create(*model_, o);
  ASSERT_TRUE(crowd);
  const float d = model_->clips()[2].duration();
  (*crowd)->update(0.25f * d);
  // Both advance by a quarter of the clip from their own start.
  EXPECT_NEAR((*crowd)->player(0).cursor(), 0.25f, 1e-4f);
  EXPECT_NEAR((*crowd)->player(1).cursor(), std::fmod(0.618034f + 0.25f, 1.0f), 1e-4f);
}

TEST_F(CrowdTest, UpdatePosesEveryInstanceFromItsPlayerInModelSpace) {
  CrowdOptions o;
  o.count = 3;
  o.clip = 2;
  auto crowd = Crowd::create(*model_, o);
  ASSERT_TRUE(crowd);
  (*crowd)->update(0.37f);
  for (std::size_t i = 0; i < (*crowd)->size(); ++i) {
    const anim::Player& player = (*crowd)->player(i);
    std::vector<mat4> expected(player.local_pose().size());
    anim::LocalToModelJob ltm;
    ltm.parents = model_->skeleton().parents();
    ltm.input = player.local_pose();
    ltm.output = expected;
    ASSERT_TRUE(ltm.run());
    const anim::Instance& instance = (*crowd)->instance(i);
    ASSERT_EQ(instance.model_transforms().size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j)
      EXPECT_EQ(instance.model_transforms()[j], expected[j]) << "creature " << i << " joint " << j;
    EXPECT_TRUE(std::equal(instance.morph_weights().begin(), instance.morph_weights().end(),
                           player.weights().begin(), player.weights().end()));
  }
}

TEST_F(CrowdTest, UpdateOnAJobPoolEqualsUpdateOnOneThread) {
  CrowdOptions o;
  o.count = 37;  // not a multiple of the pool's chunk
  o.clip = 2;
  auto alone = Crowd::create(*model_, o);
  auto pooled2 = Crowd::create(*model_, o);
  auto pooled3 = Crowd::create(*model_, o);
  ASSERT_TRUE(alone && pooled2 && pooled3);
  JobPool two(2), three(3);
  for (int frame = 0; frame < 5; ++frame) {
    (*alone)->update(0.13f);
    (*pooled2)->update(0.13f, &two);
    (*pooled3)->update(0.13f, &three);
    for (std::size_t i = 0; i < (*alone)->size(); ++i) {
      const auto want = (*alone)->instance(i).model_transforms();
      for (const auto* crowd : {&*pooled2, &*pooled3}) {
        const auto got = (*crowd)->instance(i).model_transforms();
        ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin(), got.end()))
            << "frame " << frame << " creature " << i;
      }
    }
  }
}

TEST_F(CrowdTest, AfterPoseSeesEachCreaturePosedOnceRightAfterItsChunk) {
  CrowdOptions o;
  o.count = 53;  // not a multiple of the chunk
  o.clip = 2;
  auto pooled = Crowd::create(*model_, o);
  auto alone = Crowd::create(*model_, o);
  ASSERT_TRUE(pooled && alone);
  JobPool pool(2);
  for (auto* crowd : {&*pooled, &*alone}) {
    Crowd& c = **crowd;
    // What each creature's last joint looked like when after_pose saw it.
    std::vector<mat4> seen(c.size(), mat4(0.0f));
    std::vector<std::atomic<int>> calls(c.size());
    std::atomic<bool> too_long{false};
    c.update(0.21f, crowd == &*pooled ? &pool : nullptr, [&](std::size_t begin, std::size_t end) {
      if (end <= begin || end - begin > Crowd::kChunk) too_long = true;
      for (std::size_t i = begin; i < end; ++i) {
        calls[i].fetch_add(1);
        seen[i] = c.instance(i).model_transforms().back();
      }
    });
    EXPECT_FALSE(too_long);
    for (std::size_t i = 0; i < c.size(); ++i) {
      EXPECT_EQ(calls[i].load(), 1) << "creature " << i;
      // Posed for this frame already: the matrices after_pose saw are the frame's.
      EXPECT_EQ(seen[i], c.instance(i).model_transforms().back()) << "creature " << i;
    }
  }
  for (std::size_t i = 0; i < (*alone)->size(); ++i) {
    const auto want = (*alone)->instance(i).model_transforms();
    const auto got = (*pooled)->instance(i).model_transforms();
    ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin(), got.end())) << "creature " << i;
  }
}

TEST_F(CrowdTest, UpdateOnAJobPoolAllocatesNothing) {
  CrowdOptions o;
  o.count = 64;
  o.clip = 2;
  auto crowd = Crowd::create(*model_, o);
  ASSERT_TRUE(crowd);
  JobPool pool(2);
  (*crowd)->update(0.1f, &pool);
  ASSERT_TRUE(critter::testing::AllocationCounter::works());
  // The counter sees only this thread, i.e. its share of a pooled update: frames without a pool
  // put every creature's work on it.
  critter::testing::AllocationCounter counter;
  std::size_t posed = 0;
  for (JobPool* jobs : {&pool, static_cast<JobPool*>(nullptr)}) {
    for (int frame = 0; frame < 10; ++frame) (*crowd)->update(0.1f, jobs);
    for (int frame = 0; frame < 10; ++frame) {
      (*crowd)->update(0.1f, jobs, [&posed](std::size_t begin, std::size_t end) {
        // Relaxed count on purpose: only the total matters, read after the loop.
        std::atomic_ref<std::size_t>(posed).fetch_add(end - begin, std::memory_order_relaxed);
      });
    }
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(posed, 2 * 10 * (*crowd)->size());
}

}  // namespace
}  // namespace critter::creature
