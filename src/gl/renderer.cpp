// SPDX-License-Identifier: MIT
#include "critter/gl/renderer.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "critter/core/job_pool.h"
#include "critter/deform/palette_job.h"
#include "shaders.h"

namespace critter::gl {
namespace {

// Per-instance vertex data (divisor 1), rendering.md §9: world_from_model as three rows, palette
// base and morph weight base, tint, light and opacity. 80 bytes.
struct InstanceRecord {
  float world[12];
  std::uint32_t bases[2];
  float tint[4];
  float light[2];
};
static_assert(sizeof(InstanceRecord) == 80);

enum VariantBits : unsigned {
  kSkinned = 1,
  kAlphaTest = 2,
  kMorph = 4,
  kUnlit = 8,
  kPaletteBuffer = 16,
};

struct Program {
  GLuint id = 0;
  GLint palette, segment, view_projection, light_dir1, light_dir2, ambient, uv_set, uv_transform,
      eye, morph, weights, morph_offset, morph_count, texture, base_colour, emissive, alpha_cutoff,
      force_opaque, srgb_output, fog, fog_params, fog_colour;
  std::uint64_t frame = 0;  // frame whose per-frame uniforms are set
};

struct Submitted {
  const GpuModel* model = nullptr;
  mat4 world{1.0f};
  vec4 tint{1.0f};
  float light = 1.0f;
  float opacity = 1.0f;
  float immersion = 0.0f;
  Aabb bounds;
  bool cast_shadow = true;
  float shadow_alpha = 1.0f;
  std::optional<float> ground_height;
  std::optional<float> shadow_radius;
  bool shadow_fades = true;
  std::uint32_t palette_base = 0;  // in joints
  std::uint32_t weight_base = 0;
  // model_from_joint of every joint, read while submit() packs the palette.
  std::span<const mat4> transforms;
  vec3 centre{0.0f};  // world space
  float radius = 0.0f;
  float distance = 0.0f;  // to the eye, set by prepare()
  bool visible = false;
};

struct DrawItem {
  RenderMode mode;
  std::uint32_t instance;
  std::uint32_t part;
};

struct Batch {
  const GpuModel* model;
  std::uint32_t part;
  std::uint32_t first;  // first InstanceRecord
  std::uint32_t count;
};

constexpr int kModeCount = 4;
// Buffers taking turns on the persistent path: a frame's palettes are written while the two
// frames before it may still be drawing.
constexpr int kRing = 3;
constexpr GLbitfield kPersistentFlags =
    GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
constexpr GLuint kUnitTexture = 0;
constexpr GLuint kUnitPalette = 1;
constexpr GLuint kUnitMorph = 2;
constexpr GLuint kUnitWeights = 3;

float max_scale(const mat4& m) {
  return std::sqrt(std::max({glm::dot(vec3(m[0]), vec3(m[0])), glm::dot(vec3(m[1]), vec3(m[1])),
                             glm::dot(vec3(m[2]), vec3(m[2]))}));
}

void put_matrix(const mat4& m, vec4* texels) {
  // rendering.md §9: texel k = (column k of the upper 3x3, translation component k).
  for (int k = 0; k < 3; ++k) texels[k] = vec4(vec3(m[k]), m[3][k]);
}

// Palette staging that grows without clearing: every texel in use is written by the packing
// before the upload, so the frame's tens of megabytes are not zeroed first. Grows only.
class TexelStaging {
 public:
  std::size_t size() const { return size_; }
  vec4* data() { return data_.get(); }
  void clear() { size_ = 0; }
  // Makes the size n, keeping the first min(n, size()) texels; new texels are uninitialised.
  void resize(std::size_t n) {
    if (n > capacity_) {
      const std::size_t capacity = std::max(n, 2 * capacity_);
      auto bigger = std::make_unique_for_overwrite<vec4[]>(capacity);
      std::copy(data_.get(), data_.get() + size_, bigger.get());
      data_ = std::move(bigger);
      capacity_ = capacity;
    }
    size_ = n;
  }

