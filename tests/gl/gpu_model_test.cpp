// SPDX-License-Identifier: MIT
#include "critter/gl/gpu_model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "critter/gl/renderer.h"
#include "gl/fixture.h"

namespace critter::gl {
namespace {

using test::GlTest;

// A unit quad facing +Z with UVs, one unlit white material whose base colour texture is image 0;
// image 1 is referenced by no material.
Model textured_quad() {
  RawModel raw;
  raw.name = "textured";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"root", -1, Transform{}, -1});
  Mesh mesh;
  mesh.name = "quad";
  MeshPart part;
  for (const vec2 c : {vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1)}) {
    part.streams.positions.push_back(vec3(c, 0.0f));
    part.streams.normals.push_back(vec3(0, 0, 1));
    part.streams.uv0.push_back((c + vec2(1.0f)) * 0.5f);
  }
  part.indices = {0, 1, 2, 0, 2, 3};
  part.material = 0;
  mesh.parts.push_back(std::move(part));
  raw.meshes.push_back(std::move(mesh));
  Material m;
  m.unlit = true;
  m.base_color_texture.image = 0;
  raw.materials.push_back(m);
  Image used;
  used.name = "used";
  used.bytes = {1, 2, 3};
  Image unused;
  unused.uri = "unused.png";
  unused.resolved_path = "unused.png";
  raw.images = {used, unused};
  Result<Model> model = build_model(std::move(raw));
  EXPECT_TRUE(model) << model.error().to_string();
  return std::move(*model);
}

RgbaImage solid(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  RgbaImage image;
  image.width = 2;
  image.height = 2;
  image.pixels.resize(image.byte_count());
  for (std::size_t i = 0; i < image.pixels.size(); i += 4) {
    image.pixels[i] = r;
    image.pixels[i + 1] = g;
    image.pixels[i + 2] = b;
    image.pixels[i + 3] = 255;
  }
  return image;
}

class GpuModelTest : public GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    renderer_->options().srgb_output = false;
    Result<RenderTarget> t = RenderTarget::create(16, 16);
    ASSERT_TRUE(t);
    target_ = std::move(*t);
    target_.bind();
  }
  // The centre pixel of the quad drawn filling the view.
  std::vector<std::uint8_t> centre(const GpuModel& gpu) {
    OrbitCamera o;
    o.pitch = 0.0f;
    o.distance = 5.0f;
    o.orthographic = true;
    o.ortho_height = 1.0f;
    renderer_->begin_frame();
    RenderInstance inst;
    inst.model = &gpu;
    inst.cast_shadow = false;
    EXPECT_TRUE(renderer_->submit(inst));
    renderer_->render_frame(o.camera(1.0f), vec4(0, 0, 0, 1));
    const Pixels p = target_.read_pixels();
    const std::uint8_t* c = p.at(8, 8);
    return {c[0], c[1], c[2]};
  }
  RenderTarget target_;
};

TEST_F(GpuModelTest, UploadsWhatTheDecoderReturnsForUsedImagesOnly) {
  const Model model = textured_quad();
  std::vector<std::string> asked;
  const ImageDecoder decoder = [&](const Image& image) -> Result<RgbaImage> {
    asked.push_back(image.name);
    return solid(255, 0, 0);
  };
  Diagnostics diag;
  Result<std::unique_ptr<GpuModel>> gpu = GpuModel::create(model, decoder, &diag);
  ASSERT_TRUE(gpu) << gpu.error().to_string();
  EXPECT_EQ(asked, std::vector<std::string>{"used"});
  EXPECT_TRUE(diag.empty());
  EXPECT_EQ(centre(**gpu), (std::vector<std::uint8_t>{255, 0, 0}));
}

TEST_F(GpuModelTest, DecoderFailureIsAWarningAndDrawsWhite) {
  const Model model = textured_quad();
  const ImageDecoder decoder = [](const Image&) -> Result<RgbaImage> {
    return fail(Error::at(ErrorCode::kParse, "", "", "bad bits"));
  };
  Diagnostics diag;
  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(model, decoder, &diag);
  ASSERT_TRUE(gpu) << gpu.error().to_string();
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].path, "textured");
  EXPECT_EQ(diag.items()[0].location, "image 'used'");
  EXPECT_EQ(diag.items()[0].message, "cannot decode (bad bits); drawn white");
  EXPECT_EQ(centre(**gpu), (std::vector<std::uint8_t>{255, 255, 255}));
}

TEST_F(GpuModelTest, NoDecoderOrAMalformedImageDrawsWhite) {
  const Model model = textured_quad();
  Diagnostics diag;
  Result<std::unique_ptr<GpuModel>> gpu = GpuModel::create(model, ImageDecoder{}, &diag);
  ASSERT_TRUE(gpu);
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].message, "cannot decode (no image decoder); drawn white");
  EXPECT_EQ(centre(**gpu), (std::vector<std::uint8_t>{255, 255, 255}));

  diag.clear();
  const ImageDecoder short_buffer = [](const Image&) -> Result<RgbaImage> {
    RgbaImage image = solid(0, 255, 0);
    image.pixels.pop_back();
    return image;
  };
  gpu = GpuModel::create(model, short_buffer, &diag);
  ASSERT_TRUE(gpu);
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].message,
            "cannot decode (decoder returned a malformed image); drawn white");
}

}  // namespace
}  // namespace critter::gl
