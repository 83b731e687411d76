// SPDX-License-Identifier: MIT
// Animation job throughput on a 67-joint character built in code: sampling one clip in forward
// playback, blending two layers, a masked override and additive stack on each blending path,
// local-to-model, and the whole two-clip pipeline; the *Soa variants do the same on
// structure-of-arrays poses (SoaTransform).
// Counters: ns_per_character and ns_per_joint (wall time divided by characters or joints done).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#include <span>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/denormal_scope.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/clip.h"
#include "critter/asset/model.h"
#include "critter/asset/synthetic_character.h"

namespace {

using namespace critter;

// The 67-joint humanoid with a tail of asset/synthetic_character.h and its two clips, "walk"
// (2 s) and "run" (3 s): linear T, R and S tracks on every joint at 30 keys per second.
Model build_character() {
  Result<Model> model = build_model(make_synthetic_character());
  if (!model) {
    std::fprintf(stderr, "bench_anim: %s\n", model.error().to_string().c_str());
    std::abort();
  }
  return std::move(*model);
}

struct Character {
  std::vector<std::int16_t> parents;
  std::vector<Transform> rest;
  int joint_count() const { return static_cast<int>(parents.size()); }
};

struct Scene {
  Model model = build_character();
  Character character{{model.skeleton().parents().begin(), model.skeleton().parents().end()},
                      {model.skeleton().rest_pose().begin(), model.skeleton().rest_pose().end()}};
  const Clip& walk = model.clips()[0];
  const Clip& run = model.clips()[1];
  std::vector<std::uint32_t> offsets{0};
  std::vector<Transform> pose_a, pose_b, blended;
  // The same poses in structure-of-arrays form.
  std::vector<SoaTransform> soa_rest, soa_a, soa_b, soa_blended;
  std::vector<mat4> model_transforms;
  std::vector<float> no_weights;
  anim::SamplingContext context_a, context_b;

  Scene()
      : pose_a(character.rest),
        pose_b(character.rest),
        blended(character.rest),
        soa_rest(soa_blocks(character.rest.size())),
        soa_a(soa_rest.size()),
        soa_b(soa_rest.size()),
        soa_blended(soa_rest.size()),
        model_transforms(character.rest.size()),
        context_a(walk.tracks().size()),
        context_b(run.tracks().size()) {
    if (!to_soa(character.rest, soa_rest)) std::abort();
  }

  // `sampler` writing the structure-of-arrays pose `out` instead.
  anim::SamplingJob soa_sampler(const Clip& clip, anim::SamplingContext& ctx, float time,
                                std::vector<SoaTransform>& out) {
    anim::SamplingJob job = sampler(clip, ctx, time, pose_a);
    job.rest = {};
    job.output = {};
    job.soa_rest = soa_rest;
    job.soa_output = out;
    job.soa_joints = character.rest.size();
    return job;
  }

  // `blender` on structure-of-arrays poses, into soa_blended.
  anim::BlendingJob soa_blender(std::span<const anim::BlendingLayer> layers) {
    anim::BlendingJob job = blender(layers);
    job.rest = {};
    job.output = {};
    job.soa_rest = soa_rest;
    job.soa_output = soa_blended;
    job.soa_joints = character.rest.size();
    return job;
  }

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

  // The stack `layers` over the rest pose into `blended`.
  anim::BlendingJob blender(std::span<const anim::BlendingLayer> layers) {
    anim::BlendingJob job;
    job.layers = layers;
    job.rest = character.rest;
    job.default_weights = no_weights;
    job.output = blended;
    job.output_weights = no_weights;
    return job;
  }

