// SPDX-License-Identifier: MIT
// The palette paths of the Renderer (PaletteUpload): the 2D texture, the buffer texture and the
// persistently mapped buffers draw the same pixels, frame after frame (the persistent path's
// buffers take turns) and when a frame's palettes outgrow the buffer half-way through.
#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/core/job_pool.h"
#include "critter/creature/crowd.h"
#include "critter/gl/renderer.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/load.h"
#include "gl/fixture.h"
#include "support/cli_runner.h"

namespace critter::gl {
namespace {

using test::GlTest;

constexpr PaletteUpload kPaths[] = {PaletteUpload::kTexture, PaletteUpload::kBufferTexture,
                                    PaletteUpload::kPersistentBuffer};

class PaletteUploadTest : public GlTest {
 protected:
  void SetUp() override {
    GlTest::SetUp();
    if (HasFatalFailure()) return;
    for (const char* file : {"greenman/greenman.glb", "AnimatedTriangle/AnimatedTriangle.gltf"}) {
      auto model = io::load(test_support::shared_model(file));
      ASSERT_TRUE(model) << file << ": " << model.error().to_string();
      models_.push_back(std::make_unique<Model>(std::move(*model)));
      auto gpu = renderer_->upload(*models_.back(), io::decode_image);
      ASSERT_TRUE(gpu) << gpu.error().to_string();
      gpus_.push_back(std::move(*gpu));
    }
  }
  void TearDown() override {
    gpus_.clear();
    renderer_.reset();
  }

  std::vector<std::unique_ptr<Model>> models_;
  std::vector<std::unique_ptr<GpuModel>> gpus_;  // greenman (skinned), triangle (rigid)
};

TEST_F(PaletteUploadTest, AutoPicksAPathTheContextHasAndForcedPathsAreCheckedAtCreate) {
  EXPECT_NE(renderer_->palette_upload(), PaletteUpload::kAuto);
  GLint major = 0;
  GLint minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  const bool storage = major * 10 + minor >= 44 || epoxy_has_gl_extension("GL_ARB_buffer_storage");
  if (storage && renderer_->palette_upload() != PaletteUpload::kTexture) {
    EXPECT_EQ(renderer_->palette_upload(), PaletteUpload::kPersistentBuffer);
  }
  for (PaletteUpload path : kPaths) {
    RendererOptions options;
    options.palette_upload = path;
    auto r = Renderer::create(options);
    if (r) {
      EXPECT_EQ((*r)->palette_upload(), path);
    } else {
      // Only a path the context lacks is refused, and never the 2D texture.
      EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
      EXPECT_NE(path, PaletteUpload::kTexture);
    }
  }
}

TEST_F(PaletteUploadTest, EveryPathDrawsTheSamePixelsFrameAfterFrame) {
  creature::CrowdOptions o;
  o.count = 12;
  o.clip = 2;
  o.spacing = 1.5f;
  auto crowd = creature::Crowd::create(*models_[0], o);
  ASSERT_TRUE(crowd) << crowd.error().to_string();
  // Rigid triangles in front of the crowd, each turned by its own player.
  const Model& triangle_model = *models_[1];
  ASSERT_FALSE(triangle_model.clips().empty());
  std::vector<anim::Player> players;
  std::vector<anim::Instance> triangles;
  for (int i = 0; i < 3; ++i) {
    players.emplace_back(triangle_model);
    anim::PlayOptions play;
    play.offset = 0.3f * static_cast<float>(i);
    ASSERT_TRUE(players.back().play(0, anim::PlaybackMode::kLoopForward, play));
    triangles.emplace_back(triangle_model);
  }
  const Aabb& bounds = (*crowd)->bounds();
  const Camera camera = frame_bounds(bounds, 1.0f, 20.0f, 30.0f).camera(1.0f);
  const float scale = 0.3f * bounds.extent().x;

  // Instances far behind the camera: culled, but their palettes are packed all the same, so
  // submitting them between the visible ones grows a frame's palettes past a buffer's first size
  // after some palettes are packed.
  std::vector<RenderInstance> hidden(3000);
  for (RenderInstance& h : hidden) {
    h.model = gpus_[0].get();
    h.world_from_model = glm::translate(mat4(1.0f), camera.position * 1000.0f);
    h.cast_shadow = false;
  }

  std::vector<std::unique_ptr<Renderer>> renderers;
  for (PaletteUpload path : kPaths) {
    RendererOptions options;
    options.palette_upload = path;
    auto r = Renderer::create(options);
    if (r) renderers.push_back(std::move(*r));
  }
  ASSERT_GE(renderers.size(), 1u);
  ASSERT_EQ(renderers[0]->palette_upload(), PaletteUpload::kTexture);

  auto target = RenderTarget::create(128, 128);
  ASSERT_TRUE(target) << target.error().to_string();
  JobPool pool(2);
  // Five frames: the persistent path's three buffers each serve a frame and one serves again.
  for (int frame = 0; frame < 5; ++frame) {
    (*crowd)->update(0.11f, &pool);
    std::vector<RenderInstance> visible;
    for (std::size_t i = 0; i < (*crowd)->size(); ++i) {
      RenderInstance r;
      r.model = gpus_[0].get();
      r.world_from_model = (*crowd)->placement(i);
      r.model_transforms = (*crowd)->instance(i).model_transforms();
      r.cast_shadow = false;
      visible.push_back(r);
    }
    for (std::size_t i = 0; i < triangles.size(); ++i) {
      players[i].update(0.11f);
      ASSERT_TRUE(triangles[i].pose(players[i].local_pose()));
      RenderInstance r;
      r.model = gpus_[1].get();
      r.world_from_model = glm::scale(
          glm::translate(mat4(1.0f), vec3(bounds.center().x + 0.8f * scale * static_cast<float>(i),
                                          bounds.max.y, bounds.max.z)),
          vec3(scale));
      r.model_transforms = triangles[i].model_transforms();
      r.cast_shadow = false;
      visible.push_back(r);
    }
    const std::span<const RenderInstance> all(visible);
    std::vector<Pixels> pictures;
    for (auto& renderer : renderers) {
      target->bind();
      renderer->begin_frame();
      ASSERT_TRUE(renderer->submit(all.first(5), &pool));
      ASSERT_TRUE(renderer->submit(hidden, &pool));
      ASSERT_TRUE(renderer->submit(all.subspan(5)));
      renderer->render_frame(camera, vec4(0.0f, 0.0f, 0.0f, 1.0f));
      EXPECT_EQ(renderer->stats().visible, visible.size());
      pictures.push_back(target->read_pixels());
    }
    const std::uint8_t black[3] = {0, 0, 0};
    EXPECT_GT(test::coverage(pictures[0], black), 0.05);
    for (std::size_t k = 1; k < pictures.size(); ++k) {
      EXPECT_EQ(test::differing_fraction(pictures[0], pictures[k], 0), 0.0)
          << "frame " << frame << ", path " << static_cast<int>(renderers[k]->palette_upload());
    }
  }
}

}  // namespace
}  // namespace critter::gl
