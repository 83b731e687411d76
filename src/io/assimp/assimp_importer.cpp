// SPDX-License-Identifier: MIT
#include "critter/io/assimp/assimp_importer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "critter/core/strings.h"
#include "io/assimp/assimp_internal.h"
#include "io/assimp/assimp_isolation.h"

namespace critter::io {

namespace {

namespace fs = std::filesystem;
using assimp_detail::GuardedIoSystem;

constexpr double kDefaultTicksPerSecond = 25.0;  // what Assimp's own tools assume for 0

std::string str(std::size_t n) {
  return std::to_string(n);
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

mat4 to_mat4(const aiMatrix4x4& m) {
  // aiMatrix4x4 is row-major (a1..a4 is the first row); glm takes columns.
  const auto f = [](ai_real v) { return static_cast<float>(v); };
  return mat4(vec4(f(m.a1), f(m.b1), f(m.c1), f(m.d1)), vec4(f(m.a2), f(m.b2), f(m.c2), f(m.d2)),
              vec4(f(m.a3), f(m.b3), f(m.c3), f(m.d3)), vec4(f(m.a4), f(m.b4), f(m.c4), f(m.d4)));
}

vec3 to_vec3(const aiVector3D& v) {
  return vec3(static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z));
}

std::string format_of(const std::string& ext) {
  if (ext == "dae" || ext == "zae") return "collada";
  return ext;
}

// Structural checks of Assimp's output before anything reads it: without Assimp's validation
// step every pointer, count and index is taken on trust otherwise.
Status check_scene(const aiScene* scene, const std::string& path) {
  const auto bad = [&](ErrorCode code, std::string where, std::string message) {
    return fail(Error::at(code, path, std::move(where), std::move(message)));
  };
  if (!scene->mRootNode) return bad(ErrorCode::kInvalid, "/nodes", "scene has no root node");
  if (scene->mNumMeshes && !scene->mMeshes) return bad(ErrorCode::kInvalid, "/meshes", "missing");
  if (scene->mNumMaterials && !scene->mMaterials) {
    return bad(ErrorCode::kInvalid, "/materials", "missing");
  }
  if (scene->mNumAnimations && !scene->mAnimations) {
    return bad(ErrorCode::kInvalid, "/animations", "missing");
  }
  if (scene->mNumTextures && !scene->mTextures) {
    return bad(ErrorCode::kInvalid, "/textures", "missing");
  }
  for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
    if (!scene->mMaterials[i]) return bad(ErrorCode::kInvalid, "/materials/" + str(i), "missing");
  }
  for (unsigned i = 0; i < scene->mNumTextures; ++i) {
    const aiTexture* t = scene->mTextures[i];
    if (!t || (!t->pcData && t->mWidth)) {
      return bad(ErrorCode::kInvalid, "/textures/" + str(i), "texture has no data");
    }
  }
  for (unsigned i = 0; i < scene->mNumMeshes; ++i) {
    const aiMesh* m = scene->mMeshes[i];
    const std::string where = "/meshes/" + str(i);
    if (!m) return bad(ErrorCode::kInvalid, where, "missing");
    const unsigned n = m->mNumVertices;
    if (n && !m->mVertices) return bad(ErrorCode::kInvalid, where, "vertices missing");
    if (m->mNumFaces && !m->mFaces) return bad(ErrorCode::kInvalid, where, "faces missing");
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
      const aiFace& face = m->mFaces[f];
      if (face.mNumIndices && !face.mIndices) {
        return bad(ErrorCode::kInvalid, where + "/faces/" + str(f), "indices missing");
      }
      for (unsigned k = 0; k < face.mNumIndices; ++k) {
        if (face.mIndices[k] >= n) {
          return bad(ErrorCode::kOutOfRange, where + "/faces/" + str(f),
                     "vertex index " + str(face.mIndices[k]) + " >= vertex count " + str(n));
        }
      }
    }
    if (m->mNumBones && !m->mBones) return bad(ErrorCode::kInvalid, where, "bones missing");
    for (unsigned b = 0; b < m->mNumBones; ++b) {
      const aiBone* bone = m->mBones[b];
      const std::string bw = where + "/bones/" + str(b);
      if (!bone) return bad(ErrorCode::kInvalid, bw, "missing");
      if (bone->mNumWeights && !bone->mWeights) return bad(ErrorCode::kInvalid, bw, "no weights");
      for (unsigned w = 0; w < bone->mNumWeights; ++w) {
        if (bone->mWeights[w].mVertexId >= n) {
          return bad(ErrorCode::kOutOfRange, bw,
                     "weight " + str(w) + " names vertex " + str(bone->mWeights[w].mVertexId) +
                         " of " + str(n));
        }
      }
    }
    if (m->mNumAnimMeshes && !m->mAnimMeshes) {
      return bad(ErrorCode::kInvalid, where, "morph targets missing");
    }
    for (unsigned a = 0; a < m->mNumAnimMeshes; ++a) {
      const aiAnimMesh* am = m->mAnimMeshes[a];
      if (!am) return bad(ErrorCode::kInvalid, where + "/morphs/" + str(a), "missing");
      if (am->mNumVertices != n) {
        return bad(ErrorCode::kInvalid, where + "/morphs/" + str(a),
                   "morph target has " + str(am->mNumVertices) + " vertices, mesh has " + str(n));
      }
    }
  }
  for (unsigned i = 0; i < scene->mNumAnimations; ++i) {
    const aiAnimation* a = scene->mAnimations[i];
    const std::string where = "/animations/" + str(i);
    if (!a) return bad(ErrorCode::kInvalid, where, "missing");
    if (a->mNumChannels && !a->mChannels) return bad(ErrorCode::kInvalid, where, "no channels");
    for (unsigned c = 0; c < a->mNumChannels; ++c) {
      const aiNodeAnim* ch = a->mChannels[c];
      const std::string cw = where + "/channels/" + str(c);
      if (!ch) return bad(ErrorCode::kInvalid, cw, "missing");
      if ((ch->mNumPositionKeys && !ch->mPositionKeys) ||
          (ch->mNumRotationKeys && !ch->mRotationKeys) ||
          (ch->mNumScalingKeys && !ch->mScalingKeys)) {
        return bad(ErrorCode::kInvalid, cw, "key list missing");
      }
    }
    if (a->mNumMorphMeshChannels && !a->mMorphMeshChannels) {
      return bad(ErrorCode::kInvalid, where, "no morph channels");
    }
    for (unsigned c = 0; c < a->mNumMorphMeshChannels; ++c) {
      const aiMeshMorphAnim* ch = a->mMorphMeshChannels[c];
      const std::string cw = where + "/morph_channels/" + str(c);
      if (!ch || (ch->mNumKeys && !ch->mKeys)) return bad(ErrorCode::kInvalid, cw, "missing");
      for (unsigned k = 0; k < ch->mNumKeys; ++k) {
        const aiMeshMorphKey& key = ch->mKeys[k];
        if (key.mNumValuesAndWeights && (!key.mValues || !key.mWeights)) {
          return bad(ErrorCode::kInvalid, cw + "/keys/" + str(k), "values missing");
        }
      }
    }
  }
  // Node tree: every pointer set, mesh indices valid, no node reached twice (a cycle or a
  // shared subtree would make joints ambiguous). Iterative: a deep file must not overflow the
  // stack.
  std::unordered_set<const aiNode*> seen;
  std::vector<const aiNode*> stack{scene->mRootNode};
  while (!stack.empty()) {
    const aiNode* node = stack.back();
    stack.pop_back();
    const std::string where = "/nodes/" + in_quotes(node->mName.C_Str());
    if (!seen.insert(node).second) {
      return bad(ErrorCode::kInvalid, where, "node appears twice in the hierarchy");
    }
    if (node->mNumMeshes && !node->mMeshes) return bad(ErrorCode::kInvalid, where, "no meshes");
    for (unsigned k = 0; k < node->mNumMeshes; ++k) {
      if (node->mMeshes[k] >= scene->mNumMeshes) {
        return bad(
            ErrorCode::kOutOfRange, where,
            "mesh index " + str(node->mMeshes[k]) + " >= mesh count " + str(scene->mNumMeshes));
      }
    }
    if (node->mNumChildren && !node->mChildren) {
      return bad(ErrorCode::kInvalid, where, "children missing");
    }
    for (unsigned k = 0; k < node->mNumChildren; ++k) {
      if (!node->mChildren[k]) return bad(ErrorCode::kInvalid, where, "child missing");
      stack.push_back(node->mChildren[k]);
    }
  }
  return {};
}