  // The model-space matrices of `input` into `model_transforms`.
  anim::LocalToModelJob local_to_model(std::span<const Transform> input) {
    anim::LocalToModelJob job;
    job.parents = character.parents;
    job.input = input;
    job.output = model_transforms;
    return job;
  }
};

constexpr float kFrame = 1.0f / 60.0f;

void set_counters(benchmark::State& state, int joints, std::size_t characters_per_iteration = 1) {
  const double n = static_cast<double>(state.iterations() * characters_per_iteration);
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

// The same, writing a structure-of-arrays pose.
void BM_SampleClipSoa(benchmark::State& state) {
  Scene scene;
  float time = 0.0f;
  for (auto _ : state) {
    check(scene.soa_sampler(scene.walk, scene.context_a, time, scene.soa_a).run());
    benchmark::DoNotOptimize(scene.soa_a.data());
    time += kFrame;
    if (time > scene.walk.duration()) time -= scene.walk.duration();
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_SampleClipSoa);

// The walk under the run at the given layer weights (§11 stack), over Transform arrays; the
// benchmark's argument nlerp: 0 blends rotations by slerp (the default), 1 by nlerp
// (anim::RotationBlend).
void blend_walk_and_run(benchmark::State& state, float walk_weight, float run_weight) {
  Scene scene;
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  check(scene.sampler(scene.run, scene.context_b, 1.1f, scene.pose_b).run());
  anim::BlendingLayer layers[2];
  layers[0].pose = scene.pose_a;
  layers[0].weight = walk_weight;
  layers[1].pose = scene.pose_b;
  layers[1].weight = run_weight;
  anim::BlendingJob job = scene.blender(layers);
  job.rotations = static_cast<anim::RotationBlend>(state.range(0));
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.blended.data());
  }
  set_counters(state, scene.character.joint_count());
}

// A crossfade at 30 %: the walk at full weight below, the run over it at 0.3 (one rotation blend
// a joint).
void BM_BlendTwoLayers(benchmark::State& state) {
  blend_walk_and_run(state, 1.0f, 0.3f);
}
BENCHMARK(BM_BlendTwoLayers)->ArgName("nlerp")->Arg(0)->Arg(1);

// Two partial layers over the rest pose, 0.6 then 0.4 (two rotation blends a joint, the stack
// the ozz comparison times). Argument: anim::RotationBlend (0 slerp, 1 nlerp, 2 lerp).
void BM_BlendTwoPartialLayers(benchmark::State& state) {
  blend_walk_and_run(state, 0.6f, 0.4f);
}
BENCHMARK(BM_BlendTwoPartialLayers)->ArgName("rotations")->Arg(0)->Arg(1)->Arg(2);

// The same crossfade on structure-of-arrays poses (SoaTransform blocks).
void BM_BlendTwoLayersSoa(benchmark::State& state) {
  Scene scene;
  check(scene.soa_sampler(scene.walk, scene.context_a, 0.4f, scene.soa_a).run());
  check(scene.soa_sampler(scene.run, scene.context_b, 1.1f, scene.soa_b).run());
  anim::BlendingLayer layers[2];
  layers[0].soa_pose = scene.soa_a;
  layers[0].weight = 1.0f;
  layers[1].soa_pose = scene.soa_b;
  layers[1].weight = 0.3f;
  anim::BlendingJob job = scene.soa_blender(layers);
  job.rotations = static_cast<anim::RotationBlend>(state.range(0));
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.soa_blended.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_BlendTwoLayersSoa)->ArgName("nlerp")->Arg(0)->Arg(1);

// The two partial layers (0.6 then 0.4 over rest) on structure-of-arrays poses of the first
// `joints` joints of the character: small skeletons (the shared models have 14, 26 and 40)
// take one to three sixteen-joint blocks, where each layer's rotation chain and the call's own
// cost weigh more than on 67 joints. Second argument: anim::RotationBlend (0 slerp, 1 nlerp,
// 2 lerp).
void BM_BlendTwoPartialLayersSoaJoints(benchmark::State& state) {
  Scene scene;
  const auto joints = static_cast<std::size_t>(state.range(0));
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  check(scene.sampler(scene.run, scene.context_b, 1.1f, scene.pose_b).run());
  std::vector<SoaTransform> rest(soa_blocks(joints)), a(rest.size()), b(rest.size()),
      out(rest.size());
  const auto first = [&](const std::vector<Transform>& pose) {
    return std::span<const Transform>(pose).first(joints);
  };
  if (!to_soa(first(scene.character.rest), rest) || !to_soa(first(scene.pose_a), a) ||
      !to_soa(first(scene.pose_b), b))
    std::abort();
  anim::BlendingLayer layers[2];
  layers[0].soa_pose = a;
  layers[0].weight = 0.6f;
  layers[1].soa_pose = b;
  layers[1].weight = 0.4f;
  anim::BlendingJob job;
  job.layers = layers;
  job.soa_rest = rest;
  job.soa_output = out;
  job.soa_joints = joints;
  job.rotations = static_cast<anim::RotationBlend>(state.range(1));
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(out.data());
  }
  set_counters(state, static_cast<int>(joints));
}
BENCHMARK(BM_BlendTwoPartialLayersSoaJoints)
    ->ArgNames({"joints", "rotations"})
    ->ArgsProduct({{14, 26, 40, 67}, {0, 1, 2}});