 private:
  std::unique_ptr<vec4[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// One instance's palette rows (rendering.md §9) from `out` on: the model_from_joint of every
// joint, an identity, then every skin's joint matrices packed by deform::PaletteJob. Only rigid
// parts read the first two segments, so a model without one leaves those rows unwritten (half
// the bytes of a skinned crowd's palettes). Reads only shared data, so any number of threads can
// pack instances at once.
void pack_palette(const GpuModel& gpu, std::span<const mat4> transforms, vec4* out) {
  const Model& model = gpu.model();
  if (gpu.has_rigid_parts()) {
    for (const mat4& t : transforms) {
      put_matrix(t, out);
      out += 3;
    }
    put_matrix(mat4(1.0f), out);
    out += 3;
  } else {
    out += 3 * (transforms.size() + 1);
  }
  for (const Skin& skin : model.skins()) {
    deform::PaletteJob palette;
    palette.model_transforms = transforms;
    palette.joints = skin.joints;
    palette.inverse_binds = skin.inverse_bind;
    palette.packed = std::span(out, 3 * skin.joints.size());
    // The Model's skins were validated against its skeleton when it was built and `transforms`
    // has one matrix per joint (checked by submit), so the job cannot refuse.
    (void)palette.run();
    out += 3 * skin.joints.size();
  }
}

}  // namespace

// A buffer texture (RGBA32F texels) over its buffer; on the persistent path the buffer is
// immutable storage mapped for the buffer's whole life, and `fence` marks the last draws that read
// it.
struct PaletteBuffer {
  GLuint buffer = 0;
  GLuint texture = 0;
  vec4* map = nullptr;       // persistent path only
  std::size_t capacity = 0;  // bytes
  GLsync fence = nullptr;
};

// Makes `buffer`'s store `bytes` long when it is shorter (contents lost), then writes `data`
// there; the store only grows, so a warm frame allocates nothing in the driver either.
void upload_grow_only(GLenum target, GLuint buffer, std::size_t& capacity, const void* data,
                      std::size_t bytes) {
  glBindBuffer(target, buffer);
  if (bytes > capacity) {
    capacity = std::max(bytes, 2 * capacity);
    glBufferData(target, static_cast<GLsizeiptr>(capacity), nullptr, GL_STREAM_DRAW);
  }
  if (bytes > 0) glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
  glBindBuffer(target, 0);
}

struct Renderer::Impl {
  std::array<Program, 32> programs{};
  GLuint shadow_program = 0;
  GLint shadow_vp = -1, shadow_centre = -1, shadow_radius = -1, shadow_alpha = -1;
  GLuint shadow_vao = 0, shadow_vbo = 0;
  GLuint white = 0;
  GLuint palette[2] = {0, 0};
  int palette_height[2] = {0, 0};
  int palette_index = 0;
  int palette_width = 3072;
  int max_texture = 0;
  GLuint weights_buffer = 0, weights_texture = 0;
  std::size_t weights_capacity = 0;  // bytes
  GLuint instance_buffer = 0;
  std::size_t instance_capacity = 0;  // bytes
  std::uint64_t frame = 0;

  PaletteUpload upload = PaletteUpload::kTexture;
  std::size_t max_buffer_texels = 0;
  // Buffer paths: kBufferTexture uses ring[0]; kPersistentBuffer all of them in turn.
  std::array<PaletteBuffer, kRing> ring{};
  int ring_index = 0;
  bool ring_prepared = false;  // prepare() handed ring[ring_index] to draws this frame

  std::vector<Submitted> instances;
  // Palette staging (not on the persistent path), row-major, palette_width texels per row.
  TexelStaging texels;
  std::vector<float> weights;
  std::uint32_t palette_joints = 0;
  std::vector<DrawItem> items;
  std::vector<InstanceRecord> records;
  std::array<std::vector<Batch>, kModeCount> batches;
  Camera camera;

  Result<Program*> program(unsigned bits) {
    Program& p = programs[bits];
    if (p.id != 0) return &p;
    std::string defines;
    if (bits & kSkinned) defines += "#define SKINNED\n";
    if (bits & kAlphaTest) defines += "#define ALPHA_TEST\n";
    if (bits & kMorph) defines += "#define MORPH\n";
    if (bits & kUnlit) defines += "#define UNLIT\n";
    if (bits & kPaletteBuffer) defines += "#define PALETTE_BUFFER\n";
    Result<std::uint32_t> id =
        detail::build_program(defines, detail::kModelVertexShader, detail::kModelFragmentShader);
    if (!id) return fail(id.error());
    p.id = *id;
    auto loc = [&](const char* name) { return glGetUniformLocation(p.id, name); };
    p.palette = loc("u_palette");
    p.segment = loc("u_segment");
    p.view_projection = loc("u_view_projection");
    p.light_dir1 = loc("u_light_dir1");
    p.light_dir2 = loc("u_light_dir2");
    p.ambient = loc("u_ambient");
    p.uv_set = loc("u_uv_set");
    p.uv_transform = loc("u_uv_transform");
    p.eye = loc("u_eye");
    p.morph = loc("u_morph");
    p.weights = loc("u_weights");
    p.morph_offset = loc("u_morph_offset");
    p.morph_count = loc("u_morph_count");
    p.texture = loc("u_texture");
    p.base_colour = loc("u_base_colour");
    p.emissive = loc("u_emissive");
    p.alpha_cutoff = loc("u_alpha_cutoff");
    p.force_opaque = loc("u_force_opaque");
    p.srgb_output = loc("u_srgb_output");
    p.fog = loc("u_fog");
    p.fog_params = loc("u_fog_params");
    p.fog_colour = loc("u_fog_colour");
    glUseProgram(p.id);
    glUniform1i(p.texture, static_cast<GLint>(kUnitTexture));
    glUniform1i(p.palette, static_cast<GLint>(kUnitPalette));
    glUniform1i(p.morph, static_cast<GLint>(kUnitMorph));
    glUniform1i(p.weights, static_cast<GLint>(kUnitWeights));
    return &p;
  }

  bool buffer_palette() const { return upload != PaletteUpload::kTexture; }
  // Where this frame's palette texels go.
  vec4* palette_data() {
    return upload == PaletteUpload::kPersistentBuffer
               ? ring[static_cast<std::size_t>(ring_index)].map
               : texels.data();
  }

