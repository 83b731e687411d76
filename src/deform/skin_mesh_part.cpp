// SPDX-License-Identifier: MIT
#include "critter/deform/skin_mesh_part.h"

#include <string>

#include "critter/deform/morph_job.h"
#include "critter/deform/palette_job.h"

namespace critter::deform {

namespace {

Status usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "SkinMeshPartJob", {}, std::move(message)));
}

std::string count_rule(const char* name, std::size_t got, std::size_t expected) {
  return std::string(name) + " has " + std::to_string(got) + " entries, expected " +
         std::to_string(expected);
}

// The influences of a rigid part: every vertex follows palette entry 0 with weight 1 (streams of
// stride 0 repeat these).
constexpr std::uint16_t kRigidJoints[4] = {0, 0, 0, 0};
constexpr float kRigidWeights[4] = {1.0f, 0.0f, 0.0f, 0.0f};

}  // namespace

Status SkinMeshPartJob::validate() const {
  if (model == nullptr) return usage("model is null");
  if (mesh >= model->meshes().size()) {
    return usage("mesh " + std::to_string(mesh) + " is out of range: the model has " +
                 std::to_string(model->meshes().size()) + " meshes");
  }
  const Mesh& m = model->meshes()[mesh];
  if (part >= m.parts.size()) {
    return usage("part " + std::to_string(part) + " is out of range: mesh " + std::to_string(mesh) +
                 " has " + std::to_string(m.parts.size()) + " parts");
  }
  const MeshPart& p = m.parts[part];
  const std::size_t joints = static_cast<std::size_t>(model->skeleton().joint_count());
  if (model_transforms.size() != joints) {
    return usage(count_rule("model_transforms", model_transforms.size(), joints));
  }
  if (!morph_weights.empty() && morph_weights.size() != m.morph_target_count()) {
    return usage(count_rule("morph_weights", morph_weights.size(), m.morph_target_count()) +
                 " or 0");
  }
  const std::size_t n = p.vertex_count();
  if (out_positions.size() != n) return usage(count_rule("out_positions", out_positions.size(), n));
  if (!out_normals.empty()) {
    if (p.streams.normals.empty()) return usage("out_normals given but the part has no normals");
    if (out_normals.size() != n) return usage(count_rule("out_normals", out_normals.size(), n));
  }
  if (!out_tangents.empty()) {
    if (p.streams.tangents.empty()) return usage("out_tangents given but the part has no tangents");
    if (out_tangents.size() != n) return usage(count_rule("out_tangents", out_tangents.size(), n));
  }
  if (m.skin >= 0) {
    const Skin& skin = model->skins()[static_cast<std::size_t>(m.skin)];
    if (palette.size() < skin.joints.size()) {
      return usage("palette has " + std::to_string(palette.size()) + " entries, the skin needs " +
                   std::to_string(skin.joints.size()));
    }
    if (n > 0 && (p.streams.joints.size() != n || p.streams.weights.size() != n)) {
      return usage("the part is skinned but lacks joint or weight streams");
    }
  } else if (m.bone >= 0 && static_cast<std::size_t>(m.bone) >= joints) {
    return usage("the mesh's bone " + std::to_string(m.bone) + " is outside the skeleton");
  }
  return {};
}

Status SkinMeshPartJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  const Mesh& m = model->meshes()[mesh];
  const MeshPart& p = m.parts[part];
  const VertexStreams& s = p.streams;
  const bool normals = !out_normals.empty();
  const bool tangents = !out_tangents.empty();

  // Morph into the outputs, then skin them in place; without morphs, skin straight from the part.
  std::span<const vec3> positions = s.positions;
  std::span<const vec3> base_normals =
      normals ? std::span<const vec3>(s.normals) : std::span<const vec3>{};
  std::span<const vec4> base_tangents =
      tangents ? std::span<const vec4>(s.tangents) : std::span<const vec4>{};
  if (!p.morphs.empty()) {
    MorphJob morph;
    morph.morphs = &p.morphs;
    morph.weights =
        morph_weights.empty() ? std::span<const float>(m.default_weights) : morph_weights;
    morph.in_positions = positions;
    morph.in_normals = base_normals;
    morph.in_tangents = base_tangents;
    morph.out_positions = out_positions;
    morph.out_normals = out_normals;
    morph.out_tangents = out_tangents;
    if (auto ok = morph.run(); !ok) return ok;
    positions = out_positions;
    base_normals = out_normals;
    base_tangents = out_tangents;
  }

  mat4 rigid(1.0f);
  SkinningJob skin;
  if (m.skin >= 0) {
    const Skin& sk = model->skins()[static_cast<std::size_t>(m.skin)];
    PaletteJob pal;
    pal.model_transforms = model_transforms;
    pal.joints = sk.joints;
    pal.inverse_binds = sk.inverse_bind;
    pal.palette = palette;
    if (auto ok = pal.run(); !ok) return ok;
    skin.palette = palette.first(sk.joints.size());
    skin.set_influences(s.joints, s.weights);
  } else {
    if (m.bone >= 0) rigid = model_transforms[static_cast<std::size_t>(m.bone)];
    skin.palette = std::span<const mat4>(&rigid, 1);
    skin.joints = {kRigidJoints, 0};
    skin.weights = {kRigidWeights, 0};
  }
  skin.set_positions(positions, out_positions);
  if (normals) skin.set_normals(base_normals, out_normals);
  if (tangents) skin.set_tangents(base_tangents, out_tangents);
  skin.path = path;
  skin.normal_transform = normal_transform;
  return skin.run();
}

Status skin_mesh_part(const Model& model, std::size_t mesh, std::size_t part,
                      std::span<const mat4> model_transforms, std::span<const float> morph_weights,
                      std::span<mat4> palette, std::span<vec3> out_positions,
                      std::span<vec3> out_normals, std::span<vec4> out_tangents,
                      NormalTransform normal_transform) {
  SkinMeshPartJob job;
  job.model = &model;
  job.mesh = mesh;
  job.part = part;
  job.model_transforms = model_transforms;
  job.morph_weights = morph_weights;
  job.palette = palette;
  job.out_positions = out_positions;
  job.out_normals = out_normals;
  job.out_tangents = out_tangents;
  job.normal_transform = normal_transform;
  return job.run();
}

}  // namespace critter::deform