// A crossfade on the first `joints` joints, in the form of the first argument (0 Transform
// arrays, 1 structure-of-arrays blocks): the walk at full weight below, the run over it at 0.4,
// rotations by lerp. This is the stack that computes what ozz-animation's BlendingJob computes
// for two layers weighted 0.6 and 0.4 (0.6 a + 0.4 b, rotations normalised), so it is the one
// to hold against that library's blend. Inside one DenormalScope, as a frame's jobs run in
// Player, Controller and Crowd.
void BM_BlendCrossfadeJoints(benchmark::State& state) {
  const anim::DenormalScope scope;
  Scene scene;
  const bool soa = state.range(0) == 1;
  const auto joints = static_cast<std::size_t>(state.range(1));
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  check(scene.sampler(scene.run, scene.context_b, 1.1f, scene.pose_b).run());
  const auto first = [&](const std::vector<Transform>& pose) {
    return std::span<const Transform>(pose).first(joints);
  };
  std::vector<SoaTransform> rest(soa_blocks(joints)), a(rest.size()), b(rest.size()),
      out(rest.size());
  if (!to_soa(first(scene.character.rest), rest) || !to_soa(first(scene.pose_a), a) ||
      !to_soa(first(scene.pose_b), b))
    std::abort();
  std::vector<Transform> out_t(joints);
  anim::BlendingLayer layers[2];
  layers[0].weight = 1.0f;
  layers[1].weight = 0.4f;
  anim::BlendingJob job;
  job.rotations = anim::RotationBlend::kLerp;
  if (soa) {
    layers[0].soa_pose = a;
    layers[1].soa_pose = b;
    job.soa_rest = rest;
    job.soa_output = out;
    job.soa_joints = joints;
  } else {
    layers[0].pose = first(scene.pose_a);
    layers[1].pose = first(scene.pose_b);
    job.rest = first(scene.character.rest);
    job.output = out_t;
  }
  job.layers = layers;
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(out_t.data());
  }
  set_counters(state, static_cast<int>(joints));
}
BENCHMARK(BM_BlendCrossfadeJoints)
    ->ArgNames({"soa", "joints"})
    ->ArgsProduct({{0, 1}, {14, 26, 40, 67}});

// out[k] = a[k] + b[k] for `n` floats, 64-byte aligned, n a multiple of 16, in the widest
// vectors the CPU has (sixteen floats at a time with AVX-512): the floor below, which a loop of
// four-float vectors would leave well above what moving the bytes costs.
#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx512f")]] void sum_floats_avx512(const float* a, const float* b, float* out,
                                                  std::size_t n) {
  for (std::size_t k = 0; k < n; k += 16)
    _mm512_store_ps(out + k, _mm512_add_ps(_mm512_load_ps(a + k), _mm512_load_ps(b + k)));
}
[[gnu::target("avx")]] void sum_floats_avx(const float* a, const float* b, float* out,
                                           std::size_t n) {
  for (std::size_t k = 0; k < n; k += 8)
    _mm256_store_ps(out + k, _mm256_add_ps(_mm256_load_ps(a + k), _mm256_load_ps(b + k)));
}
#endif
void sum_floats_plain(const float* a, const float* b, float* out, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) out[k] = a[k] + b[k];
}
using SumFloats = void (*)(const float*, const float*, float*, std::size_t);
// The widest of the three this CPU runs, chosen once.
SumFloats widest_sum_floats() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) return sum_floats_avx512;
  if (__builtin_cpu_supports("avx")) return sum_floats_avx;
#endif
  return sum_floats_plain;
}

