// SPDX-License-Identifier: MIT
#include "critter/asset/model.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "critter/core/strings.h"

namespace critter {

namespace {

template <class T, class NameOf>
int find_by_name(std::span<const T> items, std::string_view name, NameOf name_of) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (name_of(items[i]) == name) return static_cast<int>(i);
  for (std::size_t i = 0; i < items.size(); ++i)
    if (iequals(name_of(items[i]), name)) return static_cast<int>(i);
  return -1;
}

// Builder context: the file name and a shorthand for located failures.
struct Ctx {
  std::string path;
  Diagnostics* diag;
  std::unexpected<Error> fail(ErrorCode code, std::string where, std::string msg) const {
    return critter::fail(Error::at(code, path, std::move(where), std::move(msg)));
  }
  void warn(std::string where, std::string msg) const {
    if (diag) diag->warn(path, std::move(where), std::move(msg));
  }
};

std::string str(std::size_t v) {
  return std::to_string(v);
}

Status check_texture(const Ctx& c, const TextureRef& t, std::size_t image_count,
                     const std::string& where) {
  if (t.image < -1 || t.image >= static_cast<std::int32_t>(image_count))
    return c.fail(ErrorCode::kOutOfRange, where,
                  "texture refers to image " + std::to_string(t.image) + ", model has " +
                      str(image_count) + " images");
  if (t.texcoord < 0 || t.texcoord > 1)
    return c.fail(
        ErrorCode::kUnsupported, where,
        "texture uses UV set " + std::to_string(t.texcoord) + ", critter keeps sets 0 and 1");
  return {};
}

template <class V>
Status check_stream(const Ctx& c, const std::vector<V>& s, std::size_t n, const char* name,
                    const std::string& where) {
  if (!s.empty() && s.size() != n)
    return c.fail(ErrorCode::kInvalid, where,
                  std::string(name) + " stream has " + str(s.size()) + " entries, expected " +
                      str(n) + " (one per position)");
  return {};
}

Status check_part(const Ctx& c, MeshPart& part, const Mesh& mesh, const std::vector<Skin>& skins,
                  std::size_t material_count, const std::string& where) {
  VertexStreams& s = part.streams;
  const std::size_t n = s.positions.size();
  if (n == 0) return c.fail(ErrorCode::kInvalid, where, "part has no vertices");
  if (n > 0xFFFFFFFFull)
    return c.fail(ErrorCode::kLimit, where, "part has more than 2^32 vertices");
  if (auto r = check_stream(c, s.normals, n, "normals", where); !r) return r;
  if (auto r = check_stream(c, s.tangents, n, "tangents", where); !r) return r;
  if (auto r = check_stream(c, s.uv0, n, "uv0", where); !r) return r;
  if (auto r = check_stream(c, s.uv1, n, "uv1", where); !r) return r;
  if (auto r = check_stream(c, s.colors, n, "colors", where); !r) return r;
  if (auto r = check_stream(c, s.joints, n, "joints", where); !r) return r;
  if (auto r = check_stream(c, s.weights, n, "weights", where); !r) return r;
  if (s.joints.empty() != s.weights.empty())
    return c.fail(ErrorCode::kInvalid, where, "joints and weights streams must come together");

  for (std::size_t v = 0; v < n; ++v)
    if (!all_finite(s.positions[v]))
      return c.fail(ErrorCode::kInvalid, where, "position " + str(v) + " is not finite");

  const std::size_t prim = part.topology == Topology::kTriangles ? 3u
                           : part.topology == Topology::kLines   ? 2u
                                                                 : 1u;
  const std::size_t elements = part.element_count();
  if (elements % prim != 0)
    return c.fail(ErrorCode::kInvalid, where,
                  (part.indices.empty() ? "vertex count " : "index count ") + str(elements) +
                      " is not a multiple of " + str(prim));
  for (std::size_t i = 0; i < part.indices.size(); ++i)
    if (part.indices[i] >= n)
      return c.fail(
          ErrorCode::kOutOfRange, where,
          "index " + str(i) + " is " + str(part.indices[i]) + ", part has " + str(n) + " vertices");

  if (part.material < -1 || part.material >= static_cast<std::int32_t>(material_count))
    return c.fail(ErrorCode::kOutOfRange, where,
                  "material " + std::to_string(part.material) + " does not exist (" +
                      str(material_count) + " materials)");

  if (!s.joints.empty() && mesh.skin >= 0) {
    const std::size_t joint_count = skins[static_cast<std::size_t>(mesh.skin)].joints.size();
    std::size_t empty_vertices = 0;
    for (std::size_t v = 0; v < n; ++v) {
      vec4& w = s.weights[v];
      if (!all_finite(w) || w.x < 0 || w.y < 0 || w.z < 0 || w.w < 0)
        return c.fail(ErrorCode::kInvalid, where,
                      "vertex " + str(v) + " has a negative or non-finite weight");
      for (int k = 0; k < 4; ++k)
        if (w[k] > 0.0f && s.joints[v][k] >= joint_count)
          return c.fail(ErrorCode::kOutOfRange, where,
                        "vertex " + str(v) + " uses skin joint " + str(s.joints[v][k]) +
                            ", skin has " + str(joint_count) + " joints");
      // Influences with zero weight may carry any index; point them at joint 0 so no consumer
      // ever reads past the palette.
      for (int k = 0; k < 4; ++k)
        if (w[k] == 0.0f) s.joints[v][k] = 0;
      const float sum = w.x + w.y + w.z + w.w;
      if (sum <= 1e-8f) {
        ++empty_vertices;
        w = vec4(1, 0, 0, 0);
        s.joints[v] = glm::u16vec4(0);
      } else if (std::abs(sum - 1.0f) > 1e-6f) {
        w /= sum;
      }
    }
    if (empty_vertices)
      c.warn(where, str(empty_vertices) + " vertices have no skin weight; bound to skin joint 0");
  }

  const std::size_t targets = mesh.default_weights.size();
  if (part.morphs.target_count() != targets)
    return c.fail(ErrorCode::kInvalid, where,
                  "part has " + str(part.morphs.target_count()) + " morph targets, mesh has " +
                      str(targets) + " default weights");
  for (std::size_t t = 0; t < targets; ++t) {
    const MorphTarget& m = part.morphs.targets[t];
    const std::string tw = where + "/targets/" + str(t);
    if (auto r = check_stream(c, m.positions, n, "morph position", tw); !r) return r;
    if (auto r = check_stream(c, m.normals, n, "morph normal", tw); !r) return r;
    if (auto r = check_stream(c, m.tangents, n, "morph tangent", tw); !r) return r;
  }

  part.bounds = Aabb{};
  for (const vec3& p : s.positions) part.bounds.expand(p);
  return {};
}

}  // namespace

