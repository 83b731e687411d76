// SPDX-License-Identifier: MIT
#include "critter/io/gltf/gltf_reader.h"

#include <array>
#include <charconv>
#include <cmath>

#include "io/gltf/gltf_document.h"

namespace critter::io {

namespace gltf {

namespace {

constexpr std::array<std::string_view, 3> kSupportedRequired = {
    "KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_unlit"};

// Walks a document with simdjson's On Demand API, which knows where it stopped; the DOM parser
// reports only what went wrong. Used on the error path only.
simdjson::error_code walk(simdjson::ondemand::value v, int depth) {
  if (depth > 1024) return simdjson::DEPTH_ERROR;
  simdjson::ondemand::json_type type;
  if (auto e = v.type().get(type)) return e;
  switch (type) {
    case simdjson::ondemand::json_type::array: {
      simdjson::ondemand::array a;
      if (auto e = v.get_array().get(a)) return e;
      for (auto child : a) {
        simdjson::ondemand::value cv;
        if (auto e = child.get(cv)) return e;
        if (auto e = walk(cv, depth + 1)) return e;
      }
      return simdjson::SUCCESS;
    }
    case simdjson::ondemand::json_type::object: {
      simdjson::ondemand::object o;
      if (auto e = v.get_object().get(o)) return e;
      for (auto field : o) {
        simdjson::ondemand::field f;
        if (auto e = std::move(field).get(f)) return e;
        if (auto e = walk(f.value(), depth + 1)) return e;
      }
      return simdjson::SUCCESS;
    }
    case simdjson::ondemand::json_type::number: {
      double d;
      return v.get_double().get(d);
    }
    case simdjson::ondemand::json_type::string: {
      std::string_view s;
      return v.get_string().get(s);
    }
    case simdjson::ondemand::json_type::boolean: {
      bool b;
      return v.get_bool().get(b);
    }
    case simdjson::ondemand::json_type::null: {
      bool is_null;
      return v.is_null().get(is_null);
    }
  }
  return simdjson::SUCCESS;
}

std::optional<std::uint64_t> json_error_offset(std::span<const std::uint8_t> json) {
  const simdjson::padded_string copy(reinterpret_cast<const char*>(json.data()), json.size());
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  if (parser.iterate(copy).get(doc)) return std::nullopt;
  simdjson::ondemand::value root;
  simdjson::error_code e = doc.get_value().get(root);
  if (!e) e = walk(root, 0);
  if (!e) return std::nullopt;
  const char* at = nullptr;
  if (doc.current_location().get(at)) return std::nullopt;
  return static_cast<std::uint64_t>(at - copy.data());
}

// The file name without folder and extension ("a/b/Fox.glb" -> "Fox").
std::string stem_of(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.find_last_of('.');
  if (dot != std::string_view::npos && dot != 0) name = name.substr(0, dot);
  return std::string(name);
}

}  // namespace

Result<RawModel> Document::read(dom::element root_element, const Container& container,
                                std::uint64_t file_bytes) {
  const Ptr root_ptr;
  GLTF_TRY(root, as_object(root_element, root_ptr, src_));
  GLTF_CHECK(read_asset(root));
  GLTF_CHECK(read_extensions(root));
  GLTF_CHECK(data_.parse_buffers(root, container, base_dir_, options_, file_bytes));
  GLTF_CHECK(data_.parse_views(root));
  GLTF_CHECK(data_.parse_accessors(root));
  GLTF_CHECK(read_images(root));
  GLTF_CHECK(read_samplers(root));
  GLTF_CHECK(read_textures(root));
  GLTF_CHECK(read_materials(root));
  GLTF_TRY(meshes, root.opt_array("meshes"));
  if (meshes)
    for (dom::element e : *meshes) mesh_json_.push_back(e);
  GLTF_TRY(skins, root.opt_array("skins"));
  skin_count_ = skins ? array_size(*skins) : 0;
  GLTF_CHECK(read_nodes(root));
  GLTF_CHECK(read_skins(root));
  GLTF_CHECK(read_meshes(root));
  GLTF_CHECK(read_animations(root));
  GLTF_CHECK(read_scenes(root));
  raw_.format = container.format;
  raw_.source_path = src_.path;
  raw_.name = stem_of(src_.path);
  return std::move(raw_);
}

Status Document::read_asset(const Obj& root) {
  GLTF_TRY(asset, root.req_object("asset"));
  if (!asset.has("version"))
    return src_.fail(ErrorCode::kInvalid, asset.at("version"),
                     "missing required property 'version'");
  GLTF_TRY(version, asset.opt_string("version"));
  if (version.size() < 2 || version.substr(0, 2) != "2.")
    return src_.fail(ErrorCode::kUnsupported, asset.at("version"),
                     "glTF version '" + std::string(version) + "' is not supported (only 2.x)");
  GLTF_TRY(min_version, asset.opt_string("minVersion"));
  if (!min_version.empty() && min_version != "2.0")
    return src_.fail(ErrorCode::kUnsupported, asset.at("minVersion"),
                     "glTF minVersion '" + std::string(min_version) + "' is not supported");
  return {};
}

Status Document::read_extensions(const Obj& root) {
  GLTF_TRY(required, root.opt_array("extensionsRequired"));
  if (!required) return {};
  const Ptr list_ptr("extensionsRequired");
  std::size_t i = 0;
  for (dom::element e : *required) {
    const Ptr where(list_ptr, i++);
    std::string_view name;
    if (e.get_string().get(name) != simdjson::SUCCESS)
      return src_.fail(ErrorCode::kInvalid, where, "expected an extension name (a string)");
    bool known = false;
    for (std::string_view s : kSupportedRequired) known = known || s == name;
    if (known) continue;
    std::string why;
    if (name == "KHR_draco_mesh_compression" || name == "EXT_meshopt_compression" ||
        name == "KHR_meshopt_compression")
      why = " (compressed geometry is not supported)";
    return src_.fail(ErrorCode::kUnsupported, where,
                     "required extension '" + std::string(name) + "' is not supported" + why);
  }
  return {};
}

Status Document::read_nodes(const Obj& root) {
  GLTF_TRY(list, root.opt_array("nodes"));
  if (!list) return {};
  const std::size_t n = array_size(*list);
  if (n > static_cast<std::size_t>(Skeleton::kMaxJoints))
    return src_.fail(ErrorCode::kLimit, "/nodes",
                     "file has " + std::to_string(n) + " nodes, critter accepts at most " +
                         std::to_string(Skeleton::kMaxJoints));
  auto& joints = raw_.skeleton.joints;
  joints.resize(n);
  node_mesh_.assign(n, -1);
  node_skin_.assign(n, -1);
  std::vector<std::uint32_t> parent_slot(n, 0);
  const Ptr list_ptr("nodes");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(node, as_object(e, Ptr(list_ptr, i), src_));
    RawJoint& joint = joints[i];
    joint.source_index = static_cast<std::int32_t>(i);
    GLTF_TRY(name, node.opt_string("name"));
    joint.name = node.has("name") ? std::string(name) : "node_" + std::to_string(i);
    GLTF_TRY(children, node.opt_array("children"));
    if (children) {
      const Ptr children_ptr = node.at("children");
      std::uint32_t k = 0;
      for (dom::element c : *children) {
        const Ptr where(children_ptr, k);
        GLTF_TRY(child, as_index(c, n, "node", where, src_));
        if (child == i)
          return src_.fail(ErrorCode::kInvalid, where,
                           "node " + std::to_string(i) + " lists itself as a child");
        if (joints[child].parent >= 0)
          return src_.fail(ErrorCode::kInvalid, where,
                           "node " + std::to_string(child) + " already has parent " +
                               std::to_string(joints[child].parent) + "; a node has one parent");
        joints[child].parent = static_cast<std::int32_t>(i);
        parent_slot[child] = k;
        ++k;
      }
    }
    GLTF_TRY(mesh, node.opt_index("mesh", mesh_json_.size(), "mesh"));
    GLTF_TRY(skin, node.opt_index("skin", skin_count_, "skin"));
    node_mesh_[i] = mesh;
    node_skin_[i] = skin;
    if (node.has("matrix")) {
      float m[16];
      GLTF_CHECK(node.opt_floats("matrix", m, 16));
      joint.rest = Transform::from_matrix(glm::make_mat4(m));
    } else {
      Transform& t = joint.rest;
      float v[4] = {0, 0, 0, 1};
      GLTF_CHECK(node.opt_floats("translation", v, 3));
      t.translation = vec3(v[0], v[1], v[2]);
      v[0] = v[1] = v[2] = 0.0f;
      v[3] = 1.0f;
      GLTF_CHECK(node.opt_floats("rotation", v, 4));
      t.rotation = quat_xyzw(v[0], v[1], v[2], v[3]);
      v[0] = v[1] = v[2] = 1.0f;
      GLTF_CHECK(node.opt_floats("scale", v, 3));
      t.scale = vec3(v[0], v[1], v[2]);
    }
    ++i;
  }
  // Every node has at most one parent now; a cycle shows up as a walk to the root that
  // revisits a node of the same walk.
  std::vector<std::uint8_t> state(n, 0);  // 0 unseen, 1 on the current walk, 2 done
  std::vector<std::size_t> walk;
  for (std::size_t s = 0; s < n; ++s) {
    walk.clear();
    std::int32_t x = static_cast<std::int32_t>(s);
    while (x >= 0 && state[static_cast<std::size_t>(x)] == 0) {
      state[static_cast<std::size_t>(x)] = 1;
      walk.push_back(static_cast<std::size_t>(x));
      x = joints[static_cast<std::size_t>(x)].parent;
    }
    if (x >= 0 && state[static_cast<std::size_t>(x)] == 1) {
      const auto ux = static_cast<std::size_t>(x);
      const auto p = static_cast<std::size_t>(joints[ux].parent);
      const Ptr parent(list_ptr, p);
      const Ptr children(parent, "children");
      return src_.fail(ErrorCode::kInvalid, Ptr(children, parent_slot[ux]),
                       "the node hierarchy has a cycle through node " + std::to_string(x));
    }
    for (std::size_t w : walk) state[w] = 2;
  }
  return {};
}

Status Document::read_skins(const Obj& root) {
  GLTF_TRY(list, root.opt_array("skins"));
  if (!list) return {};
  const std::size_t node_count = raw_.skeleton.joints.size();
  raw_.skins.reserve(skin_count_);
  const Ptr list_ptr("skins");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(s, as_object(e, Ptr(list_ptr, i), src_));
    Skin skin;
    GLTF_TRY(name, s.opt_string("name"));
    skin.name = s.has("name") ? std::string(name) : "skin_" + std::to_string(i);
    GLTF_TRY(joints, s.req_array("joints"));
    const std::size_t joint_count = array_size(joints);
    if (joint_count == 0)
      return src_.fail(ErrorCode::kInvalid, s.at("joints"), "a skin needs at least one joint");
    skin.joints.reserve(joint_count);
    const Ptr joints_ptr = s.at("joints");
    std::size_t k = 0;
    for (dom::element j : joints) {
      GLTF_TRY(node, as_index(j, node_count, "node", Ptr(joints_ptr, k++), src_));
      skin.joints.push_back(static_cast<std::int16_t>(node));
    }
    GLTF_TRY(skeleton, s.opt_index("skeleton", node_count, "node"));
    skin.skeleton_root = skeleton;
    GLTF_TRY(ibm, s.opt_index("inverseBindMatrices", data_.accessor_count(), "accessor"));
    if (ibm >= 0) {
      const Ptr where = s.at("inverseBindMatrices");
      GLTF_TRY(
          a, data_.check_accessor(static_cast<std::uint32_t>(ibm), 1u << kMat4, bit(kF32), where));
      if (a->count < joint_count)
        return src_.fail(ErrorCode::kInvalid, where,
                         "accessor has " + std::to_string(a->count) + " matrices for " +
                             std::to_string(joint_count) + " joints");
      GLTF_CHECK(data_.charge(a->count, sizeof(mat4), where));
      skin.inverse_bind.resize(static_cast<std::size_t>(a->count));
      GLTF_CHECK(data_.decode_floats(*a, &skin.inverse_bind[0][0][0], 16, where));
      skin.inverse_bind.resize(joint_count);
    } else {
      skin.inverse_bind.assign(joint_count, mat4(1.0f));
    }
    raw_.skins.push_back(std::move(skin));
    ++i;
  }
  return {};
}

