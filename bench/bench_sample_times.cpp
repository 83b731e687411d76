// SPDX-License-Identifier: MIT
// The C++ side of the Python sampling benchmark (bench/python_sampling.py): sampling one clip at
// 1,000 times and computing the model-space matrices of each, the work critter.Model.sample does
// in one call. One iteration is the 1,000 times. The model is $CRITTER_BENCH_MODEL (the script
// writes a 64-joint clip there), else the shared RiggedFigure.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "critter/anim/local_to_model_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/io/load.h"

namespace {

using namespace critter;

constexpr int kTimes = 1000;

const Model& bench_model() {
  static const Model model = [] {
    const char* env = std::getenv("CRITTER_BENCH_MODEL");
    const std::string path =
        env ? env : std::string(CRITTER_SHARED_MODELS) + "/RiggedFigure/RiggedFigure.glb";
    auto loaded = io::load(path);
    if (!loaded || loaded->clips().empty()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   loaded ? "no clip" : loaded.error().to_string().c_str());
      std::abort();
    }
    return std::move(*loaded);
  }();
  return model;
}

void BM_Sample1000Times(benchmark::State& state) {
  const Model& model = bench_model();
  const Clip& clip = model.clips()[0];
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  const auto joints = static_cast<std::size_t>(model.skeleton().joint_count());
  std::vector<float> times(kTimes);
  for (int i = 0; i < kTimes; ++i) times[i] = clip.duration() * static_cast<float>(i) / kTimes;
  // The outputs of every time are kept, as Python's Pose keeps them.
  std::vector<Transform> locals(kTimes * joints);
  std::vector<mat4> matrices(kTimes * joints);
  std::vector<float> weights(kTimes * layout.weight_count());
  anim::SamplingContext context(clip.tracks().size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < kTimes; ++i) {
      const std::span<Transform> out(locals.data() + i * joints, joints);
      const anim::SamplingJob sampling{
          .clip = &clip,
          .time = times[i],
          .context = &context,
          .rest = model.skeleton().rest_pose(),
          .default_weights = layout.defaults,
          .weight_offsets = layout.offsets,
          .output = out,
          .output_weights =
              std::span<float>(weights.data() + i * layout.weight_count(), layout.weight_count())};
      if (!sampling.run()) std::abort();
      const anim::LocalToModelJob ltm{
          .parents = model.skeleton().parents(),
          .input = out,
          .output = std::span<mat4>(matrices.data() + i * joints, joints)};
      if (!ltm.run()) std::abort();
    }
    benchmark::DoNotOptimize(matrices.data());
  }
  state.counters["joints"] = static_cast<double>(joints);
}
BENCHMARK(BM_Sample1000Times)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
