// SPDX-License-Identifier: MIT
// Compact clips and the baked format: sampling a clip's compact form (the fastest kernel path this
// CPU runs, and the SSE2 baseline) against its exact keys (into Transform and into
// structure-of-arrays poses) in forward playback at 60 Hz, on the
// 67-joint synthetic character and the shared models, one hot character and a crowd of 256
// sampling two clips each; and loading a model from .crit bytes
// against loading its .glb file.
// Counters: ns_per_character, bytes (the clip's), max_error (model units) and keys_kept (the
// fraction of the keys the compact form keeps), the last two compact only.
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
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

// kExactSoa, kCompactSoa: the exact or the compact clip into a structure-of-arrays pose.
enum class Mode { kExact, kExactSoa, kCompact, kCompactSse2, kCompactSoa };

// Where one character plays one clip: its contexts (the one of the mode in use is read), pose,
// weights and time.
struct Slot {
  std::unique_ptr<anim::SamplingContext> exact;
  std::unique_ptr<anim::CompactSamplingContext> packed;
  std::vector<Transform> pose;
  std::vector<SoaTransform> soa_rest, soa_pose;
  std::vector<float> weights;
  float t = 0.0f;
};

Slot make_slot(const Subject& s, std::size_t clip, const anim::MorphLayout& layout, float t) {
  const auto rest = s.model.skeleton().rest_pose();
  Slot slot;
  slot.exact = std::make_unique<anim::SamplingContext>(s.model.clips()[clip].tracks().size());
  slot.packed =
      std::make_unique<anim::CompactSamplingContext>(s.model.compact_clips()[clip].tracks().size());
  slot.pose.assign(rest.begin(), rest.end());
  slot.soa_rest.resize(soa_blocks(rest.size()));
  slot.soa_pose.resize(slot.soa_rest.size());
  if (!to_soa(rest, slot.soa_rest)) std::abort();
  slot.weights = layout.defaults;
  slot.t = t;
  return slot;
}

// Sets what either sampler's job takes from the slot (its time, its pose in the mode's form, its
// weights) and runs it.
template <class Job>
[[gnu::always_inline]] inline void run_into(Job& job, Mode mode, std::span<const Transform> rest,
                                            const anim::MorphLayout& layout, Slot& slot) {
  job.time = slot.t;
  job.default_weights = layout.defaults;
  job.weight_offsets = layout.offsets;
  job.output_weights = slot.weights;
  if (mode == Mode::kExactSoa || mode == Mode::kCompactSoa) {
    job.soa_rest = slot.soa_rest;
    job.soa_output = slot.soa_pose;
    job.soa_joints = rest.size();
  } else {
    job.rest = rest;
    job.output = slot.pose;
  }
  benchmark::DoNotOptimize(job.run());
}

// Samples clip `clip` of the subject at the slot's time with the job of `mode` into the slot.
[[gnu::always_inline]] inline void sample_into(const Subject& s, std::size_t clip, Mode mode,
                                               const anim::MorphLayout& layout, Slot& slot) {
  const auto rest = s.model.skeleton().rest_pose();
  if (mode == Mode::kExact || mode == Mode::kExactSoa) {
    anim::SamplingJob job;
    job.clip = &s.model.clips()[clip];
    job.context = slot.exact.get();
    run_into(job, mode, rest, layout, slot);
    return;
  }
  anim::CompactSamplingJob job;
  job.clip = &s.model.compact_clips()[clip];
  job.context = slot.packed.get();
  if (mode == Mode::kCompactSse2) job.path = anim::CompactSamplingPath::kSse2;
  run_into(job, mode, rest, layout, slot);
}

void sample(benchmark::State& state, Mode mode) {
  const bool compact = mode != Mode::kExact && mode != Mode::kExactSoa;
  Subject& s = subject(kModels[state.range(0)]);
  const Model& model = s.model;
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  const Clip& clip = model.clips()[s.first];
  const CompactClip& packed = model.compact_clips()[s.first];
  Slot slot = make_slot(s, s.first, layout, 0.0f);
  for (auto _ : state) {
    slot.t += 1.0f / 60.0f;
    if (slot.t > clip.duration()) slot.t = 0.0f;
    sample_into(s, s.first, mode, layout, slot);
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(kModels[state.range(0)]) + " " + clip.name());
  state.counters["ns_per_character"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes"] = static_cast<double>(compact ? packed.byte_size() : clip.byte_size());
  if (compact) {
    const CompactClipStats& stats = s.stats[s.first];
    state.counters["max_error"] = stats.max_error;
    // Kept keys (a constant counts as one) over the compacted tracks' keys.
    state.counters["keys_kept"] = static_cast<double>(stats.keys_out) / stats.keys_in;
  }
}

void BM_SampleExact(benchmark::State& state) {
  sample(state, Mode::kExact);
}
void BM_SampleExactSoa(benchmark::State& state) {
  sample(state, Mode::kExactSoa);
}
void BM_SampleCompact(benchmark::State& state) {
  sample(state, Mode::kCompact);
}
void BM_SampleCompactSse2(benchmark::State& state) {
  sample(state, Mode::kCompactSse2);
}
void BM_SampleCompactSoa(benchmark::State& state) {
  sample(state, Mode::kCompactSoa);
}
BENCHMARK(BM_SampleExact)->DenseRange(0, 4);
BENCHMARK(BM_SampleExactSoa)->DenseRange(0, 4);
BENCHMARK(BM_SampleCompact)->DenseRange(0, 4);
BENCHMARK(BM_SampleCompactSse2)->DenseRange(0, 4);
BENCHMARK(BM_SampleCompactSoa)->DenseRange(0, 4);

// A crowd: 256 characters, each sampling two clips a frame (Subject::first and second, each
// character at its own times) into its own two poses, round robin, as a game's animation pass
// does before blending. Unlike the loops above, every character's sampling state and poses are
// out of the first-level cache when its turn comes. Counter: ns_per_character (both clips).
void crowd(benchmark::State& state, bool compact) {
  Subject& s = subject(kModels[state.range(0)]);
  const Model& model = s.model;
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  const std::size_t ids[2] = {s.first, s.second};
  const Mode mode = compact ? Mode::kCompact : Mode::kExact;
  constexpr int kCharacters = 256;
  std::vector<std::array<Slot, 2>> characters;
  characters.reserve(kCharacters);
  for (int i = 0; i < kCharacters; ++i) {
    const auto at = [&](int k) {
      return std::fmod((k == 0 ? 0.137f : 0.291f) * static_cast<float>(i) + 0.5f * k,
                       model.clips()[ids[k]].duration());
    };
    characters.push_back(
        {make_slot(s, ids[0], layout, at(0)), make_slot(s, ids[1], layout, at(1))});
  }
  for (auto _ : state) {
    for (std::array<Slot, 2>& c : characters) {
      for (int k = 0; k < 2; ++k) {
        sample_into(s, ids[k], mode, layout, c[k]);
        c[k].t += 1.0f / 60.0f;
        if (c[k].t > model.clips()[ids[k]].duration()) c[k].t -= model.clips()[ids[k]].duration();
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
