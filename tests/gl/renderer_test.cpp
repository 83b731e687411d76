// SPDX-License-Identifier: MIT
#include "critter/gl/renderer.h"

#include <gtest/gtest.h>

#include <optional>

#include "critter/asset/demo_creature.h"
#include "critter/io/image/image_decoder.h"
#include "gl/fixture.h"

namespace critter::gl {
namespace {

using test::GlTest;

TEST_F(GlTest, DemoQuadrupedCoversTheFramedImage) {
  Result<Model> model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model, io::decode_image);
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

TEST_F(GlTest, ShadowOverridesKeepTheBlobAtAnyDistance) {
  Result<Model> model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model, io::decode_image);
  ASSERT_TRUE(gpu) << gpu.error().to_string();
  Result<RenderTarget> target = RenderTarget::create(64, 64);
  ASSERT_TRUE(target);
  target->bind();
  // 100 m away: past §8's 32 m fade, so the default blob is not drawn.
  OrbitCamera far = frame_bounds(model->bounds(), 1.0f, 30.0f, 20.0f);
  far.distance = 100.0f;
  far.near_plane = 0.0f;  // automatic planes for the new distance
  far.far_plane = 0.0f;
  auto draws = [&](bool fades, std::optional<float> radius) {
    renderer_->begin_frame();
    RenderInstance inst;
    inst.model = gpu->get();
    inst.shadow_fades = fades;
    inst.shadow_radius = radius;
    EXPECT_TRUE(renderer_->submit(inst));
    renderer_->render_frame(far.camera(1.0f), vec4(0.0f, 0.0f, 0.0f, 1.0f));
    return renderer_->stats().draw_calls;
  };
  EXPECT_EQ(draws(true, std::nullopt), 1u);
  EXPECT_EQ(draws(false, std::nullopt), 2u);
  EXPECT_EQ(draws(false, 3.0f), 2u);
  EXPECT_EQ(draws(false, 0.0f), 1u);  // no radius, no blob
}

}  // namespace
}  // namespace critter::gl

namespace critter::gl {
namespace {

// A unit quad in the xy plane facing +Z (counter-clockwise from the front), centred at (0,0,z).
RawModel quad_model(const std::vector<std::pair<float, vec4>>& quads, AlphaMode alpha, bool unlit,
                    float cutoff = 0.5f) {
  RawModel raw;
  raw.name = "quads";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"root", -1, Transform{}, -1});
  Mesh mesh;
  mesh.name = "quads";
  for (std::size_t i = 0; i < quads.size(); ++i) {
    MeshPart part;
    const float z = quads[i].first;
    for (const vec2 c : {vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1)}) {
      part.streams.positions.push_back(vec3(c, z));
      part.streams.normals.push_back(vec3(0, 0, 1));
    }
    part.indices = {0, 1, 2, 0, 2, 3};
    part.material = static_cast<std::int32_t>(i);
    mesh.parts.push_back(std::move(part));
    Material m;
    m.base_color_factor = quads[i].second;
    m.alpha_mode = alpha;
    m.alpha_cutoff = cutoff;
    m.unlit = unlit;
    raw.materials.push_back(m);
  }
  raw.meshes.push_back(std::move(mesh));
  return raw;
}

// Looking down -Z at the origin from z = 5, an orthographic view 4 m high.
Camera front_camera() {
  OrbitCamera o;
  o.yaw = 0.0f;
  o.pitch = 0.0f;
  o.distance = 5.0f;
  o.orthographic = true;
  o.ortho_height = 4.0f;
  return o.camera(1.0f);
}

class RenderModeTest : public GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    renderer_->options().srgb_output = false;
    Result<RenderTarget> t = RenderTarget::create(32, 32);
    ASSERT_TRUE(t);
    target_ = std::move(*t);
    target_.bind();
  }
  Pixels draw(const Model& model, float opacity = 1.0f, const Camera& camera = front_camera()) {
    Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(model, io::decode_image);
    EXPECT_TRUE(gpu);
    renderer_->begin_frame();
    RenderInstance inst;
    inst.model = gpu->get();
    inst.opacity = opacity;
    inst.cast_shadow = false;
    EXPECT_TRUE(renderer_->submit(inst));
    renderer_->render_frame(camera, vec4(0, 0, 0, 1));
    return target_.read_pixels();
  }
  RenderTarget target_;
};

