// SPDX-License-Identifier: MIT
// Controller morph weights (animation-config.md §19, DESIGN.md convention 5): layers blend the
// weights their clips animate like joint channels. The model is built here with linear weight
// tracks, so every expected weight is computed by hand from the key values below.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/instance.h"
#include "critter/asset/model.h"
#include "support/allocation_counter.h"
#include "support/raw_track.h"
#include "support/test_models.h"

namespace critter::anim {
namespace {

constexpr float kTol = 1e-5f;

// One joint. Meshes: 0 "face" with two targets (defaults 0.2, 0.4), 1 "plain" without targets,
// 2 "body" with one target (default 0.3); flat weights [face0, face1, body0]. Clips (1 s, linear):
//   0 "blink": face weights (0, 0.4) at 0 s to (1, 0.4) at 1 s: face0 = t, face1 = 0.4.
//   1 "wave":  root x from 0 to 1; no weights track.
//   2 "jaw":   face weights (0.6, 0.8) and body weight 1, constant.
Model make_model() {
  RawModel raw;
  raw.name = "controller-morph-test";
  raw.format = "code";
  RawJoint root;
  root.name = "root";
  raw.skeleton.joints = {root};
  raw.meshes.push_back(critter::testing::morph_triangle("face", {0.2f, 0.4f}));
  raw.meshes.push_back(critter::testing::morph_triangle("plain", {}));
  raw.meshes.push_back(critter::testing::morph_triangle("body", {0.3f}));
  RawClip blink;
  blink.name = "blink";
  blink.tracks.push_back(
      critter::testing::raw_track(TrackTarget::kWeights, 0, 2, {0, 1}, {0, 0.4f, 1, 0.4f}));
  RawClip wave;
  wave.name = "wave";
  wave.tracks.push_back(
      critter::testing::raw_track(TrackTarget::kTranslation, 0, 3, {0, 1}, {0, 0, 0, 1, 0, 0}));
  RawClip jaw;
  jaw.name = "jaw";
  jaw.tracks.push_back(
      critter::testing::raw_track(TrackTarget::kWeights, 0, 2, {0, 1}, {0.6f, 0.8f, 0.6f, 0.8f}));
  jaw.tracks.push_back(critter::testing::raw_track(TrackTarget::kWeights, 2, 1, {0, 1}, {1, 1}));
  raw.clips = {blink, wave, jaw};
  auto model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

constexpr int kBlink = 0;
constexpr int kWave = 1;
constexpr int kJaw = 2;

ControllerLayerDesc layer(std::string name, LayerBlendMode mode = LayerBlendMode::kOverride,
                          float weight = 1.0f) {
  ControllerLayerDesc l;
  l.name = std::move(name);
  l.blend_mode = mode;
  l.weight = weight;
  return l;
}

PlayOptions blend(float seconds) {
  PlayOptions o;
  o.blend_duration = seconds;
  return o;
}

class ControllerMorphTest : public ::testing::Test {
 protected:
  std::shared_ptr<const ControllerProgram> compile(ControllerDesc desc) const {
    auto p = ControllerProgram::compile(model_, std::move(desc));
    EXPECT_TRUE(p) << p.error().to_string();
    return p ? *p : nullptr;
  }
  // A controller over layers without rules; tests drive them with play_animation().
  std::unique_ptr<Controller> make(std::vector<ControllerLayerDesc> layers) const {
    ControllerDesc d;
    d.layers = std::move(layers);
    return std::make_unique<Controller>(compile(std::move(d)));
  }
  static void expect_weights(Controller& c, float face0, float face1, float body0) {
    c.compute_pose();
    const auto w = c.morph_weights();
    ASSERT_EQ(w.size(), 3u);
    EXPECT_NEAR(w[0], face0, kTol);
    EXPECT_NEAR(w[1], face1, kTol);
    EXPECT_NEAR(w[2], body0, kTol);
  }

  Model model_ = make_model();
};

TEST_F(ControllerMorphTest, LayoutAndDefaultsBeforeAnyLayerPlays) {
  auto c = make({layer("Base")});
  const MorphLayout& layout = c->morph_layout();
  EXPECT_EQ(layout.offsets, (std::vector<std::uint32_t>{0, 2, 2, 3}));
  EXPECT_EQ(&layout, &c->program().morph_layout());
  // The defaults before the first compute_pose() and after one with nothing playing.
  ASSERT_EQ(c->morph_weights().size(), 3u);
  EXPECT_FLOAT_EQ(c->morph_weights()[0], 0.2f);
  expect_weights(*c, 0.2f, 0.4f, 0.3f);
  EXPECT_EQ(c->morph_weights(0).size(), 2u);
  EXPECT_TRUE(c->morph_weights(1).empty());  // no targets
  ASSERT_EQ(c->morph_weights(2).size(), 1u);
  EXPECT_FLOAT_EQ(c->morph_weights(2)[0], 0.3f);
  EXPECT_TRUE(c->morph_weights(3).empty());
  EXPECT_TRUE(c->morph_weights(-1).empty());
}

TEST_F(ControllerMorphTest, BaseLayerRuleShowsTheClipWeightsAtItsTime) {
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerStateDesc s;
  s.name = "face";
  s.layer = 0;
  ControllerRuleDesc rule;
  rule.condition = "true";
  rule.animation.source = ControllerAnimationDesc::Source::kClip;
  rule.animation.clip = kBlink;
  rule.animation.blend_duration.value = 0.0f;
  s.rules.push_back(rule);
  d.states.push_back(s);
  Controller c(compile(std::move(d)));
  c.update(0.0f);  // the rule starts blink at once at full weight
  EXPECT_FLOAT_EQ(c.layer_weight(0), 1.0f);
  c.update(0.25f);
  // face0 = t; face1 keeps its key value; body is not in the clip and keeps its default.
  expect_weights(c, 0.25f, 0.4f, 0.3f);
  c.update(0.5f);
  expect_weights(c, 0.75f, 0.4f, 0.3f);
}

TEST_F(ControllerMorphTest, ClipWithoutWeightsTracksKeepsDefaultsAndLowerLayers) {
  auto c = make({layer("Base"), layer("Top")});
  ASSERT_TRUE(c->play_animation(0, kWave, PlaybackMode::kLoopForward));
  c->update(0.5f);
  expect_weights(*c, 0.2f, 0.4f, 0.3f);
  EXPECT_NEAR(c->pose()[0].translation.x, 0.5f, kTol);  // the joints still move

  // Base blinks (face0 = 0.5 at 0.5 s); an Override layer at weight 1 playing wave over it
  // leaves the weights as Base made them.
  auto d = make({layer("Base"), layer("Top")});
  ASSERT_TRUE(d->play_animation(0, kBlink, PlaybackMode::kLoopForward));
  ASSERT_TRUE(d->play_animation(1, kWave, PlaybackMode::kLoopForward));
  d->update(0.5f);
  expect_weights(*d, 0.5f, 0.4f, 0.3f);
  EXPECT_NEAR(d->pose()[0].translation.x, 0.5f, kTol);  // wave overrides the root
}

TEST_F(ControllerMorphTest, OverrideLayerAtHalfWeightLerpsTheMeshesItsClipAnimates) {
  auto c = make({layer("Base"), layer("Top", LayerBlendMode::kOverride, 0.5f)});
  ASSERT_TRUE(c->play_animation(0, kBlink, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(1, kJaw, PlaybackMode::kLoopForward));
  c->update(0.25f);
  EXPECT_FLOAT_EQ(c->layer_weight(1), 0.5f);
  // Base: (0.25, 0.4), body 0.3. Jaw: (0.6, 0.8), body 1. Half way: (0.425, 0.6), body 0.65.
  expect_weights(*c, 0.425f, 0.6f, 0.65f);
}

TEST_F(ControllerMorphTest, AdditiveLayerAddsItsDeltaFromTheDefaults) {
  auto c = make({layer("Base"), layer("Add", LayerBlendMode::kAdditive, 0.5f)});
  ASSERT_TRUE(c->play_animation(0, kBlink, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(1, kJaw, PlaybackMode::kLoopForward));
  c->update(0.25f);
  // Base (0.25, 0.4, 0.3) + 0.5 * (jaw - defaults) = + 0.5 * (0.4, 0.4, 0.7).
  expect_weights(*c, 0.45f, 0.6f, 0.65f);

  // A full-weight additive blink over jaw: blink - defaults = (t - 0.2, 0); body is not in
  // blink, so it adds nothing.
  auto d = make({layer("Base"), layer("Add", LayerBlendMode::kAdditive)});
  ASSERT_TRUE(d->play_animation(0, kJaw, PlaybackMode::kLoopForward));
  ASSERT_TRUE(d->play_animation(1, kBlink, PlaybackMode::kLoopForward));
  d->update(0.5f);
  expect_weights(*d, 0.9f, 0.8f, 1.0f);
}

TEST_F(ControllerMorphTest, CrossfadeHalfwayFromAClipWithoutWeights) {
  // Base: "[Talk]" -> blink with a 1 s crossfade, else wave (hard cut).
  ControllerDesc d;
  d.layers.push_back(layer("Base"));
  ControllerStateDesc s;
  s.name = "face";
  s.layer = 0;
  ControllerRuleDesc talk;
  talk.condition = "[Talk]";
  talk.animation.source = ControllerAnimationDesc::Source::kClip;
  talk.animation.clip = kBlink;
  talk.animation.blend_duration.value = 1.0f;
  ControllerRuleDesc idle;
  idle.condition = "true";
  idle.animation.source = ControllerAnimationDesc::Source::kClip;
  idle.animation.clip = kWave;
  idle.animation.blend_duration.value = 0.0f;
  s.rules = {talk, idle};
  d.states.push_back(s);
  Controller c(compile(std::move(d)));
  c.update(0.0f);
  c.update(0.25f);
  expect_weights(c, 0.2f, 0.4f, 0.3f);
  c.parameters().set_bool("Talk", true);
  c.update(0.0f);
  ASSERT_TRUE(c.layer_player(0).crossfading());
  c.update(0.5f);
  ASSERT_NEAR(c.layer_player(0).blend_weight(), 0.5f, kTol);
  // Half way from the defaults (wave has no weights) to blink at 0.5 s: face0 = 0.35.
  expect_weights(c, 0.35f, 0.4f, 0.3f);
  EXPECT_NEAR(c.pose()[0].translation.x, 0.375f, kTol);  // wave (at 0.75 s) half way to rest
}

TEST_F(ControllerMorphTest, CrossfadeEasesBetweenTheClipAndTheLayersBelow) {
  // Base plays jaw: (0.6, 0.8), body 1. Top starts on wave (no weights), so jaw shows.
  auto c = make({layer("Base"), layer("Top")});
  ASSERT_TRUE(c->play_animation(0, kJaw, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(1, kWave, PlaybackMode::kLoopForward));
  c->update(0.25f);
  expect_weights(*c, 0.6f, 0.8f, 1.0f);

  // Top crossfades to blink over 1 s. Half way, face = lerp(jaw, blink at 0.5 s, 0.5)
  // = lerp((0.6, 0.8), (0.5, 0.4), 0.5); body is in neither Top clip and stays jaw's.
  ASSERT_TRUE(c->play_animation(1, kBlink, PlaybackMode::kLoopForward, blend(1.0f)));
  c->update(0.5f);
  expect_weights(*c, 0.55f, 0.6f, 1.0f);
  c->update(0.6f);  // the crossfade is over; blink at 1.1 s wraps to 0.1 s
  EXPECT_FALSE(c->layer_player(1).crossfading());
  expect_weights(*c, 0.1f, 0.4f, 1.0f);

  // And back: Top at blink 0.25 s crossfades to wave; half way (blink at 0.75 s) the face is
  // lerp((0.75, 0.4), jaw, 0.5); once over, jaw shows again.
  c->update(0.15f);
  expect_weights(*c, 0.25f, 0.4f, 1.0f);
  ASSERT_TRUE(c->play_animation(1, kWave, PlaybackMode::kLoopForward, blend(1.0f)));
  c->update(0.5f);
  expect_weights(*c, 0.675f, 0.6f, 1.0f);
  c->update(0.5f);
  expect_weights(*c, 0.6f, 0.8f, 1.0f);
}

TEST_F(ControllerMorphTest, InterruptedCrossfadeStartsFromTheWeightsItShowed) {
  auto c = make({layer("Base"), layer("Top")});
  ASSERT_TRUE(c->play_animation(0, kJaw, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(1, kWave, PlaybackMode::kLoopForward));
  c->update(0.25f);
  ASSERT_TRUE(c->play_animation(1, kBlink, PlaybackMode::kLoopForward, blend(1.0f)));
  c->update(0.5f);
  expect_weights(*c, 0.55f, 0.6f, 1.0f);  // as in the test above
  // Back to wave while the first crossfade runs: the shown (0.55, 0.6) is frozen and eases
  // toward what Base shows, (0.6, 0.8): half way (0.575, 0.7).
  ASSERT_TRUE(c->play_animation(1, kWave, PlaybackMode::kLoopForward, blend(1.0f)));
  c->update(0.0f);
  expect_weights(*c, 0.55f, 0.6f, 1.0f);  // no pop when the new crossfade starts
  c->update(0.5f);
  expect_weights(*c, 0.575f, 0.7f, 1.0f);
}

TEST_F(ControllerMorphTest, WeightFadeInFollowsTheLayerWeight) {
  auto c = make({layer("Base"), layer("Top")});
  ASSERT_TRUE(c->play_animation(0, kJaw, PlaybackMode::kLoopForward));
  // An empty layer fades its weight in over the blend duration; the clip starts at once.
  ASSERT_TRUE(c->play_animation(1, kBlink, PlaybackMode::kLoopForward, blend(1.0f)));
  c->update(0.5f);
  ASSERT_NEAR(c->layer_weight(1), 0.5f, kTol);
  // lerp(jaw (0.6, 0.8), blink at 0.5 s (0.5, 0.4), 0.5).
  expect_weights(*c, 0.55f, 0.6f, 1.0f);
}

TEST_F(ControllerMorphTest, JointMaskDoesNotMaskWeights) {
  ControllerLayerDesc top = layer("Top");
  top.joint_weights = {0.0f};  // the mask leaves out the only joint
  auto c = make({layer("Base"), top});
  ASSERT_TRUE(c->play_animation(0, kWave, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(1, kJaw, PlaybackMode::kLoopForward));
  c->update(0.5f);
  expect_weights(*c, 0.6f, 0.8f, 1.0f);
  EXPECT_NEAR(c->pose()[0].translation.x, 0.5f, kTol);  // the root is Base's
}

TEST_F(ControllerMorphTest, InstanceCarriesTheControllerWeights) {
  auto c = make({layer("Base")});
  ASSERT_TRUE(c->play_animation(0, kJaw, PlaybackMode::kLoopForward));
  c->update(0.5f);
  c->compute_pose();
  Instance inst(model_);
  // Before any pose: the model's default weights.
  EXPECT_FLOAT_EQ(inst.morph_weights()[0], 0.2f);
  EXPECT_FLOAT_EQ(inst.morph_weights()[2], 0.3f);
  ASSERT_TRUE(inst.pose(c->pose(), c->morph_weights()));
  const auto w = inst.morph_weights();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_FLOAT_EQ(w[0], 0.6f);
  EXPECT_FLOAT_EQ(w[1], 0.8f);
  EXPECT_FLOAT_EQ(w[2], 1.0f);
  // A copy: the controller's next frame does not change what the instance shows.
  auto other = make({layer("Base")});
  other->compute_pose();
  EXPECT_FLOAT_EQ(inst.morph_weights()[0], 0.6f);

  // A wrong count fails and changes nothing.
  const std::vector<float> two = {0.0f, 0.0f};
  EXPECT_FALSE(inst.pose(c->pose(), two));
  EXPECT_FLOAT_EQ(inst.morph_weights()[2], 1.0f);
  // A pose without weights keeps the last weights given.
  ASSERT_TRUE(inst.pose(c->pose()));
  EXPECT_FLOAT_EQ(inst.morph_weights()[0], 0.6f);
  EXPECT_FLOAT_EQ(inst.morph_weights()[2], 1.0f);
}

TEST_F(ControllerMorphTest, ComputePoseDoesNotAllocate) {
  auto c = make({layer("Base"), layer("Top", LayerBlendMode::kOverride, 0.5f),
                 layer("Add", LayerBlendMode::kAdditive)});
  ASSERT_TRUE(c->play_animation(0, kBlink, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(1, kJaw, PlaybackMode::kLoopForward));
  ASSERT_TRUE(c->play_animation(2, kBlink, PlaybackMode::kLoopForward));
  c->update(0.1f);
  c->compute_pose();
  ASSERT_TRUE(testing::AllocationCounter::works());
  const testing::AllocationCounter counter;
  for (int i = 0; i < 10; ++i) {
    c->update(0.05f);
    c->compute_pose();
  }
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace critter::anim