// Merges vertices whose every stream (skin weights and morph deltas included) is bit-for-bit
// equal. Importers such as B3D and OBJ give every face corner its own vertex; sharing them again
// shrinks meshes without changing what is drawn.
void join_identical_vertices(MeshPart& part) {
  VertexStreams& s = part.streams;
  const std::size_t n = s.vertex_count();
  std::unordered_map<std::string, std::uint32_t> first;
  first.reserve(n);
  std::vector<std::uint32_t> remap(n);
  std::vector<std::uint32_t> kept;
  kept.reserve(n);
  std::string key;
  const auto add = [&key](const auto& stream, std::size_t v) {
    if (!stream.empty()) {
      key.append(reinterpret_cast<const char*>(&stream[v]), sizeof(stream[v]));
    }
  };
  for (std::size_t v = 0; v < n; ++v) {
    key.clear();
    add(s.positions, v);
    add(s.normals, v);
    add(s.tangents, v);
    add(s.uv0, v);
    add(s.uv1, v);
    add(s.colors, v);
    add(s.joints, v);
    add(s.weights, v);
    for (const MorphTarget& t : part.morphs.targets) {
      add(t.positions, v);
      add(t.normals, v);
      add(t.tangents, v);
    }
    const auto [it, inserted] = first.emplace(key, static_cast<std::uint32_t>(kept.size()));
    if (inserted) kept.push_back(static_cast<std::uint32_t>(v));
    remap[v] = it->second;
  }
  if (kept.size() == n) return;
  if (part.indices.empty()) {
    part.indices = std::move(remap);
  } else {
    for (std::uint32_t& i : part.indices) i = remap[i];
  }
  const auto compact = [&kept](auto& stream) {
    if (stream.empty()) return;
    for (std::size_t k = 0; k < kept.size(); ++k) stream[k] = stream[kept[k]];
    stream.resize(kept.size());
  };
  compact(s.positions);
  compact(s.normals);
  compact(s.tangents);
  compact(s.uv0);
  compact(s.uv1);
  compact(s.colors);
  compact(s.joints);
  compact(s.weights);
  for (MorphTarget& t : part.morphs.targets) {
    compact(t.positions);
    compact(t.normals);
    compact(t.tangents);
  }
}

class Converter {
 public:
  Converter(const aiScene& scene, std::string path, std::string format,
            const ImportOptions& options, Diagnostics* diag)
      : scene_(scene),
        path_(std::move(path)),
        format_(std::move(format)),
        folder_(assimp_detail::absolute_normal(fs::path(path_)).parent_path()),
        options_(options),
        diag_(diag) {}

  Result<RawModel> run() {
    build_skeleton();
    build_materials();
    if (auto r = build_meshes(); !r) return fail(r.error());
    if (auto r = build_animations(); !r) return fail(r.error());
    return std::move(model_);
  }

  // Ticks per second of animation i (after the 0 -> 25 default).
  double ticks_per_second(std::size_t i) const { return tps_.at(i); }
  // Key shift (in ticks) applied to animation i.
  double tick_shift(std::size_t i) const { return shift_.at(i); }

 private:
  void warn(std::string where, std::string message) {
    if (diag_) diag_->warn(path_, std::move(where), std::move(message));
  }
  Error error(ErrorCode code, std::string where, std::string message) const {
    return Error::at(code, path_, std::move(where), std::move(message));
  }

