// SPDX-License-Identifier: MIT
// A creature::Crowd drawn through the Renderer: one instanced draw per mesh part for the whole
// crowd, the same pixels as its creatures drawn one by one.
#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/core/job_pool.h"
#include "critter/creature/crowd.h"
#include "critter/gl/renderer.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/load.h"
#include "gl/fixture.h"
#include "support/allocation_counter.h"
#include "support/cli_runner.h"

namespace critter::gl {
namespace {

using test::GlTest;

class CrowdRenderTest : public GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    if (HasFatalFailure()) return;
    auto model = io::load(test_support::shared_model("greenman/greenman.glb"));
    ASSERT_TRUE(model) << model.error().to_string();
    model_ = std::make_unique<Model>(std::move(*model));
    auto gpu = renderer_->upload(*model_, io::decode_image);
    ASSERT_TRUE(gpu) << gpu.error().to_string();
    gpu_ = std::move(*gpu);
  }
  void TearDown() override {
    gpu_.reset();
    renderer_.reset();
  }

  // Draws the opaque passes (no shadows, so every draw call is a mesh part's) of the instances
  // submitted by `submit` after `clear`.
  void draw_opaque(const Camera& camera) {
    renderer_->prepare(camera);
    renderer_->draw(RenderMode::kSolid);
    renderer_->draw(RenderMode::kAlphaThreshold);
  }

  std::unique_ptr<Model> model_;
  std::unique_ptr<GpuModel> gpu_;
};

// Creature i of `crowd` as the renderer takes it: placed on its grid cell, no shadow.
RenderInstance crowd_member(const GpuModel& gpu, const creature::Crowd& crowd, std::size_t i) {
  RenderInstance r;
  r.model = &gpu;
  r.world_from_model = crowd.placement(i);
  r.model_transforms = crowd.instance(i).model_transforms();
  r.morph_weights = crowd.instance(i).morph_weights();
  r.cast_shadow = false;
  return r;
}

// Every creature of `crowd`, in order, as crowd_member() gives it.
std::vector<RenderInstance> crowd_list(const GpuModel& gpu, const creature::Crowd& crowd) {
  std::vector<RenderInstance> list;
  for (std::size_t i = 0; i < crowd.size(); ++i) list.push_back(crowd_member(gpu, crowd, i));
  return list;
}

