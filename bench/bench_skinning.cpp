// SPDX-License-Identifier: MIT
// CPU skinning and morphing throughput: positions + normals, 4 influences, a 64-joint palette,
// on a 5k-vertex mesh (fits in cache) and a 1M-vertex mesh (memory bound). Reports vertices per
// second (items) and the "Mvert/s" counter, for the scalar reference and each SIMD path.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/deform/morph_job.h"
#include "critter/deform/skinning_job.h"

namespace {

using critter::mat4;
using critter::vec3;
using critter::vec4;
using critter::deform::NormalTransform;
using critter::deform::SkinningPath;

struct SkinData {
  std::vector<vec3> positions, normals, out_positions, out_normals;
  std::vector<glm::u16vec4> joints;
  std::vector<vec4> weights;
  std::vector<mat4> palette;

  explicit SkinData(std::size_t n) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_real_distribution<float> u01(0.05f, 1.0f);
    std::uniform_int_distribution<int> joint(0, 63);
    for (int j = 0; j < 64; ++j) {
      palette.push_back(glm::translate(mat4(1.0f), vec3(u(rng), u(rng), u(rng))) *
                        glm::rotate(mat4(1.0f), 3.0f * u(rng), glm::normalize(vec3(1, u(rng), 0))));
    }
    for (std::size_t v = 0; v < n; ++v) {
      positions.push_back(vec3(u(rng), u(rng), u(rng)));
      normals.push_back(glm::normalize(vec3(u(rng), u(rng), 2.0f)));
      joints.push_back(glm::u16vec4(joint(rng), joint(rng), joint(rng), joint(rng)));
      vec4 w(u01(rng), u01(rng), u01(rng), u01(rng));
      weights.push_back(w / (w.x + w.y + w.z + w.w));
    }
    out_positions.resize(n);
    out_normals.resize(n);
  }
};

void report(benchmark::State& state, std::size_t n) {
  const auto items = static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n);
  state.SetItemsProcessed(items);
  state.counters["Mvert/s"] =
      benchmark::Counter(static_cast<double>(items) / 1e6, benchmark::Counter::kIsRate);
}

// `normals`: how the normals are turned; none for positions alone.
void BM_Skinning(benchmark::State& state, SkinningPath path,
                 std::optional<NormalTransform> normals = NormalTransform::kInverseTranspose) {
  if (path == SkinningPath::kAvx2 && !critter::deform::cpu_has_avx2_fma()) {
    state.SkipWithError("CPU lacks AVX2/FMA");
    return;
  }
  if (path == SkinningPath::kAvx512 && !critter::deform::cpu_has_avx512()) {
    state.SkipWithError("CPU lacks AVX-512");
    return;
  }
  const auto n = static_cast<std::size_t>(state.range(0));
  SkinData d(n);
  critter::deform::SkinningJob job;
  job.palette = d.palette;
  job.set_positions(d.positions, d.out_positions);
  if (normals) {
    job.set_normals(d.normals, d.out_normals);
    job.normal_transform = *normals;
  }
  job.set_influences(d.joints, d.weights);
  job.path = path;
  for (auto _ : state) {
    if (!job.run()) state.SkipWithError("run failed");
    benchmark::DoNotOptimize(d.out_positions.data());
    benchmark::ClobberMemory();
  }
  report(state, n);
}

BENCHMARK_CAPTURE(BM_Skinning, scalar, SkinningPath::kScalar)->Arg(5000)->Arg(1000000);
BENCHMARK_CAPTURE(BM_Skinning, sse2, SkinningPath::kSse2)->Arg(5000)->Arg(1000000);
BENCHMARK_CAPTURE(BM_Skinning, avx2, SkinningPath::kAvx2)->Arg(5000)->Arg(50000)->Arg(1000000);
BENCHMARK_CAPTURE(BM_Skinning, avx512, SkinningPath::kAvx512)->Arg(5000)->Arg(50000)->Arg(1000000);
// Normals turned by the blended matrix itself (NormalTransform::kMatrix), as ozz-animation turns
// them by default, instead of its inverse transpose.
BENCHMARK_CAPTURE(BM_Skinning, sse2_matrix_normals, SkinningPath::kSse2, NormalTransform::kMatrix)
    ->Arg(5000)
    ->Arg(1000000);