  void build_skeleton() {
    struct Item {
      const aiNode* node;
      std::int32_t parent;
    };
    std::vector<Item> stack{{scene_.mRootNode, -1}};
    std::vector<std::string> repeated;
    while (!stack.empty()) {
      const Item item = stack.back();
      stack.pop_back();
      const std::int32_t index = static_cast<std::int32_t>(nodes_.size());
      nodes_.push_back(item.node);
      RawJoint joint;
      joint.name = item.node->mName.C_Str();
      if (joint.name.empty()) joint.name = "node_" + str(nodes_.size() - 1);
      joint.parent = item.parent;
      joint.rest = Transform::from_matrix(to_mat4(item.node->mTransformation));
      joint.source_index = index;
      if (!joint_by_name_.emplace(joint.name, index).second) repeated.push_back(joint.name);
      model_.skeleton.joints.push_back(std::move(joint));
      // Children pushed in reverse so they pop in file order: joints come out depth-first.
      for (unsigned k = item.node->mNumChildren; k-- > 0;) {
        stack.push_back({item.node->mChildren[k], index});
      }
    }
    if (!repeated.empty()) {
      std::string names;
      for (std::size_t i = 0; i < repeated.size() && i < 5; ++i) {
        names += (i ? ", " : "") + in_quotes(repeated[i]);
      }
      warn("/nodes", str(repeated.size()) + " node names repeat (" + names +
                         (repeated.size() > 5 ? ", ..." : "") +
                         "); bones and animation channels bind to the first node of a name");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Materials and images

  static std::int32_t wrap_mode(aiTextureMapMode m) {
    switch (m) {
      case aiTextureMapMode_Clamp:
      case aiTextureMapMode_Decal:
        return 33071;  // CLAMP_TO_EDGE
      case aiTextureMapMode_Mirror:
        return 33648;  // MIRRORED_REPEAT
      default:
        return 10497;  // REPEAT
    }
  }

  static std::string mime_for(std::string ext) {
    ext = to_lower(ext);
    if (!ext.empty() && ext.front() == '.') ext.erase(0, 1);
    if (ext == "png") return "image/png";
    if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
    if (ext.empty()) return "";
    return "image/" + ext;
  }

  // Index of the image for a texture path as the material names it; -1 when unusable.
  std::int32_t image_for(const std::string& raw, const std::string& where) {
    if (const auto it = image_by_path_.find(raw); it != image_by_path_.end()) return it->second;
    Image image;
    const aiTexture* embedded = scene_.GetEmbeddedTexture(raw.c_str());
    if (embedded || (!raw.empty() && raw.front() == '*')) {
      if (!embedded) {
        warn(where, "embedded texture " + in_quotes(raw) + " does not exist; texture dropped");
        return remember(raw, -1);
      }
      if (embedded->mHeight != 0) {
        warn(where, "embedded texture " + in_quotes(raw) +
                        " holds raw texels, which glTF-style images cannot carry; texture dropped");
        return remember(raw, -1);
      }
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(embedded->pcData);
      image.bytes.assign(bytes, bytes + embedded->mWidth);
      image.name = embedded->mFilename.length ? embedded->mFilename.C_Str() : raw;
      image.mime_type = mime_for(embedded->achFormatHint);
      return remember(raw, add_image(std::move(image)));
    }

    std::string clean = raw;
    std::replace(clean.begin(), clean.end(), '\\', '/');
    if (clean.rfind("file://", 0) == 0) clean.erase(0, 7);
    const fs::path candidate = assimp_detail::absolute_normal(folder_ / fs::path(clean));
    const fs::path by_name = folder_ / fs::path(clean).filename();
    image.uri = raw;
    image.name = fs::path(clean).stem().string();
    image.mime_type = mime_for(fs::path(clean).extension().string());
    std::error_code ec;
    const bool allowed =
        options_.allow_outside_uris || assimp_detail::is_inside(candidate, folder_);
    if (allowed && fs::is_regular_file(candidate, ec)) {
      image.resolved_path = candidate.string();
    } else if (fs::path(clean).has_filename() && fs::is_regular_file(by_name, ec)) {
      image.resolved_path = by_name.string();
      warn(where, "texture " + in_quotes(raw) +
                      (allowed ? " not found at its path" : " lies outside the model's folder") +
                      "; using " + in_quotes(by_name.filename().string()) +
                      " from the model's folder");
    } else {
      image.resolved_path = allowed ? candidate.string() : by_name.string();
      image.missing = true;
      warn(where, "texture " + in_quotes(raw) + " not found" +
                      (allowed ? "" : " (its path leaves the model's folder)") + "; image " +
                      str(model_.images.size()) + " marked missing");
    }
    return remember(raw, add_image(std::move(image)));
  }

  std::int32_t remember(const std::string& raw, std::int32_t index) {
    image_by_path_.emplace(raw, index);
    return index;
  }
  std::int32_t add_image(Image image) {
    model_.images.push_back(std::move(image));
    return static_cast<std::int32_t>(model_.images.size() - 1);
  }

  bool texture(const aiMaterial& m, aiTextureType type, TextureRef& out, const std::string& where) {
    if (m.GetTextureCount(type) == 0) return false;
    aiString path;
    unsigned uv = 0;
    aiTextureMapMode modes[2] = {aiTextureMapMode_Wrap, aiTextureMapMode_Wrap};
    if (m.GetTexture(type, 0, &path, nullptr, &uv, nullptr, nullptr, modes) != AI_SUCCESS) {
      return false;
    }
    out.image = image_for(path.C_Str(), where);
    if (uv > 1) {
      warn(where, "texture uses UV set " + str(uv) + "; critter keeps sets 0 and 1, set 0 used");
      uv = 0;
    }
    out.texcoord = static_cast<std::int32_t>(uv);
    out.wrap_s = wrap_mode(modes[0]);
    out.wrap_t = wrap_mode(modes[1]);
    return out.valid();
  }

  void build_materials() {
    for (unsigned i = 0; i < scene_.mNumMaterials; ++i) {
      const aiMaterial& m = *scene_.mMaterials[i];
      const std::string where = "/materials/" + str(i);
      Material mat;
      aiString name;
      if (m.Get(AI_MATKEY_NAME, name) == AI_SUCCESS) mat.name = name.C_Str();
      aiColor4D color(1.0f, 1.0f, 1.0f, 1.0f);
      if (m.Get(AI_MATKEY_BASE_COLOR, color) != AI_SUCCESS) {
        color = aiColor4D(1.0f, 1.0f, 1.0f, 1.0f);
        if (m.Get(AI_MATKEY_COLOR_DIFFUSE, color) != AI_SUCCESS) {
          color = aiColor4D(1.0f, 1.0f, 1.0f, 1.0f);
        }
      }
      float opacity = 1.0f;
      if (m.Get(AI_MATKEY_OPACITY, opacity) != AI_SUCCESS || !std::isfinite(opacity)) {
        opacity = 1.0f;
      }
      const auto unit = [](float v) { return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 1.0f; };
      mat.base_color_factor = vec4(
          unit(static_cast<float>(color.r)), unit(static_cast<float>(color.g)),
          unit(static_cast<float>(color.b)), unit(static_cast<float>(color.a)) * unit(opacity));
      if (mat.base_color_factor.w < 1.0f) mat.alpha_mode = AlphaMode::kBlend;
      if (!texture(m, aiTextureType_BASE_COLOR, mat.base_color_texture, where)) {
        mat.base_color_texture = TextureRef{};
        texture(m, aiTextureType_DIFFUSE, mat.base_color_texture, where);
      }
      texture(m, aiTextureType_NORMALS, mat.normal_texture, where);
      int two_sided = 0;
      if (m.Get(AI_MATKEY_TWOSIDED, two_sided) == AI_SUCCESS) mat.double_sided = two_sided != 0;
      aiColor3D emissive(0.0f, 0.0f, 0.0f);
      if (m.Get(AI_MATKEY_COLOR_EMISSIVE, emissive) == AI_SUCCESS) {
        mat.emissive_factor = vec3(static_cast<float>(emissive.r), static_cast<float>(emissive.g),
                                   static_cast<float>(emissive.b));
        if (!all_finite(mat.emissive_factor)) mat.emissive_factor = vec3(0.0f);
      }
      // Formats without PBR values describe plain diffuse surfaces: not metal, fully rough.
      float metallic = 0.0f, roughness = 1.0f;
      if (m.Get(AI_MATKEY_METALLIC_FACTOR, metallic) != AI_SUCCESS || !std::isfinite(metallic)) {
        metallic = 0.0f;
      }
      if (m.Get(AI_MATKEY_ROUGHNESS_FACTOR, roughness) != AI_SUCCESS || !std::isfinite(roughness)) {
        roughness = 1.0f;
      }
      mat.metallic_factor = std::clamp(metallic, 0.0f, 1.0f);
      mat.roughness_factor = std::clamp(roughness, 0.0f, 1.0f);
      int shading = 0;
      if (m.Get(AI_MATKEY_SHADING_MODEL, shading) == AI_SUCCESS) {
        mat.unlit = shading == aiShadingMode_NoShading;
      }
      model_.materials.push_back(std::move(mat));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Meshes and skins

  Status build_meshes() {
    meshes_of_joint_.assign(nodes_.size(), {});
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
      const aiNode* node = nodes_[j];
      for (unsigned k = 0; k < node->mNumMeshes; ++k) {
        const unsigned mi = node->mMeshes[k];
        const aiMesh& src = *scene_.mMeshes[mi];
        if (src.mNumVertices == 0) {
          warn("/meshes/" + str(mi), "mesh has no vertices; skipped");
          continue;
        }
        auto mesh = convert_mesh(src, mi, static_cast<std::int32_t>(j));
        if (!mesh) return fail(mesh.error());
        meshes_of_joint_[j].push_back(static_cast<std::int32_t>(model_.meshes.size()));
        mesh_source_.push_back(mi);
        model_.meshes.push_back(std::move(*mesh));
      }
    }
    return {};
  }

  Result<Mesh> convert_mesh(const aiMesh& src, unsigned mesh_index, std::int32_t joint) {
    const std::string where = "/meshes/" + str(mesh_index);
    const std::size_t n = src.mNumVertices;
    Mesh mesh;
    mesh.name = src.mName.length ? src.mName.C_Str() : model_.skeleton.joints[joint].name;
    mesh.bone = joint;
    mesh.source_index = static_cast<std::int32_t>(mesh_index);
    MeshPart part;
    VertexStreams& s = part.streams;
    s.positions.resize(n);
    for (std::size_t v = 0; v < n; ++v) s.positions[v] = to_vec3(src.mVertices[v]);
    if (src.mNormals) {
      s.normals.resize(n);
      for (std::size_t v = 0; v < n; ++v) s.normals[v] = to_vec3(src.mNormals[v]);
    }
    if (src.mTangents && src.mBitangents && src.mNormals) {
      s.tangents.resize(n);
      for (std::size_t v = 0; v < n; ++v) {
        const vec3 t = to_vec3(src.mTangents[v]);
        const vec3 b = to_vec3(src.mBitangents[v]);
        const float w = glm::dot(glm::cross(s.normals[v], t), b) < 0.0f ? -1.0f : 1.0f;
        s.tangents[v] = vec4(t, w);
      }
    }
    for (unsigned set = 0; set < 2; ++set) {
      const aiVector3D* uv = src.mTextureCoords[set];
      if (!uv) continue;
      std::vector<vec2>& out = set == 0 ? s.uv0 : s.uv1;
      out.resize(n);
      // Assimp's UV origin is bottom-left, glTF's top-left.
      for (std::size_t v = 0; v < n; ++v) {
        out[v] = vec2(static_cast<float>(uv[v].x), 1.0f - static_cast<float>(uv[v].y));
      }
    }
    if (src.mColors[0]) {
      s.colors.resize(n);
      for (std::size_t v = 0; v < n; ++v) {
        const aiColor4D& c = src.mColors[0][v];
        s.colors[v] = vec4(static_cast<float>(c.r), static_cast<float>(c.g),
                           static_cast<float>(c.b), static_cast<float>(c.a));
      }
    }

    // Primitive type: SortByPType leaves one kind per mesh; faces of another size are dropped.
    unsigned corners = 3;
    part.topology = Topology::kTriangles;
    if (src.mPrimitiveTypes == aiPrimitiveType_LINE) {
      corners = 2;
      part.topology = Topology::kLines;
    } else if (src.mPrimitiveTypes == aiPrimitiveType_POINT) {
      corners = 1;
      part.topology = Topology::kPoints;
    }
    part.indices.reserve(std::size_t{src.mNumFaces} * corners);
    std::size_t dropped = 0;
    for (unsigned f = 0; f < src.mNumFaces; ++f) {
      const aiFace& face = src.mFaces[f];
      if (face.mNumIndices != corners) {
        ++dropped;
        continue;
      }
      part.indices.insert(part.indices.end(), face.mIndices, face.mIndices + corners);
    }
    if (dropped) {
      warn(where, str(dropped) + " faces with other than " + str(corners) +
                      " corners dropped (the mesh mixes primitive types)");
    }
    if (src.mMaterialIndex < scene_.mNumMaterials) {
      part.material = static_cast<std::int32_t>(src.mMaterialIndex);
    } else {
      warn(where, "material index " + str(src.mMaterialIndex) + " does not exist; default used");
    }

    if (src.mNumBones) {
      auto skin = convert_skin(src, where, s);
      if (!skin) return fail(skin.error());
      mesh.skin = *skin;
    }

    // Morph targets: Assimp stores replacement vertices, critter deltas from the base mesh.
    for (unsigned a = 0; a < src.mNumAnimMeshes; ++a) {
      const aiAnimMesh& am = *src.mAnimMeshes[a];
      MorphTarget target;
      if (am.mVertices) {
        target.positions.resize(n);
        for (std::size_t v = 0; v < n; ++v) {
          target.positions[v] = to_vec3(am.mVertices[v]) - s.positions[v];
        }
      }
      if (am.mNormals && src.mNormals) {
        target.normals.resize(n);
        for (std::size_t v = 0; v < n; ++v) {
          target.normals[v] = to_vec3(am.mNormals[v]) - s.normals[v];
        }
      }
      if (am.mTangents && src.mTangents) {
        target.tangents.resize(n);
        for (std::size_t v = 0; v < n; ++v) {
          target.tangents[v] = to_vec3(am.mTangents[v]) - to_vec3(src.mTangents[v]);
        }
      }
      part.morphs.targets.push_back(std::move(target));
      mesh.morph_names.push_back(am.mName.length ? am.mName.C_Str() : "target_" + str(a));
      const float w = static_cast<float>(am.mWeight);
      mesh.default_weights.push_back(std::isfinite(w) ? w : 0.0f);
    }
    join_identical_vertices(part);
    mesh.parts.push_back(std::move(part));
    return mesh;
  }

  // Builds (or reuses) the skin of a mesh and fills the joints/weights streams. Returns the skin
  // index.
  Result<std::int32_t> convert_skin(const aiMesh& src, const std::string& where, VertexStreams& s) {
    Skin skin;
    skin.name = src.mName.length ? src.mName.C_Str() : "skin";
    // Bone b -> skin slot; two bones naming one node share a slot (the skin's joints are unique).
    std::vector<std::uint16_t> slot(src.mNumBones);
    for (unsigned b = 0; b < src.mNumBones; ++b) {
      const aiBone& bone = *src.mBones[b];
      const auto it = joint_by_name_.find(bone.mName.C_Str());
      if (it == joint_by_name_.end()) {
        return fail(error(ErrorCode::kInvalid, where + "/bones/" + str(b),
                          "bone " + in_quotes(bone.mName.C_Str()) + " names no node"));
      }
      const auto joint = static_cast<std::int16_t>(it->second);
      const auto found = std::find(skin.joints.begin(), skin.joints.end(), joint);
      if (found != skin.joints.end()) {
        slot[b] = static_cast<std::uint16_t>(found - skin.joints.begin());
        continue;
      }
      if (skin.joints.size() >= 65535) {
        return fail(error(ErrorCode::kLimit, where, "more than 65535 bones"));
      }
      slot[b] = static_cast<std::uint16_t>(skin.joints.size());
      skin.joints.push_back(joint);
      skin.inverse_bind.push_back(to_mat4(bone.mOffsetMatrix));
    }

    // Keep the 4 largest influences per vertex.
    const std::size_t n = src.mNumVertices;
    s.joints.assign(n, glm::u16vec4(0));
    s.weights.assign(n, vec4(0.0f));
    std::vector<std::uint32_t> influences(n, 0);
    std::size_t non_finite = 0;
    for (unsigned b = 0; b < src.mNumBones; ++b) {
      const aiBone& bone = *src.mBones[b];
      for (unsigned w = 0; w < bone.mNumWeights; ++w) {
        const std::size_t v = bone.mWeights[w].mVertexId;
        const float weight = static_cast<float>(bone.mWeights[w].mWeight);
        if (!std::isfinite(weight)) {
          ++non_finite;
          continue;
        }
        if (weight <= 0.0f) continue;
        ++influences[v];
        vec4& ws = s.weights[v];
        glm::u16vec4& js = s.joints[v];
        // Merge with an influence of the same slot (duplicate bones), else replace the smallest.
        int target = -1;
        for (int k = 0; k < 4; ++k) {
          if (ws[k] > 0.0f && js[k] == slot[b]) target = k;
        }
        if (target >= 0) {
          ws[target] += weight;
          --influences[v];
          continue;
        }
        int smallest = 0;
        for (int k = 1; k < 4; ++k) {
          if (ws[k] < ws[smallest]) smallest = k;
        }
        if (weight > ws[smallest]) {
          ws[smallest] = weight;
          js[smallest] = slot[b];
        }
      }
    }
    std::size_t over = 0;
    for (std::size_t v = 0; v < n; ++v) {
      if (influences[v] > 4) ++over;
      vec4& ws = s.weights[v];
      glm::u16vec4& js = s.joints[v];
      // Largest first, so that consumers reading fewer influences keep the strongest.
      for (int i = 1; i < 4; ++i) {
        for (int k = i; k > 0 && ws[k] > ws[k - 1]; --k) {
          std::swap(ws[k], ws[k - 1]);
          std::swap(js[k], js[k - 1]);
        }
      }
      const float sum = ws.x + ws.y + ws.z + ws.w;
      if (sum > 0.0f) ws /= sum;
      for (int k = 0; k < 4; ++k) {
        if (ws[k] == 0.0f) js[k] = 0;
      }
    }
    if (over) {
      warn(where, str(over) +
                      " vertices have more than 4 skin influences; the 4 largest are kept "
                      "and renormalised");
    }
    if (non_finite) warn(where, str(non_finite) + " non-finite skin weights ignored");

    for (std::size_t i = 0; i < model_.skins.size(); ++i) {
      const Skin& other = model_.skins[i];
      if (other.joints == skin.joints && other.inverse_bind == skin.inverse_bind) {
        return static_cast<std::int32_t>(i);
      }
    }
    model_.skins.push_back(std::move(skin));
    return static_cast<std::int32_t>(model_.skins.size() - 1);
  }

  // ---------------------------------------------------------------------------------------------
  // Animations

  template <class Key>
  static double key_time(const Key& k) {
    return static_cast<double>(k.mTime);
  }

  // Appends one T/R/S track from Assimp keys. `write` stores one key's value.
  template <class Key, class Write>
  Status add_track(RawClip& clip, const Key* keys, unsigned count, TrackTarget target,
                   std::uint32_t components, std::int32_t joint, double shift, double tps,
                   const std::string& where, Write write) {
    if (count == 0) return {};
    std::vector<unsigned> order(count);
    std::iota(order.begin(), order.end(), 0u);
    for (unsigned k = 0; k < count; ++k) {
      if (!std::isfinite(key_time(keys[k]))) {
        return fail(error(ErrorCode::kInvalid, where + "/keys/" + str(k), "key time not finite"));
      }
    }
    const auto earlier = [&](unsigned a, unsigned b) {
      return key_time(keys[a]) < key_time(keys[b]);
    };
    if (!std::is_sorted(order.begin(), order.end(), earlier)) {
      std::stable_sort(order.begin(), order.end(), earlier);
      warn(where, "keys out of time order; sorted");
    }
    RawTrack track;
    track.target = target;
    track.index = joint;
    track.interpolation = Interpolation::kLinear;
    track.components = components;
    track.source_location = where;
    track.times.reserve(count);
    track.values.reserve(std::size_t{count} * components);
    for (unsigned k : order) {
      track.times.push_back(static_cast<float>((key_time(keys[k]) - shift) / tps));
      write(keys[k], track.values);
    }
    clip.tracks.push_back(std::move(track));
    return {};
  }

  Status build_animations() {
    tps_.resize(scene_.mNumAnimations);
    shift_.resize(scene_.mNumAnimations);
    for (unsigned i = 0; i < scene_.mNumAnimations; ++i) {
      const aiAnimation& a = *scene_.mAnimations[i];
      const std::string where = "/animations/" + str(i);
      double tps = static_cast<double>(a.mTicksPerSecond);
      if (!std::isfinite(tps) || tps <= 0.0) tps = kDefaultTicksPerSecond;
      tps_[i] = tps;

      // Key range over every channel, for the duration check and the B3D frame base.
      double first = 0.0, last = 0.0;
      bool any = false;
      const auto see = [&](double t) {
        if (!std::isfinite(t)) return;
        first = any ? std::min(first, t) : t;
        last = any ? std::max(last, t) : t;
        any = true;
      };
      for (unsigned c = 0; c < a.mNumChannels; ++c) {
        const aiNodeAnim& ch = *a.mChannels[c];
        for (unsigned k = 0; k < ch.mNumPositionKeys; ++k) see(ch.mPositionKeys[k].mTime);
        for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) see(ch.mRotationKeys[k].mTime);
        for (unsigned k = 0; k < ch.mNumScalingKeys; ++k) see(ch.mScalingKeys[k].mTime);
      }
      for (unsigned c = 0; c < a.mNumMorphMeshChannels; ++c) {
        const aiMeshMorphAnim& ch = *a.mMorphMeshChannels[c];
        for (unsigned k = 0; k < ch.mNumKeys; ++k) see(ch.mKeys[k].mTime);
      }
      const double duration = static_cast<double>(a.mDuration);
      if (any && std::isfinite(duration) &&
          last > duration + 1e-6 * std::max(1.0, std::abs(duration))) {
        warn(where, "a key at tick " + number(last) + " lies past the animation's declared " +
                        "duration of " + number(duration) +
                        " ticks (Assimp's validation refuses such files); the clip lasts until "
                        "its last key");
      }
      const double shift =
          format_ == "b3d" && options_.b3d_zero_based_frames && any && first >= 1.0 ? 1.0 : 0.0;
      shift_[i] = shift;

      RawClip clip;
      clip.name = a.mName.length ? a.mName.C_Str() : "animation_" + str(i);
      clip.source_location = where;
      for (unsigned c = 0; c < a.mNumChannels; ++c) {
        const aiNodeAnim& ch = *a.mChannels[c];
        const std::string cw = where + "/channels/" + str(c);
        const auto it = joint_by_name_.find(ch.mNodeName.C_Str());
        if (it == joint_by_name_.end()) {
          warn(cw, "channel animates " + in_quotes(ch.mNodeName.C_Str()) +
                       ", which names no node; channel skipped");
          continue;
        }
        const std::int32_t joint = it->second;
        const auto vec = [](const aiVectorKey& k, std::vector<float>& out) {
          out.push_back(static_cast<float>(k.mValue.x));
          out.push_back(static_cast<float>(k.mValue.y));
          out.push_back(static_cast<float>(k.mValue.z));
        };
        const auto rot = [](const aiQuatKey& k, std::vector<float>& out) {
          out.push_back(static_cast<float>(k.mValue.x));
          out.push_back(static_cast<float>(k.mValue.y));
          out.push_back(static_cast<float>(k.mValue.z));
          out.push_back(static_cast<float>(k.mValue.w));
        };
        if (auto r =
                add_track(clip, ch.mPositionKeys, ch.mNumPositionKeys, TrackTarget::kTranslation, 3,
                          joint, shift, tps, cw + "/position", vec);
            !r) {
          return r;
        }
        if (auto r = add_track(clip, ch.mRotationKeys, ch.mNumRotationKeys, TrackTarget::kRotation,
                               4, joint, shift, tps, cw + "/rotation", rot);
            !r) {
          return r;
        }
        if (auto r = add_track(clip, ch.mScalingKeys, ch.mNumScalingKeys, TrackTarget::kScale, 3,
                               joint, shift, tps, cw + "/scaling", vec);
            !r) {
          return r;
        }
      }
      for (unsigned c = 0; c < a.mNumMorphMeshChannels; ++c) {
        if (auto r = add_morph_tracks(clip, *a.mMorphMeshChannels[c],
                                      where + "/morph_channels/" + str(c), shift, tps);
            !r) {
          return r;
        }
      }
      model_.clips.push_back(std::move(clip));
    }
    return {};
  }

  Status add_morph_tracks(RawClip& clip, const aiMeshMorphAnim& ch, const std::string& where,
                          double shift, double tps) {
    // The channel names a node (glTF, Collada) or, in some importers, a mesh.
    std::vector<std::int32_t> targets;
    if (const auto it = joint_by_name_.find(ch.mName.C_Str()); it != joint_by_name_.end()) {
      for (std::int32_t m : meshes_of_joint_[static_cast<std::size_t>(it->second)]) {
        if (!model_.meshes[static_cast<std::size_t>(m)].default_weights.empty()) {
          targets.push_back(m);
        }
      }
    }
    if (targets.empty()) {
      for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
        const aiMesh& src = *scene_.mMeshes[mesh_source_[m]];
        if (src.mName == ch.mName && !model_.meshes[m].default_weights.empty()) {
          targets.push_back(static_cast<std::int32_t>(m));
        }
      }
    }
    if (targets.empty()) {
      warn(where, "morph channel " + in_quotes(ch.mName.C_Str()) +
                      " names no node or mesh with morph targets; channel skipped");
      return {};
    }
    if (ch.mNumKeys == 0) return {};
    std::vector<unsigned> order(ch.mNumKeys);
    std::iota(order.begin(), order.end(), 0u);
    for (unsigned k = 0; k < ch.mNumKeys; ++k) {
      if (!std::isfinite(ch.mKeys[k].mTime)) {
        return fail(error(ErrorCode::kInvalid, where + "/keys/" + str(k), "key time not finite"));
      }
    }
    const auto earlier = [&](unsigned a, unsigned b) {
      return ch.mKeys[a].mTime < ch.mKeys[b].mTime;
    };
    if (!std::is_sorted(order.begin(), order.end(), earlier)) {
      std::stable_sort(order.begin(), order.end(), earlier);
      warn(where, "keys out of time order; sorted");
    }
    std::size_t ignored = 0;
    for (std::int32_t m : targets) {
      const std::size_t count = model_.meshes[static_cast<std::size_t>(m)].default_weights.size();
      RawTrack track;
      track.target = TrackTarget::kWeights;
      track.index = m;
      track.interpolation = Interpolation::kLinear;
      track.components = static_cast<std::uint32_t>(count);
      track.source_location = where;
      for (unsigned k : order) {
        const aiMeshMorphKey& key = ch.mKeys[k];
        track.times.push_back(static_cast<float>((key.mTime - shift) / tps));
        const std::size_t base = track.values.size();
        track.values.resize(base + count, 0.0f);
        for (unsigned v = 0; v < key.mNumValuesAndWeights; ++v) {
          if (key.mValues[v] >= count) {
            ++ignored;
            continue;
          }
          track.values[base + key.mValues[v]] = static_cast<float>(key.mWeights[v]);
        }
      }
      clip.tracks.push_back(std::move(track));
    }
    if (ignored) {
      warn(where, str(ignored) + " morph key values name targets the mesh does not have; ignored");
    }
    return {};
  }

  const aiScene& scene_;
  std::string path_;
  std::string format_;
  fs::path folder_;
  const ImportOptions& options_;
  Diagnostics* diag_;
  RawModel model_;
  std::vector<const aiNode*> nodes_;  // joint index -> node
  std::unordered_map<std::string, std::int32_t> joint_by_name_;
  std::vector<std::vector<std::int32_t>> meshes_of_joint_;
  std::vector<unsigned> mesh_source_;  // critter mesh -> aiMesh index
  std::unordered_map<std::string, std::int32_t> image_by_path_;
  std::vector<double> tps_, shift_;
};

// Longest key time of a clip, in seconds.
float last_key_time(const RawClip& clip) {
  float t = 0.0f;
  for (const RawTrack& track : clip.tracks) {
    if (!track.times.empty()) t = std::max(t, track.times.back());
  }
  return t;
}

// Gives Assimp's "combinedAnim_<n>" animations back the names of the file's <animation_clip>s
// (see the header for the conditions).
void restore_collada_clip_names(RawModel& model, std::string_view xml, const std::string& path,
                                Diagnostics* diag) {
  const std::vector<assimp_detail::ColladaClip> clips = assimp_detail::scan_collada_clips(xml);
  if (clips.empty()) return;
  bool match = clips.size() == model.clips.size();
  for (std::size_t i = 0; match && i < clips.size(); ++i) {
    if (clips[i].name.empty()) match = false;
    if (clips[i].end >= 0.0 &&
        static_cast<double>(last_key_time(model.clips[i])) > clips[i].end + 1e-3) {
      match = false;
    }
  }
  if (!match) {
    if (diag) {
      diag->warn(path, "/library_animation_clips",
                 "the file has " + str(clips.size()) + " <animation_clip>s but Assimp made " +
                     str(model.clips.size()) +
                     " animations that do not line up with them; Assimp's names kept");
    }
    return;
  }
  for (std::size_t i = 0; i < clips.size(); ++i) model.clips[i].name = clips[i].name;
}

Result<std::vector<std::uint8_t>> read_model_file(const std::string& path,
                                                  std::uint64_t max_bytes) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return fail(Error::at(ErrorCode::kIo, path, "", "cannot open " + in_quotes(path)));
  }
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return fail(Error::at(ErrorCode::kIo, path, "", "cannot read the file size"));
  if (size > max_bytes) {
    return fail(Error::at(
        ErrorCode::kLimit, path, "",
        "file is " + std::to_string(size) + " bytes, the limit is " + std::to_string(max_bytes)));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Error::at(ErrorCode::kIo, path, "", "cannot open " + in_quotes(path)));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  if (size && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    return fail(Error::at(ErrorCode::kIo, path, "", "cannot read " + in_quotes(path)));
  }
  return bytes;
}