  // Makes room for `texels_needed` palette texels this frame, keeping those reserved before.
  Status reserve_palette(std::size_t texels_needed) {
    if (upload != PaletteUpload::kPersistentBuffer) {
      texels.resize(texels_needed);
      return {};
    }
    PaletteBuffer& b = ring[static_cast<std::size_t>(ring_index)];
    if (texels_needed * sizeof(vec4) <= b.capacity) return {};
    // Immutable storage cannot grow: a bigger buffer takes over, with the texels packed so far.
    // The old one is deleted at once; OpenGL keeps its store until draws reading it are done.
    const std::size_t capacity =
        sizeof(vec4) *
        std::min(max_buffer_texels,
                 std::max({texels_needed, 2 * b.capacity / sizeof(vec4), std::size_t{1} << 16}));
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_TEXTURE_BUFFER, buffer);
    const auto bytes = static_cast<GLsizeiptr>(capacity);
    glBufferStorage(GL_TEXTURE_BUFFER, bytes, nullptr, kPersistentFlags);
    auto* map = static_cast<vec4*>(glMapBufferRange(GL_TEXTURE_BUFFER, 0, bytes, kPersistentFlags));
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    if (map == nullptr) {
      glDeleteBuffers(1, &buffer);
      return fail(Error::at(ErrorCode::kLimit, "renderer", "submit",
                            "cannot map a palette buffer of " + std::to_string(bytes) + " bytes"));
    }
    // Every texel reserved so far: 3 per palette joint.
    if (b.map != nullptr) std::memcpy(map, b.map, std::size_t{palette_joints} * 3 * sizeof(vec4));
    glDeleteBuffers(1, &b.buffer);
    b.buffer = buffer;
    b.map = map;
    b.capacity = capacity;
    glActiveTexture(GL_TEXTURE0 + kUnitPalette);
    glBindTexture(GL_TEXTURE_BUFFER, b.texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, b.buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    return {};
  }

  ~Impl() {
    for (Program& p : programs) {
      if (p.id != 0) glDeleteProgram(p.id);
    }
    if (shadow_program != 0) glDeleteProgram(shadow_program);
    glDeleteVertexArrays(1, &shadow_vao);
    glDeleteBuffers(1, &shadow_vbo);
    glDeleteTextures(1, &white);
    glDeleteTextures(2, palette);
    for (PaletteBuffer& b : ring) {
      if (b.fence != nullptr) glDeleteSync(b.fence);
      glDeleteTextures(1, &b.texture);
      glDeleteBuffers(1, &b.buffer);
    }
    glDeleteTextures(1, &weights_texture);
    glDeleteBuffers(1, &weights_buffer);
    glDeleteBuffers(1, &instance_buffer);
  }
};

RenderMode choose_render_mode(float opacity, float immersion, bool camera_under_water,
                              RenderMode material_mode) {
  if (opacity < 1.0f) {
    return (immersion >= 1.0f) == camera_under_water ? RenderMode::kTransparentAfterWater
                                                     : RenderMode::kTransparentBeforeWater;
  }
  return material_mode;
}

float shadow_blob_alpha(float distance, float shadow_alpha) {
  if (!(distance * distance <= 1024.0f)) return 0.0f;
  return 0.5f * shadow_alpha * std::clamp(4.0f * (1.0f - distance / 32.0f), 0.0f, 1.0f);
}

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Renderer::~Renderer() = default;

Result<std::unique_ptr<Renderer>> Renderer::create(const RendererOptions& options) {
  GLint major = 0;
  GLint minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major * 10 + minor < 33) {
    return fail(Error::at(ErrorCode::kUnsupported, "renderer", "context",
                          "OpenGL 3.3 or later is needed; the context has " +
                              std::to_string(major) + "." + std::to_string(minor)));
  }
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &m.max_texture);
  m.palette_width = std::min(3072, m.max_texture / 3 * 3);

  // Buffer textures are core in 3.3, but one too small for the 2D texture's palettes would lower
  // the joint limit: such a driver keeps the texture.
  GLint max_buffer_texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_buffer_texels);
  m.max_buffer_texels = static_cast<std::size_t>(std::max(0, max_buffer_texels));
  const bool buffer_ok = m.max_buffer_texels >= static_cast<std::size_t>(m.palette_width) *
                                                    static_cast<std::size_t>(m.max_texture);
  const bool storage_ok =
      buffer_ok && (major * 10 + minor >= 44 || epoxy_has_gl_extension("GL_ARB_buffer_storage"));
  switch (options.palette_upload) {
    case PaletteUpload::kAuto:
      m.upload = storage_ok  ? PaletteUpload::kPersistentBuffer
                 : buffer_ok ? PaletteUpload::kBufferTexture
                             : PaletteUpload::kTexture;
      break;
    case PaletteUpload::kTexture:
      m.upload = PaletteUpload::kTexture;
      break;
    case PaletteUpload::kBufferTexture:
    case PaletteUpload::kPersistentBuffer:
      if (!(options.palette_upload == PaletteUpload::kBufferTexture ? buffer_ok : storage_ok)) {
        return fail(Error::at(ErrorCode::kUnsupported, "renderer", "palette_upload",
                              options.palette_upload == PaletteUpload::kBufferTexture
                                  ? "the context's buffer textures are too small for palettes"
                                  : "the context has no persistently mapped buffers "
                                    "(OpenGL 4.4 or GL_ARB_buffer_storage)"));
      }
      m.upload = options.palette_upload;
      break;
  }

