// SPDX-License-Identifier: MIT
// The limb split at load (creature::split_limbs): Minetest's character.b3d (from Debian's
// minetest-data) cut at its knees and elbows, and find_limbs alone. Counters: vertices of the
// split model ("vertices") and limbs found ("limbs").
#include <benchmark/benchmark.h>

#include <cstdio>
#include <optional>

#include "critter/creature/limbs/split_limbs.h"
#include "critter/io/load.h"

namespace {

const char* const kCharacter =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

const critter::Model* character() {
  static const std::optional<critter::Model> model = [] {
    auto m = critter::io::load(kCharacter);
    if (!m) {
      std::fprintf(stderr, "%s\n", m.error().to_string().c_str());
      return std::optional<critter::Model>();
    }
    return std::optional<critter::Model>(std::move(*m));
  }();
  return model ? &*model : nullptr;
}

void BM_SplitLimbsCharacter(benchmark::State& state) {
  const critter::Model* model = character();
  if (!model) return state.SkipWithError("character.b3d did not load (minetest-data)");
  std::size_t vertices = 0, limbs = 0;
  for (auto _ : state) {
    auto split = critter::creature::split_limbs(*model);
    if (!split) return state.SkipWithError(split.error().to_string().c_str());
    limbs = split->limbs.size();
    vertices = 0;
    for (const critter::Mesh& mesh : split->model.meshes())
      for (const critter::MeshPart& part : mesh.parts) vertices += part.vertex_count();
    benchmark::DoNotOptimize(split->model.bounds());
  }
  state.counters["vertices"] = static_cast<double>(vertices);
  state.counters["limbs"] = static_cast<double>(limbs);
}
BENCHMARK(BM_SplitLimbsCharacter)->Unit(benchmark::kMicrosecond);

void BM_FindLimbsCharacter(benchmark::State& state) {
  const critter::Model* model = character();
  if (!model) return state.SkipWithError("character.b3d did not load (minetest-data)");
  for (auto _ : state) {
    auto found = critter::creature::find_limbs(*model);
    benchmark::DoNotOptimize(found.limbs.data());
  }
}
BENCHMARK(BM_FindLimbsCharacter)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
