// SPDX-License-Identifier: MIT
#include "describe.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace critter::cli {
namespace {

// Text for people: 6 significant digits, so float noise (0.17999999) reads as 0.18, and
// magnitudes under 1e-6 (rounding residue such as -1.5e-07 in a skinned bound) read as 0. The JSON
// output keeps the exact values.
std::string num(float v) {
  if (std::abs(v) < 1e-6f) return "0";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);
  return std::string(buf, r.ptr);
}

// JSON number carrying the float's shortest round-trip text: 0.3f is written as 0.3, not as its
// double expansion 0.30000001192092896, and still reads back to the same float.
nlohmann::ordered_json jnum(float v) {
  if (!std::isfinite(v)) return nullptr;
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::strtod(std::string(buf, r.ptr).c_str(), nullptr);
}

nlohmann::ordered_json jvec(std::initializer_list<float> v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (float f : v) a.push_back(jnum(f));
  return a;
}

// Built with append rather than operator+ chains, which trip GCC 12's -Wrestrict false positive.
std::string vec_text(const vec3& v) {
  std::string s("(");
  s.append(num(v.x)).append(", ").append(num(v.y)).append(", ").append(num(v.z)).append(")");
  return s;
}

std::string quoted(const std::string& name) {
  if (name.empty()) return "(unnamed)";
  std::string s("\"");
  s.append(name).append("\"");
  return s;
}

std::vector<std::string> attributes(const VertexStreams& s) {
  std::vector<std::string> a;
  if (!s.positions.empty()) a.emplace_back("POSITION");
  if (!s.normals.empty()) a.emplace_back("NORMAL");
  if (!s.tangents.empty()) a.emplace_back("TANGENT");
  if (!s.uv0.empty()) a.emplace_back("TEXCOORD_0");
  if (!s.uv1.empty()) a.emplace_back("TEXCOORD_1");
  if (!s.colors.empty()) a.emplace_back("COLOR_0");
  if (!s.joints.empty()) a.emplace_back("JOINTS_0");
  if (!s.weights.empty()) a.emplace_back("WEIGHTS_0");
  return a;
}

std::string_view topology_name(Topology t) {
  switch (t) {
    case Topology::kTriangles:
      return "triangles";
    case Topology::kLines:
      return "lines";
    case Topology::kPoints:
      return "points";
  }
  return "?";
}

std::string_view alpha_name(AlphaMode m) {
  switch (m) {
    case AlphaMode::kOpaque:
      return "OPAQUE";
    case AlphaMode::kMask:
      return "MASK";
    case AlphaMode::kBlend:
      return "BLEND";
  }
  return "?";
}

std::string_view storage(const Image& img) {
  if (img.missing) return "missing";
  return img.bytes.empty() ? "external" : "embedded";
}

// Interpolations a clip uses, in enum order (STEP, LINEAR, CUBICSPLINE).
std::vector<std::string> interpolations(const Clip& c) {
  std::set<Interpolation> used;
  for (const Track& t : c.tracks()) used.insert(t.interpolation);
  std::vector<std::string> out;
  for (Interpolation i : used) out.emplace_back(to_string(i));
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string material_name(const Model& m, std::int32_t index) {
  if (index < 0 || static_cast<std::size_t>(index) >= m.materials().size()) return {};
  return m.materials()[static_cast<std::size_t>(index)].name;
}

std::string bone_label(const Model& m, std::int32_t bone) {
  const auto names = m.skeleton().names();
  if (bone < 0 || static_cast<std::size_t>(bone) >= names.size()) return "-";
  std::string s("[");
  s.append(std::to_string(bone)).append("] ").append(quoted(names[static_cast<std::size_t>(bone)]));
  return s;
}

}  // namespace

nlohmann::ordered_json diagnostic_json(std::string_view code, std::string_view file,
                                       std::string_view location, std::string_view message) {
  nlohmann::ordered_json j;
  j["code"] = code;
  j["file"] = file;
  j["location"] = location;
  j["message"] = message;
  return j;
}