TEST(RenderModeRuleTest, TransparentPassFollowsTheTruthTable) {
  const RenderMode solid = RenderMode::kSolid;
  // Opaque instances keep their material's pass whatever the water state.
  EXPECT_EQ(choose_render_mode(1.0f, 1.0f, true, solid), solid);
  EXPECT_EQ(choose_render_mode(1.0f, 0.0f, false, RenderMode::kAlphaThreshold),
            RenderMode::kAlphaThreshold);
  // Faded: after water when (immersion >= 1) == camera under water.
  EXPECT_EQ(choose_render_mode(0.5f, 0.0f, false, solid), RenderMode::kTransparentAfterWater);
  EXPECT_EQ(choose_render_mode(0.5f, 1.0f, true, solid), RenderMode::kTransparentAfterWater);
  EXPECT_EQ(choose_render_mode(0.5f, 1.0f, false, solid), RenderMode::kTransparentBeforeWater);
  EXPECT_EQ(choose_render_mode(0.5f, 0.5f, true, solid), RenderMode::kTransparentBeforeWater);
}

TEST(ShadowRuleTest, BlobFadesBetween24And32Metres) {
  EXPECT_FLOAT_EQ(shadow_blob_alpha(0.0f), 0.5f);
  EXPECT_FLOAT_EQ(shadow_blob_alpha(24.0f), 0.5f);
  EXPECT_FLOAT_EQ(shadow_blob_alpha(28.0f), 0.25f);  // 4 * (1 - 28/32) = 0.5
  EXPECT_FLOAT_EQ(shadow_blob_alpha(32.0f), 0.0f);
  EXPECT_FLOAT_EQ(shadow_blob_alpha(40.0f), 0.0f);
  EXPECT_FLOAT_EQ(shadow_blob_alpha(10.0f, 0.5f), 0.25f);
}

TEST_F(RenderModeTest, UpwardNormalAtLightOneShadesToWhite) {
  // The quad's normal is +Z: with the default lights 0.5 + 0.34 + max(-0.34, 0) = 0.84.
  Result<Model> m = build_model(quad_model({{0.0f, vec4(1.0f)}}, AlphaMode::kOpaque, false));
  ASSERT_TRUE(m);
  const Pixels front = draw(*m);
  EXPECT_NEAR(front.at(16, 16)[0], 0.84 * 255, 1.5);
  // Rotate the lights so the quad's normal (+Z) plays the role of +Y: 0.5 + 0.25 + 0.25 = 1.
  renderer_->lighting().direction1 = vec3(0.12f, -0.34f, 0.25f);
  renderer_->lighting().direction2 = vec3(-0.12f, 0.34f, 0.25f);
  const Pixels up = draw(*m);
  EXPECT_EQ(up.at(16, 16)[0], 255);
  EXPECT_EQ(up.at(16, 16)[3], 255);
  EXPECT_EQ(up.at(0, 0)[0], 0);  // the 2 m quad fills the middle half of the 4 m view
}

TEST_F(RenderModeTest, SolidCullsBackFaces) {
  Result<Model> m = build_model(quad_model({{0.0f, vec4(1.0f)}}, AlphaMode::kOpaque, true));
  ASSERT_TRUE(m);
  OrbitCamera behind;
  behind.yaw = 180.0f;
  behind.pitch = 0.0f;
  behind.distance = 5.0f;
  behind.orthographic = true;
  behind.ortho_height = 4.0f;
  const Pixels back = draw(*m, 1.0f, behind.camera(1.0f));
  EXPECT_EQ(back.at(16, 16)[0], 0);
  const Pixels front = draw(*m);
  EXPECT_EQ(front.at(16, 16)[0], 255);
}

TEST_F(RenderModeTest, AlphaThresholdDiscardsBelowTheCutoff) {
  Result<Model> kept =
      build_model(quad_model({{0.0f, vec4(0, 1, 0, 0.6f)}}, AlphaMode::kMask, true));
  Result<Model> cut =
      build_model(quad_model({{0.0f, vec4(0, 1, 0, 0.4f)}}, AlphaMode::kMask, true));
  ASSERT_TRUE(kept && cut);
  const Pixels a = draw(*kept);
  // Kept texels are opaque (no premultiplied darkening).
  EXPECT_EQ(a.at(16, 16)[1], 255);
  EXPECT_EQ(a.at(16, 16)[3], 255);
  const Pixels b = draw(*cut);
  EXPECT_EQ(b.at(16, 16)[1], 0);
}

