// SPDX-License-Identifier: MIT
// Legacy procedural rigs (creatures.md Part A): the cost of one creature's frame for each rig
// (RigInputs from the state, the step, the pose write, as CreatureModel's procedural source
// calls it), and a crowd of 10,000 four-legged creatures animated per frame on one core.
// Targets: FourLegged <= 0.3 µs per creature per frame; 10,000 creatures < 5 ms per frame.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "critter/creature/legacy/builtin_creatures.h"
#include "critter/creature/legacy/rig_factory.h"

namespace {

using namespace critter;
using namespace critter::creature;
using namespace critter::creature::legacy;

constexpr float kDt = 1.0f / 60.0f;

CreatureState moving_state(float speed) {
  CreatureState s;
  s.velocity = vec3(0.0f, 0.0f, -speed);
  s.walk_speed = 4.0f;
  s.is_on_ground = true;
  s.immersion_factor = 0.0f;
  s.body_height = 0.85f;
  s.look_angle_x = 0.2f;
  if (speed > 0.0f) s.swim_order = vec3(0, 0, -1);
  return s;
}

void BM_RigFrame(benchmark::State& st) {
  const auto kind = static_cast<Kind>(st.range(0));
  auto model = make_builtin_creature(kind);
  auto rig = make_rig(to_string(kind), "", model->skeleton());
  const auto rest = model->skeleton().rest_pose();
  std::vector<Transform> pose(rest.begin(), rest.end());
  CreatureState s = moving_state(kind == Kind::kFourLegged ? 3.0f : 1.5f);
  double t = 0.0;
  for (auto _ : st) {
    s.game_time = t;
    t += kDt;
    (*rig)->animate(s, kDt, pose);
    benchmark::DoNotOptimize(pose.data());
  }
  st.SetLabel(std::string(to_string(kind)));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_RigFrame)->DenseRange(0, 4);

// 10,000 four-legged creatures at spread speeds (walk, trot, canter) and phases.
void BM_FourLeggedCrowd(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0));
  auto model = make_builtin_creature(Kind::kFourLegged);
  const auto rest = model->skeleton().rest_pose();
  std::vector<std::unique_ptr<LegacyRig>> rigs;
  std::vector<CreatureState> states;
  for (std::size_t i = 0; i < n; ++i) {
    rigs.push_back(
        std::move(*make_rig("four-legged", i % 2 ? "wolf" : "horse", model->skeleton())));
    states.push_back(moving_state(0.5f + static_cast<float>(i % 11) * 0.5f));
  }
  std::vector<Transform> poses(n * rest.size());
  for (std::size_t i = 0; i < n; ++i) {
    std::copy(rest.begin(), rest.end(),
              poses.begin() + static_cast<std::ptrdiff_t>(i * rest.size()));
  }
  for (auto _ : st) {
    for (std::size_t i = 0; i < n; ++i) {
      rigs[i]->animate(states[i], kDt,
                       std::span<Transform>(poses.data() + i * rest.size(), rest.size()));
    }
    benchmark::DoNotOptimize(poses.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(n));
}
BENCHMARK(BM_FourLeggedCrowd)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
