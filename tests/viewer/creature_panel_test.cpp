// SPDX-License-Identifier: MIT
// CreaturePanel: the viewer's simulated legacy creature (`critter-viewer --creature`) without a
// window. The models are the built-in legacy creatures (creature/legacy/builtin_creatures.h); the
// simulation is the tools' CreatureSim, so a panel stepped at 60 Hz must pose the creature as the
// sim stepped by hand does.
#include "creature_panel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "critter/creature/legacy/builtin_creatures.h"

namespace critter::viewer {
namespace {

namespace legacy = creature::legacy;

std::shared_ptr<const Model> builtin(legacy::Kind kind) {
  Result<Model> model = legacy::make_builtin_creature(kind);
  EXPECT_TRUE(model) << model.error().to_string();
  return std::make_shared<const Model>(std::move(*model));
}

tools::CreatureFlags flags(std::string kind, std::vector<std::string> states = {}) {
  tools::CreatureFlags f;
  f.creature = std::move(kind);
  f.states = std::move(states);
  return f;
}

const tools::StateField& field(std::string_view name) {
  const tools::StateField* f = tools::find_state_field(name);
  EXPECT_NE(f, nullptr) << name;
  return *f;
}

tools::StateValue number(double x) {
  tools::StateValue v;
  v.number = x;
  return v;
}

TEST(CreaturePanelSliders, RangesFitTheStateNames) {
  auto range = [](std::string_view name) { return slider_range(field(name)); };
  EXPECT_EQ(range("speed").min, 0.0f);
  EXPECT_EQ(range("speed").max, 10.0f);
  EXPECT_EQ(range("health").min, 0.0f);
  EXPECT_EQ(range("health").max, 1.0f);
  EXPECT_EQ(range("yaw").min, -180.0f);
  EXPECT_EQ(range("yaw").max, 180.0f);
  EXPECT_EQ(range("immersion").min, 0.0f);
  EXPECT_EQ(range("immersion").max, 1.0f);
  // Every slider stays within what the name accepts.
  for (const tools::StateField& f : tools::creature_state_fields()) {
    if (f.type() != tools::StateType::kNumber) continue;
    const SliderRange r = slider_range(f);
    EXPECT_LT(r.min, r.max) << f.name;
    EXPECT_GE(r.min, f.min) << f.name;
    EXPECT_LE(r.max, f.max) << f.name;
  }
}

TEST(CreaturePanelSliders, UnsetNamesShowWhatTheSimUses) {
  tools::CreatureStateArgs state;
  EXPECT_EQ(shown_value(state, field("health")).number, 1.0);
  EXPECT_EQ(shown_value(state, field("walk_speed")).number, 4.0);
  EXPECT_EQ(shown_value(state, field("speed")).number, 0.0);
  EXPECT_TRUE(shown_value(state, field("on_ground")).boolean);
  EXPECT_EQ(shown_value(state, field("row")).text, "none");
  state.flying = true;
  EXPECT_FALSE(shown_value(state, field("on_ground")).boolean);
  // speed without velocity: the velocity the sim gets is the forward speed.
  state.speed = 2.0f;
  EXPECT_FLOAT_EQ(shown_value(state, field("velocity")).vec.z, -2.0f);
  state.mount = tools::Mount::kBoat;
  EXPECT_EQ(shown_value(state, field("mount")).text, "boat");
}

TEST(CreaturePanel, LoadChecksTheOptionsAsTheCommandLine) {
  auto bad_kind =
      CreaturePanel::load(flags("four-leged"), builtin(legacy::Kind::kFourLegged), "m.glb");
  ASSERT_FALSE(bad_kind);
  EXPECT_EQ(bad_kind.error().code, ErrorCode::kUsage);
  EXPECT_NE(bad_kind.error().to_string().find("did you mean four-legged"), std::string::npos);

  auto bad_state = CreaturePanel::load(flags("four-legged", {"sped=2"}),
                                       builtin(legacy::Kind::kFourLegged), "m.glb");
  ASSERT_FALSE(bad_state);
  EXPECT_EQ(bad_state.error().code, ErrorCode::kUsage);
  EXPECT_NE(bad_state.error().to_string().find("unknown state 'sped'"), std::string::npos);

  auto bones = CreaturePanel::load(flags("four-legged"), builtin(legacy::Kind::kFish), "m.glb");
  ASSERT_FALSE(bones);
  EXPECT_EQ(bones.error().code, ErrorCode::kInvalid);
  EXPECT_NE(bones.error().to_string().find("Leg1"), std::string::npos);
}

TEST(CreaturePanel, StepsAsTheSimAtSixtyHertz) {
  auto model = builtin(legacy::Kind::kFourLegged);
  auto panel = CreaturePanel::load(flags("four-legged", {"speed=3"}), model, "m.glb");
  ASSERT_TRUE(panel) << panel.error().to_string();
  // By hand: the sim the panel wraps, stepped 30 times with the same state.
  auto sim = tools::make_creature_sim(*model, "m.glb", (*panel)->spec());
  ASSERT_TRUE(sim);
  std::vector<Transform> pose;
  const auto rest = model->skeleton().rest_pose();
  for (int i = 0; i < 30; ++i) {
    (*sim)->set_state(tools::with_creature_defaults((*panel)->spec().state));
    pose.assign(rest.begin(), rest.end());
    (*sim)->step(1.0f / 60.0f, pose);
  }
  // The panel: one frame of half a second, cut into 60 Hz steps.
  (*panel)->update(0.5f);
  EXPECT_NEAR((*panel)->time(), 0.5, 1e-9);
  anim::Instance expected(*model);
  expected.set_root((*sim)->root_matrix());
  ASSERT_TRUE(expected.pose(pose));
  const auto a = expected.model_transforms();
  const auto b = (*panel)->instance().model_transforms();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t j = 0; j < a.size(); ++j) EXPECT_EQ(a[j], b[j]) << j;
  EXPECT_EQ((*panel)->info().gait, (*sim)->info().gait);
  EXPECT_EQ((*panel)->info().phase, (*sim)->info().phase);
  EXPECT_EQ((*panel)->events().size(), (*sim)->info().events.size());
}

TEST(CreaturePanel, SettersCheckTheValues) {
  auto panel = CreaturePanel::load(flags("four-legged", {"speed=1"}),
                                   builtin(legacy::Kind::kFourLegged), "m.glb");
  ASSERT_TRUE(panel);
  CreaturePanel& p = **panel;
  EXPECT_TRUE(p.set_value(field("speed"), number(2.5)));
  EXPECT_EQ(p.state().speed, 2.5f);
  const Status nan = p.set_value(field("speed"), number(std::numeric_limits<double>::quiet_NaN()));
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().message.find("speed takes"), std::string::npos);
  EXPECT_FALSE(p.set_value(field("immersion"), number(2.0)));  // outside [0, 1]
  tools::StateValue wrong_type = number(1.0);
  EXPECT_FALSE(p.set_value(field("flying"), wrong_type));
  EXPECT_EQ(p.state().speed, 2.5f);
  p.unset(field("speed"));
  EXPECT_FALSE(p.state().speed);
  p.reset_state();
  EXPECT_EQ(p.state().speed, 1.0f);
}

