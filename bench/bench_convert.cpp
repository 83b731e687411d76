// SPDX-License-Identifier: MIT
// Converting every shared glTF model to GLB: critter (io::load + io::encode_glb) against Assimp
// (Importer::ReadFile + Exporter::ExportToBlob "glb2"), both in memory, so the figures compare
// the libraries rather than the disk. A second pair times the writers alone on an already loaded
// model. Counters: bytes of GLB produced ("glb_bytes") and input bytes per second.
#include <benchmark/benchmark.h>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "critter/io/gltf/gltf_writer.h"
#include "critter/io/load.h"

namespace {

namespace fs = std::filesystem;

const char* const kModels[] = {
    "RiggedFigure/RiggedFigure.glb",
    "SimpleSkin/SimpleSkin.gltf",
    "girl/girl.glb",
    "greenman/greenman.glb",
    "Wizard/Wizard.glb",
    "ozz_cubicspline/cubicspline.gltf",
    "ozz_multiple_roots/multiple_roots.gltf",
    "MorphStressTest/MorphStressTest.gltf",
    "AnimatedMorphSphere/AnimatedMorphSphere.gltf",
    "MorphPrimitivesTest/MorphPrimitivesTest.gltf",
    "AnimatedTriangle/AnimatedTriangle.gltf",
};

std::string path_of(const char* model) {
  return (fs::path(CRITTER_SHARED_MODELS) / model).string();
}

void set_counters(benchmark::State& state, const std::string& path, std::size_t glb_bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(fs::file_size(path)));
  state.counters["glb_bytes"] = static_cast<double>(glb_bytes);
}

// Load + write, critter.
void critter_convert(benchmark::State& state, const std::string& path) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto model = critter::io::load(path);
    if (!model) {
      state.SkipWithError(model.error().to_string().c_str());
      return;
    }
    auto glb = critter::io::encode_glb(*model);
    if (!glb) {
      state.SkipWithError(glb.error().to_string().c_str());
      return;
    }
    bytes = glb->size();
    benchmark::DoNotOptimize(glb->data());
  }
  set_counters(state, path, bytes);
}

// Load + write, Assimp. The import flags are the ones a converter needs to keep the file as it
// is (no post-processing beyond what glTF import does itself).
void assimp_convert(benchmark::State& state, const std::string& path) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, 0);
    if (!scene) {
      state.SkipWithError(importer.GetErrorString());
      return;
    }
    Assimp::Exporter exporter;
    const aiExportDataBlob* blob = exporter.ExportToBlob(scene, "glb2");
    if (!blob) {
      state.SkipWithError(exporter.GetErrorString());
      return;
    }
    bytes = blob->size;
    benchmark::DoNotOptimize(blob->data);
  }
  set_counters(state, path, bytes);
}

// Writers alone, on a model loaded once.
void critter_write(benchmark::State& state, const std::string& path) {
  auto model = critter::io::load(path);
  if (!model) {
    state.SkipWithError(model.error().to_string().c_str());
    return;
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto glb = critter::io::encode_glb(*model);
    if (!glb) {
      state.SkipWithError(glb.error().to_string().c_str());
      return;
    }
    bytes = glb->size();
    benchmark::DoNotOptimize(glb->data());
  }
  set_counters(state, path, bytes);
}

void assimp_write(benchmark::State& state, const std::string& path) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, 0);
  if (!scene) {
    state.SkipWithError(importer.GetErrorString());
    return;
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    Assimp::Exporter exporter;
    const aiExportDataBlob* blob = exporter.ExportToBlob(scene, "glb2");
    if (!blob) {
      state.SkipWithError(exporter.GetErrorString());
      return;
    }
    bytes = blob->size;
    benchmark::DoNotOptimize(blob->data);
  }
  set_counters(state, path, bytes);
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* model : kModels) {
    const std::string path = path_of(model);
    const std::string name = fs::path(model).stem().string();
    benchmark::RegisterBenchmark(("convert/critter/" + name).c_str(), critter_convert, path)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("convert/assimp/" + name).c_str(), assimp_convert, path)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("write/critter/" + name).c_str(), critter_write, path)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("write/assimp/" + name).c_str(), assimp_write, path)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