  Result<Program*> base = m.program(m.buffer_palette() ? kPaletteBuffer : 0u);
  if (!base) return fail(base.error());
  Result<std::uint32_t> shadow =
      detail::build_program("", detail::kShadowVertexShader, detail::kShadowFragmentShader);
  if (!shadow) return fail(shadow.error());
  m.shadow_program = *shadow;
  m.shadow_vp = glGetUniformLocation(m.shadow_program, "u_view_projection");
  m.shadow_centre = glGetUniformLocation(m.shadow_program, "u_centre");
  m.shadow_radius = glGetUniformLocation(m.shadow_program, "u_radius");
  m.shadow_alpha = glGetUniformLocation(m.shadow_program, "u_alpha");
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  glGenVertexArrays(1, &m.shadow_vao);
  glBindVertexArray(m.shadow_vao);
  glGenBuffers(1, &m.shadow_vbo);
  glBindBuffer(GL_ARRAY_BUFFER, m.shadow_vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);

  const std::uint8_t white[4] = {255, 255, 255, 255};
  glGenTextures(1, &m.white);
  glBindTexture(GL_TEXTURE_2D, m.white);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

  glGenTextures(2, m.palette);
  for (GLuint t : m.palette) {
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenBuffers(1, &m.weights_buffer);
  glGenTextures(1, &m.weights_texture);
  glGenBuffers(1, &m.instance_buffer);
  if (m.buffer_palette()) {
    for (PaletteBuffer& b : m.ring) glGenTextures(1, &b.texture);
    if (m.upload == PaletteUpload::kBufferTexture) {
      PaletteBuffer& b = m.ring[0];
      glGenBuffers(1, &b.buffer);
      glBindBuffer(GL_TEXTURE_BUFFER, b.buffer);
      glBufferData(GL_TEXTURE_BUFFER, sizeof(vec4), nullptr, GL_STREAM_DRAW);
      b.capacity = sizeof(vec4);
      glBindBuffer(GL_TEXTURE_BUFFER, 0);
      glBindTexture(GL_TEXTURE_BUFFER, b.texture);
      glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, b.buffer);
      glBindTexture(GL_TEXTURE_BUFFER, 0);
    }
  }

  std::unique_ptr<Renderer> r(new Renderer(std::move(impl)));
  r->options_ = options;
  return r;
}

Result<std::unique_ptr<GpuModel>> Renderer::upload(const Model& model,
                                                   const ImageDecoder& decode_image,
                                                   Diagnostics* diag) const {
  return GpuModel::create(model, decode_image, diag);
}

std::uint32_t Renderer::max_palette_joints() const {
  if (impl_->buffer_palette()) {
    return static_cast<std::uint32_t>(
        std::min<std::size_t>(impl_->max_buffer_texels / 3, UINT32_MAX));
  }
  return static_cast<std::uint32_t>(impl_->palette_width / 3) *
         static_cast<std::uint32_t>(impl_->max_texture);
}

PaletteUpload Renderer::palette_upload() const {
  return impl_->upload;
}

void Renderer::begin_frame() {
  Impl& m = *impl_;
  if (m.upload == PaletteUpload::kPersistentBuffer && m.ring_prepared) {
    // The draws reading this buffer have been issued: fence them, and take the next buffer once
    // the draws that read it (kRing frames ago) are done.
    m.ring[static_cast<std::size_t>(m.ring_index)].fence =
        glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    m.ring_index = (m.ring_index + 1) % kRing;
    m.ring_prepared = false;
    PaletteBuffer& next = m.ring[static_cast<std::size_t>(m.ring_index)];
    if (next.fence != nullptr) {
      while (glClientWaitSync(next.fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) ==
             GL_TIMEOUT_EXPIRED) {
      }
      glDeleteSync(next.fence);
      next.fence = nullptr;
    }
  }
  m.instances.clear();
  m.texels.clear();
  m.weights.clear();
  m.palette_joints = 0;
  m.items.clear();
  m.records.clear();
  for (auto& b : m.batches) b.clear();
  stats_ = FrameStats{};
}

