// SPDX-License-Identifier: MIT
#include <cmath>
#include <optional>

#include "io/gltf/gltf_document.h"

namespace critter::io::gltf {

namespace {

template <class V>
std::uint64_t bytes_of(const std::vector<V>& v) {
  return std::uint64_t{v.size()} * sizeof(V);
}

std::uint64_t bytes_of(const Mesh& mesh) {
  std::uint64_t total = 0;
  for (const MeshPart& p : mesh.parts) {
    const VertexStreams& s = p.streams;
    total += bytes_of(s.positions) + bytes_of(s.normals) + bytes_of(s.tangents) + bytes_of(s.uv0) +
             bytes_of(s.uv1) + bytes_of(s.colors) + bytes_of(s.joints) + bytes_of(s.weights) +
             bytes_of(p.indices);
    for (const MorphTarget& t : p.morphs.targets)
      total += bytes_of(t.positions) + bytes_of(t.normals) + bytes_of(t.tangents);
  }
  return total;
}

enum Mode : std::uint32_t {
  kPoints = 0,
  kLines = 1,
  kLineLoop = 2,
  kLineStrip = 3,
  kTriangles = 4,
  kTriangleStrip = 5,
  kTriangleFan = 6,
};

}  // namespace

Status Document::read_meshes(const Obj& root) {
  (void)root;
  const std::size_t node_count = node_mesh_.size();
  node_output_.assign(node_count, -1);
  std::vector<std::uint32_t> uses(mesh_json_.size(), 0);
  for (std::int32_t m : node_mesh_)
    if (m >= 0) ++uses[static_cast<std::size_t>(m)];
  // Each glTF mesh is decoded once; further nodes get copies (charged to the budget) and the
  // last user takes the decoded mesh itself.
  std::vector<std::optional<Mesh>> decoded(mesh_json_.size());
  for (std::size_t i = 0; i < node_count; ++i) {
    const std::int32_t m = node_mesh_[i];
    if (m < 0) continue;
    const auto um = static_cast<std::size_t>(m);
    if (!decoded[um]) {
      GLTF_TRY(mesh, decode_mesh(static_cast<std::uint32_t>(m)));
      decoded[um] = std::move(mesh);
    } else {
      const Ptr nodes("nodes");
      const Ptr node(nodes, i);
      GLTF_CHECK(data_.charge(bytes_of(*decoded[um]), Ptr(node, "mesh")));
    }
    Mesh out = --uses[um] == 0 ? std::move(*decoded[um]) : *decoded[um];
    out.bone = static_cast<std::int32_t>(i);
    out.skin = node_skin_[i];
    node_output_[i] = static_cast<std::int32_t>(raw_.meshes.size());
    raw_.meshes.push_back(std::move(out));
  }
  return {};
}

Result<Mesh> Document::decode_mesh(std::uint32_t index) {
  const Ptr list_ptr("meshes");
  GLTF_TRY(m, as_object(mesh_json_[index], Ptr(list_ptr, index), src_));
  Mesh mesh;
  mesh.source_index = static_cast<std::int32_t>(index);
  GLTF_TRY(name, m.opt_string("name"));
  mesh.name = m.has("name") ? std::string(name) : "mesh_" + std::to_string(index);
  GLTF_TRY(prims, m.req_array("primitives"));
  mesh.parts.reserve(array_size(prims));
  const Ptr prims_ptr = m.at("primitives");
  std::size_t k = 0;
  for (dom::element e : prims) {
    GLTF_TRY(prim, as_object(e, Ptr(prims_ptr, k++), src_));
    MeshPart part;
    GLTF_TRY(kept, decode_primitive(prim, part));
    if (!kept) continue;
    if (!mesh.parts.empty() &&
        part.morphs.target_count() != mesh.parts.front().morphs.target_count())
      return src_.fail(ErrorCode::kInvalid, prim.at("targets"),
                       "primitive has " + std::to_string(part.morphs.target_count()) +
                           " morph targets, the mesh's first primitive has " +
                           std::to_string(mesh.parts.front().morphs.target_count()));
    mesh.parts.push_back(std::move(part));
  }
  if (mesh.parts.empty())
    return src_.fail(ErrorCode::kInvalid, m.at("primitives"),
                     "mesh has no primitive critter can draw");
  const std::size_t targets = mesh.parts.front().morphs.target_count();

  GLTF_TRY(weights, m.opt_array("weights"));
  if (weights) {
    const Ptr weights_ptr = m.at("weights");
    std::size_t w = 0;
    for (dom::element e : *weights) {
      double v = 0.0;
      if (e.get_double().get(v) != simdjson::SUCCESS || !std::isfinite(static_cast<float>(v)))
        return src_.fail(ErrorCode::kInvalid, Ptr(weights_ptr, w), "expected a finite number");
      if (w < targets) mesh.default_weights.push_back(static_cast<float>(v));
      ++w;
    }
    if (w > targets)
      src_.warn(m.at("weights"), std::to_string(w) + " default weights for " +
                                     std::to_string(targets) + " morph targets; extra ignored");
  }
  mesh.default_weights.resize(targets, 0.0f);

  if (const auto extras = m.get("extras")) {
    dom::array names;
    if (extras->at_key("targetNames").get_array().get(names) == simdjson::SUCCESS) {
      for (dom::element e : names) {
        std::string_view s;
        if (e.get_string().get(s) != simdjson::SUCCESS) break;
        mesh.morph_names.emplace_back(s);
      }
    }
  }
  return mesh;
}

Result<bool> Document::decode_primitive(const Obj& prim, MeshPart& part) {
  GLTF_TRY(attrs, prim.req_object("attributes"));
  const auto position = attrs.get("POSITION");
  if (!position) {
    src_.warn(prim.where, "primitive has no POSITION attribute; skipped");
    return false;
  }
  const std::size_t accessor_count = data_.accessor_count();
  VertexStreams& s = part.streams;
  std::uint64_t n = 0;

  // Decodes float attribute `value` into `out` (components of each V written, the rest keep
  // `fill`); its count must equal `expect` unless `expect` is 0.
  auto floats = [&](auto& out, dom::element value, const Ptr& where, std::uint32_t type_mask,
                    std::uint32_t component_mask, auto fill,
                    std::uint64_t expect) -> Result<std::uint64_t> {
    using V = typename std::decay_t<decltype(out)>::value_type;
    GLTF_TRY(index, as_index(value, accessor_count, "accessor", where, src_));
    GLTF_TRY(a, data_.check_accessor(index, type_mask, component_mask, where));
    if (expect != 0 && a->count != expect)
      return src_.fail(ErrorCode::kInvalid, where,
                       "accessor " + std::to_string(index) + " has " + std::to_string(a->count) +
                           " elements, POSITION has " + std::to_string(expect));
    GLTF_CHECK(data_.charge(a->count, sizeof(V), where));
    out.assign(static_cast<std::size_t>(a->count), fill);
    GLTF_CHECK(data_.decode_floats(*a, &out[0][0], sizeof(V) / sizeof(float), where));
    return a->count;
  };

  constexpr std::uint32_t kSigned = bit(kF32) | bit(kI8) | bit(kI16);
  constexpr std::uint32_t kUnsignedNorm = bit(kF32) | bit(kU8) | bit(kU16);
  GLTF_TRY(count, floats(s.positions, *position, attrs.at("POSITION"), 1u << kVec3, kAnyFloatish,
                         vec3(0.0f), 0));
  n = count;

  bool warned_influences = false;
  for (dom::key_value_pair kv : attrs.o) {
    const std::string_view key = kv.key;
    if (key == "POSITION") continue;
    const Ptr where = attrs.at(key);
    if (key == "NORMAL") {
      GLTF_CHECK(floats(s.normals, kv.value, where, 1u << kVec3, kSigned, vec3(0.0f), n));
    } else if (key == "TANGENT") {
      GLTF_CHECK(floats(s.tangents, kv.value, where, 1u << kVec4, kSigned, vec4(0.0f), n));
    } else if (key == "TEXCOORD_0") {
      GLTF_CHECK(floats(s.uv0, kv.value, where, 1u << kVec2, kAnyFloatish, vec2(0.0f), n));
    } else if (key == "TEXCOORD_1") {
      GLTF_CHECK(floats(s.uv1, kv.value, where, 1u << kVec2, kAnyFloatish, vec2(0.0f), n));
    } else if (key == "COLOR_0") {
      GLTF_CHECK(floats(s.colors, kv.value, where, (1u << kVec3) | (1u << kVec4), kUnsignedNorm,
                        vec4(1.0f), n));
    } else if (key == "WEIGHTS_0") {
      GLTF_CHECK(floats(s.weights, kv.value, where, 1u << kVec4, kUnsignedNorm, vec4(0.0f), n));
    } else if (key == "JOINTS_0") {
      GLTF_TRY(index, as_index(kv.value, accessor_count, "accessor", where, src_));
      GLTF_TRY(a, data_.check_accessor(index, 1u << kVec4, bit(kU8) | bit(kU16), where));
      if (a->count != n)
        return src_.fail(ErrorCode::kInvalid, where,
                         "accessor " + std::to_string(index) + " has " + std::to_string(a->count) +
                             " elements, POSITION has " + std::to_string(n));
      GLTF_CHECK(data_.charge(n, sizeof(glm::u16vec4), where));
      s.joints.resize(static_cast<std::size_t>(n));
      GLTF_CHECK(data_.decode_uints(*a, &s.joints[0][0], 4, where));
    } else if (!warned_influences && (key.starts_with("JOINTS_") || key.starts_with("WEIGHTS_"))) {
      warned_influences = true;
      src_.warn(where, "only JOINTS_0/WEIGHTS_0 are read (4 influences per vertex)");
    }
  }

  GLTF_TRY(material, prim.opt_index("material", raw_.materials.size(), "material"));
  part.material = material;

  GLTF_TRY(mode, prim.opt_uint("mode", kTriangles, ~std::uint64_t{0}));
  if (mode > kTriangleFan)
    return src_.fail(ErrorCode::kInvalid, prim.at("mode"),
                     "mode " + std::to_string(mode) + " is not a glTF primitive mode (0-6)");

  GLTF_TRY(indices_index, prim.opt_index("indices", accessor_count, "accessor"));
  std::uint64_t elements = n;
  if (indices_index >= 0) {
    const Ptr where = prim.at("indices");
    GLTF_TRY(a, data_.check_accessor(static_cast<std::uint32_t>(indices_index), 1u << kScalar,
                                     bit(kU8) | bit(kU16) | bit(kU32), where));
    GLTF_CHECK(data_.charge(a->count, sizeof(std::uint32_t), where));
    part.indices.resize(static_cast<std::size_t>(a->count));
    GLTF_CHECK(data_.decode_uints(*a, part.indices.data(), 1, where));
    elements = a->count;
  }

  const bool indexed = indices_index >= 0;
  const auto element = [&](std::size_t i) {
    return indexed ? part.indices[i] : static_cast<std::uint32_t>(i);
  };
  const std::uint64_t min_elements = mode == kTriangleStrip || mode == kTriangleFan ? 3u
                                     : mode == kLineStrip || mode == kLineLoop      ? 2u
                                                                                    : 1u;
  if (elements < min_elements) {
    src_.warn(prim.where, "primitive has too few vertices for its mode; skipped");
    return false;
  }
  const auto m = static_cast<std::size_t>(elements);
  std::vector<std::uint32_t> out;
  switch (mode) {
    case kPoints:
      part.topology = Topology::kPoints;
      break;
    case kLines:
    case kLineLoop:
    case kLineStrip:
      part.topology = Topology::kLines;
      if (mode == kLines) break;
      GLTF_CHECK(data_.charge(2 * elements, sizeof(std::uint32_t), prim.at("mode")));
      out.reserve(2 * m);
      for (std::size_t i = 0; i + 1 < m; ++i) {
        out.push_back(element(i));
        out.push_back(element(i + 1));
      }
      if (mode == kLineLoop) {
        out.push_back(element(m - 1));
        out.push_back(element(0));
      }
      break;
    case kTriangles:
      part.topology = Topology::kTriangles;
      break;
    case kTriangleStrip:
    case kTriangleFan:
      // The vertex order of glTF 2.0 spec section 3.7.2.1 keeps every triangle's winding.
      part.topology = Topology::kTriangles;
      GLTF_CHECK(data_.charge(3 * (elements - 2), sizeof(std::uint32_t), prim.at("mode")));
      out.reserve(3 * (m - 2));
      for (std::size_t i = 0; i + 2 < m; ++i) {
        if (mode == kTriangleFan) {
          out.push_back(element(i + 1));
          out.push_back(element(i + 2));
          out.push_back(element(0));
        } else {
          out.push_back(element(i));
          out.push_back(element(i + 1 + i % 2));
          out.push_back(element(i + 2 - i % 2));
        }
      }
      break;
    default:
      break;
  }
  if (mode != kPoints && mode != kLines && mode != kTriangles) part.indices = std::move(out);

  GLTF_TRY(targets, prim.opt_array("targets"));
  if (targets) {
    part.morphs.targets.reserve(array_size(*targets));
    const Ptr targets_ptr = prim.at("targets");
    std::size_t t = 0;
    for (dom::element e : *targets) {
      GLTF_TRY(target, as_object(e, Ptr(targets_ptr, t++), src_));
      MorphTarget mt;
      for (dom::key_value_pair kv : target.o) {
        const Ptr where = target.at(kv.key);
        if (kv.key == "POSITION") {
          GLTF_CHECK(
              floats(mt.positions, kv.value, where, 1u << kVec3, kAnyFloatish, vec3(0.0f), n));
        } else if (kv.key == "NORMAL") {
          GLTF_CHECK(floats(mt.normals, kv.value, where, 1u << kVec3, kAnyFloatish, vec3(0.0f), n));
        } else if (kv.key == "TANGENT") {
          GLTF_CHECK(
              floats(mt.tangents, kv.value, where, 1u << kVec3, kAnyFloatish, vec3(0.0f), n));
        }
      }
      part.morphs.targets.push_back(std::move(mt));
    }
  }
  return true;
}

}  // namespace critter::io::gltf