BENCHMARK_CAPTURE(BM_Skinning, avx2_matrix_normals, SkinningPath::kAvx2, NormalTransform::kMatrix)
    ->Arg(5000)
    ->Arg(1000000);
BENCHMARK_CAPTURE(BM_Skinning, avx512_matrix_normals, SkinningPath::kAvx512,
                  NormalTransform::kMatrix)
    ->Arg(5000)
    ->Arg(1000000);
// Positions alone (a shadow or collision mesh, or normals left to the GPU): the blend and the
// point transform without the normal's work.
BENCHMARK_CAPTURE(BM_Skinning, sse2_positions, SkinningPath::kSse2, std::nullopt)->Arg(5000);
BENCHMARK_CAPTURE(BM_Skinning, avx2_positions, SkinningPath::kAvx2, std::nullopt)->Arg(5000);

// The memory bound of skinning: one pass that reads every byte a skinning run reads (positions,
// normals, joint indices, weights: 48 bytes per vertex) and writes every byte it writes (positions
// and normals: 24 bytes) with next to no arithmetic. Its Mvert/s at 1M vertices, where the streams
// (72 MB) are far beyond the caches, is the most a skinning kernel can reach there; at 5k it shows
// the pass is not compute bound. Skinning's share of it is skinning Mvert/s / this Mvert/s.
void BM_SkinningMemoryBound(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  SkinData d(n);
  const float* p = &d.positions[0].x;
  const float* nr = &d.normals[0].x;
  const auto* j = reinterpret_cast<const std::uint64_t*>(d.joints.data());
  const float* w = &d.weights[0].x;
  float* op = &d.out_positions[0].x;
  float* on = &d.out_normals[0].x;
  for (auto _ : state) {
    for (std::size_t v = 0; v < n; ++v) {
      // The weights' sum is 1 and the joint bits add 0: the outputs are the inputs, and every
      // input is read.
      const float s = (w[4 * v] + w[4 * v + 1]) + (w[4 * v + 2] + w[4 * v + 3]) +
                      static_cast<float>(j[v] >> 63);
      for (int c = 0; c < 3; ++c) {
        op[3 * v + c] = p[3 * v + c] * s;
        on[3 * v + c] = nr[3 * v + c] * s;
      }
    }
    benchmark::DoNotOptimize(op);
    benchmark::DoNotOptimize(on);
    benchmark::ClobberMemory();
  }
  report(state, n);
}
BENCHMARK(BM_SkinningMemoryBound)->Arg(5000)->Arg(1000000);

// 8 targets with position and normal deltas, all weights non-zero.
void BM_Morph(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.1f, 0.1f);
  critter::MorphSet set;
  set.targets.resize(8);
  for (auto& t : set.targets) {
    for (std::size_t v = 0; v < n; ++v) {
      t.positions.push_back(vec3(u(rng), u(rng), u(rng)));
      t.normals.push_back(vec3(u(rng), u(rng), u(rng)));
    }
  }
  const std::vector<vec3> positions(n, vec3(1.0f, 2.0f, 3.0f));
  const std::vector<vec3> normals(n, vec3(0.0f, 1.0f, 0.0f));
  std::vector<vec3> out_p(n), out_n(n);
  const std::vector<float> weights = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
  critter::deform::MorphJob job;
  job.morphs = &set;
  job.weights = weights;
  job.in_positions = positions;
  job.in_normals = normals;
  job.out_positions = out_p;
  job.out_normals = out_n;
  for (auto _ : state) {
    if (!job.run()) state.SkipWithError("run failed");
    benchmark::DoNotOptimize(out_p.data());
    benchmark::ClobberMemory();
  }
  report(state, n);
}

BENCHMARK(BM_Morph)->Arg(5000)->Arg(100000);

}  // namespace

BENCHMARK_MAIN();