Status Renderer::queue_one(const RenderInstance& in) {
  Impl& m = *impl_;
  if (in.model == nullptr) {
    return fail(Error::at(ErrorCode::kUsage, "renderer", "submit", "instance without a model"));
  }
  const GpuModel& g = *in.model;
  const Model& model = g.model();
  const std::size_t joint_count = model.skeleton().joint_count();
  if (!in.model_transforms.empty() && in.model_transforms.size() != joint_count) {
    return fail(Error::at(ErrorCode::kUsage, "renderer", "submit",
                          "model_transforms has " + std::to_string(in.model_transforms.size()) +
                              " matrices, expected " + std::to_string(joint_count)));
  }
  if (!in.morph_weights.empty() && in.morph_weights.size() != g.morph_weight_count()) {
    return fail(Error::at(ErrorCode::kUsage, "renderer", "submit",
                          "morph_weights has " + std::to_string(in.morph_weights.size()) +
                              " entries, expected " + std::to_string(g.morph_weight_count())));
  }
  if (std::uint64_t{m.palette_joints} + g.palette_joints() > max_palette_joints()) {
    return fail(Error::at(ErrorCode::kLimit, "renderer", "submit",
                          "the frame's joint palettes exceed the palette texture"));
  }
  Submitted s;
  s.model = in.model;
  s.world = in.world_from_model;
  s.tint = in.tint;
  s.light = in.light;
  s.opacity = in.opacity;
  s.immersion = in.immersion;
  s.bounds = in.bounds.empty() ? model.bounds() : in.bounds;
  s.cast_shadow = in.cast_shadow;
  s.shadow_alpha = in.shadow_alpha;
  s.ground_height = in.ground_height;
  s.shadow_radius = in.shadow_radius;
  s.shadow_fades = in.shadow_fades;
  s.palette_base = m.palette_joints;
  s.weight_base = static_cast<std::uint32_t>(m.weights.size());
  s.centre = vec3(s.world * vec4(s.bounds.center(), 1.0f));
  s.radius = glm::length(s.bounds.extent()) * 0.5f * max_scale(s.world);

  s.transforms = in.model_transforms.empty() ? model.rest_model_transforms() : in.model_transforms;
  const std::size_t texels = (std::size_t{m.palette_joints} + g.palette_joints()) * 3;
  if (Status reserved = m.reserve_palette(texels); !reserved) return reserved;
  m.palette_joints += g.palette_joints();
  if (in.morph_weights.empty()) {
    m.weights.insert(m.weights.end(), g.default_weights().begin(), g.default_weights().end());
  } else {
    m.weights.insert(m.weights.end(), in.morph_weights.begin(), in.morph_weights.end());
  }
  m.instances.push_back(s);
  ++stats_.submitted;
  return {};
}

Status Renderer::submit(const RenderInstance& instance) {
  return submit(std::span(&instance, 1));
}

Status Renderer::queue(std::span<const RenderInstance> instances) {
  for (const RenderInstance& in : instances) {
    if (Status status = queue_one(in); !status) return status;
  }
  return {};
}

std::size_t Renderer::queued() const {
  return impl_->instances.size();
}

void Renderer::pack(std::size_t begin, std::size_t end) {
  Impl& m = *impl_;
  vec4* const palettes = m.palette_data();
  // Indices past the queue (a queue() that stopped early) have no rows to pack.
  end = std::min(end, m.instances.size());
  for (std::size_t k = begin; k < end; ++k) {
    const Submitted& s = m.instances[k];
    pack_palette(*s.model, s.transforms, palettes + std::size_t{s.palette_base} * 3);
  }
}

Status Renderer::submit(std::span<const RenderInstance> instances, JobPool* pool) {
  const std::size_t first = queued();
  const Status status = queue(instances);
  const std::size_t count = queued() - first;
  if (pool == nullptr) {
    pack(first, first + count);
  } else {
    // Chunks of 16 instances: each packs a few kilobytes, enough to hide the claim.
    pool->parallel_for(count, 16, [this, first](std::size_t begin, std::size_t end) {
      pack(first + begin, first + end);
    });
  }
  return status;
}

