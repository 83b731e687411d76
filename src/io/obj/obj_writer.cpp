// SPDX-License-Identifier: MIT
#include "critter/io/obj/obj_writer.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <new>
#include <set>

#include "critter/anim/local_to_model_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/deform/morph_job.h"
#include "critter/deform/skin_mesh_part.h"
#include "critter/io/atomic_file.h"
#include "io/exception_guard.h"
#include "io/image/output_images.h"

namespace critter::io {

namespace {

namespace fs = std::filesystem;

void put(std::string* out, float v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  out->append(buffer, r.ptr);
}

void put(std::string* out, std::size_t v) {
  char buffer[24];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  out->append(buffer, r.ptr);
}

// A statement of three numbers: `keyword` (with its trailing blank), then x y z and a newline.
void put_line(std::string* out, std::string_view keyword, const vec3& v) {
  out->append(keyword);
  put(out, v.x);
  *out += ' ';
  put(out, v.y);
  *out += ' ';
  put(out, v.z);
  *out += '\n';
}

// OBJ statements end at the first blank: names keep everything but blanks and control bytes.
std::string obj_name(std::string_view name) {
  std::string out;
  for (unsigned char c : name) out += (c <= ' ' || c == 0x7F) ? '_' : static_cast<char>(c);
  return out;
}

// The model-space joint transforms and flat morph weights of the requested pose.
Status pose_model(const Model& model, const ObjWriteOptions& options,
                  const anim::MorphLayout& layout, std::vector<mat4>* transforms,
                  std::vector<float>* weights) {
  if (options.clip < 0) {
    const auto rest = model.rest_model_transforms();
    transforms->assign(rest.begin(), rest.end());
    *weights = layout.defaults;
    return {};
  }
  anim::Pose pose = anim::Pose::rest(model, layout);
  anim::SamplingContext context;
  anim::SamplingJob sampling;
  sampling.clip = &model.clips()[static_cast<std::size_t>(options.clip)];
  sampling.time = options.time;
  sampling.context = &context;
  sampling.rest = model.skeleton().rest_pose();
  sampling.default_weights = layout.defaults;
  sampling.weight_offsets = layout.offsets;
  sampling.output = pose.locals;
  sampling.output_weights = pose.weights;
  if (auto r = sampling.run(); !r) return r;
  transforms->resize(pose.locals.size());
  anim::LocalToModelJob to_model;
  to_model.parents = model.skeleton().parents();
  to_model.input = pose.locals;
  to_model.output = *transforms;
  if (auto r = to_model.run(); !r) return r;
  *weights = std::move(pose.weights);
  return {};
}

Result<ObjWriteReport> write_impl(const Model& model, std::string_view path,
                                  const ObjWriteOptions& options, Diagnostics* diag) {
  const std::string out_path(path);
  if (options.clip >= static_cast<int>(model.clips().size()))
    return fail(Error::at(ErrorCode::kUsage, out_path, {},
                          "clip " + std::to_string(options.clip) + " does not exist (model has " +
                              std::to_string(model.clips().size()) + " clips)"));
  if (!std::isfinite(options.time))
    return fail(Error::at(ErrorCode::kUsage, out_path, {}, "pose time is not finite"));
  auto warn = [&](std::string location, std::string message) {
    if (diag) diag->warn(out_path, std::move(location), std::move(message));
  };

  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  std::vector<mat4> transforms;
  std::vector<float> weights;
  if (auto r = pose_model(model, options, layout, &transforms, &weights); !r)
    return std::unexpected(std::move(r.error()));

  const fs::path p(out_path);
  AtomicFileSet files;
  detail::OutputImages images(&files, p.parent_path(), p.stem().string());
  images.reserve(p.filename().string());
  const std::string mtl_name = images.reserve(p.stem().string() + ".mtl");

  // Material names: unique, blank-free; "default" is kept for parts without a material.
  std::vector<std::string> material_names;
  std::set<std::string> taken{"default"};
  for (std::size_t i = 0; i < model.materials().size(); ++i) {
    std::string base = obj_name(model.materials()[i].name);
    if (base.empty()) base = "material_" + std::to_string(i);
    std::string name = base;
    for (std::size_t n = 2; !taken.insert(name).second; ++n) name = base + "_" + std::to_string(n);
    material_names.push_back(std::move(name));
  }

  ObjWriteReport report;
  report.files.push_back(out_path);
  std::string obj = "# critter OBJ export of '" + obj_name(model.name()) + "'";
  if (options.clip >= 0) {
    obj += ", clip '" + obj_name(model.clips()[static_cast<std::size_t>(options.clip)].name()) +
           "' at ";
    put(&obj, options.time);
    obj += " s";
  } else {
    obj += ", rest pose";
  }
  obj += '\n';
  if (options.write_materials) obj += "mtllib " + mtl_name + "\n";

  bool uses_default = false;
  std::size_t v_base = 0, vt_base = 0, vn_base = 0;
  std::vector<vec3> positions, normals;
  std::vector<mat4> palette;
  const auto meshes = model.meshes();
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    const Mesh& mesh = meshes[m];
    const std::string mesh_name = mesh.name.empty() ? "mesh_" + std::to_string(m) : mesh.name;
    obj += "g " + obj_name(mesh_name) + "\n";
    const auto mesh_weights = layout.mesh_weights(std::span<const float>(weights), m);
    if (mesh.skin >= 0)
      palette.resize(model.skins()[static_cast<std::size_t>(mesh.skin)].joints.size());
    for (std::size_t pi = 0; pi < mesh.parts.size(); ++pi) {
      const MeshPart& part = mesh.parts[pi];
      const VertexStreams& s = part.streams;
      const std::size_t n = s.vertex_count();
      positions.resize(n);
      normals.resize(s.normals.empty() ? 0 : n);
      if (mesh.skin >= 0 && s.joints.empty()) {
        warn("/meshes/" + std::to_string(m) + "/parts/" + std::to_string(pi),
             "part of a skinned mesh has no joint weights; written morphed, in mesh space");
        deform::MorphJob morph;
        morph.morphs = &part.morphs;
        morph.weights = mesh_weights;
        morph.in_positions = s.positions;
        morph.in_normals = s.normals;
        morph.out_positions = positions;
        morph.out_normals = normals;
        if (auto r = morph.run(); !r) return std::unexpected(std::move(r.error()));
      } else if (auto r = deform::skin_mesh_part(model, m, pi, transforms, mesh_weights, palette,
                                                 positions, normals);
                 !r) {
        return std::unexpected(std::move(r.error()));
      }

      if (options.write_materials) {
        if (part.material >= 0) {
          obj += "usemtl " + material_names[static_cast<std::size_t>(part.material)] + "\n";
        } else {
          obj += "usemtl default\n";
          uses_default = true;
        }
      }
      for (const vec3& v : positions) put_line(&obj, "v ", v);
      for (const vec2& t : s.uv0) {
        obj += "vt ";
        put(&obj, t.x);
        obj += ' ';
        put(&obj, 1.0f - t.y);
        obj += '\n';
      }
      for (const vec3& v : normals) put_line(&obj, "vn ", v);
      const bool has_uv = !s.uv0.empty();
      const bool has_normal = !normals.empty();
      auto corner = [&](std::size_t v) {
        obj += ' ';
        put(&obj, v_base + v + 1);
        if (has_uv || has_normal) {
          obj += '/';
          if (has_uv) put(&obj, vt_base + v + 1);
          if (has_normal) {
            obj += '/';
            put(&obj, vn_base + v + 1);
          }
        }
      };
      auto index = [&](std::size_t e) -> std::size_t {
        return part.indices.empty() ? e : part.indices[e];
      };
      const std::size_t elements = part.element_count();
      if (part.topology == Topology::kTriangles) {
        for (std::size_t e = 0; e + 2 < elements; e += 3) {
          obj += 'f';
          corner(index(e));
          corner(index(e + 1));
          corner(index(e + 2));
          obj += '\n';
          ++report.faces;
        }
      } else if (part.topology == Topology::kLines) {
        // OBJ line elements take v or v/vt only.
        for (std::size_t e = 0; e + 1 < elements; e += 2) {
          obj += "l ";
          put(&obj, v_base + index(e) + 1);
          obj += ' ';
          put(&obj, v_base + index(e + 1) + 1);
          obj += '\n';
          ++report.lines;
        }
      } else {
        for (std::size_t e = 0; e < elements; ++e) {
          obj += "p ";
          put(&obj, v_base + index(e) + 1);
          obj += '\n';
          ++report.points;
        }
      }
      v_base += n;
      vt_base += s.uv0.size();
      vn_base += normals.size();
    }
  }
  report.vertices = v_base;

