// SPDX-License-Identifier: MIT
#include "critter/io/gltf/gltf_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "critter/core/strings.h"
#include "critter/io/atomic_file.h"
#include "io/exception_guard.h"
#include "io/image/output_images.h"

namespace critter::io {

namespace {

using detail::OutputImages;
using detail::percent_encode;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kUnsignedByte = 5121;
constexpr int kUnsignedShort = 5123;
constexpr int kUnsignedInt = 5125;
constexpr int kFloat = 5126;
constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;
constexpr int kWrapRepeat = 10497;

static_assert(sizeof(vec2) == 8 && sizeof(vec3) == 12 && sizeof(vec4) == 16 && sizeof(mat4) == 64 &&
                  sizeof(glm::u16vec4) == 8,
              "glm types must be tightly packed floats for direct copies");

std::string str(std::size_t v) {
  return std::to_string(v);
}

// `name`, or the first of "name_2", "name_3", ... not in `taken`; the result is added to `taken`.
std::string unique_name(const std::string& name, std::set<std::string>* taken) {
  if (taken->insert(name).second) return name;
  for (std::size_t n = 2;; ++n) {
    std::string candidate = name + "_" + str(n);
    if (taken->insert(candidate).second) return candidate;
  }
}

json floats(std::initializer_list<float> values) {
  json a = json::array();
  for (float v : values) a.push_back(static_cast<double>(v));
  return a;
}

class Encoder {
 public:
  Encoder(const Model& model, std::string out_name, Diagnostics* diag, OutputImages* sink)
      : model_(model), out_name_(std::move(out_name)), diag_(diag), sink_(sink) {}

  Status run() {
    doc_["asset"] = {{"version", "2.0"}, {"generator", "critter"}};
    if (auto r = encode_images(); !r) return r;
    encode_materials();
    encode_nodes();
    encode_meshes();
    encode_skins();
    encode_animations();

    if (!roots_.empty()) {
      doc_["scenes"] = json::array({json{{"nodes", roots_}}});
      doc_["scene"] = 0;
    }
    if (!extensions_used_.empty()) {
      json used = json::array();
      for (const std::string& e : extensions_used_) used.push_back(e);
      doc_["extensionsUsed"] = used;
    }
    // glTF has no null members: a top-level array that stayed empty is left out, never null.
    for (auto it = doc_.begin(); it != doc_.end();) {
      if (it->is_null())
        it = doc_.erase(it);
      else
        ++it;
    }
    pad_bin();
    if (bin_.size() > 0xFFFFFFF0ull)
      return fail(Error::at(ErrorCode::kLimit, out_name_, "/buffers/0",
                            "binary data of " + str(bin_.size()) + " bytes exceeds 4 GiB"));
    if (!bin_.empty()) {
      json buffer{{"byteLength", bin_.size()}};
      if (sink_) buffer["uri"] = percent_encode(bin_name_);
      doc_["buffers"] = json::array({buffer});
    }
    return {};
  }

  void set_bin_name(std::string name) { bin_name_ = std::move(name); }
  const json& doc() const { return doc_; }
  const std::vector<std::uint8_t>& bin() const { return bin_; }
  std::size_t node_count() const { return node_count_; }
  std::size_t mesh_nodes_added() const { return node_count_ - model_.skeleton().joint_count(); }

 private:
  void warn(std::string location, std::string message) {
    if (diag_) diag_->warn(out_name_, std::move(location), std::move(message));
  }

  void pad_bin() {
    while (bin_.size() % 4 != 0) bin_.push_back(0);
  }

  // Appends `size` bytes as a new buffer view starting on a 4-byte boundary (so every accessor
  // type is aligned) and returns its index.
  int add_view(const void* data, std::size_t size, int target) {
    pad_bin();
    const std::size_t offset = bin_.size();
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    bin_.insert(bin_.end(), bytes, bytes + size);
    json view{{"buffer", 0}, {"byteLength", size}};
    if (offset > 0) view["byteOffset"] = offset;
    if (target != 0) view["target"] = target;
    doc_["bufferViews"].push_back(std::move(view));
    return static_cast<int>(doc_["bufferViews"].size()) - 1;
  }