TEST(CreaturePanel, KillDiesAndReviveStartsAgain) {
  auto panel = CreaturePanel::load(flags("four-legged", {"speed=2"}),
                                   builtin(legacy::Kind::kFourLegged), "m.glb");
  ASSERT_TRUE(panel);
  CreaturePanel& p = **panel;
  p.update(0.5f);
  EXPECT_EQ(p.info().death_phase, 0.0f);
  p.kill();
  EXPECT_EQ(p.state().health, 0.0f);
  p.update(0.5f);
  EXPECT_GT(p.info().death_phase, 0.0f);
  ASSERT_TRUE(p.revive());
  EXPECT_EQ(p.state().health, 1.0f);
  EXPECT_EQ(p.time(), 0.0);
  EXPECT_EQ(p.info().death_phase, 0.0f);
  EXPECT_TRUE(p.events().empty());
}

TEST(CreaturePanel, KeepsTheLatestEvents) {
  auto panel = CreaturePanel::load(flags("four-legged", {"speed=3"}),
                                   builtin(legacy::Kind::kFourLegged), "m.glb");
  ASSERT_TRUE(panel);
  CreaturePanel& p = **panel;
  for (int i = 0; i < 60 * 40; ++i) p.update(1.0f / 60.0f);
  ASSERT_EQ(p.events().size(), CreaturePanel::kEventCount);
  for (std::size_t i = 1; i < p.events().size(); ++i)
    EXPECT_GE(p.events()[i].t, p.events()[i - 1].t);
  EXPECT_GT(p.events().back().t, 35.0);  // the newest, not the first
  EXPECT_LE(p.events().back().t, p.time());
  ASSERT_TRUE(p.restart());
  EXPECT_TRUE(p.events().empty());
}

}  // namespace
}  // namespace critter::viewer
