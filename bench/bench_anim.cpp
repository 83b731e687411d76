// SPDX-License-Identifier: MIT
// Animation job throughput on a 67-joint character built in code: sampling one clip in forward
// playback, blending two layers, local-to-model, and the whole two-clip pipeline.
// Counters: ns_per_character and ns_per_joint (wall time divided by characters or joints done).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/clip.h"

namespace {

using namespace critter;

// A humanoid with a tail: root, pelvis, three spine joints, neck, head, jaw, two eyes; per side
// clavicle, upper arm, forearm, hand and five three-joint fingers; per side thigh, calf, foot,
// toe; an eleven-joint tail. 10 + 2·19 + 2·4 + 11 = 67 joints, parents first.
struct Character {
  std::vector<std::int16_t> parents;
  std::vector<Transform> rest;

  int add(int parent, vec3 offset) {
    parents.push_back(static_cast<std::int16_t>(parent));
    Transform t;
    t.translation = offset;
    rest.push_back(t);
    return static_cast<int>(parents.size()) - 1;
  }

  Character() {
    const int root = add(-1, vec3(0.0f));
    const int pelvis = add(root, vec3(0, 1.0f, 0));
    int spine = pelvis;
    for (int i = 0; i < 3; ++i) spine = add(spine, vec3(0, 0.15f, 0));
    const int neck = add(spine, vec3(0, 0.2f, 0));
    const int head = add(neck, vec3(0, 0.1f, 0));
    add(head, vec3(0, -0.05f, 0.08f));                                             // jaw
    for (float side : {-1.0f, 1.0f}) add(head, vec3(side * 0.03f, 0.08f, 0.09f));  // eyes
    for (float side : {-1.0f, 1.0f}) {
      const int clavicle = add(spine, vec3(side * 0.05f, 0.15f, 0));
      const int upper = add(clavicle, vec3(side * 0.15f, 0, 0));
      const int fore = add(upper, vec3(side * 0.28f, 0, 0));
      const int hand = add(fore, vec3(side * 0.25f, 0, 0));
      for (int f = 0; f < 5; ++f) {
        int bone = add(hand, vec3(side * 0.08f, 0, 0.02f * static_cast<float>(f - 2)));
        for (int k = 0; k < 2; ++k) bone = add(bone, vec3(side * 0.03f, 0, 0));
      }
    }
    for (float side : {-1.0f, 1.0f}) {
      const int thigh = add(pelvis, vec3(side * 0.1f, -0.05f, 0));
      const int calf = add(thigh, vec3(0, -0.45f, 0));
      const int foot = add(calf, vec3(0, -0.42f, 0));
      add(foot, vec3(0, -0.05f, 0.12f));  // toe
    }
    int tail = pelvis;
    for (int i = 0; i < 11; ++i) tail = add(tail, vec3(0, 0, -0.08f));
  }
  int joint_count() const { return static_cast<int>(parents.size()); }
};

// A clip with linear T, R and S tracks on every joint, 30 keys per second: small smooth motions
// around the rest pose with a per-joint phase, as a mocap or hand-keyed cycle would have.
Clip make_clip(const Character& c, float seconds, float frequency) {
  RawClip raw;
  raw.name = "cycle";
  const int keys = static_cast<int>(std::lround(seconds * 30.0f)) + 1;
  for (int j = 0; j < c.joint_count(); ++j) {
    const float phase = 0.37f * static_cast<float>(j);
    RawTrack t, r, s;
    t.target = TrackTarget::kTranslation;
    r.target = TrackTarget::kRotation;
    s.target = TrackTarget::kScale;
    r.components = 4;
    t.index = r.index = s.index = j;
    for (int k = 0; k < keys; ++k) {
      const float time = static_cast<float>(k) / 30.0f;
      const float a = 6.2831853f * frequency * time + phase;
      t.times.push_back(time);
      r.times.push_back(time);
      s.times.push_back(time);
      const vec3 base = c.rest[static_cast<std::size_t>(j)].translation;
      t.values.insert(t.values.end(), {base.x + 0.01f * std::sin(a), base.y, base.z});
      const vec3 axis = glm::normalize(vec3(std::sin(phase), 1.0f, std::cos(phase)));
      const float half = 0.4f * std::sin(a) * 0.5f;
      r.values.insert(r.values.end(), {axis.x * std::sin(half), axis.y * std::sin(half),
                                       axis.z * std::sin(half), std::cos(half)});
      s.values.insert(s.values.end(), {1.0f, 1.0f + 0.02f * std::cos(a), 1.0f});
    }
    raw.tracks.push_back(std::move(t));
    raw.tracks.push_back(std::move(r));
    raw.tracks.push_back(std::move(s));
  }
  auto clip = build_clip(raw, c.joint_count(), {});
  if (!clip) {
    std::fprintf(stderr, "bench_anim: %s\n", clip.error().to_string().c_str());
    std::abort();
  }
  return std::move(*clip);
}

struct Scene {
  Character character;
  Clip walk = make_clip(character, 2.0f, 0.5f);
  Clip run = make_clip(character, 3.0f, 1.0f / 3.0f);
  std::vector<std::uint32_t> offsets{0};
  std::vector<Transform> pose_a, pose_b, blended;
  std::vector<mat4> model;
  std::vector<float> no_weights;
  anim::SamplingContext context_a, context_b;