int Model::find_mesh(std::string_view name) const {
  return find_by_name(meshes(), name, [](const Mesh& m) -> std::string_view { return m.name; });
}

int Model::find_clip(std::string_view name) const {
  return find_by_name(clips(), name, [](const Clip& c) -> std::string_view { return c.name(); });
}

Result<Model> build_model(RawModel raw, Diagnostics* diag) {
  const Ctx c{raw.source_path.empty() ? raw.name : raw.source_path, diag};

  std::vector<int> remap;
  auto skeleton = build_skeleton(raw.skeleton, &remap, c.path);
  if (!skeleton) return std::unexpected(std::move(skeleton.error()));
  const int joint_count = skeleton->joint_count();
  auto map_joint = [&](std::int32_t raw_index) {
    return raw_index < 0 ? -1 : remap[static_cast<std::size_t>(raw_index)];
  };

  // Images and materials.
  for (std::size_t i = 0; i < raw.images.size(); ++i) {
    const Image& img = raw.images[i];
    if (img.bytes.empty() && img.resolved_path.empty() && !img.missing)
      return c.fail(ErrorCode::kInvalid, "/images/" + str(i), "image has neither data nor a file");
  }
  for (std::size_t i = 0; i < raw.materials.size(); ++i) {
    Material& m = raw.materials[i];
    const std::string where = "/materials/" + str(i);
    if (auto r = check_texture(c, m.base_color_texture, raw.images.size(), where); !r)
      return std::unexpected(r.error());
    if (auto r = check_texture(c, m.normal_texture, raw.images.size(), where); !r)
      return std::unexpected(r.error());
    if (!all_finite(m.base_color_factor) || !all_finite(m.emissive_factor) ||
        !std::isfinite(m.alpha_cutoff) || !std::isfinite(m.metallic_factor) ||
        !std::isfinite(m.roughness_factor))
      return c.fail(ErrorCode::kInvalid, where, "material has a non-finite factor");
  }

  // Skins.
  for (std::size_t i = 0; i < raw.skins.size(); ++i) {
    Skin& s = raw.skins[i];
    const std::string where = "/skins/" + str(i);
    if (s.joints.empty()) return c.fail(ErrorCode::kInvalid, where, "skin has no joints");
    for (std::size_t j = 0; j < s.joints.size(); ++j) {
      if (s.joints[j] < 0 || s.joints[j] >= joint_count)
        return c.fail(ErrorCode::kOutOfRange, where + "/joints/" + str(j),
                      "joint " + std::to_string(s.joints[j]) + " does not exist (" +
                          std::to_string(joint_count) + " joints)");
      s.joints[j] = static_cast<std::int16_t>(map_joint(s.joints[j]));
    }
    if (s.inverse_bind.empty()) s.inverse_bind.assign(s.joints.size(), mat4(1.0f));
    if (s.inverse_bind.size() != s.joints.size())
      return c.fail(ErrorCode::kInvalid, where,
                    "skin has " + str(s.inverse_bind.size()) + " inverse bind matrices for " +
                        str(s.joints.size()) + " joints");
    for (std::size_t j = 0; j < s.inverse_bind.size(); ++j)
      if (!all_finite(s.inverse_bind[j]))
        return c.fail(ErrorCode::kInvalid, where + "/inverse_bind/" + str(j),
                      "inverse bind matrix is not finite");
    if (s.skeleton_root < -1 || s.skeleton_root >= joint_count)
      return c.fail(ErrorCode::kOutOfRange, where, "skeleton root joint does not exist");
    s.skeleton_root = map_joint(s.skeleton_root);
  }

  // Meshes.
  std::vector<std::size_t> morph_counts;
  morph_counts.reserve(raw.meshes.size());
  for (std::size_t i = 0; i < raw.meshes.size(); ++i) {
    Mesh& mesh = raw.meshes[i];
    const std::string where = "/meshes/" + str(i);
    if (mesh.bone < -1 || mesh.bone >= joint_count)
      return c.fail(ErrorCode::kOutOfRange, where,
                    "mesh hangs from joint " + std::to_string(mesh.bone) + ", skeleton has " +
                        std::to_string(joint_count) + " joints");
    mesh.bone = map_joint(mesh.bone);
    if (mesh.skin < -1 || mesh.skin >= static_cast<std::int32_t>(raw.skins.size()))
      return c.fail(ErrorCode::kOutOfRange, where,
                    "mesh uses skin " + std::to_string(mesh.skin) + ", model has " +
                        str(raw.skins.size()) + " skins");
    if (mesh.parts.empty()) return c.fail(ErrorCode::kInvalid, where, "mesh has no parts");
    // A mesh whose targets came without default weights gets zeros.
    if (mesh.default_weights.empty() && !mesh.parts.front().morphs.empty())
      mesh.default_weights.assign(mesh.parts.front().morphs.target_count(), 0.0f);
    for (float w : mesh.default_weights)
      if (!std::isfinite(w))
        return c.fail(ErrorCode::kInvalid, where, "default weight is not finite");
    mesh.bounds = Aabb{};
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      if (auto r = check_part(c, mesh.parts[p], mesh, raw.skins, raw.materials.size(),
                              where + "/parts/" + str(p));
          !r)
        return std::unexpected(r.error());
      mesh.bounds.expand(mesh.parts[p].bounds);
    }
    morph_counts.push_back(mesh.default_weights.size());
  }

  // Clips: remap joint tracks into the built order.
  Model model;
  model.clips_.reserve(raw.clips.size());
  for (std::size_t i = 0; i < raw.clips.size(); ++i) {
    RawClip& rc = raw.clips[i];
    if (rc.source_location.empty()) rc.source_location = "/clips/" + str(i);
    for (RawTrack& t : rc.tracks)
      if (t.target != TrackTarget::kWeights && t.index >= 0 && t.index < joint_count)
        t.index = map_joint(t.index);
    auto clip = build_clip(rc, joint_count, morph_counts, c.path);
    if (!clip) return std::unexpected(std::move(clip.error()));
    model.clips_.push_back(std::move(*clip));
  }

  // Rest model-space transforms: one forward pass, parents first.
  const auto parents = skeleton->parents();
  const auto rest = skeleton->rest_pose();
  model.rest_model_.resize(static_cast<std::size_t>(joint_count));
  for (int j = 0; j < joint_count; ++j) {
    const mat4 local = rest[static_cast<std::size_t>(j)].to_matrix();
    const int p = parents[static_cast<std::size_t>(j)];
    model.rest_model_[static_cast<std::size_t>(j)] =
        p < 0 ? local : model.rest_model_[static_cast<std::size_t>(p)] * local;
  }

  // Rest-pose bounds: skinned parts skinned with the rest palette, rigid parts placed by bone.
  Aabb bounds;
  std::vector<mat4> palette;
  for (const Mesh& mesh : raw.meshes) {
    if (mesh.skin >= 0) {
      const Skin& skin = raw.skins[static_cast<std::size_t>(mesh.skin)];
      palette.resize(skin.joints.size());
      for (std::size_t j = 0; j < skin.joints.size(); ++j)
        palette[j] =
            model.rest_model_[static_cast<std::size_t>(skin.joints[j])] * skin.inverse_bind[j];
      for (const MeshPart& part : mesh.parts) {
        const VertexStreams& s = part.streams;
        if (s.joints.empty()) {
          bounds.expand(part.bounds);
          continue;
        }
        for (std::size_t v = 0; v < s.positions.size(); ++v) {
          const vec4 p(s.positions[v], 1.0f);
          vec4 out(0.0f);
          for (int k = 0; k < 4; ++k)
            if (s.weights[v][k] > 0.0f) out += s.weights[v][k] * (palette[s.joints[v][k]] * p);
          bounds.expand(vec3(out));
        }
      }
    } else {
      const mat4 place =
          mesh.bone >= 0 ? model.rest_model_[static_cast<std::size_t>(mesh.bone)] : mat4(1.0f);
      bounds.expand(mesh.bounds.transformed(place));
    }
  }
  model.bounds_ = bounds;
  if (!bounds.empty()) {
    model.sphere_.center = bounds.center();
    model.sphere_.radius = 0.5f * glm::length(bounds.extent());
  }

  model.name_ = std::move(raw.name);
  model.format_ = std::move(raw.format);
  model.source_path_ = std::move(raw.source_path);
  model.skeleton_ = std::move(*skeleton);
  model.meshes_ = std::move(raw.meshes);
  model.skins_ = std::move(raw.skins);
  model.materials_ = std::move(raw.materials);
  model.images_ = std::move(raw.images);
  return model;
}

