// SPDX-License-Identifier: MIT
// Thread safety of shared assets (DESIGN.md: runtime assets are immutable and shared): one Model
// and one ControllerProgram per kind shared by many threads, each animating and skinning its own
// creatures (a Controller, a Player, a legacy rig through CreatureModel, CPU skinning). Every
// thread must get exactly the numbers one thread alone gets; under the `tsan` preset
// (ThreadSanitizer) the same test reports any data race. A model read from a .crit with compact
// clips makes its exact clips' interleaved keys on their first use: its test starts its threads
// together, so that several of them ask for those keys at once.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/creature/creature_model.h"
#include "critter/creature/creature_state.h"
#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/creature/legacy/rig_factory.h"
#include "critter/deform/skin_mesh_part.h"
#include "critter/io/controller_loader.h"
#include "critter/io/crit/crit_file.h"
#include "critter/io/load.h"
#include "support/files.h"
#include "support/spec_example.h"

namespace {

using namespace critter;
using critter::testing::ScratchDir;
using critter::testing::write_file;

struct Shared {
  std::shared_ptr<const Model> quadruped;
  io::LoadedController controller;
  Model four_legged;
  std::shared_ptr<const Model> figure;  // skinned, with a clip
};

double sum(std::span<const Transform> pose) {
  double s = 0.0;
  for (const Transform& t : pose) {
    s += t.translation.x + t.translation.y + t.translation.z + t.rotation.x + t.rotation.y +
         t.rotation.z + t.rotation.w;
  }
  return s;
}

// One thread's work: its own creatures over the shared assets; a checksum of everything made.
double animate(const Shared& shared, int seed) {
  double checksum = 0.0;
  anim::Controller controller(shared.controller.program);
  anim::Player player(*shared.figure);
  if (!player.play(0, anim::PlaybackMode::kLoopForward)) return -1.0;
  anim::Instance instance(*shared.figure);
  creature::CreatureModel rigged(shared.four_legged);
  auto rig = creature::legacy::make_rig("four-legged", {}, shared.four_legged.skeleton());
  if (!rig) return -1.0;
  rigged.set_procedural_rig(std::move(*rig));
  creature::CreatureState state;

  const Model& figure = *shared.figure;
  std::vector<mat4> palette(figure.skeleton().joint_count() + 1);
  std::vector<vec3> positions;
  for (int frame = 0; frame < 120; ++frame) {
    const float dt = 1.0f / 60.0f * static_cast<float>(1 + (seed + frame) % 3);
    controller.parameters().set_float("SpeedXZ", static_cast<float>((seed + frame) % 5));
    controller.update(dt);
    controller.clear_records();
    checksum += sum(controller.compute_pose());

    player.update(dt);
    player.clear_records();
    if (!instance.pose(player.local_pose())) return -1.0;
    for (std::size_t m = 0; m < figure.meshes().size(); ++m) {
      for (std::size_t p = 0; p < figure.meshes()[m].parts.size(); ++p) {
        positions.resize(figure.meshes()[m].parts[p].vertex_count());
        if (!deform::skin_mesh_part(figure, m, p, instance.model_transforms(), {}, palette,
                                    positions))
          return -1.0;
        for (const vec3& v : positions) checksum += v.x + v.y + v.z;
      }
    }

    state.velocity = vec3(0.0f, 0.0f, -static_cast<float>((seed + frame) % 4));
    state.is_on_ground = true;
    state.walk_speed = 4.0f;
    if (!rigged.update(dt, state)) return -1.0;
    checksum += sum(rigged.local_pose());
  }
  return checksum;
}

TEST(ThreadSafety, SharedModelsAnimatedAndSkinnedFromManyThreads) {
  ScratchDir dir;
  write_file(dir.file("spec.json"), std::string_view(test_support::kSpecExampleConfig));
  Shared shared;
  shared.quadruped = std::make_shared<const Model>(test_support::spec_example_quadruped());
  auto loaded = io::load_controller(dir.file("spec.json"), shared.quadruped);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  shared.controller = std::move(*loaded);
  auto four = creature::legacy::make_builtin_creature(creature::legacy::Kind::kFourLegged);
  ASSERT_TRUE(four) << four.error().to_string();
  shared.four_legged = std::move(*four);
  auto figure = io::load(CRITTER_SHARED_MODELS "/RiggedFigure/RiggedFigure.glb");
  ASSERT_TRUE(figure) << figure.error().to_string();
  ASSERT_FALSE(figure->clips().empty());
  shared.figure = std::make_shared<const Model>(std::move(*figure));

  constexpr int kThreads = 8;
  std::vector<double> alone(kThreads);
  for (int t = 0; t < kThreads; ++t) alone[static_cast<std::size_t>(t)] = animate(shared, t);
  std::vector<double> together(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { together[static_cast<std::size_t>(t)] = animate(shared, t); });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_NE(alone[static_cast<std::size_t>(t)], -1.0) << "thread " << t;
    EXPECT_TRUE(std::isfinite(alone[static_cast<std::size_t>(t)]));
    EXPECT_EQ(together[static_cast<std::size_t>(t)], alone[static_cast<std::size_t>(t)])
        << "thread " << t;
  }
}

// A .crit holding compact clips leaves its exact clips' interleaved keys to their first use: eight
// threads sample the exact clips of one such model from the same instant, so that several ask for
// them at once; each gets what one thread alone gets from the model the file was written from.
TEST(ThreadSafety, ExactClipsOfABakedModelWithCompactClipsSampledFromManyThreadsAtOnce) {
  io::LoadOptions options;
  options.compact_tolerance = 1e-4;
  auto built = io::load(CRITTER_SHARED_MODELS "/RiggedFigure/RiggedFigure.glb", options);
  ASSERT_TRUE(built) << built.error().to_string();
  ASSERT_FALSE(built->compact_clips().empty());
  ASSERT_FALSE(built->clips()[0].linear_batches().empty());
  // The exact clips sampled directly (a Player would play the compact ones).
  const auto play = [](const Model& model) {
    double checksum = 0.0;
    const auto rest = model.skeleton().rest_pose();
    std::vector<Transform> pose(rest.begin(), rest.end());
    const anim::MorphLayout layout = anim::MorphLayout::of(model);
    std::vector<float> weights(layout.defaults);
    anim::SamplingContext context;
    for (const Clip& clip : model.clips()) {
      for (int frame = 0; frame < 30; ++frame) {
        anim::SamplingJob job;
        job.clip = &clip;
        job.time = clip.duration() * static_cast<float>(frame) / 29.0f;
        job.context = &context;
        job.rest = rest;
        job.output = pose;
        job.default_weights = layout.defaults;
        job.weight_offsets = layout.offsets;
        job.output_weights = weights;
        if (!job.run()) return -1.0;
        checksum += sum(pose);
      }
    }
    return checksum;
  };
  const double alone = play(*built);
  ASSERT_NE(alone, -1.0);
  ASSERT_TRUE(std::isfinite(alone));
  const std::vector<std::uint8_t> bytes = io::encode_crit(*built);
  for (int round = 0; round < 4; ++round) {
    auto baked = io::read_crit(bytes, "figure.crit");
    ASSERT_TRUE(baked) << baked.error().to_string();
    const Model& shared = *baked;
    constexpr int kThreads = 8;
    std::vector<double> together(kThreads);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) std::this_thread::yield();
        together[static_cast<std::size_t>(t)] = play(shared);
      });
    }
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(together[static_cast<std::size_t>(t)], alone) << "thread " << t;
  }
}

}  // namespace