  Scene()
      : pose_a(character.rest),
        pose_b(character.rest),
        blended(character.rest),
        model(character.rest.size()),
        context_a(walk.tracks().size()),
        context_b(run.tracks().size()) {}

  anim::SamplingJob sampler(const Clip& clip, anim::SamplingContext& ctx, float time,
                            std::vector<Transform>& out) {
    anim::SamplingJob job;
    job.clip = &clip;
    job.context = &ctx;
    job.time = time;
    job.rest = character.rest;
    job.default_weights = no_weights;
    job.weight_offsets = offsets;
    job.output = out;
    job.output_weights = no_weights;
    return job;
  }
};

constexpr float kFrame = 1.0f / 60.0f;

void set_counters(benchmark::State& state, int joints) {
  const double n = static_cast<double>(state.iterations());
  const auto per = benchmark::Counter::kIsRate | benchmark::Counter::kInvert;
  // kIsRate divides by seconds; kInvert flips it to seconds per unit; 1e-9 units give ns.
  state.counters["ns_per_character"] = benchmark::Counter(n * 1e-9, per);
  state.counters["ns_per_joint"] = benchmark::Counter(n * joints * 1e-9, per);
}

void check(const Status& s) {
  if (!s) {
    std::fprintf(stderr, "bench_anim: %s\n", s.error().to_string().c_str());
    std::abort();
  }
}

void BM_SampleClip(benchmark::State& state) {
  Scene scene;
  float time = 0.0f;
  for (auto _ : state) {
    check(scene.sampler(scene.walk, scene.context_a, time, scene.pose_a).run());
    benchmark::DoNotOptimize(scene.pose_a.data());
    time += kFrame;
    if (time > scene.walk.duration()) time -= scene.walk.duration();
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_SampleClip);

void BM_BlendTwoLayers(benchmark::State& state) {
  Scene scene;
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  check(scene.sampler(scene.run, scene.context_b, 1.1f, scene.pose_b).run());
  // A crossfade at 30 %: the walk below, the run over it at weight 0.3 (§11 stack).
  anim::BlendingLayer layers[2];
  layers[0].pose = scene.pose_a;
  layers[0].weight = 1.0f;
  layers[1].pose = scene.pose_b;
  layers[1].weight = 0.3f;
  anim::BlendingJob job;
  job.layers = layers;
  job.rest = scene.character.rest;
  job.default_weights = scene.no_weights;
  job.output = scene.blended;
  job.output_weights = scene.no_weights;
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.blended.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_BlendTwoLayers);

void BM_LocalToModel(benchmark::State& state) {
  Scene scene;
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  anim::LocalToModelJob job;
  job.parents = scene.character.parents;
  job.input = scene.pose_a;
  job.output = scene.model;
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.model.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_LocalToModel);

// What a character costs per frame with a crossfade running: two clips sampled in forward
// playback, blended, then model-space matrices.
void BM_Pipeline(benchmark::State& state) {
  Scene scene;
  anim::BlendingLayer layers[2];
  layers[0].pose = scene.pose_a;
  layers[0].weight = 1.0f;
  layers[1].pose = scene.pose_b;
  layers[1].weight = 0.4f;
  anim::BlendingJob blend;
  blend.layers = layers;
  blend.rest = scene.character.rest;
  blend.default_weights = scene.no_weights;
  blend.output = scene.blended;
  blend.output_weights = scene.no_weights;
  anim::LocalToModelJob ltm;
  ltm.parents = scene.character.parents;
  ltm.input = scene.blended;
  ltm.output = scene.model;
  float ta = 0.0f, tb = 0.0f;
  for (auto _ : state) {
    check(scene.sampler(scene.walk, scene.context_a, ta, scene.pose_a).run());
    check(scene.sampler(scene.run, scene.context_b, tb, scene.pose_b).run());
    check(blend.run());
    check(ltm.run());
    benchmark::DoNotOptimize(scene.model.data());
    ta += kFrame;
    tb += kFrame;
    if (ta > scene.walk.duration()) ta -= scene.walk.duration();
    if (tb > scene.run.duration()) tb -= scene.run.duration();
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_Pipeline);

}  // namespace

BENCHMARK_MAIN();
