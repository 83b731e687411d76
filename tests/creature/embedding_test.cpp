// SPDX-License-Identifier: MIT
// The README's "Embedding" example, step by step, with checks: a host loads a model file and a
// config file, makes a CreatureModel, fills a CreatureState every frame and reads back palettes,
// events and the world placement.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/demo_creature.h"
#include "critter/creature/creature_model.h"
#include "critter/deform/palette_job.h"
#include "critter/io/controller_loader.h"
#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/load.h"
#include "support/glb_builder.h"

namespace critter::creature {
namespace {

using testing::ScratchDir;
using testing::write_file;

constexpr const char* kWolfConfig = R"({
  // the demo quadruped stands in for a wolf
  "template": "FourLegged",
  "rootBoneRotation": 180,
  "animations": {
    "walk": { "source": "walk", "speed": "[SpeedXZ]",
              "events": [ { "time": 0.25, "name": "Footstep", "data": "front" },
                          { "time": 0.75, "name": "Footstep", "data": "back" } ] },
    "idle": { "source": "idle" },
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "[SpeedXZ] > 0.2", "animation": "walk" },
      { "condition": "true", "animation": "idle" } ] },
  },
})";

TEST(EmbeddingExample, AHostDrivesACreatureFromFiles) {
  ScratchDir dir;
  {
    auto demo = build_demo_quadruped();
    ASSERT_TRUE(demo) << demo.error().to_string();
    ASSERT_TRUE(io::write_gltf(*demo, dir.file("wolf.glb")));
  }
  write_file(dir.file("Wolf.json"), std::string_view(kWolfConfig));

  // Load once; share the model and the program between every wolf.
  auto model = io::load(dir.file("wolf.glb"));
  ASSERT_TRUE(model) << model.error().to_string();
  auto shared = std::make_shared<const Model>(std::move(*model));
  auto loaded = io::load_controller(dir.file("Wolf.json"), shared);
  ASSERT_TRUE(loaded) << loaded.error().to_string();

  // One CreatureModel per wolf.
  auto wolf = CreatureModel::create(*loaded->model, loaded->program);
  ASSERT_TRUE(wolf) << wolf.error().to_string();
  std::vector<std::string> steps;
  wolf->set_footstep_hook([&](std::string_view foot) { steps.emplace_back(foot); });

  // Every frame the game fills the state and updates.
  CreatureState state;
  state.position = vec3(10, 0, 5);
  state.is_on_ground = true;
  state.velocity = vec3(0, 0, -1);  // bodies face -Z: one metre per second forward
  for (int frame = 0; frame < 120; ++frame) ASSERT_TRUE(wolf->update(1.0f / 60.0f, state));

  EXPECT_EQ(wolf->source(), PoseSource::kController);
  const anim::Controller& c = *wolf->controller();
  ASSERT_NE(c.layer_animation(0), nullptr);
  EXPECT_EQ(c.layer_animation(0)->clip, loaded->model->find_clip("walk"));
  // Two seconds of walking at rate 1 cross both footstep times at least once each.
  ASSERT_GE(steps.size(), 2u);
  EXPECT_EQ(steps[0], "front");
  EXPECT_EQ(steps[1], "back");

  // The palette a renderer uploads: one matrix per skin joint, built from the posed matrices.
  const Skin& skin = loaded->model->skins()[0];
  std::vector<mat4> palette(skin.joints.size());
  deform::PaletteJob palette_job;
  palette_job.model_transforms = wolf->model_transforms();
  palette_job.joints = skin.joints;
  palette_job.inverse_binds = skin.inverse_bind;
  palette_job.palette = palette;
  ASSERT_TRUE(palette_job.run());
  // The root is placed at the entity position, turned 180° by rootBoneRotation: the rest model
  // transform of the root joint is the identity, so its matrix is T(10, 0, 5)·R_Y(180°) (its
  // rest local is identity; the walk moves only bones below it).
  const mat4 root = wolf->bone_transform(0);
  EXPECT_NEAR(root[3][0], 10.0f, 1e-4f);
  EXPECT_NEAR(root[3][2], 5.0f, 1e-4f);
  EXPECT_NEAR(root[0][0], -1.0f, 1e-4f);  // x axis → -x
  EXPECT_NEAR(root[2][2], -1.0f, 1e-4f);  // z axis → -z
}

}  // namespace
}  // namespace critter::creature
