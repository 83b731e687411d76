// SPDX-License-Identifier: MIT
// The knee seam of a split block limb, rendered: with a 90° knee the half-turn seam joint keeps
// the seam at its rest width and covers the joint, where a seam blended 50/50 between the two
// halves (plain linear blend skinning) pinches and lets the background through (creatures.md §13).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "critter/creature/limbs/limb_bend.h"
#include "critter/creature/limbs/split_limbs.h"
#include "critter/io/image/image_decoder.h"
#include "gl/fixture.h"
#include "support/limb_fixture.h"

namespace critter::gl {
namespace {

using test::GlTest;

constexpr int kSize = 128;

class LimbSeamRenderTest : public GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    renderer_->options().srgb_output = false;
    auto split = creature::split_limbs(testing::limb_fixture());
    ASSERT_TRUE(split.has_value());
    model_ = std::make_unique<Model>(std::move(split->model));
    limbs_ = split->limbs;
    Result<RenderTarget> t = RenderTarget::create(kSize, kSize);
    ASSERT_TRUE(t);
    target_ = std::move(*t);
    target_.bind();
    // Side view of the right knee (orthographic, 8 units high).
    OrbitCamera o;
    o.target = knee().pivot;
    o.yaw = -90.0f;
    o.pitch = 0.0f;
    o.distance = 20.0f;
    o.orthographic = true;
    o.ortho_height = 8.0f;
    camera_ = o.camera(1.0f);
  }
  const creature::Limb& knee() const { return limbs_[2]; }  // Leg_Right

  // The fixture at rest with the right knee bent 90°; the seam joint either half-turned or the
  // 50/50 blend of the upper and lower matrices (what linear blend skinning of a seam vertex
  // weighted half and half computes). The other leg is moved out of the view.
  Pixels draw(bool half_turn) {
    std::vector<mat4> m(model_->rest_model_transforms().begin(),
                        model_->rest_model_transforms().end());
    const creature::Limb& k = knee();
    const vec3 axis = creature::limb_bend_axis(creature::kDefaultLimbForward);
    const mat4& rest = m[static_cast<std::size_t>(k.joint)];
    const mat4 lower = creature::limb_bend(k, 90.0f, axis) * rest;
    m[static_cast<std::size_t>(k.bone)] = lower;
    m[static_cast<std::size_t>(k.seam_bone)] =
        half_turn ? creature::limb_bend(k, 45.0f, axis) * rest : (rest + lower) * 0.5f;
    const creature::Limb& other = limbs_[3];
    const mat4 away = glm::translate(mat4(1.0f), vec3(0.0f, 0.0f, 100.0f));
    for (int j : {other.joint, other.bone, other.seam_bone}) {
      m[static_cast<std::size_t>(j)] = away * m[static_cast<std::size_t>(j)];
    }
    Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model_, io::decode_image);
    EXPECT_TRUE(gpu);
    renderer_->begin_frame();
    RenderInstance inst;
    inst.model = gpu->get();
    inst.model_transforms = m;
    inst.cast_shadow = false;
    EXPECT_TRUE(renderer_->submit(inst));
    renderer_->render_frame(camera_, vec4(0, 0, 0, 1));
    return target_.read_pixels();
  }

  // Whether the pixel a world point projects to is covered (not the black background).
  bool covered(const Pixels& p, const vec3& world) const {
    const vec4 clip = camera_.view_projection() * vec4(world, 1.0f);
    const float x = (clip.x / clip.w * 0.5f + 0.5f) * static_cast<float>(kSize);
    const float y = (0.5f - clip.y / clip.w * 0.5f) * static_cast<float>(kSize);
    const std::uint8_t* c = p.at(static_cast<int>(x), static_cast<int>(y));
    return c[0] > 8 || c[1] > 8 || c[2] > 8;
  }

  // Covered samples along the seam line (the bisecting diagonal through the pivot, from the
  // inner corner to the outer one), each 1/40 of the rest width apart; and how far from the
  // pivot coverage runs unbroken outward.
  struct Seam {
    int uncovered = 0;
    float reach = 0.0f;
  };
  Seam seam(const Pixels& p) const {
    const vec3 outer = glm::normalize(vec3(0.0f, -1.0f, -1.0f));  // front and down
    Seam s;
    bool broken = false;
    for (int i = -38; i <= 38; ++i) {
      const float d = 1.05f * static_cast<float>(i) / 40.0f;
      const bool c = covered(p, knee().pivot + outer * d);
      if (!c) ++s.uncovered;
      if (i >= 0 && !broken) {
        if (c) {
          s.reach = d;
        } else {
          broken = true;
        }
      }
    }
    return s;
  }

  std::unique_ptr<Model> model_;
  std::vector<creature::Limb> limbs_;
  RenderTarget target_;
  Camera camera_;
};

TEST_F(LimbSeamRenderTest, HalfTurnSeamKeepsItsWidthWhereABlendPinches) {
  const Pixels mitre = draw(true);
  const Pixels blend = draw(false);
  // The thigh above and the shin behind are drawn in both.
  EXPECT_TRUE(covered(mitre, knee().pivot + vec3(0.0f, 2.0f, 0.0f)));
  EXPECT_TRUE(covered(mitre, knee().pivot + vec3(0.0f, 0.0f, 2.0f)));
  EXPECT_TRUE(covered(blend, knee().pivot + vec3(0.0f, 2.0f, 0.0f)));
  const Seam m = seam(mitre);
  const Seam b = seam(blend);
  EXPECT_EQ(m.uncovered, 0);  // no background through the joint
  EXPECT_GT(m.reach, 0.9f);   // the seam reaches its rest half-width 1.05
  EXPECT_GT(b.uncovered, 4);  // the blend pinches
  EXPECT_LT(b.reach, 0.8f);   // to about cos(45°) of it
}

}  // namespace
}  // namespace critter::gl