nlohmann::ordered_json describe_json(const Model& model, std::string_view file,
                                     std::span<const Warning> warnings) {
  using json = nlohmann::ordered_json;
  json j;
  j["file"] = file.empty() ? json(nullptr) : json(std::string(file));
  j["format"] = model.format();
  j["name"] = model.name();

  const Skeleton& sk = model.skeleton();
  json bones = json::array();
  for (int i = 0; i < sk.joint_count(); ++i) {
    const auto u = static_cast<std::size_t>(i);
    bones.push_back({{"index", sk.source_indices()[u]},
                     {"name", sk.names()[u]},
                     {"parent", static_cast<int>(sk.parents()[u])}});
  }
  j["bones"] = std::move(bones);

  json meshes = json::array();
  for (const Mesh& mesh : model.meshes()) {
    json parts = json::array();
    for (const MeshPart& p : mesh.parts) {
      const std::string mat = material_name(model, p.material);
      parts.push_back({{"vertices", p.vertex_count()},
                       {"indices", p.indices.size()},
                       {"topology", topology_name(p.topology)},
                       {"attributes", attributes(p.streams)},
                       {"material", p.material},
                       {"material_name", p.material < 0 ? json(nullptr) : json(mat)}});
    }
    json weights = json::array();
    for (float w : mesh.default_weights) weights.push_back(jnum(w));
    meshes.push_back({{"name", mesh.name},
                      {"bone", mesh.bone},
                      {"skin", mesh.skin},
                      {"parts", std::move(parts)},
                      {"morph_targets", mesh.morph_target_count()},
                      {"morph_names", mesh.morph_names},
                      {"default_weights", std::move(weights)}});
  }
  j["meshes"] = std::move(meshes);

  json skins = json::array();
  for (const Skin& s : model.skins()) {
    skins.push_back(
        {{"name", s.name}, {"joints", s.joints.size()}, {"skeleton_root", s.skeleton_root}});
  }
  j["skins"] = std::move(skins);

  json anims = json::array();
  for (const Clip& c : model.clips()) {
    anims.push_back({{"name", c.name()},
                     {"duration", jnum(c.duration())},
                     {"channels", c.tracks().size()},
                     {"interpolations", interpolations(c)}});
  }
  j["animations"] = std::move(anims);

  json materials = json::array();
  for (const Material& m : model.materials()) {
    const vec4& c = m.base_color_factor;
    materials.push_back({{"name", m.name},
                         {"base_color", jvec({c.x, c.y, c.z, c.w})},
                         {"base_color_texture", m.base_color_texture.image},
                         {"alpha_mode", alpha_name(m.alpha_mode)},
                         {"double_sided", m.double_sided},
                         {"unlit", m.unlit}});
  }
  j["materials"] = std::move(materials);

  json images = json::array();
  for (const Image& img : model.images()) {
    images.push_back({{"name", img.name},
                      {"uri", img.uri},
                      {"mime_type", img.mime_type},
                      {"storage", storage(img)},
                      {"bytes", img.bytes.size()},
                      {"path", img.resolved_path}});
  }
  j["images"] = std::move(images);

  const Aabb& b = model.bounds();
  if (b.empty()) {
    j["bounds"] = {{"min", nullptr}, {"max", nullptr}};
  } else {
    j["bounds"] = {{"min", jvec({b.min.x, b.min.y, b.min.z})},
                   {"max", jvec({b.max.x, b.max.y, b.max.z})}};
  }

  json warns = json::array();
  for (const Warning& w : warnings) {
    warns.push_back(diagnostic_json("warning", w.path, w.location, w.message));
  }
  j["warnings"] = std::move(warns);
  return j;
}