  int add_accessor(int view, int component_type, std::size_t count, const char* type,
                   json min = nullptr, json max = nullptr) {
    json acc{
        {"bufferView", view}, {"componentType", component_type}, {"count", count}, {"type", type}};
    if (!min.is_null()) {
      acc["min"] = std::move(min);
      acc["max"] = std::move(max);
    }
    doc_["accessors"].push_back(std::move(acc));
    return static_cast<int>(doc_["accessors"].size()) - 1;
  }

  // `count` elements of `comps` floats. With `bounds`, min and max per component are recorded
  // (the validator compares them with the data bit for bit, so they come from the same floats).
  int add_floats(const float* data, std::size_t count, int comps, const char* type, int target,
                 bool bounds) {
    const std::size_t n = count * static_cast<std::size_t>(comps);
    const int view = add_view(data, n * sizeof(float), target);
    if (!bounds) return add_accessor(view, kFloat, count, type);
    std::vector<float> lo(data, data + comps), hi(data, data + comps);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t c = i % static_cast<std::size_t>(comps);
      lo[c] = std::min(lo[c], data[i]);
      hi[c] = std::max(hi[c], data[i]);
    }
    json jmin = json::array(), jmax = json::array();
    for (int c = 0; c < comps; ++c) {
      jmin.push_back(static_cast<double>(lo[static_cast<std::size_t>(c)]));
      jmax.push_back(static_cast<double>(hi[static_cast<std::size_t>(c)]));
    }
    return add_accessor(view, kFloat, count, type, std::move(jmin), std::move(jmax));
  }

  template <class V>
  int add_stream(const std::vector<V>& v, const char* type, bool bounds) {
    constexpr int comps = static_cast<int>(sizeof(V) / sizeof(float));
    return add_floats(&v[0][0], v.size(), comps, type, kArrayBuffer, bounds);
  }

  // ---- images, samplers, textures, materials ----

  Status encode_images() {
    const auto images = model_.images();
    image_map_.assign(images.size(), -1);
    for (std::size_t i = 0; i < images.size(); ++i) {
      const Image& img = images[i];
      const std::string where = "/images/" + str(i);
      if (img.missing || (img.bytes.empty() && img.resolved_path.empty())) {
        warn(where, "image '" + (img.uri.empty() ? img.name : img.uri) +
                        "' is missing; left out with the textures that use it");
        continue;
      }
      json out = json::object();
      if (!img.name.empty()) out["name"] = img.name;
      if (!sink_) {
        // GLB: everything goes into the binary chunk.
        std::vector<std::uint8_t> file_bytes;
        std::span<const std::uint8_t> bytes = img.bytes;
        if (bytes.empty()) {
          if (!detail::read_whole_file(img.resolved_path, &file_bytes)) {
            warn(where, "image file '" + img.resolved_path +
                            "' cannot be read; left out with the textures that use it");
            continue;
          }
          bytes = file_bytes;
        }
        const std::string mime = detail::image_mime(img, bytes);
        out["bufferView"] = add_view(bytes.data(), bytes.size(), 0);
        if (!mime.empty()) {
          out["mimeType"] = mime;
        } else {
          warn(where, "image format unknown; written without a MIME type");
          out["mimeType"] = "application/octet-stream";
        }
      } else {
        auto name = sink_->place(img, i);
        if (!name) return std::unexpected(std::move(name.error()));
        if (name->empty()) {
          warn(where, "image file '" + img.resolved_path +
                          "' cannot be read; left out with the textures that use it");
          continue;
        }
        out["uri"] = percent_encode(*name);
        if (!img.bytes.empty()) {
          const std::string mime = detail::image_mime(img, img.bytes);
          if (!mime.empty()) out["mimeType"] = mime;
        }
      }
      doc_["images"].push_back(std::move(out));
      image_map_[i] = static_cast<int>(doc_["images"].size()) - 1;
    }
    return {};
  }

  int sampler_for(const TextureRef& t) {
    const auto key = std::make_tuple(t.wrap_s, t.wrap_t, t.mag_filter, t.min_filter);
    if (auto it = samplers_.find(key); it != samplers_.end()) return it->second;
    json s = json::object();
    if (t.mag_filter != 0) s["magFilter"] = t.mag_filter;
    if (t.min_filter != 0) s["minFilter"] = t.min_filter;
    if (t.wrap_s != kWrapRepeat) s["wrapS"] = t.wrap_s;
    if (t.wrap_t != kWrapRepeat) s["wrapT"] = t.wrap_t;
    doc_["samplers"].push_back(std::move(s));
    const int index = static_cast<int>(doc_["samplers"].size()) - 1;
    samplers_.emplace(key, index);
    return index;
  }

