// SPDX-License-Identifier: MIT
// libFuzzer target: whatever the glTF reader accepts, the writer writes (as .glb in memory) and
// the reader reads back with the same meshes, skins and materials, every clip that has a track
// and at least the joints it had (the writer may add nodes to hold meshes). A second round trip
// changes nothing at all: the written model is a fixed point of write-then-read.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "critter/io/gltf/gltf_reader.h"
#include "critter/io/gltf/gltf_writer.h"
#include "fuzz_support.h"

namespace {

using namespace critter;

std::size_t clips_with_tracks(const Model& m) {
  std::size_t n = 0;
  for (const Clip& c : m.clips()) n += c.tracks().empty() ? 0 : 1;
  return n;
}

std::string counts(const Model& m) {
  return "joints " + std::to_string(m.skeleton().joint_count()) + ", meshes " +
         std::to_string(m.meshes().size()) + ", skins " + std::to_string(m.skins().size()) +
         ", materials " + std::to_string(m.materials().size()) + ", clips " +
         std::to_string(m.clips().size()) + " (" + std::to_string(clips_with_tracks(m)) +
         " with tracks)";
}

// Writes `model` as .glb and reads it back; a failure of either step breaks the property.
Model round_trip(const Model& model, const char* stage) {
  Diagnostics diag;
  auto glb = io::encode_glb(model, "fuzz.glb", &diag);
  if (!glb) fuzz::fail(stage, "write failed: " + glb.error().to_string());
  auto copy = io::load_gltf_memory(*glb, "fuzz.glb", fuzz::scratch_dir(), {}, &diag);
  if (!copy) fuzz::fail(stage, "written file not read back: " + copy.error().to_string());
  return std::move(*copy);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  auto original = io::load_gltf_memory(bytes, "fuzz.gltf", fuzz::scratch_dir());
  if (!original) return 0;

  const Model first = round_trip(*original, "round trip 1");
  const Model& a = *original;
  if (first.meshes().size() != a.meshes().size() || first.skins().size() != a.skins().size() ||
      first.materials().size() != a.materials().size() ||
      first.clips().size() != clips_with_tracks(a) ||
      first.skeleton().joint_count() < a.skeleton().joint_count() ||
      first.skeleton().joint_count() >
          a.skeleton().joint_count() + static_cast<int>(a.meshes().size()))
    fuzz::fail("round trip 1", "read " + counts(a) + ", copy has " + counts(first));

  const Model second = round_trip(first, "round trip 2");
  if (counts(second) != counts(first))
    fuzz::fail("round trip 2", "copy has " + counts(first) + ", its copy " + counts(second));
  return 0;
}
