// SPDX-License-Identifier: MIT
// CreatureModel on hostile animation configs: mutants of the §20 example and of the every-feature
// config (tests/support/config_fuzz.h) go through io::load_controller, then 60 creature frames
// with hostile dt and creature state (NaN look angles, infinite immersion, a NaN movement phase).
// Properties: no crash, load errors name the file and location, the local pose and the phases
// stay finite. CRITTER_FUZZ_ITERATIONS scales the mutant count.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "critter/creature/creature_model.h"
#include "critter/creature/creature_state.h"
#include "critter/io/controller_loader.h"
#include "support/config_fuzz.h"
#include "support/glb_builder.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using critter::testing::ScratchDir;
using critter::testing::write_file;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

float random_dt(std::mt19937& rng) {
  static const float kDts[] = {0.0f, 1.0f / 60.0f, 0.25f, 1e30f, -1.0f, kNaN, kInf, 5.0f};
  return kDts[std::uniform_int_distribution<std::size_t>(0, std::size(kDts) - 1)(rng)];
}

TEST(CreatureModelFuzzTest, HostileConfigsAndStates) {
  ScratchDir folder;
  write_file(folder.file("fuzz_base.json"), std::string_view(test_support::kFuzzBaseConfig));
  write_file(folder.file("fuzz_quad.template.json"), std::string_view(test_support::kFuzzTemplate));
  auto model = std::make_shared<const Model>(test_support::spec_example_quadruped());
  std::mt19937 rng(2718u);
  const int count = test_support::fuzz_iterations() * 2;
  int loaded = 0;
  for (int i = 0; i < count; ++i) {
    const std::string text = test_support::mutate_config(
        (i & 1) ? test_support::kFeatureConfig : test_support::kSpecExampleConfig, rng);
    const std::string path = folder.file("loaded.json");
    write_file(path, std::string_view(text));
    auto loaded_controller = io::load_controller(path, model);
    if (!loaded_controller) {
      const Error& e = loaded_controller.error();
      ASSERT_FALSE(e.path.empty() || e.location.empty() || e.message.empty()) << e.to_string();
      continue;
    }
    ++loaded;
    auto creature =
        creature::CreatureModel::create(*loaded_controller->model, loaded_controller->program);
    ASSERT_TRUE(creature) << creature.error().to_string();
    creature::CreatureState state;
    for (int frame = 0; frame < 60; ++frame) {
      state.velocity = vec3(std::uniform_real_distribution<float>(-10, 10)(rng), 0, 0);
      if ((rng() & 7u) == 0) state.velocity.y = (rng() & 1u) ? kNaN : 1e30f;
      if ((rng() & 7u) == 0) state.slip_speed = (rng() & 1u) ? kNaN : -kInf;
      state.body_height = (rng() & 7u) == 0 ? 1e38f : 1.0f;
      state.death_cause_offset = (rng() & 7u) == 0 ? vec3(kNaN) : vec3(1.0f, 0.0f, 0.0f);
      state.is_on_ground = rng() & 1u;
      state.health = (frame > 40) ? -1.0f : 1.0f;
      state.is_attacking = rng() & 1u;
      state.look_angle_x = (rng() & 3u) == 0 ? kNaN : 0.3f;
      state.look_angle_y = (rng() & 3u) == 0 ? 1e30f : -0.2f;
      state.immersion_factor = (rng() & 3u) == 0 ? kInf : 0.0f;
      state.walk_speed = (rng() & 3u) == 0 ? -kInf : 2.0f;
      state.movement_phase.reset();
      if ((rng() & 3u) == 0) state.movement_phase = (rng() & 1u) ? kNaN : 1e30f;
      (void)creature->update(random_dt(rng), state);
      for (const Transform& t : creature->local_pose()) {
        ASSERT_TRUE(all_finite(t.translation) && all_finite(t.rotation) && all_finite(t.scale))
            << "frame " << frame << "\n--- input:\n"
            << text;
      }
      ASSERT_TRUE(std::isfinite(creature->death_phase()) &&
                  std::isfinite(creature->movement_phase()))
          << text;
    }
  }
  EXPECT_GT(loaded, 0);
}

// Bug: a host movement phase of NaN (CreatureState::movement_phase, "any real value") was
// passed on as the MovementPhase parameter and returned by movement_phase(). It now reads as 0.
TEST(CreatureModelFuzzTest, NonFiniteHostMovementPhaseReadsAsZero) {
  const Model model = test_support::spec_example_quadruped();
  creature::CreatureModel m(model);
  creature::CreatureState state;
  for (float phase : {kNaN, kInf, -kInf}) {
    state.movement_phase = phase;
    ASSERT_TRUE(m.update(0.1f, state));
    EXPECT_EQ(m.movement_phase(), 0.0f) << phase;
  }
  state.movement_phase = 2.75f;  // a real value is taken as it is
  ASSERT_TRUE(m.update(0.1f, state));
  EXPECT_EQ(m.movement_phase(), 2.75f);
}

}  // namespace