  // A textureInfo object, or null when the texture is absent or its image was left out.
  json texture_info(const TextureRef& t) {
    if (!t.valid() || static_cast<std::size_t>(t.image) >= image_map_.size()) return nullptr;
    const int image = image_map_[static_cast<std::size_t>(t.image)];
    if (image < 0) return nullptr;
    const int sampler = sampler_for(t);
    const auto key = std::make_pair(image, sampler);
    int texture;
    if (auto it = textures_.find(key); it != textures_.end()) {
      texture = it->second;
    } else {
      doc_["textures"].push_back(json{{"source", image}, {"sampler", sampler}});
      texture = static_cast<int>(doc_["textures"].size()) - 1;
      textures_.emplace(key, texture);
    }
    json info{{"index", texture}};
    if (t.texcoord != 0) info["texCoord"] = t.texcoord;
    if (t.has_transform) {
      json tt = json::object();
      if (t.offset != vec2(0.0f)) tt["offset"] = floats({t.offset.x, t.offset.y});
      if (t.rotation != 0.0f) tt["rotation"] = static_cast<double>(t.rotation);
      if (t.scale != vec2(1.0f)) tt["scale"] = floats({t.scale.x, t.scale.y});
      info["extensions"]["KHR_texture_transform"] = std::move(tt);
      extensions_used_.insert("KHR_texture_transform");
    }
    return info;
  }

  void encode_materials() {
    for (const Material& m : model_.materials()) {
      json out = json::object();
      if (!m.name.empty()) out["name"] = m.name;
      json pbr = json::object();
      if (m.base_color_factor != vec4(1.0f))
        pbr["baseColorFactor"] = floats({m.base_color_factor.x, m.base_color_factor.y,
                                         m.base_color_factor.z, m.base_color_factor.w});
      if (json info = texture_info(m.base_color_texture); !info.is_null())
        pbr["baseColorTexture"] = std::move(info);
      if (m.metallic_factor != 1.0f) pbr["metallicFactor"] = static_cast<double>(m.metallic_factor);
      if (m.roughness_factor != 1.0f)
        pbr["roughnessFactor"] = static_cast<double>(m.roughness_factor);
      out["pbrMetallicRoughness"] = std::move(pbr);
      if (json info = texture_info(m.normal_texture); !info.is_null())
        out["normalTexture"] = std::move(info);
      if (m.emissive_factor != vec3(0.0f))
        out["emissiveFactor"] =
            floats({m.emissive_factor.x, m.emissive_factor.y, m.emissive_factor.z});
      if (m.alpha_mode == AlphaMode::kMask) {
        out["alphaMode"] = "MASK";
        if (m.alpha_cutoff != 0.5f) out["alphaCutoff"] = static_cast<double>(m.alpha_cutoff);
      } else if (m.alpha_mode == AlphaMode::kBlend) {
        out["alphaMode"] = "BLEND";
      }
      if (m.double_sided) out["doubleSided"] = true;
      if (m.unlit) {
        out["extensions"]["KHR_materials_unlit"] = json::object();
        extensions_used_.insert("KHR_materials_unlit");
      }
      doc_["materials"].push_back(std::move(out));
    }
  }

  // ---- nodes ----

