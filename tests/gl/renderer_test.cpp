#include "critter/gl/renderer.h"

#include <gtest/gtest.h>

#include "critter/anim/instance.h"
#include "critter/asset/demo_creature.h"
#include "gl/gl_fixture.h"

namespace critter::gl {
namespace {

using test::GlTest;

TEST_F(GlTest, DemoQuadrupedCoversTheFramedImage) {
  Result<Model> model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model);
  ASSERT_TRUE(gpu) << gpu.error().to_string();
  Result<RenderTarget> target = RenderTarget::create(64, 64);
  ASSERT_TRUE(target);
  target->bind();
  const Camera camera = frame_bounds(model->bounds(), 1.0f, 30.0f, 20.0f).camera(1.0f);
  renderer_->begin_frame();
  RenderInstance inst;
  inst.model = gpu->get();
  ASSERT_TRUE(renderer_->submit(inst));
  renderer_->render_frame(camera, vec4(0.0f, 0.0f, 0.0f, 1.0f));
  const Pixels p = target->read_pixels();
  const std::uint8_t black[3] = {0, 0, 0};
  EXPECT_GT(test::coverage(p, black), 0.05);
  EXPECT_EQ(renderer_->stats().draw_calls, 2u);  // one part + one shadow
}

}  // namespace
}  // namespace critter::gl
