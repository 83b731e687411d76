// Controller throughput for a crowd: 1,000 demo quadrupeds (18 joints) driven by a FourLegged-like
// description (Base override layer with gait rules in a group, a speed expression and footstep
// events; a Head override layer masked to neck and head; an Additive breathing layer). Each frame
// the host sets GameTime and a per-creature SpeedXZ (so the rules run every frame and creatures
// cross the walk threshold now and then), then every controller updates and blends its pose.
// One iteration is one frame of the whole crowd; `time_per_creature` is the time of one
// update + compute_pose.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "critter/anim/controller.h"
#include "critter/asset/demo_creature.h"

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

ControllerAnimationDesc clip_anim(int clip, float blend) {
  ControllerAnimationDesc a;
  a.source = ControllerAnimationDesc::Source::kClip;
  a.clip = clip;
  a.blend_duration.value = blend;
  return a;
}

ControllerRuleDesc leaf(const char* condition, ControllerAnimationDesc anim) {
  ControllerRuleDesc r;
  r.condition = condition;
  r.animation = std::move(anim);
  return r;
}

std::shared_ptr<const ControllerProgram> four_legged_program() {
  const Model& m = demo();
  const int walk = m.find_clip("walk");
  const int idle = m.find_clip("idle");
  const std::size_t joints = static_cast<std::size_t>(m.skeleton().joint_count());
  ControllerDesc d;
  ControllerLayerDesc base;
  base.name = "Base";
  ControllerLayerDesc head;
  head.name = "Head";
  head.blend_curve = BlendCurve::kSmoothstep;
  head.joint_weights.assign(joints, 0.0f);
  head.joint_weights[static_cast<std::size_t>(m.find_bone("neck"))] = 1.0f;
  head.joint_weights[static_cast<std::size_t>(m.find_bone("head"))] = 1.0f;
  ControllerLayerDesc breath;
  breath.name = "Breath";
  breath.blend_mode = LayerBlendMode::kAdditive;
  breath.weight = 0.3f;
  d.layers = {base, head, breath};

  ControllerAnimationDesc walking = clip_anim(walk, 0.3f);
  walking.speed.expression = "[SpeedXZ] * 0.65";
  walking.events = {{0.0f, "Footstep", "fl"},
                    {0.25f, "Footstep", "br"},
                    {0.5f, "Footstep", "fr"},
                    {0.75f, "Footstep", "bl"}};
  ControllerStateDesc gait;
  gait.layer = 0;
  gait.rules.push_back(leaf("IsDead", ControllerAnimationDesc{}));
  ControllerRuleDesc ground;
  ground.condition = "[IsOnGround]";
  ground.is_group = true;
  ground.rules.push_back(leaf("[SpeedXZ] > 0.2", walking));
  ground.rules.push_back(leaf("true", clip_anim(idle, 0.3f)));
  gait.rules.push_back(ground);
  gait.rules.push_back(leaf("true", clip_anim(idle, 0.3f)));
  ControllerStateDesc look;
  look.layer = 1;
  look.rules.push_back(leaf("[SpeedXZ] < 0.5", clip_anim(idle, 0.2f)));
  look.rules.push_back(leaf("true", ControllerAnimationDesc{}));
  ControllerStateDesc breathe;
  breathe.layer = 2;
  breathe.rules.push_back(leaf("true", clip_anim(idle, 0.0f)));
  d.states = {gait, look, breathe};
  auto p = ControllerProgram::compile(m, std::move(d));
  if (!p) {
    std::fprintf(stderr, "program: %s\n", p.error().to_string().c_str());
    std::abort();
  }
  return *p;
}

void BM_ControllerCrowdFrame(benchmark::State& state) {
  const int creatures = static_cast<int>(state.range(0));
  const auto program = four_legged_program();
  const ParamIndex game_time = program->schema().find("GameTime");
  const ParamIndex speed = program->schema().find("SpeedXZ");
  const ParamIndex on_ground = program->schema().find("IsOnGround");
  std::vector<std::unique_ptr<Controller>> crowd;
  for (int i = 0; i < creatures; ++i) {
    crowd.push_back(std::make_unique<Controller>(program));
    crowd.back()->parameters().set_bool(on_ground, true);
  }
  double t = 0.0;
  const float dt = 1.0f / 60.0f;
  for (auto _ : state) {
    t += dt;
    for (int i = 0; i < creatures; ++i) {
      Controller& c = *crowd[static_cast<std::size_t>(i)];
      c.parameters().set_float(game_time, t);
      c.parameters().set_float(speed, 0.6 + 0.6 * std::sin(0.5 * t + 0.37 * i));
      c.update(dt);
      benchmark::DoNotOptimize(c.compute_pose().data());
      c.clear_records();
    }
  }
  state.SetItemsProcessed(state.iterations() * creatures);
  // An inverted rate: seconds per creature-frame (printed with an SI prefix, e.g. "1.3us").
  state.counters["time_per_creature"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * creatures,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ControllerCrowdFrame)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