void Renderer::prepare(const Camera& camera) {
  Impl& m = *impl_;
  ++m.frame;
  m.camera = camera;
  m.items.clear();
  m.records.clear();
  for (auto& b : m.batches) b.clear();
  stats_.visible = 0;
  stats_.draw_calls = 0;
  stats_.palette_joints = m.palette_joints;

  const mat4 vp = camera.view_projection();
  std::array<vec4, 6> planes;
  for (int i = 0; i < 3; ++i) {
    const vec4 row_i(vp[0][i], vp[1][i], vp[2][i], vp[3][i]);
    const vec4 row_w(vp[0][3], vp[1][3], vp[2][3], vp[3][3]);
    planes[static_cast<std::size_t>(2 * i)] = row_w + row_i;
    planes[static_cast<std::size_t>(2 * i + 1)] = row_w - row_i;
  }
  std::array<float, 6> plane_lengths;
  for (std::size_t k = 0; k < planes.size(); ++k) plane_lengths[k] = glm::length(vec3(planes[k]));
  for (std::uint32_t i = 0; i < m.instances.size(); ++i) {
    Submitted& s = m.instances[i];
    s.distance = glm::distance(s.centre, camera.position);
    s.visible = true;
    if (options_.frustum_cull) {
      for (std::size_t k = 0; k < planes.size(); ++k) {
        const vec4& p = planes[k];
        if (glm::dot(vec3(p), s.centre) + p.w < -s.radius * plane_lengths[k]) s.visible = false;
      }
    }
    if (options_.visibility_range > 0.0f) {
      vec3 d = s.centre - camera.position;
      d.y *= options_.range_y_multiplier;
      if (glm::dot(d, d) >= options_.visibility_range * options_.visibility_range) {
        s.visible = false;
      }
    }
    if (!s.visible) continue;
    ++stats_.visible;
    const Model& model = s.model->model();
    for (std::uint32_t p = 0; p < s.model->parts().size(); ++p) {
      const GpuPart& part = s.model->parts()[p];
      RenderMode material_mode = RenderMode::kSolid;
      if (part.material >= 0 &&
          static_cast<std::size_t>(part.material) < model.materials().size()) {
        material_mode = model.materials()[static_cast<std::size_t>(part.material)].render_mode();
      }
      m.items.push_back(DrawItem{
          choose_render_mode(s.opacity, s.immersion, camera.under_water, material_mode), i, p});
    }
  }
  auto transparent = [](RenderMode mode) {
    return mode == RenderMode::kTransparentBeforeWater ||
           mode == RenderMode::kTransparentAfterWater;
  };
  // Every item is a distinct (instance, part) and both orders end on those, so the order is
  // total: std::sort gives the one result without stable_sort's temporary buffer. A crowd queued
  // model by model is already in order, which the check finds in one pass.
  const auto before = [&](const DrawItem& a, const DrawItem& b) {
    if (a.mode != b.mode) return a.mode < b.mode;
    const Submitted& sa = m.instances[a.instance];
    const Submitted& sb = m.instances[b.instance];
    const bool skinned_a = sa.model->parts()[a.part].skinned;
    const bool skinned_b = sb.model->parts()[b.part].skinned;
    if (transparent(a.mode)) {
      // Back to front by instance centre; within an instance, rigid parts before skinned ones.
      if (a.instance != b.instance) {
        if (sa.distance != sb.distance) return sa.distance > sb.distance;
        return a.instance < b.instance;
      }
      if (skinned_a != skinned_b) return !skinned_a;
      return a.part < b.part;
    }
    if (skinned_a != skinned_b) return !skinned_a;
    if (sa.model != sb.model) return std::less<const GpuModel*>()(sa.model, sb.model);
    if (a.part != b.part) return a.part < b.part;
    return a.instance < b.instance;
  };
  if (!std::is_sorted(m.items.begin(), m.items.end(), before)) {
    std::sort(m.items.begin(), m.items.end(), before);
  }

  for (const DrawItem& item : m.items) {
    const Submitted& s = m.instances[item.instance];
    InstanceRecord r;
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < 4; ++col) r.world[row * 4 + col] = s.world[col][row];
    }
    r.bases[0] = s.palette_base;
    r.bases[1] = s.weight_base;
    std::memcpy(r.tint, &s.tint, sizeof r.tint);
    r.light[0] = s.light;
    r.light[1] = std::clamp(s.opacity, 0.0f, 1.0f);
    const auto record = static_cast<std::uint32_t>(m.records.size());
    m.records.push_back(r);
    auto& list = m.batches[static_cast<std::size_t>(item.mode)];
    if (!list.empty() && list.back().model == s.model && list.back().part == item.part &&
        !transparent(item.mode)) {
      ++list.back().count;
    } else {
      list.push_back(Batch{s.model, item.part, record, 1});
    }
  }

  upload_grow_only(GL_ARRAY_BUFFER, m.instance_buffer, m.instance_capacity, m.records.data(),
                   m.records.size() * sizeof(InstanceRecord));
  upload_palettes();

  if (m.weights.empty()) m.weights.push_back(0.0f);
  upload_grow_only(GL_TEXTURE_BUFFER, m.weights_buffer, m.weights_capacity, m.weights.data(),
                   m.weights.size() * sizeof(float));
  glActiveTexture(GL_TEXTURE0 + kUnitWeights);
  glBindTexture(GL_TEXTURE_BUFFER, m.weights_texture);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, m.weights_buffer);
  glActiveTexture(GL_TEXTURE0);
}

void Renderer::upload_palettes() {
  Impl& m = *impl_;
  switch (m.upload) {
    case PaletteUpload::kPersistentBuffer:
      // Already in place: submit() packed into the mapped buffer, whose writes are coherent.
      m.ring_prepared = true;
      return;
    case PaletteUpload::kBufferTexture: {
      PaletteBuffer& b = m.ring[0];
      upload_grow_only(GL_TEXTURE_BUFFER, b.buffer, b.capacity, m.texels.data(),
                       m.texels.size() * sizeof(vec4));
      return;
    }
    case PaletteUpload::kAuto:
    case PaletteUpload::kTexture:
      break;
  }
  // Palette: only the rows in use are written; two textures alternate between frames so this
  // upload does not wait for the previous frame's draws.
  m.palette_index = 1 - m.palette_index;
  const int width = m.palette_width;
  const int rows =
      std::max(1, static_cast<int>((m.texels.size() + static_cast<std::size_t>(width) - 1) /
                                   static_cast<std::size_t>(width)));
  const std::size_t used = m.texels.size();
  m.texels.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(width));
  std::fill(m.texels.data() + used, m.texels.data() + m.texels.size(), vec4(0.0f));
  glActiveTexture(GL_TEXTURE0 + kUnitPalette);
  glBindTexture(GL_TEXTURE_2D, m.palette[m.palette_index]);
  if (m.palette_height[m.palette_index] < rows) {
    int h = 1;
    while (h < rows) h *= 2;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, width, h, 0, GL_RGBA, GL_FLOAT, nullptr);
    m.palette_height[m.palette_index] = h;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, rows, GL_RGBA, GL_FLOAT, m.texels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
}

