// SPDX-License-Identifier: MIT
// Player throughput on the built-in demo quadruped (18 joints, two looping clips): one update of
// a looping clip with events, one update during a crossfade (two clips sampled and blended), and
// the bare playhead advancing across many wraps in one call. One iteration is one update.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "critter/anim/player.h"
#include "critter/anim/playhead.h"
#include "critter/asset/demo_creature.h"

namespace {

using namespace critter;
using anim::PlaybackMode;

const Model& demo() {
  static const Model model = [] {
    auto built = build_demo_quadruped();
    if (!built) {
      std::fprintf(stderr, "demo quadruped: %s\n", built.error().to_string().c_str());
      std::abort();
    }
    return std::move(*built);
  }();
  return model;
}

const std::vector<anim::ClipEvent> kSteps = {
    {0.0f, "Footstep", "front_left"},
    {0.25f, "Footstep", "back_right"},
    {0.5f, "Footstep", "front_right"},
    {0.75f, "Footstep", "back_left"},
};

void BM_PlayerLoopUpdate(benchmark::State& state) {
  anim::Player player(demo());
  anim::PlayOptions options;
  options.events = kSteps;
  if (!player.play(demo().find_clip("walk"), PlaybackMode::kLoopForward, options)) std::abort();
  for (auto _ : state) {
    player.update(1.0f / 60.0f);
    benchmark::DoNotOptimize(player.local_pose().data());
    player.clear_records();
  }
}
BENCHMARK(BM_PlayerLoopUpdate);

void BM_PlayerCrossfadeUpdate(benchmark::State& state) {
  anim::Player player(demo());
  const int walk = demo().find_clip("walk");
  const int idle = demo().find_clip("idle");
  if (!player.play(walk, PlaybackMode::kLoopForward)) std::abort();
  anim::PlayOptions fade;
  fade.blend_duration = 1e9f;  // never finishes while measured
  if (!player.play(idle, PlaybackMode::kLoopForward, fade)) std::abort();
  for (auto _ : state) {
    player.update(1.0f / 60.0f);
    benchmark::DoNotOptimize(player.local_pose().data());
  }
}
BENCHMARK(BM_PlayerCrossfadeUpdate);

void BM_PlayheadHugeStep(benchmark::State& state) {
  anim::Playhead head(kSteps.size());
  anim::PlayheadSetup setup;
  setup.duration = 1.0f;
  setup.mode = PlaybackMode::kLoopPingPong;
  setup.events = kSteps;
  head.start(setup);
  std::vector<anim::PlayerRecord> records;
  records.reserve(64);
  for (auto _ : state) {
    head.advance(12345.678f, &records);
    benchmark::DoNotOptimize(records.data());
    records.clear();
  }
}
BENCHMARK(BM_PlayheadHugeStep);

}  // namespace

BENCHMARK_MAIN();