Result<Model> append_clips(const Model& model, std::vector<RawClip> clips) {
  const std::string& path = model.source_path_.empty() ? model.name_ : model.source_path_;
  std::vector<std::size_t> morph_counts;
  morph_counts.reserve(model.meshes_.size());
  for (const Mesh& mesh : model.meshes_) morph_counts.push_back(mesh.default_weights.size());

  Model out;
  out.clips_.reserve(model.clips_.size() + clips.size());
  out.clips_.insert(out.clips_.end(), model.clips_.begin(), model.clips_.end());
  for (std::size_t i = 0; i < clips.size(); ++i) {
    RawClip& rc = clips[i];
    if (rc.source_location.empty()) rc.source_location = "/clips/" + str(out.clips_.size());
    auto clip = build_clip(rc, model.skeleton_.joint_count(), morph_counts, path);
    if (!clip) return std::unexpected(std::move(clip.error()));
    out.clips_.push_back(std::move(*clip));
  }
  out.name_ = model.name_;
  out.format_ = model.format_;
  out.source_path_ = model.source_path_;
  out.skeleton_ = model.skeleton_;
  out.meshes_ = model.meshes_;
  out.skins_ = model.skins_;
  out.materials_ = model.materials_;
  out.images_ = model.images_;
  out.rest_model_ = model.rest_model_;
  out.bounds_ = model.bounds_;
  out.sphere_ = model.sphere_;
  out.compact_clips_ = model.compact_clips_;
  return out;
}