  void encode_nodes() {
    const Skeleton& sk = model_.skeleton();
    const auto parents = sk.parents();
    const auto names = sk.names();
    const auto rest = sk.rest_pose();
    const std::size_t joints = static_cast<std::size_t>(sk.joint_count());
    json nodes = json::array();
    for (std::size_t j = 0; j < joints; ++j) {
      json n = json::object();
      if (!names[j].empty()) n["name"] = names[j];
      const Transform& t = rest[j];
      if (t.translation != vec3(0.0f))
        n["translation"] = floats({t.translation.x, t.translation.y, t.translation.z});
      if (!(t.rotation.x == 0.0f && t.rotation.y == 0.0f && t.rotation.z == 0.0f &&
            t.rotation.w == 1.0f))
        n["rotation"] = floats({t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w});
      if (t.scale != vec3(1.0f)) n["scale"] = floats({t.scale.x, t.scale.y, t.scale.z});
      nodes.push_back(std::move(n));
    }
    for (std::size_t j = 0; j < joints; ++j) {
      if (parents[j] < 0)
        roots_.push_back(static_cast<int>(j));
      else
        nodes[static_cast<std::size_t>(parents[j])]["children"].push_back(j);
    }

    // Mesh nodes (see the header: "Mesh nodes").
    std::vector<bool> has_mesh(joints, false);
    std::vector<bool> skin_joint(joints, false);
    for (const Skin& skin : model_.skins())
      for (std::int16_t j : skin.joints)
        if (j >= 0 && static_cast<std::size_t>(j) < joints)
          skin_joint[static_cast<std::size_t>(j)] = true;
    std::set<std::string> taken(names.begin(), names.end());
    const auto meshes = model_.meshes();
    mesh_node_.assign(meshes.size(), -1);
    for (std::size_t m = 0; m < meshes.size(); ++m) {
      const Mesh& mesh = meshes[m];
      const bool bone_ok = mesh.bone >= 0 && static_cast<std::size_t>(mesh.bone) < joints;
      const std::size_t bone = bone_ok ? static_cast<std::size_t>(mesh.bone) : 0;
      int node = -1;
      int parent = -1;
      if (mesh.skin >= 0) {
        // The node that held the mesh in the source keeps it, so that the node tree survives a
        // round trip; a joint that deforms vertices is not a mesh holder.
        if (bone_ok && !has_mesh[bone] && !skin_joint[bone]) node = static_cast<int>(bone);
      } else if (bone_ok) {
        if (!has_mesh[bone])
          node = static_cast<int>(bone);
        else
          parent = static_cast<int>(bone);
      }
      if (node < 0) {
        json n = json::object();
        n["name"] = unique_name(mesh.name.empty() ? "mesh_" + str(m) : mesh.name, &taken);
        nodes.push_back(std::move(n));
        node = static_cast<int>(nodes.size()) - 1;
        if (parent >= 0)
          nodes[static_cast<std::size_t>(parent)]["children"].push_back(node);
        else
          roots_.push_back(node);
      } else {
        has_mesh[static_cast<std::size_t>(node)] = true;
      }
      json& n = nodes[static_cast<std::size_t>(node)];
      n["mesh"] = m;
      if (mesh.skin >= 0) n["skin"] = mesh.skin;
      mesh_node_[m] = node;
    }
    node_count_ = nodes.size();
    if (!nodes.empty()) doc_["nodes"] = std::move(nodes);
  }

  // ---- meshes ----

  // Normals (or tangent directions) renormalised where their length is off by more than 1e-4;
  // returns the number of vectors changed.
  template <class V>
  static std::size_t renormalise(std::vector<V>* v) {
    std::size_t changed = 0;
    for (V& x : *v) {
      const vec3 d(x);
      const float len = glm::length(d);
      if (len > 0.0f && std::abs(len - 1.0f) > 1e-4f) {
        const vec3 u = d / len;
        x[0] = u.x;
        x[1] = u.y;
        x[2] = u.z;
        ++changed;
      }
    }
    return changed;
  }

  // Normals of zero length or with a non-finite component replaced by the normal of the first
  // triangle that uses the vertex and has an area, else by kFallbackNormal (+Y); returns the
  // number of normals replaced.
  static std::size_t repair_normals(const MeshPart& part, std::vector<vec3>* normals) {
    constexpr vec3 kFallbackNormal(0.0f, 1.0f, 0.0f);
    auto bad = [](const vec3& n) {
      return !std::isfinite(n.x) || !std::isfinite(n.y) || !std::isfinite(n.z) ||
             !(glm::length(n) > 0.0f) || !std::isfinite(glm::length(n));
    };
    std::vector<std::size_t> broken;
    for (std::size_t v = 0; v < normals->size(); ++v)
      if (bad((*normals)[v])) broken.push_back(v);
    if (broken.empty()) return 0;
    std::vector<vec3> face(normals->size(), vec3(0.0f));
    std::vector<bool> found(normals->size(), false);
    const auto& pos = part.streams.positions;
    if (part.topology == Topology::kTriangles) {
      const std::size_t count = part.indices.empty() ? pos.size() : part.indices.size();
      auto at = [&](std::size_t i) -> std::size_t {
        return part.indices.empty() ? i : static_cast<std::size_t>(part.indices[i]);
      };
      for (std::size_t t = 0; t + 2 < count; t += 3) {
        const std::size_t a = at(t), b = at(t + 1), c = at(t + 2);
        if (a >= pos.size() || b >= pos.size() || c >= pos.size()) continue;
        const vec3 n = glm::cross(pos[b] - pos[a], pos[c] - pos[a]);
        const float len = glm::length(n);
        if (!(len > 0.0f) || !std::isfinite(len)) continue;
        for (std::size_t v : {a, b, c}) {
          if (!found[v]) {
            face[v] = n / len;
            found[v] = true;
          }
        }
      }
    }
    for (std::size_t v : broken) (*normals)[v] = found[v] ? face[v] : kFallbackNormal;
    return broken.size();
  }

