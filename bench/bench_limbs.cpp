// SPDX-License-Identifier: MIT
// The limb system (creatures.md Part B) on Minetest Game's character.b3d (Debian minetest-data):
// the per-frame limb step of one character with 4 limbs (the LimbStepJob: strokes and motion on
// the locals, local-to-model, the walk bend measured, the lower and seam joints bent), walking and
// swimming. Target: <= 1 µs per character per frame.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "critter/anim/player.h"
#include "critter/creature/limbs/limb_animator.h"
#include "critter/creature/limbs/split_limbs.h"
#include "critter/io/load.h"

namespace {

using namespace critter;
using namespace critter::creature;

constexpr float kDt = 1.0f / 60.0f;
const char* const kCharacter =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

std::unique_ptr<Model> load_split(std::vector<Limb>& limbs) {
  io::LoadOptions options;
  options.clips = {{"walk", 168.0, 187.0}};
  options.clips_fps = 30.0;
  Result<Model> model = io::load(kCharacter, options);
  if (!model) return nullptr;
  Result<LimbSplit> split = split_limbs(*model);
  if (!split || split->limbs.size() != 4) return nullptr;
  limbs = split->limbs;
  return std::make_unique<Model>(std::move(split->model));
}

// range(0): 0 walking on the ground, 1 swimming the crawl, 2 landing and leaning.
void BM_LimbStep(benchmark::State& st) {
  std::vector<Limb> limbs;
  const std::unique_ptr<Model> model = load_split(limbs);
  if (!model) {
    st.SkipWithError("character.b3d (minetest-data) not found or not split");
    return;
  }
  auto animator = LimbAnimator::create(*model, limbs);
  if (!animator) {
    st.SkipWithError("no animator");
    return;
  }
  LimbAnimator& a = **animator;
  anim::Player player(*model);
  static_cast<void>(player.play(0, anim::PlaybackMode::kLoopForward));
  BodyMotion motion;
  motion.known = true;
  motion.speed = 2.0f;
  motion.accel = st.range(0) == 2 ? 4.0f : 0.0f;
  motion.yaw_rate = st.range(0) == 2 ? 60.0f : 0.0f;
  static_cast<void>(a.set_motion(motion));
  if (st.range(0) == 1) a.set_water_pose(WaterPose::kSwim, 1.5f);
  // A clip sampled once: the step is measured, not the sampling.
  player.update(0.3f);
  const auto local = player.local_pose();
  std::vector<Transform> pose(local.begin(), local.end());
  std::vector<mat4> out(pose.size());
  LimbStepJob job;
  job.animator = &a;
  job.local_pose = pose;
  job.dt = kDt;
  job.output = out;
  for (auto _ : st) {
    static_cast<void>(job.run());
    benchmark::DoNotOptimize(out.data());
  }
  st.SetLabel(st.range(0) == 0 ? "walk" : st.range(0) == 1 ? "swim" : "lean");
  st.SetItemsProcessed(st.iterations());
  st.counters["joints"] = static_cast<double>(pose.size());
}
BENCHMARK(BM_LimbStep)->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
