// SPDX-License-Identifier: MIT
// Building controller descriptions (anim/controller_desc.h) in test code: clip animations,
// rules, groups and layers, and a fixture with the demo quadruped to animate. Header-only so that
// only programs that link the anim module use it.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/controller_desc.h"
#include "critter/asset/demo_creature.h"
#include "critter/asset/model.h"

namespace critter::testing {

// Plays clip `clip` of the model with a crossfade of `blend` seconds (0: a hard cut).
inline anim::ControllerAnimationDesc clip_anim(int clip, float blend = 0.0f) {
  anim::ControllerAnimationDesc a;
  a.source = anim::ControllerAnimationDesc::Source::kClip;
  a.clip = clip;
  a.blend_duration.value = blend;
  return a;
}

// A leaf rule {condition, animation}.
inline anim::ControllerRuleDesc leaf(std::string condition, anim::ControllerAnimationDesc anim) {
  anim::ControllerRuleDesc r;
  r.condition = std::move(condition);
  r.animation = std::move(anim);
  return r;
}

// A group rule {condition, rules}.
inline anim::ControllerRuleDesc group(std::string condition,
                                      std::vector<anim::ControllerRuleDesc> rules) {
  anim::ControllerRuleDesc r;
  r.condition = std::move(condition);
  r.is_group = true;
  r.rules = std::move(rules);
  return r;
}

// A layer affecting every joint at weight 1.
inline anim::ControllerLayerDesc layer(
    std::string name, anim::LayerBlendMode mode = anim::LayerBlendMode::kOverride) {
  anim::ControllerLayerDesc l;
  l.name = std::move(name);
  l.blend_mode = mode;
  return l;
}

// Compiles `desc` for `model`; a failure fails the current test and returns null.
inline std::shared_ptr<const anim::ControllerProgram> compile_or_die(const Model& model,
                                                                     anim::ControllerDesc desc) {
  auto p = anim::ControllerProgram::compile(model, std::move(desc));
  EXPECT_TRUE(p) << p.error().to_string();
  return p ? *p : nullptr;
}

// A fixture with the demo quadruped (asset/demo_creature.h) and its "walk" and "idle" clips.
class DemoQuadrupedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto m = build_demo_quadruped();
    ASSERT_TRUE(m) << m.error().to_string();
    demo_ = std::make_unique<Model>(std::move(*m));
    walk_ = demo_->find_clip("walk");
    idle_ = demo_->find_clip("idle");
    ASSERT_GE(walk_, 0);
    ASSERT_GE(idle_, 0);
  }
  std::unique_ptr<Model> demo_;
  int walk_ = -1;
  int idle_ = -1;
};

}  // namespace critter::testing
