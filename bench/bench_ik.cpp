// SPDX-License-Identifier: MIT
// IK solve time on small chains built in code: the analytic two-bone solver on a leg, and CCD and
// FABRIK on a four-bone chain (10 iterations, tolerance 1e-3, as in the ik block's defaults).
// Each iteration restores the pose (a few joints copied) and solves toward one of 64 targets;
// the reported time is per solve, validation and pose restore included.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "critter/anim/ik_chain_job.h"
#include "critter/anim/local_to_model_job.h"

namespace {

using namespace critter;
using namespace critter::anim;

// A pelvis, a chain of `bones` bones hanging down with a slight bend, and a toe on the end.
struct Leg {
  std::vector<std::int16_t> parents;
  std::vector<Transform> rest;
  std::vector<mat4> rest_models;
  std::vector<vec3> targets;

  // Sized up front (with fill values) and filled by index: GCC 12's -Wnull-dereference reports
  // false positives on growing vectors of glm types here.
  explicit Leg(int bones)
      : parents(static_cast<std::size_t>(bones) + 2, -1),
        rest(static_cast<std::size_t>(bones) + 2, Transform{}),
        rest_models(static_cast<std::size_t>(bones) + 2, mat4(1.0f)),
        targets(64, vec3(0.0f)) {
    const float s = std::sin(0.1f), c = std::cos(0.1f);
    parents[0] = -1;
    rest[0].translation = vec3(0, 1, 0);
    for (int b = 1; b <= bones + 1; ++b) {
      const auto i = static_cast<std::size_t>(b);
      parents[i] = static_cast<std::int16_t>(b - 1);
      if (b <= bones) {
        rest[i].translation = vec3(0, b == 1 ? -0.1f : -0.4f, 0);
        rest[i].rotation = quat_xyzw(s, 0, 0, c);
      } else {
        rest[i].translation = vec3(0, -0.05f, 0.1f);
      }
    }
    LocalToModelJob l2m;
    l2m.parents = parents;
    l2m.input = rest;
    l2m.output = rest_models;
    if (!l2m.run()) std::abort();
    // Reachable targets around the chain root, spread over directions and distances.
    const vec3 hip = vec3(rest_models[1][3]);
    const float reach = 0.4f * static_cast<float>(bones - 1);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const float a = 0.7f * static_cast<float>(i), e = 0.3f * static_cast<float>(i % 7);
      const float f = 0.4f + 0.5f * static_cast<float>(i % 5) / 4.0f;
      const vec3 dir(std::cos(a) * std::cos(e), -0.6f - 0.3f * std::sin(e), std::sin(a));
      targets[i] = hip + glm::normalize(dir) * (reach * f);
    }
  }
};

void solve(benchmark::State& state, int bones, IkAlgorithm algorithm) {
  const Leg leg(bones);
  std::vector<Transform> locals = leg.rest;
  std::vector<mat4> models = leg.rest_models;
  IkChainJob job;
  job.parents = leg.parents;
  job.locals = locals;
  job.models = models;
  job.end_joint = bones;
  job.max_chain_length = bones;
  job.settings.algorithm = algorithm;
  std::size_t i = 0;
  for (auto _ : state) {
    locals.assign(leg.rest.begin(), leg.rest.end());
    models.assign(leg.rest_models.begin(), leg.rest_models.end());
    job.target = leg.targets[i++ & 63];
    if (!job.run()) state.SkipWithError("IkChainJob failed");
    benchmark::DoNotOptimize(locals.data());
    benchmark::ClobberMemory();
  }
}

void BM_TwoBone(benchmark::State& state) {
  solve(state, 3, IkAlgorithm::kTwoBone);
}
void BM_Fabrik4(benchmark::State& state) {
  solve(state, 4, IkAlgorithm::kFabrik);
}
void BM_Ccd4(benchmark::State& state) {
  solve(state, 4, IkAlgorithm::kCcd);
}

BENCHMARK(BM_TwoBone);
BENCHMARK(BM_Fabrik4);
BENCHMARK(BM_Ccd4);

}  // namespace

BENCHMARK_MAIN();
