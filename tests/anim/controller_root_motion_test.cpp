// SPDX-License-Identifier: MIT
// Controller root motion beyond translation (animation-config.md §13): the scale override (Fixed
// and Animation sources, minScale, the smoothstep ease in, between configs and back to 1) and the
// physics flags (entered, cleared on leaving, clearVelocityOnExit zeroing the velocity once).
// The clips are linear so every expected value is computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "critter/anim/controller.h"

#include "support/controller_builders.h"
#include "support/raw_track.h"
#include "support/test_models.h"

namespace critter::anim {
namespace {

using critter::testing::compile_or_die;
using critter::testing::leaf;
using critter::testing::raw_track;

// Root and child at (0, 1, 0); clips of 1 s:
//   0 "grow":  root scale (1, 1, 1) -> (3, 2, 1), so the mean of the axes is 1 + t;
//   1 "slide": root x from 0 to 2, no scale keys (the root's rest scale is 1);
//   2 "step":  root scale 1 then 2 from t = 0.5 (STEP);
//   3 "cubic": root scale 1 -> 3 on a cubic spline with zero tangents.
Model make_model() {
  RawModel raw;
  raw.name = "root-motion-scale";
  raw.format = "code";
  raw.skeleton.joints = critter::testing::two_joint_rig();
  RawClip grow;
  grow.name = "grow";
  grow.tracks.push_back(raw_track(TrackTarget::kScale, 0, 3, {0, 1}, {1, 1, 1, 3, 2, 1}));
  RawClip slide;
  slide.name = "slide";
  slide.tracks.push_back(raw_track(TrackTarget::kTranslation, 0, 3, {0, 1}, {0, 0, 0, 2, 0, 0}));
  RawClip step;
  step.name = "step";
  step.tracks.push_back(raw_track(TrackTarget::kScale, 0, 3, {0, 0.5f, 1},
                                  {1, 1, 1, 2, 2, 2, 2, 2, 2}, Interpolation::kStep));
  RawClip cubic;
  cubic.name = "cubic";
  // Per key: in-tangent, value, out-tangent.
  cubic.tracks.push_back(raw_track(TrackTarget::kScale, 0, 3, {0, 1},
                                   {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0},
                                   Interpolation::kCubicSpline));
  raw.clips = {grow, slide, step, cubic};
  auto model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

constexpr int kGrow = 0;
constexpr int kSlide = 1;
constexpr int kStep = 2;
constexpr int kCubic = 3;

// A hard cut to `clip` with root motion `rm`.
ControllerAnimationDesc clip_anim(int clip, std::optional<ControllerRootMotionDesc> rm) {
  ControllerAnimationDesc a = critter::testing::clip_anim(clip);
  a.root_motion = rm;
  return a;
}

// Base layer, one state: "[Mode] = '<name>'" -> each entry, then "true" -> slide without root
// motion. Mode starts as ''.
ControllerDesc mode_desc(std::vector<std::pair<std::string, ControllerAnimationDesc>> entries) {
  ControllerDesc d;
  ControllerLayerDesc base;
  base.name = "Base";
  d.layers.push_back(base);
  ControllerStateDesc s;
  s.layer = 0;
  for (auto& [name, anim] : entries) s.rules.push_back(leaf("[Mode] = '" + name + "'", anim));
  s.rules.push_back(leaf("true", clip_anim(kSlide, std::nullopt)));
  d.states.push_back(s);
  d.schema.declare("Mode", ParameterValue::of_string("")).value();
  return d;
}

ControllerRootMotionDesc scale_config(RootScaleSource source, float value, float blend,
                                      std::optional<float> min_scale = std::nullopt) {
  ControllerRootMotionDesc rm;
  rm.source_bone = 0;
  rm.scale.mode = RootScaleMode::kOverride;
  rm.scale.source = source;
  rm.scale.value = value;
  rm.scale.blend_duration = blend;
  rm.scale.min_scale = min_scale;
  return rm;
}

float smoothstep(float x) {
  return x * x * (3.0f - 2.0f * x);
}

TEST(ControllerRootScale, TheProgramSamplesTheSourceBoneScaleAsAuthored) {
  const Model model = make_model();
  ControllerDesc d =
      mode_desc({{"a", clip_anim(kGrow, scale_config(RootScaleSource::kAnimation, 1, 0))}});
  auto program = compile_or_die(model, std::move(d));
  ASSERT_TRUE(program);
  EXPECT_NEAR(glm::length(program->root_scale(kGrow, 0, 0.25f) - vec3(1.5f, 1.25f, 1)), 0, 1e-6f);
  EXPECT_NEAR(glm::length(program->root_scale(kGrow, 0, 7.0f) - vec3(3, 2, 1)), 0, 1e-6f);
  EXPECT_EQ(program->root_scale(kSlide, 0, 0.5f), vec3(1));  // no keys: the rest scale
  EXPECT_EQ(program->root_scale(kStep, 0, 0.49f), vec3(1));
  EXPECT_EQ(program->root_scale(kStep, 0, 0.5f), vec3(2));
  // Hermite with zero tangents: h00 = 2u^3 - 3u^2 + 1, h01 = 1 - h00; at u = 0.25 that is
  // 0.84375 * 1 + 0.15625 * 3 = 1.3125, at u = 0.5 the midpoint 2.
  EXPECT_NEAR(program->root_scale(kCubic, 0, 0.25f).x, 1.3125f, 1e-6f);
  EXPECT_NEAR(program->root_scale(kCubic, 0, 0.5f).y, 2.0f, 1e-6f);
  EXPECT_EQ(program->root_scale(kGrow, 1, 0.5f), vec3(1));  // not a source bone
}

// Time steps and durations are powers of two, so the ease reaches exactly 1 when expected.
TEST(ControllerRootScale, AnimationSourceEasesInFollowsTheClipAndEasesBackToOne) {
  const Model model = make_model();
  Controller c(compile_or_die(
      model, mode_desc({{"grow",
                         clip_anim(kGrow, scale_config(RootScaleSource::kAnimation, 1, 0.25f))}})));
  std::vector<float> seen;
  ControllerHooks hooks;
  hooks.root_scale = [&](float s) { seen.push_back(s); };
  c.set_hooks(std::move(hooks));
  c.update(0.1f);
  EXPECT_FALSE(c.root_motion_scale());  // slide: no scale config
  c.parameters().set_string("Mode", "grow");
  // Entered in this update: clip time 0.125 s gives 1.125; the ease is at half its 0.25 s.
  c.update(0.125f);
  ASSERT_TRUE(c.root_motion_scale());
  EXPECT_NEAR(*c.root_motion_scale(), 1.0f + 0.125f * smoothstep(0.5f), 1e-6f);  // 1.0625
  c.update(0.125f);  // ease done: the clip's 1.25
  EXPECT_NEAR(*c.root_motion_scale(), 1.25f, 1e-6f);
  c.update(0.25f);
  EXPECT_NEAR(*c.root_motion_scale(), 1.5f, 1e-6f);

  c.parameters().set_string("Mode", "");  // back to slide: 1.5 eases to 1 over grow's 0.25 s
  c.update(0.0625f);
  EXPECT_NEAR(*c.root_motion_scale(), 1.5f - 0.5f * smoothstep(0.25f), 1e-6f);  // 1.421875
  c.update(0.0625f);
  EXPECT_NEAR(*c.root_motion_scale(), 1.25f, 1e-6f);
  c.update(0.125f);  // the ease ends: 1 is still reported in this update
  ASSERT_TRUE(c.root_motion_scale());
  EXPECT_FLOAT_EQ(*c.root_motion_scale(), 1.0f);
  c.update(0.125f);
  EXPECT_FALSE(c.root_motion_scale());
  // The hook saw every reported value, in order.
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_NEAR(seen[0], 1.0625f, 1e-6f);
  EXPECT_NEAR(seen[3], 1.421875f, 1e-6f);
  EXPECT_FLOAT_EQ(seen[5], 1.0f);
}

TEST(ControllerRootScale, FixedValueMinScaleAndASwitchMidEase) {
  const Model model = make_model();
  Controller c(compile_or_die(
      model,
      mode_desc({{"fixed", clip_anim(kSlide, scale_config(RootScaleSource::kFixed, 0.5f, 0.5f))},
                 {"grow",
                  clip_anim(kGrow, scale_config(RootScaleSource::kAnimation, 1, 0.25f, 1.3f))}})));
  c.parameters().set_string("Mode", "fixed");
  c.update(0.125f);  // 1 toward 0.5: smoothstep(0.25) = 0.15625
  EXPECT_NEAR(*c.root_motion_scale(), 1.0f - 0.5f * 0.15625f, 1e-6f);
  c.update(0.125f);  // smoothstep(0.5) = 0.5
  EXPECT_NEAR(*c.root_motion_scale(), 0.75f, 1e-6f);
  c.parameters().set_string("Mode", "grow");
  // From the shown 0.75 toward grow at 0.125 s: 1.125 raised to minScale 1.3, over 0.25 s.
  c.update(0.125f);
  EXPECT_NEAR(*c.root_motion_scale(), 0.75f + (1.3f - 0.75f) * 0.5f, 1e-6f);
  c.update(0.125f);  // ease over; the clip's 1.25 is still under the minimum
  EXPECT_NEAR(*c.root_motion_scale(), 1.3f, 1e-6f);
  c.update(0.25f);  // 1.5 is above it
  EXPECT_NEAR(*c.root_motion_scale(), 1.5f, 1e-6f);
}

TEST(ControllerRootScale, ZeroBlendDurationAndScaleModeNoneReportNothingToEase) {
  const Model model = make_model();
  ControllerRootMotionDesc none = scale_config(RootScaleSource::kFixed, 4.0f, 0.2f);
  none.scale.mode = RootScaleMode::kNone;
  Controller c(compile_or_die(
      model, mode_desc({{"cut", clip_anim(kSlide, scale_config(RootScaleSource::kFixed, 2, 0))},
                        {"none", clip_anim(kGrow, none)}})));
  c.parameters().set_string("Mode", "cut");
  c.update(0.1f);
  EXPECT_FLOAT_EQ(*c.root_motion_scale(), 2.0f);
  c.parameters().set_string("Mode", "none");
  c.update(0.1f);  // left with a 0 s ease: 1 at once, reported once
  EXPECT_FLOAT_EQ(*c.root_motion_scale(), 1.0f);
  c.update(0.1f);
  EXPECT_FALSE(c.root_motion_scale());
}

TEST(ControllerRootScale, CompileRejectsBadScaleSettings) {
  const Model model = make_model();
  for (int i = 0; i < 3; ++i) {
    ControllerRootMotionDesc rm = scale_config(RootScaleSource::kFixed, 1, 0.2f);
    if (i == 0) rm.scale.blend_duration = -0.1f;
    if (i == 1) rm.scale.value = std::nanf("");
    if (i == 2) rm.scale.min_scale = INFINITY;
    auto p = ControllerProgram::compile(model, mode_desc({{"x", clip_anim(kSlide, rm)}}));
    ASSERT_FALSE(p) << i;
    EXPECT_NE(p.error().location.find("root_motion/scale"), std::string::npos) << i;
  }
}

TEST(ControllerRootPhysics, FlagsFollowTheConfigAndClearVelocityOnExitZeroesOnce) {
  const Model model = make_model();
  ControllerRootMotionDesc fly;  // translation None: physics flags only
  fly.physics.disable_gravity = true;
  fly.physics.clear_velocity_on_exit = true;
  ControllerRootMotionDesc dash;
  dash.mode = RootMotionMode::kBlend;
  dash.blend_method = RootMotionBlendMethod::kWeightedAverage;
  dash.blend_weight = 0.5f;
  dash.physics.disable_all = true;
  Controller c(compile_or_die(
      model, mode_desc({{"fly", clip_anim(kSlide, fly)}, {"dash", clip_anim(kSlide, dash)}})));
  c.set_body(vec3(4, 0, 0), quat(1, 0, 0, 0));
  c.update(0.1f);
  EXPECT_EQ(c.root_motion_physics(), RootMotionPhysics{});
  EXPECT_FALSE(c.root_motion_velocity());

  c.parameters().set_string("Mode", "fly");
  c.update(0.1f);
  RootMotionPhysics expected;
  expected.disable_gravity = true;
  expected.clear_velocity_on_exit = true;
  EXPECT_EQ(c.root_motion_physics(), expected);
  EXPECT_FALSE(c.root_motion_velocity());  // no translation root motion

  // fly -> dash: the dash's first blend would give 4 + (0 - 4) * 0.5 = 2; leaving fly zeroes it.
  c.parameters().set_string("Mode", "dash");
  c.update(0.1f);
  ASSERT_TRUE(c.root_motion_velocity());
  EXPECT_EQ(*c.root_motion_velocity(), vec3(0.0f));
  const RootMotionPhysics all = c.root_motion_physics();
  EXPECT_TRUE(all.disable_all && all.disable_gravity && all.disable_terrain_collision &&
              all.disable_input_movement && all.disable_air_drag && all.disable_water_drag &&
              all.disable_ground_drag);
  EXPECT_FALSE(all.clear_velocity_on_exit);
  // Only once: the next update blends 4 toward the slide's 2 m/s: 4 + (2 - 4) * 0.5 = 3.
  c.update(0.1f);
  EXPECT_NEAR(glm::length(*c.root_motion_velocity() - vec3(3, 0, 0)), 0.0f, 1e-4f);

  // dash -> nothing: no clear, the flags go back to false.
  c.parameters().set_string("Mode", "");
  c.update(0.1f);
  EXPECT_EQ(c.root_motion_physics(), RootMotionPhysics{});
  EXPECT_FALSE(c.root_motion_velocity());

  // fly -> nothing: zeroed in the leaving update although nothing has root motion, then none.
  c.parameters().set_string("Mode", "fly");
  c.update(0.1f);
  EXPECT_TRUE(c.root_motion_physics().disable_gravity);
  c.parameters().set_string("Mode", "");
  c.update(0.1f);
  ASSERT_TRUE(c.root_motion_velocity());
  EXPECT_EQ(*c.root_motion_velocity(), vec3(0.0f));
  EXPECT_EQ(c.root_motion_physics(), RootMotionPhysics{});
  c.update(0.1f);
  EXPECT_FALSE(c.root_motion_velocity());
}

TEST(ControllerRootPhysics, ANonLoopingClipThatEndsLeavesItsConfig) {
  const Model model = make_model();
  ControllerRootMotionDesc fly;
  fly.physics.disable_water_drag = true;
  fly.physics.clear_velocity_on_exit = true;
  ControllerAnimationDesc once = clip_anim(kSlide, fly);
  once.loop.value = false;
  Controller c(compile_or_die(model, mode_desc({{"fly", once}})));
  c.parameters().set_string("Mode", "fly");
  c.update(0.5f);
  EXPECT_TRUE(c.root_motion_physics().disable_water_drag);
  EXPECT_FALSE(c.root_motion_velocity());
  c.update(0.6f);  // completes; without preservePose the layer fades out: the config is left
  EXPECT_EQ(c.root_motion_physics(), RootMotionPhysics{});
  ASSERT_TRUE(c.root_motion_velocity());
  EXPECT_EQ(*c.root_motion_velocity(), vec3(0.0f));
  c.update(0.1f);
  EXPECT_FALSE(c.root_motion_velocity());
}

// Found by fuzzing (fuzz/config_fuzz.cpp, the finite-output property): a Blend root motion with
// the SpringDamper method, driven with a host's dt of 5 s (and 1e30 s), integrated the spring in
// one semi-implicit Euler step far past its stability bound; within frames the velocity was
// infinite. Long steps are now cut into stable ones (at most 64); SmoothDamp lands on the target
// when a step is long enough for its spring to rest. At a game's frame rates nothing changes.
TEST(ControllerRootMotionBlend, SpringAndSmoothDampStayFiniteAtAnyTimeStep) {
  const Model model = make_model();
  for (const RootMotionBlendMethod method :
       {RootMotionBlendMethod::kSpringDamper, RootMotionBlendMethod::kSmoothDamp}) {
    ControllerRootMotionDesc rm;
    rm.mode = RootMotionMode::kBlend;
    rm.blend_method = method;
    rm.smooth_time = 1e-3f;
    Controller c(compile_or_die(model, mode_desc({{"slide", clip_anim(kSlide, rm)}})));
    c.parameters().set_string("Mode", "slide");
    c.set_body(vec3(4, 0, 0), quat(1, 0, 0, 0));
    c.update(1.0f / 60.0f);
    for (const float dt : {5.0f, 1e30f, 5.0f, 0.25f, 3.0e38f, 1.0f / 60.0f, 5.0f}) {
      for (int frame = 0; frame < 20; ++frame) {
        c.update(dt);
        ASSERT_TRUE(c.root_motion_velocity());
        const vec3 v = *c.root_motion_velocity();
        ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z))
            << static_cast<int>(method) << " dt " << dt << " frame " << frame;
        // The body keeps its 4 m/s and the clip moves at most 2 m/s: a stable spring stays
        // near them.
        EXPECT_LT(glm::length(v), 100.0f) << static_cast<int>(method) << " dt " << dt;
      }
    }
  }
}

// At 10 Hz and faster the default spring (k = 100, c = 10) takes one semi-implicit Euler step, as
// the spec writes it. The first update of the config is a new play (no velocity measured: the
// target is 0, and the spring restarts after it); the next one measures the slide's 2 m/s and
// moves from the body's 4 m/s: a = -100 (4 - 2) = -200, the spring's velocity -200 · 0.1 = -20,
// so 4 - 20 · 0.1 = 2. (Two steps of 0.05 s would give 2.875.)
TEST(ControllerRootMotionBlend, SpringDamperTakesOneStepAtGameFrameRates) {
  const Model model = make_model();
  ControllerRootMotionDesc rm;
  rm.mode = RootMotionMode::kBlend;
  rm.blend_method = RootMotionBlendMethod::kSpringDamper;
  Controller c(compile_or_die(model, mode_desc({{"slide", clip_anim(kSlide, rm)}})));
  c.parameters().set_string("Mode", "slide");
  c.set_body(vec3(4, 0, 0), quat(1, 0, 0, 0));
  c.update(0.1f);
  c.update(0.1f);
  ASSERT_TRUE(c.root_motion_velocity());
  EXPECT_NEAR(glm::length(*c.root_motion_velocity() - vec3(2, 0, 0)), 0.0f, 1e-5f);
}

TEST(ControllerRootMotionBlend, CompileRejectsNegativeSpringConstants) {
  const Model model = make_model();
  for (int i = 0; i < 4; ++i) {
    ControllerRootMotionDesc rm;
    rm.mode = RootMotionMode::kBlend;
    if (i == 0) rm.smooth_time = -0.1f;
    if (i == 1) rm.spring_stiffness = -1.0f;
    if (i == 2) rm.spring_damping = std::nanf("");
    if (i == 3) rm.spring_stiffness = INFINITY;
    auto p = ControllerProgram::compile(model, mode_desc({{"x", clip_anim(kSlide, rm)}}));
    ASSERT_FALSE(p) << i;
    const char* field = i == 0   ? "root_motion/smooth_time"
                        : i == 2 ? "root_motion/spring_damping"
                                 : "root_motion/spring_stiffness";
    EXPECT_NE(p.error().location.find(field), std::string::npos) << i << p.error().to_string();
  }
}

}  // namespace
}  // namespace critter::anim
