// SPDX-License-Identifier: MIT
// GPU skinning and morphing against the CPU reference (DESIGN.md: CPU skinning is the reference):
// each model is posed, baked on the CPU with deform::skin_mesh_part into a static model, and both
// are rendered with the same camera; at most 0.5% of pixels may differ.
#include <gtest/gtest.h>

#include "critter/anim/instance.h"
#include "critter/anim/player.h"
#include "critter/anim/pose.h"
#include "critter/deform/skin_mesh_part.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/load.h"
#include "gl/fixture.h"

namespace critter::gl {
namespace {

// The posed model as static geometry: one root joint, every part morphed and skinned on the CPU.
Result<Model> bake(const anim::Instance& instance) {
  const Model& model = instance.model();
  RawModel raw;
  raw.name = model.name() + "_baked";
  raw.format = "code";
  raw.skeleton.joints.push_back(RawJoint{"root", -1, Transform{}, -1});
  raw.materials.assign(model.materials().begin(), model.materials().end());
  raw.images.assign(model.images().begin(), model.images().end());
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  std::vector<mat4> palette;
  for (std::size_t m = 0; m < model.meshes().size(); ++m) {
    const Mesh& mesh = model.meshes()[m];
    Mesh out;
    out.name = mesh.name;
    palette.assign(
        mesh.skin >= 0 ? model.skins()[static_cast<std::size_t>(mesh.skin)].joints.size() : 0,
        mat4(1.0f));
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const MeshPart& part = mesh.parts[p];
      MeshPart baked;
      baked.indices = part.indices;
      baked.topology = part.topology;
      baked.material = part.material;
      baked.streams.uv0 = part.streams.uv0;
      baked.streams.uv1 = part.streams.uv1;
      baked.streams.colors = part.streams.colors;
      // Sized by assignment: GCC 12 warns falsely (-Wnull-dereference) on resize() here.
      baked.streams.positions = std::vector<vec3>(part.vertex_count(), vec3(0.0f));
      if (!part.streams.normals.empty()) baked.streams.normals = baked.streams.positions;
      Status s = deform::skin_mesh_part(model, m, p, instance.model_transforms(),
                                        layout.mesh_weights(instance.morph_weights(), m), palette,
                                        baked.streams.positions, baked.streams.normals);
      if (!s) return fail(s.error());
      out.parts.push_back(std::move(baked));
    }
    raw.meshes.push_back(std::move(out));
  }
  return build_model(std::move(raw));
}

struct Case {
  const char* file;
  float time;
};

RenderInstance posed(const GpuModel& gpu, const anim::Instance& instance) {
  RenderInstance r;
  r.model = &gpu;
  r.model_transforms = instance.model_transforms();
  r.morph_weights = instance.morph_weights();
  return r;
}

class GpuCpuTest : public test::GlTest, public ::testing::WithParamInterface<Case> {};

TEST_P(GpuCpuTest, GpuPathMatchesTheCpuBakedModel) {
  const Case c = GetParam();
  Result<Model> model = io::load(std::string(CRITTER_SHARED_MODELS) + "/" + c.file);
  ASSERT_TRUE(model) << model.error().to_string();
  anim::Player player(*model);
  anim::Instance instance(*model);
  if (!model->clips().empty()) {
    ASSERT_TRUE(player.play(0, anim::PlaybackMode::kLoopForward));
  }
  player.update(c.time);
  ASSERT_TRUE(instance.pose(player.local_pose(), player.weights()));
  Result<Model> baked = bake(instance);
  ASSERT_TRUE(baked) << baked.error().to_string();

  Result<std::unique_ptr<GpuModel>> gpu = renderer_->upload(*model, io::decode_image);
  Result<std::unique_ptr<GpuModel>> gpu_baked = renderer_->upload(*baked, io::decode_image);
  ASSERT_TRUE(gpu && gpu_baked);
  Result<RenderTarget> target = RenderTarget::create(128, 128);
  ASSERT_TRUE(target);
  target->bind();
  const Camera camera = frame_bounds(baked->bounds(), 1.0f, 30.0f, 20.0f).camera(1.0f);

  renderer_->begin_frame();
  RenderInstance skinned = posed(**gpu, instance);
  skinned.cast_shadow = false;
  ASSERT_TRUE(renderer_->submit(skinned));
  renderer_->render_frame(camera, vec4(0, 0, 0, 1));
  const Pixels a = target->read_pixels();

  renderer_->begin_frame();
  RenderInstance reference;
  reference.model = gpu_baked->get();
  reference.cast_shadow = false;
  ASSERT_TRUE(renderer_->submit(reference));
  renderer_->render_frame(camera, vec4(0, 0, 0, 1));
  const Pixels b = target->read_pixels();

  const std::uint8_t black[3] = {0, 0, 0};
  EXPECT_GT(test::coverage(b, black), 0.05);
  EXPECT_LE(test::differing_fraction(a, b, 12), 0.005);

  // The comparison can fail: the posed reference differs from the rest pose drawn by the same GPU
  // path, so a GPU path that ignored the palette or the morph weights would not match it.
  if (!model->clips().empty()) {
    anim::Instance rest(*model);
    renderer_->begin_frame();
    RenderInstance at_rest = posed(**gpu, rest);
    at_rest.cast_shadow = false;
    ASSERT_TRUE(renderer_->submit(at_rest));
    renderer_->render_frame(camera, vec4(0, 0, 0, 1));
    EXPECT_GT(test::differing_fraction(target->read_pixels(), b, 12), 0.005);
  }
}

INSTANTIATE_TEST_SUITE_P(
    SharedModels, GpuCpuTest,
    ::testing::Values(Case{"RiggedFigure/RiggedFigure.glb", 0.4f},
                      Case{"SimpleSkin/SimpleSkin.gltf", 2.0f}, Case{"Wizard/Wizard.glb", 0.5f},
                      Case{"ozz_multiple_roots/multiple_roots.gltf", 3.0f},
                      Case{"AnimatedMorphSphere/AnimatedMorphSphere.gltf", 2.0f},
                      Case{"MorphStressTest/MorphStressTest.gltf", 4.0f},
                      Case{"MorphPrimitivesTest/MorphPrimitivesTest.gltf", 0.0f},
                      Case{"library_animation_clips_collada/library_animation_clips.dae", 0.3f}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      std::string name = param_info.param.file;
      name = name.substr(0, name.find('/'));
      std::erase_if(name, [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); });
      return name;
    });

}  // namespace
}  // namespace critter::gl
