// SPDX-License-Identifier: MIT
// Compact clips and the baked format: sampling a clip's compact form (the fastest kernel path this
// CPU runs, and the SSE2 baseline) against its exact keys in forward playback at 60 Hz, on the
// 67-joint synthetic character and the shared models, one hot character and a crowd of 256
// sampling two clips each; and loading a model from .crit bytes
// against loading its .glb file.
// Counters: ns_per_character, bytes (the clip's), max_error (model units, compact only).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "critter/anim/compact_sampling_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/synthetic_character.h"
#include "critter/io/crit/crit_file.h"
#include "critter/io/load.h"

namespace {

using namespace critter;

Model must(Result<Model> m) {
  if (!m) {
    std::fprintf(stderr, "bench_compact: %s\n", m.error().to_string().c_str());
    std::abort();
  }
  return std::move(*m);
}

// Models by name: "synthetic67" built in code, or a shared model path; compact clips at 1e-4.
// `first`: the first clip whose compact form animates a track (a clip of constant tracks only,
// such as the greenman's one-key "0_pose", would time the constants' copy alone); `second`: the
// next one after it, or `first` again when there is none.
struct Subject {
  Model model;
  std::vector<CompactClipStats> stats;
  std::size_t first = 0, second = 0;
  explicit Subject(const std::string& name) {
    Model exact = name == "synthetic67"
                      ? must(build_model(make_synthetic_character()))
                      : must(io::load(std::string(CRITTER_SHARED_MODELS) + "/" + name));
    model = must(with_compact_clips(std::move(exact), 1e-4f, &stats));
    const auto compact = model.compact_clips();
    const auto animated = [&](std::size_t i) {
      return compact[i].constant_count() < compact[i].tracks().size();
    };
    while (first + 1 < compact.size() && !animated(first)) ++first;
    second = first;
    for (std::size_t i = first + 1; i < compact.size() && second == first; ++i)
      if (animated(i)) second = i;
  }
};

Subject& subject(const std::string& name) {
  static std::vector<std::pair<std::string, std::unique_ptr<Subject>>> cache;
  for (auto& [n, s] : cache)
    if (n == name) return *s;
  cache.emplace_back(name, std::make_unique<Subject>(name));
  return *cache.back().second;
}

const char* const kModels[] = {"synthetic67", "Wizard/Wizard.glb", "girl/girl.glb",
                               "RiggedFigure/RiggedFigure.glb", "greenman/greenman.glb"};

enum class Mode { kExact, kCompact, kCompactSse2 };

void sample(benchmark::State& state, Mode mode) {
  const bool compact = mode != Mode::kExact;
  Subject& s = subject(kModels[state.range(0)]);
  const Model& model = s.model;
  const auto rest = model.skeleton().rest_pose();
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  std::vector<Transform> out(rest.begin(), rest.end());
  std::vector<float> weights(layout.defaults);
  const Clip& clip = model.clips()[s.first];
  const CompactClip& packed = model.compact_clips()[s.first];
  anim::SamplingContext ec(clip.tracks().size());
  anim::CompactSamplingContext cc(packed.tracks().size());
  float t = 0.0f;
  for (auto _ : state) {
    t += 1.0f / 60.0f;
    if (t > clip.duration()) t = 0.0f;
    if (compact) {
      const anim::CompactSamplingJob job{.clip = &packed,
                                         .time = t,
                                         .context = &cc,
                                         .rest = rest,
                                         .default_weights = layout.defaults,
                                         .weight_offsets = layout.offsets,
                                         .output = out,
                                         .output_weights = weights,
                                         .path = mode == Mode::kCompactSse2
                                                     ? anim::CompactSamplingPath::kSse2
                                                     : anim::CompactSamplingPath::kAuto};
      benchmark::DoNotOptimize(job.run());
    } else {
      const anim::SamplingJob job{.clip = &clip,
                                  .time = t,
                                  .context = &ec,
                                  .rest = rest,
                                  .default_weights = layout.defaults,
                                  .weight_offsets = layout.offsets,
                                  .output = out,
                                  .output_weights = weights};
      benchmark::DoNotOptimize(job.run());
    }
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(kModels[state.range(0)]) + " " + clip.name());
  state.counters["ns_per_character"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes"] = static_cast<double>(compact ? packed.byte_size() : clip.byte_size());
  if (compact) state.counters["max_error"] = s.stats[s.first].max_error;
}

void BM_SampleExact(benchmark::State& state) {
  sample(state, Mode::kExact);
}
void BM_SampleCompact(benchmark::State& state) {
  sample(state, Mode::kCompact);
}
void BM_SampleCompactSse2(benchmark::State& state) {
  sample(state, Mode::kCompactSse2);
}
BENCHMARK(BM_SampleExact)->DenseRange(0, 4);
BENCHMARK(BM_SampleCompact)->DenseRange(0, 4);
BENCHMARK(BM_SampleCompactSse2)->DenseRange(0, 4);

// A crowd: 256 characters, each sampling two clips a frame (Subject::first and second, each
// character at its own times) into its own two poses, round robin, as a game's animation pass
// does before blending. Unlike the loops above, every character's sampling state and poses are
// out of the first-level cache when its turn comes. Counter: ns_per_character (both clips).
void crowd(benchmark::State& state, bool compact) {
  Subject& s = subject(kModels[state.range(0)]);
  const Model& model = s.model;
  const auto rest = model.skeleton().rest_pose();
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  const std::size_t ids[2] = {s.first, s.second};
  struct Character {
    std::vector<Transform> pose[2];
    std::vector<float> weights[2];
    std::unique_ptr<anim::SamplingContext> exact[2];
    std::unique_ptr<anim::CompactSamplingContext> packed[2];
    float t[2] = {0.0f, 0.0f};
  };
  constexpr int kCharacters = 256;
  std::vector<Character> characters(kCharacters);
  for (int i = 0; i < kCharacters; ++i) {
    Character& c = characters[static_cast<std::size_t>(i)];
    for (int k = 0; k < 2; ++k) {
      const Clip& clip = model.clips()[ids[k]];
      c.pose[k].assign(rest.begin(), rest.end());
      c.weights[k] = layout.defaults;
      c.exact[k] = std::make_unique<anim::SamplingContext>(clip.tracks().size());
      c.packed[k] = std::make_unique<anim::CompactSamplingContext>(
          model.compact_clips()[ids[k]].tracks().size());
      c.t[k] =
          std::fmod((k == 0 ? 0.137f : 0.291f) * static_cast<float>(i) + 0.5f * k, clip.duration());
    }
  }
  for (auto _ : state) {
    for (Character& c : characters) {
      for (int k = 0; k < 2; ++k) {
        const Clip& clip = model.clips()[ids[k]];
        if (compact) {
          const anim::CompactSamplingJob job{.clip = &model.compact_clips()[ids[k]],
                                             .time = c.t[k],
                                             .context = c.packed[k].get(),
                                             .rest = rest,
                                             .default_weights = layout.defaults,
                                             .weight_offsets = layout.offsets,
                                             .output = c.pose[k],
                                             .output_weights = c.weights[k]};
          benchmark::DoNotOptimize(job.run());
        } else {
          const anim::SamplingJob job{.clip = &clip,
                                      .time = c.t[k],
                                      .context = c.exact[k].get(),
                                      .rest = rest,
                                      .default_weights = layout.defaults,
                                      .weight_offsets = layout.offsets,
                                      .output = c.pose[k],
                                      .output_weights = c.weights[k]};
          benchmark::DoNotOptimize(job.run());
        }
        c.t[k] += 1.0f / 60.0f;
        if (c.t[k] > clip.duration()) c.t[k] -= clip.duration();
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(kModels[state.range(0)]) + " " + model.clips()[ids[0]].name() + " + " +
                 model.clips()[ids[1]].name());
  state.counters["ns_per_character"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kCharacters,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_SampleCrowdExact(benchmark::State& state) {
  crowd(state, false);
}
void BM_SampleCrowdCompact(benchmark::State& state) {
  crowd(state, true);
}
BENCHMARK(BM_SampleCrowdExact)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SampleCrowdCompact)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// Reading a .crit from memory (checksum, checks, copies): the 67-joint character with its mesh,
// two clips and their compact forms; then with the exact clips only.
void BM_LoadCrit(benchmark::State& state) {
  Model model = must(build_model(make_synthetic_character()));
  if (state.range(0) == 1) model = must(with_compact_clips(std::move(model), 1e-4f));
  const std::vector<std::uint8_t> bytes = io::encode_crit(model);
  for (auto _ : state) {
    auto m = io::read_crit(bytes);
    benchmark::DoNotOptimize(m);
  }
  state.counters["bytes"] = static_cast<double>(bytes.size());
  state.SetLabel(state.range(0) == 1 ? "synthetic67 exact+compact" : "synthetic67 exact");
}
BENCHMARK(BM_LoadCrit)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// A shared model: its .glb file through io::load against its .crit bytes.
void BM_LoadFile(benchmark::State& state) {
  const std::string path = std::string(CRITTER_SHARED_MODELS) + "/" + kModels[state.range(0)];
  const Model model = must(io::load(path));
  const std::vector<std::uint8_t> bytes = io::encode_crit(model);
  for (auto _ : state) {
    if (state.range(1) == 0) {
      auto m = io::load(path);
      benchmark::DoNotOptimize(m);
    } else {
      auto m = io::read_crit(bytes);
      benchmark::DoNotOptimize(m);
    }
  }
  state.SetLabel(std::string(kModels[state.range(0)]) + (state.range(1) == 0 ? " glb" : " crit"));
}
BENCHMARK(BM_LoadFile)->ArgsProduct({{1, 2, 3}, {0, 1}})->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
