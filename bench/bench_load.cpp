// SPDX-License-Identifier: MIT
// Loading the shared glTF models: critter (io::load, model built and validated) against Assimp
// (Importer::ReadFile, no post-processing) and tinygltf (images left undecoded, as critter does).
#include <benchmark/benchmark.h>

#include <assimp/scene.h>
#include <tiny_gltf.h>
#include <assimp/Importer.hpp>

#include <string>

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

const bool kRegistered = [] {
  for (const Entry& e : kModels) {
    benchmark::RegisterBenchmark((std::string("critter/") + e.label).c_str(), bm_critter, e)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("assimp/") + e.label).c_str(), bm_assimp, e)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("tinygltf/") + e.label).c_str(), bm_tinygltf, e)
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