float character_size(const Model& model) {
  Aabb joints;
  for (const mat4& m : model.rest_model_transforms()) joints.expand(vec3(m[3]));
  float size = 0.0f;
  if (!model.bounds().empty()) size = glm::length(model.bounds().extent());
  if (!joints.empty()) size = std::max(size, glm::length(joints.extent()));
  return size > 0.0f && std::isfinite(size) ? size : 1.0f;
}

Result<Model> with_compact_clips(Model model, float relative_tolerance,
                                 std::vector<CompactClipStats>* stats) {
  if (!(std::isfinite(relative_tolerance) && relative_tolerance > 0.0f))
    return fail(Error::at(ErrorCode::kUsage, "compact", "", "tolerance must be finite and > 0"));
  const float size = character_size(model);
  const CompactOptions options{.tolerance = relative_tolerance * size,
                               .virtual_distance = 0.01f * size};
  std::vector<std::size_t> morph_counts;
  for (const Mesh& mesh : model.meshes_) morph_counts.push_back(mesh.default_weights.size());
  const std::string& path = model.source_path_.empty() ? model.name_ : model.source_path_;
  std::vector<CompactClip> compact;
  compact.reserve(model.clips_.size());
  if (stats) stats->clear();
  for (std::size_t i = 0; i < model.clips_.size(); ++i) {
    CompactClipStats s;
    auto c = build_compact_clip(model.clips_[i], model.skeleton_, model.rest_model_, morph_counts,
                                options, &s);
    if (!c) {
      Error e = c.error();
      e.path = path;
      e.location = "/clips/" + str(i);
      return fail(std::move(e));
    }
    compact.push_back(std::move(*c));
    if (stats) stats->push_back(s);
  }
  model.compact_clips_ = std::move(compact);
  return model;
}

