#include "critter/gl/crowd.h"

#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <cmath>

#include "critter/io/image/image_decoder.h"
#include "critter/io/load.h"
#include "gl/fixture.h"
#include "support/cli_runner.h"

namespace critter::gl {
namespace {

using test::GlTest;

class CrowdTest : public GlTest {
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

void clear(const RenderTarget& target) {
  target.bind();
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

TEST_F(CrowdTest, GridIsCentredRowByRowWithPhaseOffsets) {
  CrowdOptions o;
  o.count = 5;  // 3 columns, 2 rows
  o.spacing = 2.0f;
  o.clip = 1;
  auto crowd = Crowd::create(*gpu_, o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  Crowd& c = **crowd;
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(vec3(c.placement(0)[3]), vec3(-2.0f, 0.0f, -1.0f));
  EXPECT_EQ(vec3(c.placement(2)[3]), vec3(2.0f, 0.0f, -1.0f));
  EXPECT_EQ(vec3(c.placement(4)[3]), vec3(0.0f, 0.0f, 1.0f));
  // Cursor fract(i * 0.618034): 0, 0.618034, 0.236068, 0.854102.
  EXPECT_NEAR(c.instance(0).player().cursor(), 0.0f, 1e-5f);
  EXPECT_NEAR(c.instance(1).player().cursor(), 0.618034f, 1e-5f);
  EXPECT_NEAR(c.instance(2).player().cursor(), 0.236068f, 1e-5f);
  EXPECT_NEAR(c.instance(3).player().cursor(), 0.854102f, 1e-5f);
  const Aabb& rest = model_->bounds();
  EXPECT_NEAR(c.bounds().min.x, rest.min.x - 2.0f, 1e-5f);
  EXPECT_NEAR(c.bounds().max.z, rest.max.z + 1.0f, 1e-5f);
  EXPECT_EQ(c.render_instance(4).world_from_model, c.placement(4));
}

TEST_F(CrowdTest, RejectsBadOptions) {
  CrowdOptions o;
  o.count = 0;
  EXPECT_FALSE(Crowd::create(*gpu_, o));
  o.count = 4;
  o.clip = 4;  // greenman has clips 0..3
  auto bad = Crowd::create(*gpu_, o);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "no clip 4 (the model has 4)");
  o.clip = 0;
  o.spacing = std::nanf("");
  EXPECT_FALSE(Crowd::create(*gpu_, o));
}

TEST_F(CrowdTest, HundredCreaturesDrawOncePerMeshPartAndMatchOneByOne) {
  CrowdOptions o;
  o.count = 100;
  o.clip = 2;
  auto crowd = Crowd::create(*gpu_, o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  (*crowd)->update(0.37f);

  constexpr int kSize = 256;
  auto target = RenderTarget::create(kSize, kSize);
  ASSERT_TRUE(target) << target.error().to_string();
  const Camera camera = frame_bounds((*crowd)->bounds(), 1.0f, 20.0f, 50.0f).camera(1.0f);

  // The whole crowd in one frame.
  clear(*target);
  renderer_->begin_frame();
  ASSERT_TRUE((*crowd)->submit(*renderer_));
  draw_opaque(camera);
  EXPECT_EQ(renderer_->stats().visible, 100u);
  EXPECT_EQ(renderer_->stats().draw_calls, gpu_->parts().size());
  const Pixels together = target->read_pixels();

  // The same creatures one frame each, drawn over one another.
  clear(*target);
  std::uint32_t calls = 0;
  for (std::size_t i = 0; i < (*crowd)->size(); ++i) {
    renderer_->begin_frame();
    ASSERT_TRUE(renderer_->submit((*crowd)->render_instance(i)));
    draw_opaque(camera);
    calls += renderer_->stats().draw_calls;
  }
  EXPECT_EQ(calls, 100u * gpu_->parts().size());
  const Pixels one_by_one = target->read_pixels();

  const std::uint8_t black[3] = {0, 0, 0};
  EXPECT_GT(test::coverage(together, black), 0.05);
  // Identical geometry and palettes: only depth ties between touching creatures may differ.
  EXPECT_LT(test::differing_fraction(together, one_by_one, 2), 0.001);
}

TEST_F(CrowdTest, CreaturesMoveApartInTime) {
  CrowdOptions o;
  o.count = 2;
  o.clip = 2;
  auto crowd = Crowd::create(*gpu_, o);
  ASSERT_TRUE(crowd);
  const float d = model_->clips()[2].duration();
  (*crowd)->update(0.25f * d);
  // Both advance by a quarter of the clip from their own start.
  EXPECT_NEAR((*crowd)->instance(0).player().cursor(), 0.25f, 1e-4f);
  EXPECT_NEAR((*crowd)->instance(1).player().cursor(), std::fmod(0.618034f + 0.25f, 1.0f), 1e-4f);
}

}  // namespace
}  // namespace critter::gl
