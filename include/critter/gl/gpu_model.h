// SPDX-License-Identifier: MIT
// GpuModel: a Model's geometry, morph textures and textures uploaded to OpenGL once and shared by
// every instance drawn with it (DESIGN.md: instances share geometry, palettes are per instance).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "critter/asset/model.h"
#include "critter/asset/rgba_image.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::gl {

// One drawable mesh part on the GPU. Vertex layout (one interleaved buffer, rendering.md §5):
// position f32x3, normal f32x3, uv0 f32x2, uv1 f32x2, colour unorm8x4, joints u16x4 (integer
// attribute), weights f32x4. Rigid parts (mesh without skin) get joints (slot, 0, 0, 0) and
// weights (1, 0, 0, 0), where slot is the mesh's bone (or the identity slot for bone -1), so they
// go through the same palette machinery (rendering.md §11).
struct GpuPart {
  std::uint32_t vao = 0;
  std::uint32_t vbo = 0;
  std::uint32_t ebo = 0;  // 0 for non-indexed parts
  std::uint32_t element_count = 0;
  std::uint32_t primitive = 0;  // GL_TRIANGLES, GL_LINES or GL_POINTS
  std::size_t mesh = 0;         // indices into the Model
  std::size_t part = 0;
  std::int32_t material = -1;
  bool skinned = false;
  // Joint offset of this part's palette segment inside an instance's palette (rendering.md §9):
  // 0 for rigid parts (the bone segment), the skin segment's start for skinned parts.
  std::uint32_t segment = 0;
  // Morph targets: a GL_TEXTURE_2D_ARRAY (RGBA32F, 3 layers per target, deform::MorphTexture
  // layout) or 0 when the part has no targets (or they could not be packed).
  std::uint32_t morph_texture = 0;
  std::uint32_t morph_targets = 0;
  std::uint32_t morph_weight_offset = 0;  // the mesh's first weight in a MorphLayout-flat array
  Aabb bounds;                            // mesh-space bounds of the part
};

// A material's texture on the GPU: texture name and a sampler object with the glTF sampler state.
struct GpuTexture {
  std::uint32_t texture = 0;  // 0: draw with the renderer's white texture
  std::uint32_t sampler = 0;
  std::int32_t texcoord = 0;  // UV set
};

// Decodes one of a model's images (Model::images()) to RGBA8 pixels for upload; on failure the
// error's message says why, in a few words. gl reads no image files itself: callers pass
// io::decode_image (critter/io/image/image_decoder.h) or their own (a texture cache, an atlas).
using ImageDecoder = std::function<Result<RgbaImage>(const Image&)>;

// Needs a current OpenGL 3.3 context; destroy it while a context of the same share group is
// current. Move-only.
class GpuModel {
 public:
  // Uploads `model`, which must outlive the GpuModel (the renderer reads its materials, skeleton
  // and bounds). Every image a material's base colour uses is decoded once by `decode_image`
  // (called during create only, not kept); an image it cannot decode (or an empty decoder) and a
  // morph set too large for a texture are warnings in `diag` ("cannot decode (<message>); drawn
  // white": white texture; no morphs) rather than errors.
  static Result<std::unique_ptr<GpuModel>> create(const Model& model,
                                                  const ImageDecoder& decode_image,
                                                  Diagnostics* diag = nullptr);
  ~GpuModel();
  GpuModel(const GpuModel&) = delete;
  GpuModel& operator=(const GpuModel&) = delete;

  const Model& model() const { return *model_; }
  const std::vector<GpuPart>& parts() const { return parts_; }
  // One per material (Model::materials()), base colour textures.
  const std::vector<GpuTexture>& textures() const { return textures_; }
  // Joints in one instance's palette: skeleton joints (rigid bones) + 1 identity slot + every
  // skin's joints, in that order.
  std::uint32_t palette_joints() const { return palette_joints_; }
  // Joint offset of skin s's segment in an instance's palette.
  std::uint32_t skin_segment(std::size_t s) const { return skin_segments_[s]; }
  // True when some part is rigid (not skinned), i.e. reads the bone segment or the identity slot.
  bool has_rigid_parts() const { return has_rigid_parts_; }
  // Total morph weights of an instance (MorphLayout::weight_count()).
  std::uint32_t morph_weight_count() const { return morph_weight_count_; }
  // Flat default morph weights (MorphLayout::defaults).
  const std::vector<float>& default_weights() const { return default_weights_; }

 private:
  GpuModel() = default;
  const Model* model_ = nullptr;
  std::vector<GpuPart> parts_;
  std::vector<GpuTexture> textures_;
  std::vector<std::uint32_t> image_textures_;  // one per Model image, 0 when undecodable
  std::vector<std::uint32_t> skin_segments_;
  std::uint32_t palette_joints_ = 0;
  bool has_rigid_parts_ = false;
  std::uint32_t morph_weight_count_ = 0;
  std::vector<float> default_weights_;
};

}  // namespace critter::gl