  if (options.write_materials) {
    std::string mtl = "# critter material library for '" + obj_name(model.name()) + "'\n";
    std::map<int, std::string> texture_files;
    const auto materials = model.materials();
    for (std::size_t i = 0; i < materials.size(); ++i) {
      const Material& mat = materials[i];
      mtl += "\nnewmtl " + material_names[i] + "\n";
      put_line(&mtl, "Kd ", vec3(mat.base_color_factor));
      if (mat.base_color_factor.w < 1.0f) {
        mtl += "d ";
        put(&mtl, mat.base_color_factor.w);
        mtl += '\n';
      }
      if (mat.emissive_factor != vec3(0.0f)) {
        mtl += "Ke ";
        put(&mtl, mat.emissive_factor.x);
        mtl += ' ';
        put(&mtl, mat.emissive_factor.y);
        mtl += ' ';
        put(&mtl, mat.emissive_factor.z);
        mtl += '\n';
      }
      mtl += "illum 1\n";
      const int image = mat.base_color_texture.image;
      if (image < 0 || static_cast<std::size_t>(image) >= model.images().size()) continue;
      auto it = texture_files.find(image);
      if (it == texture_files.end()) {
        auto name = images.place(model.images()[static_cast<std::size_t>(image)],
                                 static_cast<std::size_t>(image));
        if (!name) return std::unexpected(std::move(name.error()));
        if (name->empty())
          warn("/images/" + std::to_string(image),
               "texture of material '" + material_names[i] + "' is missing; left out");
        it = texture_files.emplace(image, *name).first;
      }
      if (!it->second.empty()) mtl += "map_Kd " + it->second + "\n";
    }
    if (uses_default) mtl += "\nnewmtl default\nKd 0.8 0.8 0.8\nillum 1\n";
    const std::string mtl_path = (images.dir() / mtl_name).string();
    if (auto r = files.stage(mtl_path, mtl); !r) return std::unexpected(std::move(r.error()));
    report.files.push_back(mtl_path);
    for (const std::string& f : images.written()) report.files.push_back(f);
  }
  // The .obj goes last so that a reader never finds it before the files it names.
  if (auto r = files.stage(out_path, obj); !r) return std::unexpected(std::move(r.error()));
  if (auto r = files.commit(); !r) return std::unexpected(std::move(r.error()));
  return report;
}

}  // namespace

Result<ObjWriteReport> write_obj(const Model& model, std::string_view path,
                                 const ObjWriteOptions& options, Diagnostics* diag) {
  return detail::guard_exceptions(path, [&] { return write_impl(model, path, options, diag); });
}

}  // namespace critter::io