Model assemble_model(ModelParts parts) {
  Model m;
  m.name_ = std::move(parts.name);
  m.format_ = std::move(parts.format);
  m.source_path_ = std::move(parts.source_path);
  m.skeleton_ = std::move(parts.skeleton);
  m.meshes_ = std::move(parts.meshes);
  m.skins_ = std::move(parts.skins);
  m.clips_ = std::move(parts.clips);
  m.compact_clips_ = std::move(parts.compact_clips);
  m.materials_ = std::move(parts.materials);
  m.images_ = std::move(parts.images);
  m.rest_model_ = std::move(parts.rest_model);
  m.bounds_ = parts.bounds;
  m.sphere_ = parts.sphere;
  return m;
}

Result<Model> replace_materials(const Model& model, std::vector<Material> materials,
                                std::vector<Image> images) {
  const std::string& path = model.source_path_.empty() ? model.name_ : model.source_path_;
  if (materials.size() != model.materials_.size()) {
    return fail(Error::at(
        ErrorCode::kInvalid, path, "/materials",
        "expected " + str(model.materials_.size()) + " materials, got " + str(materials.size())));
  }
  const auto valid = [&](const TextureRef& t) {
    return t.image >= -1 && t.image < static_cast<std::int32_t>(images.size());
  };
  for (std::size_t i = 0; i < materials.size(); ++i) {
    if (!valid(materials[i].base_color_texture) || !valid(materials[i].normal_texture)) {
      return fail(Error::at(ErrorCode::kInvalid, path, "/materials/" + str(i),
                            "texture image index out of range"));
    }
  }
  Model out;
  out.name_ = model.name_;
  out.format_ = model.format_;
  out.source_path_ = model.source_path_;
  out.skeleton_ = model.skeleton_;
  out.meshes_ = model.meshes_;
  out.skins_ = model.skins_;
  out.clips_ = model.clips_;
  out.compact_clips_ = model.compact_clips_;
  out.materials_ = std::move(materials);
  out.images_ = std::move(images);
  out.rest_model_ = model.rest_model_;
  out.bounds_ = model.bounds_;
  out.sphere_ = model.sphere_;
  return out;
}

Result<Model> append_joints(const Model& model, std::vector<RawJoint> joints,
                            std::vector<Mesh> meshes, std::vector<Skin> skins, Diagnostics* diag) {
  const std::string& path = model.source_path_.empty() ? model.name_ : model.source_path_;
  const int old_count = model.skeleton_.joint_count();
  RawModel raw;
  raw.name = model.name_;
  raw.format = model.format_;
  raw.source_path = model.source_path_;
  raw.skeleton.joints.reserve(static_cast<std::size_t>(old_count) + joints.size());
  for (int j = 0; j < old_count; ++j) {
    const auto u = static_cast<std::size_t>(j);
    raw.skeleton.joints.push_back(RawJoint{model.skeleton_.names()[u], model.skeleton_.parents()[u],
                                           model.skeleton_.rest_pose()[u],
                                           model.skeleton_.source_indices()[u]});
  }
  for (std::size_t i = 0; i < joints.size(); ++i) {
    // Parents first keeps build_skeleton's order the identity, which the kept clips rely on.
    if (joints[i].parent >= old_count + static_cast<std::int32_t>(i))
      return fail(Error::at(ErrorCode::kInvalid, path, "/joints/" + str(old_count + i),
                            "appended joint '" + joints[i].name + "' comes before its parent"));
    raw.skeleton.joints.push_back(std::move(joints[i]));
  }
  raw.meshes = std::move(meshes);
  raw.skins = std::move(skins);
  raw.materials = model.materials_;
  raw.images = model.images_;
  auto built = build_model(std::move(raw), diag);
  if (!built) return built;
  built->clips_ = model.clips_;
  // A compact clip names joints by index and is sampled over any pose at least that long; the
  // appended joints have no tracks, so the model's compact clips hold as they are.
  built->compact_clips_ = model.compact_clips_;
  return built;
}

}  // namespace critter