// The same crossfade on structure-of-arrays poses across a crowd of 256 characters, each with its
// own two input poses and output (allocated one after another, as a crowd's are), blended in
// turn as a frame does: their 1.9–5.8 KB a character leave the nearer caches before their next
// turn. `floor:1` does the least any blend of these poses can do instead: every float of the
// output written as the sum of the two inputs' floats (widest_sum_floats), no job and no rotation
// arithmetic. The gap between the two is what the job and its arithmetic cost beyond moving the
// poses' bytes.
void BM_BlendCrowdSoa(benchmark::State& state) {
  const anim::DenormalScope scope;
  constexpr std::size_t kCrowd = 256;
  Scene scene;
  const auto joints = static_cast<std::size_t>(state.range(0));
  const bool floor = state.range(1) == 1;
  const SumFloats sum_floats = widest_sum_floats();
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  check(scene.sampler(scene.run, scene.context_b, 1.1f, scene.pose_b).run());
  const auto first = [&](const std::vector<Transform>& pose) {
    return std::span<const Transform>(pose).first(joints);
  };
  const std::size_t blocks = soa_blocks(joints);
  std::vector<SoaTransform> rest(blocks);
  if (!to_soa(first(scene.character.rest), rest)) std::abort();
  struct Member {
    std::vector<SoaTransform> a, b, out;
  };
  std::vector<Member> crowd(kCrowd);
  for (Member& m : crowd) {
    m.a.resize(blocks);
    m.b.resize(blocks);
    m.out.resize(blocks);
    if (!to_soa(first(scene.pose_a), m.a) || !to_soa(first(scene.pose_b), m.b)) std::abort();
  }
  anim::BlendingLayer layers[2];
  layers[0].weight = 1.0f;
  layers[1].weight = 0.4f;
  anim::BlendingJob job;
  job.rotations = anim::RotationBlend::kLerp;
  job.soa_rest = rest;
  job.soa_joints = joints;
  job.layers = layers;
  for (auto _ : state) {
    for (Member& m : crowd) {
      if (floor) {
        sum_floats(
            reinterpret_cast<const float*>(m.a.data()), reinterpret_cast<const float*>(m.b.data()),
            reinterpret_cast<float*>(m.out.data()), blocks * sizeof(SoaTransform) / sizeof(float));
      } else {
        layers[0].soa_pose = m.a;
        layers[1].soa_pose = m.b;
        job.soa_output = m.out;
        check(job.run());
      }
      benchmark::DoNotOptimize(m.out.data());
    }
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<int>(joints), kCrowd);
}
BENCHMARK(BM_BlendCrowdSoa)->ArgNames({"joints", "floor"})->ArgsProduct({{14, 26, 40}, {0, 1}});

// The Controller's kind of stack on each blending path (argument: anim::BlendingPath): a masked
// full-weight bottom layer (the legs of a walk over rest), a masked override at 0.4 (an upper
// body action fading in) and an additive layer at 0.5 over everything (breathing).
void BM_BlendMaskedStack(benchmark::State& state) {
  const auto path = static_cast<anim::BlendingPath>(state.range(0));
  const auto rotations = static_cast<anim::RotationBlend>(state.range(1));
  if (!anim::blending_path_available(path)) {
    state.SkipWithError("this CPU cannot run the path");
    return;
  }
  Scene scene;
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  check(scene.sampler(scene.run, scene.context_b, 1.1f, scene.pose_b).run());
  const std::size_t joints = scene.character.rest.size();
  std::vector<float> legs(joints), upper(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    legs[j] = j % 3 == 0 ? 0.0f : 1.0f;
    upper[j] = 1.0f - legs[j];
  }
  std::vector<Transform> breathe(joints);
  for (std::size_t j = 0; j < joints; ++j) {
    const float a = 0.01f * static_cast<float>(j % 7);
    breathe[j].translation = vec3(0.0f, a, 0.0f);
    breathe[j].rotation = glm::normalize(quat_xyzw(a, 0.0f, 0.0f, 1.0f));
  }
  anim::BlendingLayer layers[3];
  layers[0].pose = scene.pose_a;
  layers[0].weight = 1.0f;
  layers[0].joint_weights = legs;
  layers[1].pose = scene.pose_b;
  layers[1].weight = 0.4f;
  layers[1].joint_weights = upper;
  layers[2].mode = anim::LayerBlendMode::kAdditive;
  layers[2].pose = breathe;
  layers[2].weight = 0.5f;
  anim::BlendingJob job = scene.blender(layers);
  job.path = path;
  job.rotations = rotations;
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.blended.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_BlendMaskedStack)
    ->ArgNames({"path", "nlerp"})
    ->ArgsProduct({{static_cast<int>(anim::BlendingPath::kScalar),
                    static_cast<int>(anim::BlendingPath::kSse2),
                    static_cast<int>(anim::BlendingPath::kAvx2),
                    static_cast<int>(anim::BlendingPath::kAvx512)},
                   {0, 1}});

void BM_LocalToModel(benchmark::State& state) {
  Scene scene;
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  anim::LocalToModelJob job = scene.local_to_model(scene.pose_a);
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.model_transforms.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_LocalToModel);

