// SPDX-License-Identifier: MIT
// Loading the shared glTF models: critter (io::load, model built and validated) against Assimp
// (Importer::ReadFile, no post-processing) and tinygltf (images left undecoded, as critter does).
// And the baked format: the 67-joint synthetic character (one skinned mesh, two clips of 61 and
// 91 keys per track) written once as a .crit file and loaded from it with io::load (read,
// checksum, every check, the copies), with its exact clips and with compact clips as well; and
// again last, on a warm heap (see bm_crit_warm_heap).
#include <benchmark/benchmark.h>

#include <assimp/scene.h>
#include <tiny_gltf.h>
#include <assimp/Importer.hpp>

#include <malloc.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "critter/asset/synthetic_character.h"
#include "critter/io/crit/crit_file.h"
#include "critter/io/load.h"

namespace {

struct Entry {
  const char* label;
  const char* file;
};

// .glb, .gltf with embedded base64 buffers, .gltf with external .bin.
constexpr Entry kModels[] = {
    {"glb/Wizard", "Wizard/Wizard.glb"},
    {"glb/greenman", "greenman/greenman.glb"},
    {"glb/girl", "girl/girl.glb"},
    {"glb/RiggedFigure", "RiggedFigure/RiggedFigure.glb"},
    {"embedded/ozz_multiple_roots", "ozz_multiple_roots/multiple_roots.gltf"},
    {"embedded/ozz_cubicspline", "ozz_cubicspline/cubicspline.gltf"},
    {"embedded/SimpleSkin", "SimpleSkin/SimpleSkin.gltf"},
    {"external/AnimatedMorphSphere", "AnimatedMorphSphere/AnimatedMorphSphere.gltf"},
    {"external/MorphStressTest", "MorphStressTest/MorphStressTest.gltf"},
};

std::string path_of(const Entry& e) {
  return std::string(CRITTER_SHARED_MODELS) + "/" + e.file;
}

void bm_critter(benchmark::State& state, const Entry& e) {
  const std::string path = path_of(e);
  for (auto _ : state) {
    auto model = critter::io::load(path);
    if (!model) {
      state.SkipWithError(model.error().to_string().c_str());
      return;
    }
    benchmark::DoNotOptimize(model->meshes().data());
  }
}

void bm_assimp(benchmark::State& state, const Entry& e) {
  const std::string path = path_of(e);
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, 0);
    if (!scene) {
      state.SkipWithError(importer.GetErrorString());
      return;
    }
    benchmark::DoNotOptimize(scene->mNumMeshes);
  }
}

bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                const unsigned char*, int, void*) {
  return true;
}

void bm_tinygltf(benchmark::State& state, const Entry& e) {
  const std::string path = path_of(e);
  const bool binary = path.ends_with(".glb");
  for (auto _ : state) {
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(skip_image, nullptr);
    tinygltf::Model model;
    std::string err, warn;
    const bool ok = binary ? loader.LoadBinaryFromFile(&model, &err, &warn, path)
                           : loader.LoadASCIIFromFile(&model, &err, &warn, path);
    if (!ok) {
      state.SkipWithError(err.c_str());
      return;
    }
    benchmark::DoNotOptimize(model.meshes.data());
  }
}

void bm_crit(benchmark::State& state, bool compact) {
  auto model = critter::build_model(critter::make_synthetic_character());
  if (model && compact) model = critter::with_compact_clips(std::move(*model), 1e-4f);
  if (!model) {
    state.SkipWithError(model.error().to_string().c_str());
    return;
  }
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("critter_bench_load_" + std::to_string(::getpid()) + (compact ? "_compact" : "") + ".crit");
  if (auto ok = critter::io::write_crit(*model, path.string()); !ok) {
    state.SkipWithError(ok.error().to_string().c_str());
    return;
  }
  for (auto _ : state) {
    auto loaded = critter::io::load(path.string());
    if (!loaded) {
      state.SkipWithError(loaded.error().to_string().c_str());
      break;
    }
    benchmark::DoNotOptimize(loaded->clips().data());
  }
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
  std::filesystem::remove(path);
}

// The same loads on a heap that keeps its memory, as a game's allocator does. glibc's default
// hands a freed block of about half a megabyte back to the kernel and maps the next one afresh
// (its mmap threshold follows the last block freed), so each load of a file of that size faults
// its read buffer in again: several times the time of the load itself. Fixing the thresholds
// turns that off for the rest of the process, so these run after every other benchmark.
void bm_crit_warm_heap(benchmark::State& state, bool compact) {
  static const bool fixed = [] {
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    return true;
  }();
  benchmark::DoNotOptimize(fixed);
  bm_crit(state, compact);
}

const bool kRegistered = [] {
  benchmark::RegisterBenchmark("critter/crit/synthetic67", bm_crit, false)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("critter/crit/synthetic67+compact", bm_crit, true)
      ->Unit(benchmark::kMicrosecond);
  for (const Entry& e : kModels) {
    benchmark::RegisterBenchmark((std::string("critter/") + e.label).c_str(), bm_critter, e)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("assimp/") + e.label).c_str(), bm_assimp, e)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("tinygltf/") + e.label).c_str(), bm_tinygltf, e)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("critter/crit/synthetic67/warm-heap", bm_crit_warm_heap, false)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("critter/crit/synthetic67+compact/warm-heap", bm_crit_warm_heap,
                               true)
      ->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