void clear(const RenderTarget& target) {
  target.bind();
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

TEST_F(CrowdRenderTest, BatchSubmitStopsAtTheFirstRefusalKeepingThoseBefore) {
  creature::CrowdOptions o;
  o.count = 3;
  auto crowd = creature::Crowd::create(*model_, o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  std::vector<RenderInstance> list = crowd_list(*gpu_, **crowd);
  list[2].model = nullptr;
  JobPool pool(2);
  renderer_->begin_frame();
  const Status s = renderer_->submit(list, &pool);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  renderer_->prepare(frame_bounds((*crowd)->bounds(), 1.0f, 20.0f, 50.0f).camera(1.0f));
  EXPECT_EQ(renderer_->stats().submitted, 2u);
}

TEST_F(CrowdRenderTest, AWarmFrameOfAnimationAndBatchSubmitAllocatesNothing) {
  creature::CrowdOptions o;
  o.count = 50;
  o.clip = 2;
  auto crowd = creature::Crowd::create(*model_, o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  const std::vector<RenderInstance> list = crowd_list(*gpu_, **crowd);
  JobPool pool(2);
  const Camera camera = frame_bounds((*crowd)->bounds(), 1.0f, 20.0f, 50.0f).camera(1.0f);
  const auto frame = [&](JobPool* jobs) {
    (*crowd)->update(1.0f / 60.0f, jobs);
    renderer_->begin_frame();
    const Status s = renderer_->submit(list, jobs);
    renderer_->prepare(camera);
    return s;
  };
  // Packed right after posing: queue(), then update() packing each chunk as it is posed.
  const auto fused_frame = [&](JobPool* jobs) {
    renderer_->begin_frame();
    const Status s = renderer_->queue(list);
    (*crowd)->update(1.0f / 60.0f, jobs,
                     [this](std::size_t begin, std::size_t end) { renderer_->pack(begin, end); });
    renderer_->prepare(camera);
    return s;
  };
  // The first frames grow the staging and GPU buffers (three of them on the persistent path).
  for (int f = 0; f < 4; ++f) ASSERT_TRUE(frame(&pool));
  ASSERT_TRUE(critter::testing::AllocationCounter::works());
  // The counter sees only this thread, i.e. its share of the pooled work: frames without a pool
  // put all of the animation and packing on it.
  critter::testing::AllocationCounter counter;
  for (JobPool* jobs : {&pool, static_cast<JobPool*>(nullptr)}) {
    for (int f = 0; f < 5; ++f) {
      ASSERT_TRUE(frame(jobs));
      ASSERT_TRUE(fused_frame(jobs));
    }
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(renderer_->stats().visible, 50u);
}

TEST_F(CrowdRenderTest, PackingRightAfterPosingDrawsWhatSubmitDraws) {
  creature::CrowdOptions o;
  o.count = 40;
  o.clip = 2;
  auto two_pass = creature::Crowd::create(*model_, o);
  auto fused = creature::Crowd::create(*model_, o);
  ASSERT_TRUE(two_pass && fused);
  const std::vector<RenderInstance> two_pass_list = crowd_list(*gpu_, **two_pass);
  const std::vector<RenderInstance> fused_list = crowd_list(*gpu_, **fused);
  auto target = RenderTarget::create(128, 128);
  ASSERT_TRUE(target) << target.error().to_string();
  const Camera camera = frame_bounds((*fused)->bounds(), 1.0f, 20.0f, 50.0f).camera(1.0f);
  JobPool pool(2);
  for (int frame = 0; frame < 3; ++frame) {
    (*two_pass)->update(0.2f, &pool);
    clear(*target);
    renderer_->begin_frame();
    ASSERT_TRUE(renderer_->submit(two_pass_list, &pool));
    draw_opaque(camera);
    const Pixels want = target->read_pixels();

    clear(*target);
    renderer_->begin_frame();
    // A first instance (culled: far behind the camera) queued and packed apart, so the crowd's
    // indices start past 0.
    RenderInstance hidden = fused_list.front();
    hidden.world_from_model = glm::translate(mat4(1.0f), 1000.0f * camera.position);
    ASSERT_TRUE(renderer_->submit(hidden));
    const std::size_t first = renderer_->queued();
    ASSERT_EQ(first, 1u);
    ASSERT_TRUE(renderer_->queue(fused_list));
    EXPECT_EQ(renderer_->queued(), first + o.count);
    (*fused)->update(0.2f, &pool, [this, first](std::size_t begin, std::size_t end) {
      renderer_->pack(first + begin, first + end);
    });
    draw_opaque(camera);
    EXPECT_EQ(renderer_->stats().visible, o.count);
    EXPECT_EQ(test::differing_fraction(want, target->read_pixels(), 0), 0.0) << "frame " << frame;
  }
}

TEST_F(CrowdRenderTest, HundredCreaturesDrawOncePerMeshPartAndMatchOneByOne) {
  creature::CrowdOptions o;
  o.count = 100;
  o.clip = 2;
  auto crowd = creature::Crowd::create(*model_, o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  (*crowd)->update(0.37f);

  constexpr int kSize = 256;
  auto target = RenderTarget::create(kSize, kSize);
  ASSERT_TRUE(target) << target.error().to_string();
  const Camera camera = frame_bounds((*crowd)->bounds(), 1.0f, 20.0f, 50.0f).camera(1.0f);

  // The whole crowd in one frame.
  clear(*target);
  renderer_->begin_frame();
  for (std::size_t i = 0; i < (*crowd)->size(); ++i)
    ASSERT_TRUE(renderer_->submit(crowd_member(*gpu_, **crowd, i)));
  draw_opaque(camera);
  EXPECT_EQ(renderer_->stats().visible, 100u);
  EXPECT_EQ(renderer_->stats().draw_calls, gpu_->parts().size());
  const Pixels together = target->read_pixels();

  // The same creatures one frame each, drawn over one another.
  clear(*target);
  std::uint32_t calls = 0;
  for (std::size_t i = 0; i < (*crowd)->size(); ++i) {
    renderer_->begin_frame();
    ASSERT_TRUE(renderer_->submit(crowd_member(*gpu_, **crowd, i)));
    draw_opaque(camera);
    calls += renderer_->stats().draw_calls;
  }
  EXPECT_EQ(calls, 100u * gpu_->parts().size());
  const Pixels one_by_one = target->read_pixels();

  // The whole crowd submitted at once, palettes packed on a two-thread pool: the same pixels.
  clear(*target);
  renderer_->begin_frame();
  const std::vector<RenderInstance> list = crowd_list(*gpu_, **crowd);
  JobPool pool(2);
  ASSERT_TRUE(renderer_->submit(list, &pool));
  draw_opaque(camera);
  EXPECT_EQ(renderer_->stats().visible, 100u);
  EXPECT_EQ(renderer_->stats().draw_calls, gpu_->parts().size());
  EXPECT_EQ(test::differing_fraction(together, target->read_pixels(), 0), 0.0);

  const std::uint8_t black[3] = {0, 0, 0};
  EXPECT_GT(test::coverage(together, black), 0.05);
  // Identical geometry and palettes: only depth ties between touching creatures may differ.
  EXPECT_LT(test::differing_fraction(together, one_by_one, 2), 0.001);
}

}  // namespace
}  // namespace critter::gl