  json encode_part(const Mesh& mesh, const MeshPart& part, const std::string& where) {
    const VertexStreams& s = part.streams;
    const std::size_t n = s.positions.size();
    json attrs = json::object();
    attrs["POSITION"] = add_stream(s.positions, "VEC3", true);
    std::vector<vec3> normals = s.normals;
    if (!s.normals.empty()) {
      if (std::size_t c = repair_normals(part, &normals))
        warn(where, str(c) +
                        " normals were zero or not finite and were replaced by their face normal "
                        "or +Y");
      if (std::size_t c = renormalise(&normals))
        warn(where, str(c) + " normals were not unit length and were renormalised");
      attrs["NORMAL"] = add_stream(normals, "VEC3", false);
    }
    if (!s.tangents.empty()) {
      std::vector<vec4> tangents = s.tangents;
      std::size_t c = 0;
      // A tangent direction that is zero or not finite becomes a unit vector perpendicular to the
      // vertex normal (or +X without normals).
      for (std::size_t v = 0; v < tangents.size(); ++v) {
        const vec3 d(tangents[v]);
        const float len = glm::length(d);
        if (len > 0.0f && std::isfinite(len)) continue;
        vec3 u(1.0f, 0.0f, 0.0f);
        if (v < normals.size()) {
          const vec3 nv = normals[v];
          u = glm::normalize(glm::cross(nv, std::abs(nv.x) < 0.9f ? vec3(1, 0, 0) : vec3(0, 1, 0)));
        }
        tangents[v] = vec4(u, tangents[v].w);
        ++c;
      }
      c += renormalise(&tangents);
      for (vec4& t : tangents) {
        if (t.w != 1.0f && t.w != -1.0f) {
          t.w = t.w < 0.0f ? -1.0f : 1.0f;
          ++c;
        }
      }
      if (c)
        warn(where, str(c) +
                        " tangents were not unit length or had a handedness other "
                        "than +-1 and were fixed");
      attrs["TANGENT"] = add_stream(tangents, "VEC4", false);
    }
    if (!s.uv0.empty()) attrs["TEXCOORD_0"] = add_stream(s.uv0, "VEC2", false);
    if (!s.uv1.empty()) attrs["TEXCOORD_1"] = add_stream(s.uv1, "VEC2", false);
    if (!s.colors.empty()) attrs["COLOR_0"] = add_stream(s.colors, "VEC4", false);

    if (mesh.skin >= 0) {
      std::vector<glm::u16vec4> bound_joints;
      std::vector<vec4> bound_weights;
      const std::vector<glm::u16vec4>* joints = &s.joints;
      const std::vector<vec4>* weights = &s.weights;
      if (s.joints.empty()) {
        warn(where, "part of a skinned mesh has no joints; every vertex bound to skin joint 0");
        bound_joints.assign(n, glm::u16vec4(0));
        bound_weights.assign(n, vec4(1, 0, 0, 0));
        joints = &bound_joints;
        weights = &bound_weights;
      }
      std::uint16_t max_joint = 0;
      for (const glm::u16vec4& j : *joints) max_joint = std::max({max_joint, j.x, j.y, j.z, j.w});
      int view;
      if (max_joint < 256) {
        std::vector<std::uint8_t> packed(n * 4);
        for (std::size_t v = 0; v < n; ++v)
          for (int k = 0; k < 4; ++k)
            packed[v * 4 + static_cast<std::size_t>(k)] =
                static_cast<std::uint8_t>((*joints)[v][k]);
        view = add_view(packed.data(), packed.size(), kArrayBuffer);
        attrs["JOINTS_0"] = add_accessor(view, kUnsignedByte, n, "VEC4");
      } else {
        view = add_view(joints->data(), n * sizeof(glm::u16vec4), kArrayBuffer);
        attrs["JOINTS_0"] = add_accessor(view, kUnsignedShort, n, "VEC4");
      }
      attrs["WEIGHTS_0"] = add_stream(*weights, "VEC4", false);
    } else if (!s.joints.empty()) {
      warn(where, "joints and weights of a mesh without a skin were left out");
    }

    json prim{{"attributes", std::move(attrs)}};
    if (!part.indices.empty()) {
      const std::uint32_t max_index = *std::max_element(part.indices.begin(), part.indices.end());
      // 65535 is the primitive-restart value of 16-bit indices, which glTF forbids.
      if (max_index < 65535) {
        std::vector<std::uint16_t> narrow(part.indices.begin(), part.indices.end());
        const int view =
            add_view(narrow.data(), narrow.size() * sizeof(std::uint16_t), kElementArrayBuffer);
        prim["indices"] = add_accessor(view, kUnsignedShort, narrow.size(), "SCALAR");
      } else {
        const int view = add_view(part.indices.data(), part.indices.size() * sizeof(std::uint32_t),
                                  kElementArrayBuffer);
        prim["indices"] = add_accessor(view, kUnsignedInt, part.indices.size(), "SCALAR");
      }
    }
    if (part.topology == Topology::kLines)
      prim["mode"] = 1;
    else if (part.topology == Topology::kPoints)
      prim["mode"] = 0;
    if (part.material >= 0) prim["material"] = part.material;

    if (!part.morphs.empty()) {
      json targets = json::array();
      for (std::size_t t = 0; t < part.morphs.targets.size(); ++t) {
        const MorphTarget& mt = part.morphs.targets[t];
        json target = json::object();
        if (!mt.positions.empty()) target["POSITION"] = add_stream(mt.positions, "VEC3", true);
        if (!mt.normals.empty()) {
          if (!s.normals.empty())
            target["NORMAL"] = add_stream(mt.normals, "VEC3", false);
          else
            warn(where + "/targets/" + str(t), "normal deltas without base normals left out");
        }
        if (!mt.tangents.empty()) {
          if (!s.tangents.empty())
            target["TANGENT"] = add_stream(mt.tangents, "VEC3", false);
          else
            warn(where + "/targets/" + str(t), "tangent deltas without base tangents left out");
        }
        // A target must name at least one attribute: a target that moves nothing gets zero
        // position deltas.
        if (target.empty()) {
          const std::vector<vec3> zeros(n, vec3(0.0f));
          target["POSITION"] = add_stream(zeros, "VEC3", true);
        }
        targets.push_back(std::move(target));
      }
      prim["targets"] = std::move(targets);
    }
    return prim;
  }