TEST_F(RenderModeTest, TransparentQuadsBlendBackToFront) {
  // Red in front (z = 1), blue behind (z = -1), half opacity each, listed front first: the queue
  // sorts them per instance, so draw them as two instances of two models.
  Result<Model> red =
      build_model(quad_model({{1.0f, vec4(1, 0, 0, 0.5f)}}, AlphaMode::kBlend, true));
  Result<Model> blue =
      build_model(quad_model({{-1.0f, vec4(0, 0, 1, 0.5f)}}, AlphaMode::kBlend, true));
  ASSERT_TRUE(red && blue);
  Result<std::unique_ptr<GpuModel>> gr = renderer_->upload(*red, io::decode_image);
  Result<std::unique_ptr<GpuModel>> gb = renderer_->upload(*blue, io::decode_image);
  ASSERT_TRUE(gr && gb);
  renderer_->begin_frame();
  RenderInstance r;
  r.model = gr->get();
  r.cast_shadow = false;
  RenderInstance b = r;
  b.model = gb->get();
  ASSERT_TRUE(renderer_->submit(r));
  ASSERT_TRUE(renderer_->submit(b));
  renderer_->render_frame(front_camera(), vec4(0, 0, 0, 1));
  const Pixels p = target_.read_pixels();
  // Premultiplied over black: blue first (0, 0, .5), then red over it: (.5, 0, .25).
  EXPECT_NEAR(p.at(16, 16)[0], 128, 2);
  EXPECT_EQ(p.at(16, 16)[1], 0);
  EXPECT_NEAR(p.at(16, 16)[2], 64, 2);
}

TEST_F(RenderModeTest, FadedOpaqueInstanceIsBlended) {
  Result<Model> m = build_model(quad_model({{0.0f, vec4(1.0f)}}, AlphaMode::kOpaque, true));
  ASSERT_TRUE(m);
  const Pixels p = draw(*m, 0.25f);
  EXPECT_NEAR(p.at(16, 16)[0], 64, 2);
}

TEST_F(GlTest, InstancesOfAModelShareOneDrawPerPart) {
  Result<Model> model = build_demo_quadruped();
  ASSERT_TRUE(model);
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model, io::decode_image);
  ASSERT_TRUE(gpu);
  Result<RenderTarget> target = RenderTarget::create(32, 32);
  ASSERT_TRUE(target);
  target->bind();
  renderer_->begin_frame();
  for (int i = 0; i < 50; ++i) {
    RenderInstance inst;
    inst.model = gpu->get();
    inst.world_from_model[3] =
        vec4(static_cast<float>(i % 10) - 5.0f, 0.0f, -static_cast<float>(i / 10), 1.0f);
    inst.cast_shadow = false;
    ASSERT_TRUE(renderer_->submit(inst));
  }
  OrbitCamera o;
  o.distance = 20.0f;
  renderer_->render_frame(o.camera(1.0f));
  EXPECT_EQ(renderer_->stats().submitted, 50u);
  EXPECT_EQ(renderer_->stats().draw_calls, 1u);
  EXPECT_EQ(renderer_->stats().palette_joints, 50u * (18u + 1u + 18u));
}

TEST_F(GlTest, FrustumCullingDropsInstancesBehindTheCamera) {
  Result<Model> model = build_demo_quadruped();
  ASSERT_TRUE(model);
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model, io::decode_image);
  ASSERT_TRUE(gpu);
  renderer_->begin_frame();
  RenderInstance seen;
  seen.model = gpu->get();
  RenderInstance behind = seen;
  behind.world_from_model[3] = vec4(0.0f, 0.0f, 50.0f, 1.0f);  // the camera is at z ~ 3
  ASSERT_TRUE(renderer_->submit(seen));
  ASSERT_TRUE(renderer_->submit(behind));
  OrbitCamera o;
  o.pitch = 0.0f;
  o.distance = 3.0f;
  renderer_->prepare(o.camera(1.0f));
  EXPECT_EQ(renderer_->stats().visible, 1u);
}

TEST_F(GlTest, SubmitRejectsWrongSpanSizes) {
  Result<Model> model = build_demo_quadruped();
  ASSERT_TRUE(model);
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model, io::decode_image);
  ASSERT_TRUE(gpu);
  renderer_->begin_frame();
  const std::vector<mat4> three(3, mat4(1.0f));
  RenderInstance inst;
  inst.model = gpu->get();
  inst.model_transforms = three;
  const Status s = renderer_->submit(inst);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "model_transforms has 3 matrices, expected 18");
  EXPECT_FALSE(renderer_->submit(RenderInstance{}));
}

}  // namespace
}  // namespace critter::gl
