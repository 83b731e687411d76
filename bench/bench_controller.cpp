// SPDX-License-Identifier: MIT
// Controller throughput for a crowd: 1,000 demo quadrupeds (18 joints) driven by a JSON config on
// the built-in FourLegged template (Base: gait rules in a group, a speed expression and footstep
// events; Head: a LookAt driver; Death: a Death driver), loaded through the config pipeline
// (parse, bind to the runtime description, compile) once and shared by every creature. Each frame
// the host sets GameTime, a per-creature SpeedXZ (so the rules run every frame and creatures
// cross the walk threshold now and then) and LookAngleX, then every controller updates and blends
// its pose.
// One iteration is one frame of the whole crowd; `time_per_creature` is the time of one
// update + compute_pose. A second benchmark runs the same crowd through CreatureModel.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/asset/demo_creature.h"
#include "critter/config/animation_config.h"
#include "critter/config/bind.h"
#include "critter/creature/creature_model.h"

namespace {

using namespace critter;
using namespace critter::anim;

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

// A FourLegged config as a modder writes it (animation-config.md §20, on the demo quadruped's
// bones): gait rules in a group with a speed expression and footstep events, a LookAt driver on
// the Head layer and a Death driver layer.
constexpr const char* kFourLeggedConfig = R"json({
  "template": "FourLegged",
  "layers": {
    "Head":  { "blendCurve": "smoothstep",
               "driver": { "type": "LookAt", "properties": { "TargetBoneName": "head",
                                                              "MaxAngleX": 40, "MaxAngleY": 15 } } },
    "Death": { "driver": { "type": "Death", "properties": { "BodyDrop": 0.4 } } },
  },
  "animations": {
    "idle": { "source": "idle" },
    "walk": { "source": "walk", "speed": "[SpeedXZ] * 0.65",
              "events": [ { "time": 0, "name": "Footstep", "data": "fl" },
                          { "time": 0.25, "name": "Footstep", "data": "br" },
                          { "time": 0.5, "name": "Footstep", "data": "fr" },
                          { "time": 0.75, "name": "Footstep", "data": "bl" } ] },
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "IsDead", "animation": null },
      { "condition": "[IsOnGround]", "rules": [
          { "condition": "[SpeedXZ] > 0.2", "animation": "walk" },
          { "condition": "true", "animation": "idle" } ] },
      { "condition": "true", "animation": "idle" } ] },
    "death": { "layer": "Death", "rules": [
      { "condition": "[DeathPhase] > 0", "animation": "driver:Death" },
      { "condition": "true", "animation": null } ] },
  },
})json";

std::shared_ptr<const ControllerProgram> four_legged_program() {
  const Model& m = demo();
  auto config =
      critter::config::parse_animation_config(kFourLeggedConfig, "bench/four_legged.json");
  if (!config) {
    std::fprintf(stderr, "config: %s\n", config.error().to_string().c_str());
    std::abort();
  }
  auto desc = critter::config::bind(*config, m);
  if (!desc) {
    std::fprintf(stderr, "bind: %s\n", desc.error().to_string().c_str());
    std::abort();
  }
  auto p = ControllerProgram::compile(m, std::move(*desc));
  if (!p) {
    std::fprintf(stderr, "program: %s\n", p.error().to_string().c_str());
    std::abort();
  }
  return *p;
}

// A crowd of controllers, each updated and posed once a frame. At 1,000 each creature's state is
// out of the caches when its turn comes (as in a game); one creature shows the work alone.
void BM_ControllerCrowdFrame(benchmark::State& state) {
  const int creatures = static_cast<int>(state.range(0));
  const auto program = four_legged_program();
  const ParamIndex game_time = program->schema().find("GameTime");
  const ParamIndex speed = program->schema().find("SpeedXZ");
  const ParamIndex on_ground = program->schema().find("IsOnGround");
  const ParamIndex look_x = program->schema().find("LookAngleX");
  std::vector<std::unique_ptr<Controller>> crowd;
  for (int i = 0; i < creatures; ++i) {
    crowd.push_back(std::make_unique<Controller>(program));
    crowd.back()->parameters().set_bool(on_ground, true);
  }
  double t = 0.0;
  std::size_t events = 0;  // footsteps: proof the crowd really walks
  const float dt = 1.0f / 60.0f;
  for (auto _ : state) {
    t += dt;
    for (int i = 0; i < creatures; ++i) {
      Controller& c = *crowd[static_cast<std::size_t>(i)];
      c.parameters().set_float(game_time, t);
      c.parameters().set_float(speed, 0.6 + 0.6 * std::sin(0.5 * t + 0.37 * i));
      c.parameters().set_float(look_x, 0.5 * std::sin(t + i));
      c.update(dt);
      benchmark::DoNotOptimize(c.compute_pose().data());
      events += c.records().size();
      c.clear_records();
    }
  }
  state.SetItemsProcessed(state.iterations() * creatures);
  state.counters["events_per_frame"] =
      static_cast<double>(events) / static_cast<double>(state.iterations());
  // An inverted rate: seconds per creature-frame (printed with an SI prefix, e.g. "1.3us").
  state.counters["time_per_creature"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * creatures,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ControllerCrowdFrame)->Arg(1)->Arg(1000)->Unit(benchmark::kMillisecond);

// The same crowd through creature::CreatureModel, what a game embeds: per creature the §16
// built-ins written from a CreatureState, the controller's update and pose, then the placed
// Instance (model-space matrices). A tenth of the crowd is dying (none when it is one creature).
void BM_CreatureCrowdFrame(benchmark::State& state) {
  const int creatures = static_cast<int>(state.range(0));
  const auto program = four_legged_program();
  std::vector<creature::CreatureModel> crowd;
  std::vector<creature::CreatureState> states(static_cast<std::size_t>(creatures));
  for (int i = 0; i < creatures; ++i) {
    auto made = creature::CreatureModel::create(demo(), program);
    if (!made) {
      state.SkipWithError(made.error().to_string().c_str());
      return;
    }
    crowd.push_back(std::move(*made));
    creature::CreatureState& s = states[static_cast<std::size_t>(i)];
    s.position = vec3(static_cast<float>(i % 32), 0.0f, static_cast<float>(i / 32));
    s.is_on_ground = true;
    s.body_height = 0.9f;
    s.health = i % 10 == 0 ? 0.0f : 1.0f;
  }
  double t = 0.0;
  std::size_t events = 0;
  const float dt = 1.0f / 60.0f;
  for (auto _ : state) {
    t += dt;
    for (int i = 0; i < creatures; ++i) {
      creature::CreatureState& s = states[static_cast<std::size_t>(i)];
      s.game_time = t;
      s.velocity = vec3(
          0.0f, 0.0f,
          -(0.6f + 0.6f * std::sin(0.5f * static_cast<float>(t) + 0.37f * static_cast<float>(i))));
      s.look_angle_x = 0.5f * std::sin(static_cast<float>(t) + static_cast<float>(i));
      creature::CreatureModel& c = crowd[static_cast<std::size_t>(i)];
      if (!c.update(dt, s)) state.SkipWithError("update failed");
      events += c.records().size();
      benchmark::DoNotOptimize(c.model_transforms().data());
    }
  }
  state.SetItemsProcessed(state.iterations() * creatures);
  state.counters["events_per_frame"] =
      static_cast<double>(events) / static_cast<double>(state.iterations());
  state.counters["time_per_creature"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * creatures,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CreatureCrowdFrame)->Arg(1)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