  void encode_meshes() {
    const auto meshes = model_.meshes();
    for (std::size_t m = 0; m < meshes.size(); ++m) {
      const Mesh& mesh = meshes[m];
      json out = json::object();
      if (!mesh.name.empty()) out["name"] = mesh.name;
      json prims = json::array();
      for (std::size_t p = 0; p < mesh.parts.size(); ++p)
        prims.push_back(
            encode_part(mesh, mesh.parts[p], "/meshes/" + str(m) + "/primitives/" + str(p)));
      out["primitives"] = std::move(prims);
      if (!mesh.default_weights.empty()) {
        json w = json::array();
        for (float f : mesh.default_weights) w.push_back(static_cast<double>(f));
        out["weights"] = std::move(w);
      }
      if (!mesh.morph_names.empty()) out["extras"]["targetNames"] = mesh.morph_names;
      doc_["meshes"].push_back(std::move(out));
    }
  }

  // ---- skins ----

  void encode_skins() {
    for (const Skin& skin : model_.skins()) {
      json out = json::object();
      if (!skin.name.empty()) out["name"] = skin.name;
      json joints = json::array();
      for (std::int16_t j : skin.joints) joints.push_back(j);
      out["joints"] = std::move(joints);
      std::vector<mat4> ibm = skin.inverse_bind;
      if (ibm.empty()) ibm.assign(skin.joints.size(), mat4(1.0f));
      const int view = add_view(ibm.data(), ibm.size() * sizeof(mat4), 0);
      out["inverseBindMatrices"] = add_accessor(view, kFloat, ibm.size(), "MAT4");
      if (skin.skeleton_root >= 0) out["skeleton"] = skin.skeleton_root;
      doc_["skins"].push_back(std::move(out));
    }
  }

