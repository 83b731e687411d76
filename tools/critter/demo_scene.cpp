// SPDX-License-Identifier: MIT
#include "demo_scene.h"

#include <cmath>
#include <utility>

namespace critter::cli {

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