// From a structure-of-arrays pose.
void BM_LocalToModelSoa(benchmark::State& state) {
  Scene scene;
  check(scene.soa_sampler(scene.walk, scene.context_a, 0.4f, scene.soa_a).run());
  anim::LocalToModelJob job = scene.local_to_model({});
  job.soa_input = scene.soa_a;
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.model_transforms.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_LocalToModelSoa);

// Each implementation of local-to-model on the same pose (argument: LocalToModelPath, 1 scalar
// reference, 2 SSE2, 3 AVX2, 4 AVX-512); all give the same bits.
void BM_LocalToModelPath(benchmark::State& state) {
  const auto path = static_cast<anim::LocalToModelPath>(state.range(0));
  if (!anim::local_to_model_path_available(path)) {
    state.SkipWithError("this CPU cannot run the path");
    return;
  }
  static constexpr const char* kNames[] = {"auto", "scalar", "sse2", "avx2", "avx512"};
  state.SetLabel(kNames[state.range(0)]);
  Scene scene;
  check(scene.sampler(scene.walk, scene.context_a, 0.4f, scene.pose_a).run());
  anim::LocalToModelJob job = scene.local_to_model(scene.pose_a);
  job.path = path;
  for (auto _ : state) {
    check(job.run());
    benchmark::DoNotOptimize(scene.model_transforms.data());
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_LocalToModelPath)->DenseRange(1, 4);

// What a character costs per frame with a crossfade running: two clips sampled in forward
// playback, blended, then model-space matrices.
void pipeline(benchmark::State& state) {
  Scene scene;
  anim::BlendingLayer layers[2];
  layers[0].pose = scene.pose_a;
  layers[0].weight = 1.0f;
  layers[1].pose = scene.pose_b;
  layers[1].weight = 0.4f;
  const anim::BlendingJob blend = scene.blender(layers);
  const anim::LocalToModelJob ltm = scene.local_to_model(scene.blended);
  float ta = 0.0f, tb = 0.0f;
  for (auto _ : state) {
    check(scene.sampler(scene.walk, scene.context_a, ta, scene.pose_a).run());
    check(scene.sampler(scene.run, scene.context_b, tb, scene.pose_b).run());
    check(blend.run());
    check(ltm.run());
    benchmark::DoNotOptimize(scene.model_transforms.data());
    ta += kFrame;
    tb += kFrame;
    if (ta > scene.walk.duration()) ta -= scene.walk.duration();
    if (tb > scene.run.duration()) tb -= scene.run.duration();
  }
  set_counters(state, scene.character.joint_count());
}
void BM_Pipeline(benchmark::State& state) {
  pipeline(state);
}
BENCHMARK(BM_Pipeline);

// The same with the frame's jobs inside one DenormalScope, as Player, Controller and Crowd run
// theirs: the four jobs skip their own switch of the floating-point mode.
void BM_PipelineInScope(benchmark::State& state) {
  const anim::DenormalScope scope;
  pipeline(state);
}
BENCHMARK(BM_PipelineInScope);

// The same frame with every pose in structure-of-arrays form.
void BM_PipelineSoa(benchmark::State& state) {
  Scene scene;
  anim::BlendingLayer layers[2];
  layers[0].soa_pose = scene.soa_a;
  layers[0].weight = 1.0f;
  layers[1].soa_pose = scene.soa_b;
  layers[1].weight = 0.4f;
  const anim::BlendingJob blend = scene.soa_blender(layers);
  anim::LocalToModelJob ltm = scene.local_to_model({});
  ltm.soa_input = scene.soa_blended;
  float ta = 0.0f, tb = 0.0f;
  for (auto _ : state) {
    check(scene.soa_sampler(scene.walk, scene.context_a, ta, scene.soa_a).run());
    check(scene.soa_sampler(scene.run, scene.context_b, tb, scene.soa_b).run());
    check(blend.run());
    check(ltm.run());
    benchmark::DoNotOptimize(scene.model_transforms.data());
    ta += kFrame;
    tb += kFrame;
    if (ta > scene.walk.duration()) ta -= scene.walk.duration();
    if (tb > scene.run.duration()) tb -= scene.run.duration();
  }
  set_counters(state, scene.character.joint_count());
}
BENCHMARK(BM_PipelineSoa);

}  // namespace

BENCHMARK_MAIN();