  // ---- animations ----

  void encode_animations() {
    const auto clips = model_.clips();
    const auto meshes = model_.meshes();
    for (std::size_t c = 0; c < clips.size(); ++c) {
      const Clip& clip = clips[c];
      const std::string where = "/animations/" + str(animations_written_);
      const auto tracks = clip.tracks();
      // The node each track drives, or -1 when it cannot be written.
      std::vector<int> node(tracks.size(), -1);
      for (std::size_t t = 0; t < tracks.size(); ++t) {
        const Track& tr = tracks[t];
        if (tr.target == TrackTarget::kWeights) {
          if (tr.index >= 0 && static_cast<std::size_t>(tr.index) < meshes.size() &&
              tr.components > 0)
            node[t] = mesh_node_[static_cast<std::size_t>(tr.index)];
        } else if (tr.index >= 0 && tr.index < model_.skeleton().joint_count()) {
          node[t] = tr.index;
        }
        if (node[t] < 0)
          warn(where, "clip '" + clip.name() + "' track " + str(t) +
                          " drives nothing that exists and was left out");
      }
      // glTF allows one channel per (node, path): the last track wins, as in sampling.
      std::map<std::pair<int, int>, std::size_t> last;
      for (std::size_t t = 0; t < tracks.size(); ++t)
        if (node[t] >= 0) last[{node[t], static_cast<int>(tracks[t].target)}] = t;

      json samplers = json::array(), channels = json::array();
      std::map<std::vector<float>, int> inputs;
      for (std::size_t t = 0; t < tracks.size(); ++t) {
        if (node[t] < 0) continue;
        const Track& tr = tracks[t];
        if (last[{node[t], static_cast<int>(tr.target)}] != t) {
          warn(where, "clip '" + clip.name() + "' track " + str(t) +
                          " is overridden by a later track on the same target and was left out");
          continue;
        }
        const auto times = clip.track_times(tr);
        const auto values = clip.track_values(tr);
        for (std::size_t k = 1; k < times.size(); ++k) {
          if (!(times[k] > times[k - 1])) {
            warn(where, "clip '" + clip.name() + "' track " + str(t) +
                            " has key times that do not strictly increase, as glTF requires");
            break;
          }
        }
        std::vector<float> key(times.begin(), times.end());
        int input;
        if (auto it = inputs.find(key); it != inputs.end()) {
          input = it->second;
        } else {
          input = add_floats(key.data(), key.size(), 1, "SCALAR", 0, true);
          inputs.emplace(std::move(key), input);
        }
        const char* type = tr.target == TrackTarget::kRotation  ? "VEC4"
                           : tr.target == TrackTarget::kWeights ? "SCALAR"
                                                                : "VEC3";
        const int comps = tr.target == TrackTarget::kWeights ? 1 : static_cast<int>(tr.components);
        const int output = add_floats(
            values.data(), values.size() / static_cast<std::size_t>(comps), comps, type, 0, false);
        samplers.push_back(json{
            {"input", input}, {"output", output}, {"interpolation", to_string(tr.interpolation)}});
        channels.push_back(json{{"sampler", samplers.size() - 1},
                                {"target", {{"node", node[t]}, {"path", to_string(tr.target)}}}});
      }
      if (channels.empty()) {
        warn(where, "clip '" + clip.name() + "' has no track to write and was left out");
        continue;
      }
      json anim{{"samplers", std::move(samplers)}, {"channels", std::move(channels)}};
      if (!clip.name().empty()) anim["name"] = clip.name();
      doc_["animations"].push_back(std::move(anim));
      ++animations_written_;
    }
  }