Result<RawModel> import_raw(const std::string& path, const ImportOptions& options,
                            Diagnostics* diag) {
  auto bytes = read_model_file(path, options.max_file_bytes);
  if (!bytes) return fail(bytes.error());
  const std::string ext = lower_extension(path);
  const std::string format = format_of(ext);
  // Kept for the scans after import (the importer owns the served copy).
  std::string text;
  if (ext == "dae" || ext == "obj") text.assign(bytes->begin(), bytes->end());
  std::vector<std::uint8_t> served =
      ext == "dae" ? assimp_detail::strip_leading_text_blanks(*bytes) : std::move(*bytes);

  Assimp::Importer importer;
  auto* io = new GuardedIoSystem(fs::path(path), std::move(served), options.max_file_bytes,
                                 options.allow_outside_uris);
  importer.SetIOHandler(io);  // the importer owns and deletes it
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  // Collada: Assimp applies <up_axis> and <unit> to the root node (documented in the header).
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, false);

  // Pass 1: the format importer alone (no post-processing reads unchecked data).
  const aiScene* scene = importer.ReadFile(path, 0);
  const auto limit_error = [&]() -> Result<RawModel> {
    return fail(Error::at(ErrorCode::kLimit, path, io->over_limit().front(),
                          "a file the model refers to is larger than the limit of " +
                              std::to_string(options.max_file_bytes) + " bytes"));
  };
  if (!io->over_limit().empty()) return limit_error();
  if (!scene) {
    const std::string message = importer.GetErrorString();
    const bool unsupported = message.find("No suitable reader") != std::string::npos;
    return fail(Error::at(unsupported ? ErrorCode::kUnsupported : ErrorCode::kParse, path, "",
                          "Assimp: " + (message.empty() ? std::string("import failed") : message)));
  }
  if (auto r = check_scene(scene, path); !r) return fail(r.error());
  // Assimp's text readers skip lines they do not understand, so a file of another kind that
  // carries the extension of such a format (random text named .obj) reads as an empty scene.
  // A model file holds at least one mesh, node or animation; anything else is not one.
  if (scene->mNumMeshes == 0 && scene->mNumAnimations == 0 && scene->mRootNode->mNumChildren == 0) {
    return fail(
        Error::at(ErrorCode::kParse, path, "",
                  "Assimp found no mesh, node or animation: the file is not a ." + ext + " model"));
  }

  // Pass 2: triangulate and keep one primitive type per mesh. Identical vertices are joined
  // later by critter (join_identical_vertices), not by Assimp's step, which compares neither
  // skin weights nor morph targets and could merge vertices that differ in them.
  scene = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_SortByPType);
  if (!scene) {
    return fail(Error::at(ErrorCode::kParse, path, "",
                          std::string("Assimp post-processing: ") + importer.GetErrorString()));
  }
  if (auto r = check_scene(scene, path); !r) return fail(r.error());

  Converter converter(*scene, path, format, options, diag);
  auto raw = converter.run();
  if (!raw) return raw;
  RawModel& model = *raw;
  model.name = fs::path(path).stem().string();
  model.format = format;
  model.source_path = path;

  if (ext == "dae") restore_collada_clip_names(model, text, path, diag);

  // Files Assimp looked for and did not get.
  if (diag) {
    if (ext == "obj") {
      // Only the libraries the file names: Assimp's fallback probe (<model>.mtl) is no news.
      const fs::path folder = fs::path(path).parent_path();
      for (const std::string& lib : assimp_detail::scan_obj_mtllibs(text)) {
        std::error_code ec;
        if (!fs::is_regular_file(folder / lib, ec)) {
          diag->warn(path, "mtllib " + in_quotes(lib),
                     "material library not found; its materials get default values");
        }
      }
    } else {
      for (const std::string& name : io->not_found()) {
        diag->warn(path, in_quotes(name), "a file the model refers to was not found");
      }
    }
    for (const std::string& name : io->outside()) {
      diag->warn(path, in_quotes(name),
                 "refused to open a file outside the model's folder (allow_outside_uris)");
    }
  }

  if (!options.clips.empty()) {
    if (model.clips.empty()) {
      return fail(Error::at(ErrorCode::kUsage, path, "",
                            "clip ranges given but the file has no animation to cut"));
    }
    const double file_fps = converter.ticks_per_second(0);
    auto cut = split_clip(model.clips.front(), file_fps, options.clips, path, diag);
    if (!cut) return fail(cut.error());
    // The ranges name the file's frames; a given rate only changes how fast they play.
    if (options.clips_fps != 0.0) {
      if (!std::isfinite(options.clips_fps) || !(options.clips_fps > 0.0)) {
        return fail(Error::at(ErrorCode::kUsage, path, "clips_fps",
                              "frames per second must be finite and > 0"));
      }
      for (RawClip& clip : *cut) scale_clip_time(clip, file_fps / options.clips_fps);
    }
    model.clips.erase(model.clips.begin());
    model.clips.insert(model.clips.begin(), std::make_move_iterator(cut->begin()),
                       std::make_move_iterator(cut->end()));
  }
  return raw;
}

