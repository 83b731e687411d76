// SPDX-License-Identifier: MIT
#include "morph_blob.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>

namespace critter::tools {

RawModel make_morph_blob() {
  RawModel raw;
  raw.name = "morph_blob";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"root", -1, Transform{}, -1});
  constexpr int kRings = 24;
  constexpr int kSegments = 40;
  constexpr float kRadius = 0.35f;
  const vec3 centre(0.0f, kRadius, 0.0f);
  MeshPart part;
  MorphTarget stretch;
  MorphTarget ripple;
  for (int r = 0; r <= kRings; ++r) {
    const float lat = std::numbers::pi_v<float> * (static_cast<float>(r) / kRings - 0.5f);
    for (int s = 0; s <= kSegments; ++s) {
      const float lon = 2.0f * std::numbers::pi_v<float> * static_cast<float>(s) / kSegments;
      const vec3 n(std::cos(lat) * std::sin(lon), std::sin(lat), std::cos(lat) * std::cos(lon));
      part.streams.positions.push_back(centre + n * kRadius);
      part.streams.normals.push_back(n);
      part.streams.uv0.push_back(
          vec2(static_cast<float>(s) / kSegments, static_cast<float>(r) / kRings));
      // Taller and thinner, the bottom staying on the ground.
      const float up = (n.y + 1.0f) * kRadius;
      stretch.positions.push_back(vec3(-0.3f * n.x * kRadius, 0.7f * up, -0.3f * n.z * kRadius));
      // Six waves around, strongest at the equator.
      const float wave = 0.25f * kRadius * std::sin(6.0f * lon) * std::cos(lat);
      ripple.positions.push_back(n * wave);
    }
  }
  for (int r = 0; r < kRings; ++r) {
    for (int s = 0; s < kSegments; ++s) {
      const auto a = static_cast<std::uint32_t>(r * (kSegments + 1) + s);
      const auto b = a + kSegments + 1;
      part.indices.insert(part.indices.end(), {a, a + 1, b, b, a + 1, b + 1});
    }
  }
  part.material = 0;
  part.morphs.targets = {stretch, ripple};
  Mesh mesh;
  mesh.name = "blob";
  mesh.parts.push_back(std::move(part));
  mesh.morph_names = {"stretch", "ripple"};
  mesh.default_weights = {0.0f, 0.0f};
  raw.meshes.push_back(std::move(mesh));

  Material m;
  m.name = "coral";
  m.base_color_factor = vec4(0.95f, 0.42f, 0.32f, 1.0f);
  raw.materials.push_back(m);

  RawClip clip;
  clip.name = "pulse";
  RawTrack weights;
  weights.target = TrackTarget::kWeights;
  weights.index = 0;
  weights.components = 2;
  weights.times = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f};
  weights.values = {0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
  clip.tracks.push_back(std::move(weights));
  raw.clips.push_back(std::move(clip));
  return raw;
}

}  // namespace critter::tools
