#include "demo_scene.h"

#include <cmath>
#include <numbers>

namespace critter::cli {

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

RawModel make_ground(float radius) {
  RawModel raw;
  raw.name = "ground";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"root", -1, Transform{}, -1});
  MeshPart part;
  constexpr float kCell = 0.5f;
  const int n = static_cast<int>(std::ceil(radius / kCell));
  const vec4 light(0.58f, 0.74f, 0.45f, 1.0f);
  const vec4 dark(0.50f, 0.66f, 0.40f, 1.0f);
  for (int i = -n; i < n; ++i) {
    for (int j = -n; j < n; ++j) {
      const float x0 = static_cast<float>(i) * kCell;
      const float z0 = static_cast<float>(j) * kCell;
      const float cx = x0 + 0.5f * kCell;
      const float cz = z0 + 0.5f * kCell;
      if (cx * cx + cz * cz > radius * radius) continue;
      const auto base = static_cast<std::uint32_t>(part.streams.positions.size());
      const vec4 c = ((i + j) & 1) != 0 ? light : dark;
      for (const vec2& corner : {vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 1)}) {
        part.streams.positions.push_back(vec3(x0 + corner.x * kCell, 0.0f, z0 + corner.y * kCell));
        part.streams.normals.push_back(vec3(0.0f, 1.0f, 0.0f));
        part.streams.colors.push_back(c);
      }
      // Counter-clockwise seen from above (+Y).
      part.indices.insert(part.indices.end(), {base, base + 3, base + 2, base, base + 2, base + 1});
    }
  }
  part.material = 0;
  Mesh mesh;
  mesh.name = "ground";
  mesh.parts.push_back(std::move(part));
  raw.meshes.push_back(std::move(mesh));
  Material m;
  m.name = "grass";
  raw.materials.push_back(m);
  return raw;
}

}  // namespace critter::cli