Result<RawModel> import_raw_guarded(const std::string& file, const ImportOptions& options,
                                    Diagnostics* diag) {
  // Assimp reports failures through return values, but allocation failures and bugs in its
  // importers can still throw; nothing may cross the public API.
  try {
    return import_raw(file, options, diag);
  } catch (const std::exception& e) {
    return fail(Error::at(ErrorCode::kParse, file, "", std::string("Assimp: ") + e.what()));
  } catch (...) {
    return fail(Error::at(ErrorCode::kParse, file, "", "Assimp: unknown exception"));
  }
}

}  // namespace

bool is_assimp_extension(std::string_view path) {
  static constexpr std::string_view kExtensions[] = {
      "dae", "zae", "b3d", "obj",   "fbx",     "x",    "md5mesh", "iqm", "smd", "ms3d",
      "3ds", "ply", "stl", "blend", "lwo",     "lws",  "ac",      "ase", "cob", "off",
      "x3d", "md2", "md3", "mdl",   "irrmesh", "ogex", "3mf",     "amf", "bvh"};
  const std::string ext = lower_extension(path);
  return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

Result<RawModel> import_assimp_raw(std::string_view path, const ImportOptions& options,
                                   Diagnostics* diag) {
  const std::string file(path);
  if (options.assimp_isolation == AssimpIsolation::kChildProcess) {
    return assimp_detail::import_in_child(file, options, diag, import_raw_guarded);
  }
  return import_raw_guarded(file, options, diag);
}

Result<Model> import_assimp(std::string_view path, const ImportOptions& options,
                            Diagnostics* diag) {
  auto raw = import_assimp_raw(path, options, diag);
  if (!raw) return fail(raw.error());
  try {
    return build_model(std::move(*raw), diag);
  } catch (const std::exception& e) {
    return fail(Error::at(ErrorCode::kLimit, std::string(path), "", e.what()));
  }
}

}  // namespace critter::io