Status Document::read_animations(const Obj& root) {
  GLTF_TRY(list, root.opt_array("animations"));
  if (!list) return {};
  raw_.clips.reserve(array_size(*list));
  const Ptr list_ptr("animations");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(anim, as_object(e, Ptr(list_ptr, i), src_));
    GLTF_TRY(clip, read_animation(anim, i));
    raw_.clips.push_back(std::move(clip));
    ++i;
  }
  return {};
}

Result<RawClip> Document::read_animation(const Obj& anim, std::size_t index) {
  RawClip clip;
  GLTF_TRY(name, anim.opt_string("name"));
  clip.name = anim.has("name") ? std::string(name) : "animation_" + std::to_string(index);
  clip.source_location = anim.where.str();

  struct Sampler {
    std::uint32_t input = 0, output = 0;
    Interpolation interpolation = Interpolation::kLinear;
  };
  GLTF_TRY(sampler_list, anim.req_array("samplers"));
  std::vector<Sampler> samplers;
  samplers.reserve(array_size(sampler_list));
  const Ptr samplers_ptr = anim.at("samplers");
  std::size_t k = 0;
  for (dom::element e : sampler_list) {
    GLTF_TRY(s, as_object(e, Ptr(samplers_ptr, k++), src_));
    Sampler sampler;
    GLTF_TRY(input, s.req_index("input", data_.accessor_count(), "accessor"));
    GLTF_TRY(output, s.req_index("output", data_.accessor_count(), "accessor"));
    GLTF_TRY(interp, s.opt_string("interpolation"));
    sampler.input = input;
    sampler.output = output;
    if (interp == "STEP") {
      sampler.interpolation = Interpolation::kStep;
    } else if (interp == "CUBICSPLINE") {
      sampler.interpolation = Interpolation::kCubicSpline;
    } else if (!(interp == "LINEAR" || (interp.empty() && !s.has("interpolation")))) {
      return src_.fail(
          ErrorCode::kInvalid, s.at("interpolation"),
          "interpolation '" + std::string(interp) + "' is not LINEAR, STEP or CUBICSPLINE");
    }
    samplers.push_back(sampler);
  }

  GLTF_TRY(channels, anim.req_array("channels"));
  clip.tracks.reserve(array_size(channels));
  const std::size_t node_count = raw_.skeleton.joints.size();
  const Ptr channels_ptr = anim.at("channels");
  const std::string channels_prefix = clip.source_location + "/channels/";
  std::size_t c = 0;
  for (dom::element e : channels) {
    GLTF_TRY(ch, as_object(e, Ptr(channels_ptr, c++), src_));
    GLTF_TRY(sampler_index, ch.req_index("sampler", samplers.size(), "sampler"));
    GLTF_TRY(target, ch.req_object("target"));
    GLTF_TRY(node, target.opt_index("node", node_count, "node"));
    if (!target.has("path"))
      return src_.fail(ErrorCode::kInvalid, target.at("path"), "missing required property 'path'");
    GLTF_TRY(path, target.opt_string("path"));
    if (node < 0) {
      src_.warn(ch.where, "channel has no target node; skipped");
      continue;
    }
    RawTrack track;
    // ch.where spelled out, from the clip's location already built.
    track.source_location.reserve(channels_prefix.size() + 20);
    track.source_location = channels_prefix;
    char digits[24];
    const auto digits_end = std::to_chars(digits, digits + sizeof digits, c - 1).ptr;
    track.source_location.append(digits, digits_end);
    track.index = node;
    std::uint32_t type_mask = 0, component_mask = kAnyFloatish;
    if (path == "translation") {
      track.target = TrackTarget::kTranslation;
      track.components = 3;
      type_mask = 1u << kVec3;
      component_mask = bit(kF32);
    } else if (path == "rotation") {
      track.target = TrackTarget::kRotation;
      track.components = 4;
      type_mask = 1u << kVec4;
    } else if (path == "scale") {
      track.target = TrackTarget::kScale;
      track.components = 3;
      type_mask = 1u << kVec3;
      component_mask = bit(kF32);
    } else if (path == "weights") {
      track.target = TrackTarget::kWeights;
      type_mask = 1u << kScalar;
      const std::int32_t mesh = node_output_[static_cast<std::size_t>(node)];
      if (mesh < 0)
        return src_.fail(
            ErrorCode::kInvalid, target.at("node"),
            "weights channel targets node " + std::to_string(node) + ", which has no mesh");
      track.index = mesh;
      const std::size_t targets =
          raw_.meshes[static_cast<std::size_t>(mesh)].default_weights.size();
      if (targets == 0)
        return src_.fail(ErrorCode::kInvalid, target.at("node"),
                         "weights channel targets node " + std::to_string(node) +
                             ", whose mesh has no morph targets");
      track.components = static_cast<std::uint32_t>(targets);
    } else {
      src_.warn(target.at("path"), "animation path '" + std::string(path) + "' is not read");
      continue;
    }
    const Sampler& sampler = samplers[sampler_index];
    track.interpolation = sampler.interpolation;
    const Ptr sampler_where(samplers_ptr, sampler_index);

    const Ptr input_where(sampler_where, "input");
    GLTF_TRY(in, data_.check_accessor(sampler.input, 1u << kScalar, bit(kF32), input_where));
    GLTF_CHECK(data_.charge(in->count, sizeof(float), input_where));
    track.times.resize(static_cast<std::size_t>(in->count));
    GLTF_CHECK(data_.decode_floats(*in, track.times.data(), 1, input_where));
    for (std::size_t t = 0; t < track.times.size(); ++t) {
      const float time = track.times[t];
      if (!std::isfinite(time))
        return src_.fail(ErrorCode::kInvalid, input_where,
                         "key time " + std::to_string(t) + " is not finite");
      if (time < 0.0f)
        return src_.fail(ErrorCode::kInvalid, input_where,
                         "key time " + std::to_string(t) + " is negative");
      if (t > 0 && time < track.times[t - 1])
        return src_.fail(
            ErrorCode::kInvalid, input_where,
            "key time " + std::to_string(t) + " is before key time " + std::to_string(t - 1));
    }

    const Ptr output_where(sampler_where, "output");
    GLTF_TRY(out, data_.check_accessor(sampler.output, type_mask, component_mask, output_where));
    const std::uint64_t per_key = (sampler.interpolation == Interpolation::kCubicSpline ? 3u : 1u) *
                                  (track.target == TrackTarget::kWeights ? track.components : 1u);
    if (out->count % per_key != 0 || out->count / per_key != in->count)
      return src_.fail(ErrorCode::kInvalid, output_where,
                       "output accessor has " + std::to_string(out->count) + " elements, " +
                           std::to_string(in->count) + " keys need " + std::to_string(per_key) +
                           " each");
    const std::uint32_t floats = out->components();
    GLTF_CHECK(data_.charge(out->count, std::uint64_t{floats} * sizeof(float), output_where));
    track.values.resize(static_cast<std::size_t>(out->count) * floats);
    GLTF_CHECK(data_.decode_floats(*out, track.values.data(), floats, output_where));
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

Status Document::read_scenes(const Obj& root) {
  GLTF_TRY(list, root.opt_array("scenes"));
  const std::size_t scene_count = list ? array_size(*list) : 0;
  GLTF_TRY(scene, root.opt_index("scene", scene_count, "scene"));
  (void)scene;
  if (!list) return {};
  const std::size_t node_count = raw_.skeleton.joints.size();
  const Ptr list_ptr("scenes");
  std::size_t i = 0;
  for (dom::element e : *list) {
    GLTF_TRY(s, as_object(e, Ptr(list_ptr, i++), src_));
    GLTF_TRY(nodes, s.opt_array("nodes"));
    if (!nodes) continue;
    const Ptr nodes_ptr = s.at("nodes");
    std::size_t k = 0;
    for (dom::element n : *nodes)
      GLTF_CHECK(as_index(n, node_count, "node", Ptr(nodes_ptr, k++), src_));
  }
  return {};
}

Result<RawModel> read(std::span<const std::uint8_t> bytes, bool padded, const Source& src,
                      std::string_view base_dir, const LoadOptions& options) {
  GLTF_TRY(container, open_container(bytes, padded, src));
  std::span<const std::uint8_t> json = container.json;
  // Some writers pad the JSON chunk with NUL bytes instead of spaces.
  while (!json.empty() && json.back() == 0) json = json.first(json.size() - 1);
  // One parser per thread, reused: its buffers grow to the largest document seen and stay.
  static thread_local dom::parser parser;
  dom::element root;
  const auto error = parser.parse(json.data(), json.size(), !container.json_padded).get(root);
  if (error) {
    const auto at = json_error_offset(json);
    return src.fail(ErrorCode::kParse,
                    at ? "byte " + std::to_string(container.json_offset + *at) : std::string(),
                    std::string("JSON: ") + simdjson::error_message(error));
  }
  Document doc(src, base_dir, options);
  return doc.read(root, container, bytes.size());
}

std::string folder_of(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return ".";
  return slash == 0 ? std::string("/") : std::string(path.substr(0, slash));
}

}  // namespace gltf

Result<RawModel> read_gltf_raw(std::string_view path, const LoadOptions& options,
                               Diagnostics* diag) {
  const gltf::Source src{std::string(path), diag};
  GLTF_TRY(file, gltf::read_file(src.path, options.max_file_bytes, src.path, ""));
  return gltf::read(file.span(), true, src, gltf::folder_of(path), options);
}

Result<RawModel> read_gltf_raw_memory(std::span<const std::uint8_t> bytes,
                                      std::string_view path_for_errors, std::string_view base_dir,
                                      const LoadOptions& options, Diagnostics* diag) {
  const gltf::Source src{std::string(path_for_errors), diag};
  if (bytes.size() > options.max_file_bytes)
    return src.fail(ErrorCode::kLimit, "",
                    "input has " + std::to_string(bytes.size()) + " bytes, above the limit of " +
                        std::to_string(options.max_file_bytes));
  return gltf::read(bytes, false, src, base_dir.empty() ? std::string_view(".") : base_dir,
                    options);
}

Result<Model> load_gltf(std::string_view path, const LoadOptions& options, Diagnostics* diag) {
  GLTF_TRY(raw, read_gltf_raw(path, options, diag));
  return build_model(std::move(raw), diag);
}

Result<Model> load_gltf_memory(std::span<const std::uint8_t> bytes,
                               std::string_view path_for_errors, std::string_view base_dir,
                               const LoadOptions& options, Diagnostics* diag) {
  GLTF_TRY(raw, read_gltf_raw_memory(bytes, path_for_errors, base_dir, options, diag));
  return build_model(std::move(raw), diag);
}

}  // namespace critter::io