void Renderer::draw(RenderMode mode) {
  Impl& m = *impl_;
  const auto& list = m.batches[static_cast<std::size_t>(mode)];
  if (list.empty()) return;
  const bool transparent =
      mode == RenderMode::kTransparentBeforeWater || mode == RenderMode::kTransparentAfterWater;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(transparent ? GL_FALSE : GL_TRUE);
  if (transparent) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  } else {
    glDisable(GL_BLEND);
  }
  glFrontFace(GL_CCW);
  glCullFace(GL_BACK);

  glActiveTexture(GL_TEXTURE0 + kUnitPalette);
  if (m.buffer_palette()) {
    // ring_index stays 0 on kBufferTexture: only the persistent path turns the ring.
    glBindTexture(GL_TEXTURE_BUFFER, m.ring[static_cast<std::size_t>(m.ring_index)].texture);
  } else {
    glBindTexture(GL_TEXTURE_2D, m.palette[m.palette_index]);
  }
  glActiveTexture(GL_TEXTURE0 + kUnitWeights);
  glBindTexture(GL_TEXTURE_BUFFER, m.weights_texture);

  const mat4 vp = m.camera.view_projection();
  for (const Batch& b : list) {
    const GpuPart& part = b.model->parts()[b.part];
    const Model& model = b.model->model();
    const Material* material = nullptr;
    if (part.material >= 0 && static_cast<std::size_t>(part.material) < model.materials().size()) {
      material = &model.materials()[static_cast<std::size_t>(part.material)];
    }
    const Material fallback;
    const Material& mat = material != nullptr ? *material : fallback;
    unsigned bits = 0;
    if (part.skinned) bits |= kSkinned;
    if (mode == RenderMode::kAlphaThreshold) bits |= kAlphaTest;
    if (part.morph_texture != 0 && part.morph_targets > 0) bits |= kMorph;
    if (mat.unlit) bits |= kUnlit;
    if (m.buffer_palette()) bits |= kPaletteBuffer;
    Result<Program*> found = m.program(bits);
    if (!found) continue;  // a variant the driver rejects is skipped; the base one compiled
    Program& p = **found;
    glUseProgram(p.id);
    if (p.frame != m.frame) {
      p.frame = m.frame;
      glUniformMatrix4fv(p.view_projection, 1, GL_FALSE, glm::value_ptr(vp));
      glUniform3fv(p.light_dir1, 1, glm::value_ptr(lighting_.direction1));
      glUniform3fv(p.light_dir2, 1, glm::value_ptr(lighting_.direction2));
      glUniform1f(p.ambient, lighting_.ambient);
      glUniform3fv(p.eye, 1, glm::value_ptr(m.camera.position));
      glUniform1i(p.srgb_output, options_.srgb_output ? 1 : 0);
      glUniform1i(p.fog, lighting_.fog ? 1 : 0);
      glUniform3f(p.fog_params, lighting_.fog_start, lighting_.fog_end, 0.0f);
      glUniform3fv(p.fog_colour, 1, glm::value_ptr(lighting_.fog_colour));
    }
    if (mode == RenderMode::kSolid && !mat.double_sided) {
      glEnable(GL_CULL_FACE);
    } else {
      glDisable(GL_CULL_FACE);
    }
    glUniform1ui(p.segment, part.segment);
    glUniform4fv(p.base_colour, 1, glm::value_ptr(mat.base_color_factor));
    glUniform3fv(p.emissive, 1, glm::value_ptr(mat.emissive_factor));
    glUniform1f(p.alpha_cutoff, mat.alpha_cutoff);
    // OPAQUE forces alpha 1 (§1); an alpha-tested texel that passes is opaque too.
    glUniform1i(p.force_opaque,
                mat.alpha_mode == AlphaMode::kOpaque || mode == RenderMode::kAlphaThreshold);
    const TextureRef& ref = mat.base_color_texture;
    glm::mat3 uv(1.0f);
    if (ref.has_transform) {
      // KHR_texture_transform: T * R * S, rotation counter-clockwise in UV space.
      const float c = std::cos(ref.rotation);
      const float s = std::sin(ref.rotation);
      const glm::mat3 t(1, 0, 0, 0, 1, 0, ref.offset.x, ref.offset.y, 1);
      const glm::mat3 r(c, -s, 0, s, c, 0, 0, 0, 1);
      const glm::mat3 sc(ref.scale.x, 0, 0, 0, ref.scale.y, 0, 0, 0, 1);
      uv = t * r * sc;
    }
    glUniformMatrix3fv(p.uv_transform, 1, GL_FALSE, glm::value_ptr(uv));
    GLuint texture = m.white;
    GLuint sampler = 0;
    int uv_set = 0;
    if (material != nullptr) {
      const GpuTexture& t = b.model->textures()[static_cast<std::size_t>(part.material)];
      if (t.texture != 0) {
        texture = t.texture;
        sampler = t.sampler;
        uv_set = t.texcoord == 1 ? 1 : 0;
      }
    }
    glUniform1i(p.uv_set, uv_set);
    glActiveTexture(GL_TEXTURE0 + kUnitTexture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(kUnitTexture, sampler);
    if (bits & kMorph) {
      glActiveTexture(GL_TEXTURE0 + kUnitMorph);
      glBindTexture(GL_TEXTURE_2D_ARRAY, part.morph_texture);
      glUniform1i(p.morph_offset, static_cast<GLint>(part.morph_weight_offset));
      glUniform1i(p.morph_count, static_cast<GLint>(part.morph_targets));
    }

    glBindVertexArray(part.vao);
    glBindBuffer(GL_ARRAY_BUFFER, m.instance_buffer);
    const auto stride = static_cast<GLsizei>(sizeof(InstanceRecord));
    const std::size_t base = std::size_t{b.first} * sizeof(InstanceRecord);
    auto at = [&](std::size_t offset) { return reinterpret_cast<const void*>(base + offset); };
    for (unsigned row = 0; row < 3; ++row) {
      glEnableVertexAttribArray(detail::kAttrInstanceWorld + row);
      glVertexAttribPointer(detail::kAttrInstanceWorld + row, 4, GL_FLOAT, GL_FALSE, stride,
                            at(offsetof(InstanceRecord, world) + row * 16));
      glVertexAttribDivisor(detail::kAttrInstanceWorld + row, 1);
    }
    glEnableVertexAttribArray(detail::kAttrInstanceBases);
    glVertexAttribIPointer(detail::kAttrInstanceBases, 2, GL_UNSIGNED_INT, stride,
                           at(offsetof(InstanceRecord, bases)));
    glVertexAttribDivisor(detail::kAttrInstanceBases, 1);
    glEnableVertexAttribArray(detail::kAttrInstanceTint);
    glVertexAttribPointer(detail::kAttrInstanceTint, 4, GL_FLOAT, GL_FALSE, stride,
                          at(offsetof(InstanceRecord, tint)));
    glVertexAttribDivisor(detail::kAttrInstanceTint, 1);
    glEnableVertexAttribArray(detail::kAttrInstanceLight);
    glVertexAttribPointer(detail::kAttrInstanceLight, 2, GL_FLOAT, GL_FALSE, stride,
                          at(offsetof(InstanceRecord, light)));
    glVertexAttribDivisor(detail::kAttrInstanceLight, 1);
    const auto count = static_cast<GLsizei>(b.count);
    if (part.ebo != 0) {
      glDrawElementsInstanced(part.primitive, static_cast<GLsizei>(part.element_count),
                              GL_UNSIGNED_INT, nullptr, count);
    } else {
      glDrawArraysInstanced(part.primitive, 0, static_cast<GLsizei>(part.element_count), count);
    }
    ++stats_.draw_calls;
  }
  glBindVertexArray(0);
  glBindSampler(kUnitTexture, 0);
  glActiveTexture(GL_TEXTURE0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
}

void Renderer::draw_shadows() {
  Impl& m = *impl_;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glUseProgram(m.shadow_program);
  const mat4 vp = m.camera.view_projection();
  glUniformMatrix4fv(m.shadow_vp, 1, GL_FALSE, glm::value_ptr(vp));
  glBindVertexArray(m.shadow_vao);
  for (const Submitted& s : m.instances) {
    if (!s.visible || !s.cast_shadow) continue;
    const float ground = s.ground_height.value_or(s.world[3][1]);
    // Diameter 2.25 x the bounding-box width (Survivalcraft), the width measured in world units.
    const float radius =
        s.shadow_radius.value_or(1.125f * s.bounds.extent().x * glm::length(vec3(s.world[0])));
    // Lifted off the ground against z-fighting, by at most 2 cm and less for a small blob, so the
    // blob never climbs up a small creature's legs.
    const vec3 centre(s.centre.x, ground + std::min(0.02f, 0.01f * radius), s.centre.z);
    const float alpha =
        s.shadow_fades ? shadow_blob_alpha(glm::distance(centre, m.camera.position), s.shadow_alpha)
                       : 0.5f * s.shadow_alpha;
    if (alpha <= 0.0f || !(radius > 0.0f)) continue;
    glUniform3fv(m.shadow_centre, 1, glm::value_ptr(centre));
    glUniform1f(m.shadow_radius, radius);
    glUniform1f(m.shadow_alpha, alpha);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    ++stats_.draw_calls;
  }
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void Renderer::render_frame(const Camera& camera, const vec4& clear_colour) {
  glClearColor(clear_colour.x * clear_colour.w, clear_colour.y * clear_colour.w,
               clear_colour.z * clear_colour.w, clear_colour.w);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  prepare(camera);
  draw(RenderMode::kSolid);
  draw(RenderMode::kAlphaThreshold);
  draw_shadows();
  draw(RenderMode::kTransparentBeforeWater);
  draw(RenderMode::kTransparentAfterWater);
}

}  // namespace critter::gl