  const Model& model_;
  std::string out_name_;
  Diagnostics* diag_;
  OutputImages* sink_;  // null for GLB
  json doc_ = json::object();
  std::vector<std::uint8_t> bin_;
  std::string bin_name_;
  std::vector<int> image_map_;  // model image -> glTF image, -1 when left out
  std::map<std::tuple<int, int, int, int>, int> samplers_;
  std::map<std::pair<int, int>, int> textures_;
  std::set<std::string> extensions_used_;
  std::vector<int> mesh_node_;
  std::vector<int> roots_;
  std::size_t node_count_ = 0;
  std::size_t animations_written_ = 0;
};

std::string dump(const json& doc, int indent) {
  return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

void put_u32(std::vector<std::uint8_t>* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// GLB container (glTF 2.0 §4.4): 12-byte header, JSON chunk padded with spaces, BIN chunk padded
// with zeros; both chunk lengths multiples of 4.
Result<std::vector<std::uint8_t>> assemble_glb(const Encoder& enc, std::string_view name) {
  std::string text = dump(enc.doc(), -1);
  while (text.size() % 4 != 0) text += ' ';
  const std::vector<std::uint8_t>& bin = enc.bin();
  const std::uint64_t total = 12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size());
  if (total > 0xFFFFFFFFull)
    return fail(Error::at(ErrorCode::kLimit, std::string(name), {},
                          "GLB of " + std::to_string(total) + " bytes exceeds 4 GiB"));
  std::vector<std::uint8_t> out;
  out.reserve(static_cast<std::size_t>(total));
  put_u32(&out, 0x46546C67u);  // "glTF"
  put_u32(&out, 2);
  put_u32(&out, static_cast<std::uint32_t>(total));
  put_u32(&out, static_cast<std::uint32_t>(text.size()));
  put_u32(&out, 0x4E4F534Au);  // "JSON"
  out.insert(out.end(), text.begin(), text.end());
  if (!bin.empty()) {
    put_u32(&out, static_cast<std::uint32_t>(bin.size()));
    put_u32(&out, 0x004E4942u);  // "BIN\0"
    out.insert(out.end(), bin.begin(), bin.end());
  }
  return out;
}

Result<GltfWriteReport> write_impl(const Model& model, std::string_view path,
                                   const GltfWriteOptions& options, Diagnostics* diag) {
  const std::string out(path);
  const bool glb = options.container == GltfContainer::kGlb ||
                   (options.container == GltfContainer::kAuto && iends_with(path, ".glb"));
  AtomicFileSet files;
  GltfWriteReport report;
  report.files.push_back(out);
  if (glb) {
    Encoder enc(model, out, diag, nullptr);
    if (auto r = enc.run(); !r) return std::unexpected(std::move(r.error()));
    auto bytes = assemble_glb(enc, out);
    if (!bytes) return std::unexpected(std::move(bytes.error()));
    if (auto r = files.stage(out, *bytes); !r) return std::unexpected(std::move(r.error()));
    report.bytes = bytes->size();
    report.node_count = enc.node_count();
    report.mesh_nodes_added = enc.mesh_nodes_added();
  } else {
    const fs::path p(out);
    OutputImages sink(&files, p.parent_path(), p.stem().string());
    sink.reserve(p.filename().string());
    Encoder enc(model, out, diag, &sink);
    const std::string bin_name = sink.reserve(sink.stem() + ".bin");
    enc.set_bin_name(bin_name);
    if (auto r = enc.run(); !r) return std::unexpected(std::move(r.error()));
    if (!enc.bin().empty()) {
      const std::string bin_path = (sink.dir() / bin_name).string();
      if (auto r = files.stage(bin_path, enc.bin()); !r)
        return std::unexpected(std::move(r.error()));
      report.files.push_back(bin_path);
    }
    for (const std::string& w : sink.written()) report.files.push_back(w);
    const std::string text = dump(enc.doc(), options.json_indent) + "\n";
    // The JSON goes last so that a reader never finds it before the files it names.
    if (auto r = files.stage(out, text); !r) return std::unexpected(std::move(r.error()));
    report.bytes = text.size();
    report.node_count = enc.node_count();
    report.mesh_nodes_added = enc.mesh_nodes_added();
  }
  if (auto r = files.commit(); !r) return std::unexpected(std::move(r.error()));
  return report;
}

}  // namespace

Result<GltfWriteReport> write_gltf(const Model& model, std::string_view path,
                                   const GltfWriteOptions& options, Diagnostics* diag) {
  return detail::guard_exceptions(path, [&] { return write_impl(model, path, options, diag); });
}

Result<std::vector<std::uint8_t>> encode_glb(const Model& model, std::string_view name_for_errors,
                                             Diagnostics* diag) {
  return detail::guard_exceptions(name_for_errors, [&]() -> Result<std::vector<std::uint8_t>> {
    Encoder enc(model, std::string(name_for_errors), diag, nullptr);
    if (auto r = enc.run(); !r) return std::unexpected(std::move(r.error()));
    return assemble_glb(enc, name_for_errors);
  });
}

}  // namespace critter::io
