// SPDX-License-Identifier: MIT
#include "critter/gl/gpu_model.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "critter/deform/morph_texture.h"

namespace critter::gl {
namespace {

// Interleaved vertex of rendering.md §5 (68 bytes).
struct Vertex {
  float position[3];
  float normal[3];
  float uv0[2];
  float uv1[2];
  std::uint8_t colour[4];
  std::uint16_t joints[4];
  float weights[4];
};
static_assert(sizeof(Vertex) == 68);

std::uint8_t unorm8(float v) {
  return static_cast<std::uint8_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}

// Area-weighted vertex normals for parts that have none.
std::vector<vec3> generated_normals(const MeshPart& part) {
  const auto& p = part.streams.positions;
  std::vector<vec3> n(p.size(), vec3(0.0f));
  if (part.topology == Topology::kTriangles) {
    const std::size_t count = part.element_count();
    for (std::size_t i = 0; i + 2 < count; i += 3) {
      const std::uint32_t a =
          part.indices.empty() ? static_cast<std::uint32_t>(i) : part.indices[i];
      const std::uint32_t b =
          part.indices.empty() ? static_cast<std::uint32_t>(i + 1) : part.indices[i + 1];
      const std::uint32_t c =
          part.indices.empty() ? static_cast<std::uint32_t>(i + 2) : part.indices[i + 2];
      const vec3 f = glm::cross(p[b] - p[a], p[c] - p[a]);
      n[a] += f;
      n[b] += f;
      n[c] += f;
    }
  }
  for (vec3& v : n) {
    const float len = glm::length(v);
    v = len > 0.0f ? v / len : vec3(0.0f, 1.0f, 0.0f);
  }
  return n;
}

GLint gl_wrap(std::int32_t w) {
  switch (w) {
    case GL_CLAMP_TO_EDGE:
    case GL_MIRRORED_REPEAT:
    case GL_REPEAT:
      return w;
    default:
      return GL_REPEAT;
  }
}

std::uint32_t upload_texture(const Image& image, const ImageDecoder& decode, Diagnostics* diag,
                             const std::string& model_name) {
  Result<RgbaImage> pixels = fail(Error::at(ErrorCode::kUsage, "", "", "no image decoder"));
  if (decode) pixels = decode(image);
  if (pixels && (pixels->width <= 0 || pixels->height <= 0 ||
                 pixels->pixels.size() != pixels->byte_count())) {
    pixels = fail(Error::at(ErrorCode::kInvalid, "", "", "decoder returned a malformed image"));
  }
  if (!pixels) {
    if (diag != nullptr) {
      const std::string what = image.uri.empty() ? image.name : image.uri;
      diag->warn(model_name, "image '" + what + "'",
                 "cannot decode (" + pixels.error().message + "); drawn white");
    }
    return 0;
  }
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  // Base colour textures hold sRGB-encoded colour (glTF); sampling decodes to linear.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, pixels->width, pixels->height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, pixels->pixels.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glBindTexture(GL_TEXTURE_2D, 0);
  return tex;
}

}  // namespace

Result<std::unique_ptr<GpuModel>> GpuModel::create(const Model& model,
                                                   const ImageDecoder& decode_image,
                                                   Diagnostics* diag) {
  std::unique_ptr<GpuModel> g(new GpuModel());
  g->model_ = &model;
  const std::uint32_t joint_count = static_cast<std::uint32_t>(model.skeleton().joint_count());
  const std::uint32_t identity_slot = joint_count;
  std::uint32_t next = joint_count + 1;
  for (const Skin& skin : model.skins()) {
    g->skin_segments_.push_back(next);
    next += static_cast<std::uint32_t>(skin.joints.size());
  }
  g->palette_joints_ = next;

  std::vector<std::uint32_t> weight_offsets;
  for (const Mesh& mesh : model.meshes()) {
    weight_offsets.push_back(g->morph_weight_count_);
    g->morph_weight_count_ += static_cast<std::uint32_t>(mesh.morph_target_count());
    g->default_weights_.insert(g->default_weights_.end(), mesh.default_weights.begin(),
                               mesh.default_weights.end());
  }

  g->image_textures_.assign(model.images().size(), 0);
  for (std::size_t i = 0; i < model.images().size(); ++i) {
    bool used = false;
    for (const Material& m : model.materials()) {
      used = used || m.base_color_texture.image == static_cast<std::int32_t>(i);
    }
    if (used)
      g->image_textures_[i] = upload_texture(model.images()[i], decode_image, diag, model.name());
  }
  for (const Material& m : model.materials()) {
    GpuTexture t;
    const TextureRef& ref = m.base_color_texture;
    if (ref.valid() && static_cast<std::size_t>(ref.image) < g->image_textures_.size()) {
      t.texture = g->image_textures_[static_cast<std::size_t>(ref.image)];
    }
    t.texcoord = ref.texcoord;
    glGenSamplers(1, &t.sampler);
    glSamplerParameteri(t.sampler, GL_TEXTURE_WRAP_S, gl_wrap(ref.wrap_s));
    glSamplerParameteri(t.sampler, GL_TEXTURE_WRAP_T, gl_wrap(ref.wrap_t));
    const bool nearest = ref.mag_filter == GL_NEAREST;
    glSamplerParameteri(t.sampler, GL_TEXTURE_MAG_FILTER, nearest ? GL_NEAREST : GL_LINEAR);
    GLint min = GL_LINEAR_MIPMAP_LINEAR;
    switch (ref.min_filter) {
      case GL_NEAREST:
      case GL_LINEAR:
      case GL_NEAREST_MIPMAP_NEAREST:
      case GL_LINEAR_MIPMAP_NEAREST:
      case GL_NEAREST_MIPMAP_LINEAR:
      case GL_LINEAR_MIPMAP_LINEAR:
        min = ref.min_filter;
        break;
      default:
        break;
    }
    glSamplerParameteri(t.sampler, GL_TEXTURE_MIN_FILTER, min);
    g->textures_.push_back(t);
  }

  std::vector<Vertex> vertices;
  for (std::size_t mi = 0; mi < model.meshes().size(); ++mi) {
    const Mesh& mesh = model.meshes()[mi];
    const bool skinned =
        mesh.skin >= 0 && static_cast<std::size_t>(mesh.skin) < model.skins().size();
    for (std::size_t pi = 0; pi < mesh.parts.size(); ++pi) {
      const MeshPart& part = mesh.parts[pi];
      const VertexStreams& s = part.streams;
      const std::size_t n = s.vertex_count();
      if (n == 0) continue;
      GpuPart gp;
      gp.mesh = mi;
      gp.part = pi;
      gp.material = part.material;
      gp.bounds = part.bounds;
      gp.skinned = skinned && !s.joints.empty() && !s.weights.empty();
      gp.segment = gp.skinned ? g->skin_segments_[static_cast<std::size_t>(mesh.skin)] : 0;
      if (!gp.skinned) g->has_rigid_parts_ = true;
      gp.morph_weight_offset = weight_offsets[mi];
      gp.primitive = part.topology == Topology::kTriangles ? GL_TRIANGLES
                     : part.topology == Topology::kLines   ? GL_LINES
                                                           : GL_POINTS;
      const std::vector<vec3> normals = s.normals.empty() ? generated_normals(part) : s.normals;
      const std::uint16_t rigid_slot = static_cast<std::uint16_t>(
          mesh.bone >= 0 && static_cast<std::uint32_t>(mesh.bone) < joint_count
              ? static_cast<std::uint32_t>(mesh.bone)
              : identity_slot);
      vertices.assign(n, Vertex{});
      for (std::size_t v = 0; v < n; ++v) {
        Vertex& o = vertices[v];
        std::memcpy(o.position, &s.positions[v], sizeof o.position);
        std::memcpy(o.normal, &normals[v], sizeof o.normal);
        if (!s.uv0.empty()) std::memcpy(o.uv0, &s.uv0[v], sizeof o.uv0);
        if (!s.uv1.empty()) std::memcpy(o.uv1, &s.uv1[v], sizeof o.uv1);
        const vec4 c = s.colors.empty() ? vec4(1.0f) : s.colors[v];
        for (int k = 0; k < 4; ++k) o.colour[k] = unorm8(c[k]);
        if (gp.skinned) {
          for (int k = 0; k < 4; ++k) {
            o.joints[k] = s.joints[v][k];
            o.weights[k] = s.weights[v][k];
          }
        } else {
          o.joints[0] = rigid_slot;
          o.weights[0] = 1.0f;
        }
      }
      glGenVertexArrays(1, &gp.vao);
      glBindVertexArray(gp.vao);
      glGenBuffers(1, &gp.vbo);
      glBindBuffer(GL_ARRAY_BUFFER, gp.vbo);
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * sizeof(Vertex)), vertices.data(),
                   GL_STATIC_DRAW);
      const auto stride = static_cast<GLsizei>(sizeof(Vertex));
      auto at = [](std::size_t offset) { return reinterpret_cast<const void*>(offset); };
      glEnableVertexAttribArray(0);
      glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, at(offsetof(Vertex, position)));
      glEnableVertexAttribArray(1);
      glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, at(offsetof(Vertex, normal)));
      glEnableVertexAttribArray(2);
      glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, at(offsetof(Vertex, uv0)));
      glEnableVertexAttribArray(3);
      glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, stride, at(offsetof(Vertex, uv1)));
      glEnableVertexAttribArray(4);
      glVertexAttribPointer(4, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, at(offsetof(Vertex, colour)));
      glEnableVertexAttribArray(5);
      glVertexAttribIPointer(5, 4, GL_UNSIGNED_SHORT, stride, at(offsetof(Vertex, joints)));
      glEnableVertexAttribArray(6);
      glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, stride, at(offsetof(Vertex, weights)));
      if (!part.indices.empty()) {
        glGenBuffers(1, &gp.ebo);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gp.ebo);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(part.indices.size() * sizeof(std::uint32_t)),
                     part.indices.data(), GL_STATIC_DRAW);
      }
      glBindVertexArray(0);
      gp.element_count = static_cast<std::uint32_t>(part.element_count());

      if (!part.morphs.empty()) {
        Result<deform::MorphTexture> packed = deform::pack_morph_texture(part.morphs, n, mesh.name);
        if (!packed) {
          if (diag != nullptr) {
            diag->warn(model.name(), "mesh '" + mesh.name + "'",
                       packed.error().message + "; drawn without morph targets");
          }
        } else {
          glGenTextures(1, &gp.morph_texture);
          glBindTexture(GL_TEXTURE_2D_ARRAY, gp.morph_texture);
          glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA32F, static_cast<GLsizei>(packed->width),
                       static_cast<GLsizei>(packed->height), static_cast<GLsizei>(packed->layers),
                       0, GL_RGBA, GL_FLOAT, packed->texels.data());
          glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
          glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
          glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
          gp.morph_targets = static_cast<std::uint32_t>(part.morphs.target_count());
        }
      }
      g->parts_.push_back(gp);
    }
  }
  return g;
}

GpuModel::~GpuModel() {
  for (GpuPart& p : parts_) {
    glDeleteVertexArrays(1, &p.vao);
    glDeleteBuffers(1, &p.vbo);
    if (p.ebo != 0) glDeleteBuffers(1, &p.ebo);
    if (p.morph_texture != 0) glDeleteTextures(1, &p.morph_texture);
  }
  for (GpuTexture& t : textures_) glDeleteSamplers(1, &t.sampler);
  for (std::uint32_t t : image_textures_) {
    if (t != 0) glDeleteTextures(1, &t);
  }
}

}  // namespace critter::gl