void describe_text(const Model& model, std::string_view file, std::span<const Warning> warnings,
                   std::ostream& out) {
  out << "file:   " << (file.empty() ? std::string("(built in code)") : std::string(file)) << "\n";
  out << "name:   " << quoted(model.name()) << "\n";
  out << "format: " << model.format() << "\n";

  const Skeleton& sk = model.skeleton();
  out << "\nbones (" << sk.joint_count() << "):\n";
  // Print the tree depth-first so every bone sits under its parent. Parents-first order alone is
  // not enough: a bone's children need not follow it directly.
  const auto count = static_cast<std::size_t>(sk.joint_count());
  std::vector<std::vector<int>> children(count);
  std::vector<int> stack;
  for (std::size_t i = count; i-- > 0;) {
    const int parent = sk.parents()[i];
    // Filled in reverse so that popping from the stack visits lower indices first.
    if (parent >= 0) {
      children[static_cast<std::size_t>(parent)].push_back(static_cast<int>(i));
    } else {
      stack.push_back(static_cast<int>(i));
    }
  }
  std::vector<int> depth(count, 0);
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    const auto u = static_cast<std::size_t>(i);
    out << std::string(2 + 2 * static_cast<std::size_t>(depth[u]), ' ') << "[" << i << "] "
        << quoted(sk.names()[u]);
    if (sk.source_indices()[u] >= 0) out << "  (node " << sk.source_indices()[u] << ")";
    out << "\n";
    for (int c : children[u]) {
      depth[static_cast<std::size_t>(c)] = depth[u] + 1;
      stack.push_back(c);
    }
  }

  out << "\nmeshes (" << model.meshes().size() << "):\n";
  for (std::size_t mi = 0; mi < model.meshes().size(); ++mi) {
    const Mesh& mesh = model.meshes()[mi];
    out << "  [" << mi << "] " << quoted(mesh.name) << ": "
        << plural(mesh.parts.size(), "part", "parts") << ", "
        << plural(mesh.morph_target_count(), "morph target", "morph targets");
    if (mesh.skin >= 0) out << ", skin " << mesh.skin;
    if (mesh.bone >= 0) out << ", on bone " << bone_label(model, mesh.bone);
    out << "\n";
    for (std::size_t pi = 0; pi < mesh.parts.size(); ++pi) {
      const MeshPart& p = mesh.parts[pi];
      out << "      part " << pi << ": " << p.vertex_count() << " vertices, " << p.indices.size()
          << " indices, " << topology_name(p.topology) << ", material ";
      if (p.material < 0) {
        out << "(default)";
      } else {
        out << "[" << p.material << "] " << quoted(material_name(model, p.material));
      }
      out << "\n        attributes: " << join(attributes(p.streams), " ") << "\n";
    }
    if (mesh.morph_target_count() > 0) {
      out << "      morph targets:";
      for (std::size_t t = 0; t < mesh.morph_target_count(); ++t) {
        const std::string name = t < mesh.morph_names.size() ? mesh.morph_names[t] : std::string();
        out << (t ? ", " : " ") << quoted(name) << "=" << num(mesh.default_weights[t]);
      }
      out << "\n";
    }
  }

  out << "\nskins (" << model.skins().size() << "):\n";
  for (std::size_t si = 0; si < model.skins().size(); ++si) {
    const Skin& s = model.skins()[si];
    out << "  [" << si << "] " << quoted(s.name) << ": "
        << plural(s.joints.size(), "joint", "joints");
    if (s.skeleton_root >= 0) out << ", skeleton root " << bone_label(model, s.skeleton_root);
    out << "\n";
  }

  out << "\nanimations (" << model.clips().size() << "):\n";
  for (std::size_t ci = 0; ci < model.clips().size(); ++ci) {
    const Clip& c = model.clips()[ci];
    out << "  [" << ci << "] " << quoted(c.name()) << ": " << num(c.duration()) << " s, "
        << plural(c.tracks().size(), "channel", "channels") << ", " << join(interpolations(c), " ")
        << "\n";
  }

  out << "\nmaterials (" << model.materials().size() << "):\n";
  for (std::size_t i = 0; i < model.materials().size(); ++i) {
    const Material& m = model.materials()[i];
    const vec4& c = m.base_color_factor;
    out << "  [" << i << "] " << quoted(m.name) << ": base colour (" << num(c.x) << ", " << num(c.y)
        << ", " << num(c.z) << ", " << num(c.w) << ")";
    if (m.base_color_texture.valid()) out << ", texture image " << m.base_color_texture.image;
    out << ", " << alpha_name(m.alpha_mode);
    if (m.double_sided) out << ", double-sided";
    if (m.unlit) out << ", unlit";
    out << "\n";
  }

  out << "\nimages (" << model.images().size() << "):\n";
  for (std::size_t i = 0; i < model.images().size(); ++i) {
    const Image& img = model.images()[i];
    out << "  [" << i << "] " << quoted(img.name) << ": " << storage(img);
    if (!img.bytes.empty()) out << ", " << img.bytes.size() << " bytes";
    if (!img.uri.empty() && img.bytes.empty()) out << " " << img.uri;
    if (!img.mime_type.empty()) out << ", " << img.mime_type;
    out << "\n";
  }

  const Aabb& b = model.bounds();
  out << "\nbounds: ";
  if (b.empty()) {
    out << "(empty)\n";
  } else {
    out << "min " << vec_text(b.min) << ", max " << vec_text(b.max) << ", size "
        << vec_text(b.extent()) << "\n";
  }

  out << "\nwarnings (" << warnings.size() << "):\n";
  for (const Warning& w : warnings) out << "  " << w.to_string() << "\n";
}

std::string format_number(float v) {
  return num(v);
}
std::string format_vec(const vec3& v) {
  return vec_text(v);
}
nlohmann::json json_number(float v) {
  return jnum(v);
}
nlohmann::json json_vec(const vec3& v) {
  return jvec({v.x, v.y, v.z});
}

}  // namespace critter::cli
