// SPDX-License-Identifier: MIT
#include "critter/deform/skin_mesh_part.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numbers>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/asset/demo_creature.h"
#include "critter/deform/morph_texture.h"
#include "critter/io/load.h"
#include "support/math_helpers.h"

namespace critter::deform {
namespace {

using critter::testing::expect_vec_near;
using critter::testing::kPi;

// Rest transforms of the two joints, written as matrices independently of Transform.
mat4 root_model() {
  return glm::translate(mat4(1.0f), vec3(1, 2, 3)) *
         glm::rotate(mat4(1.0f), kPi / 6, vec3(0, 1, 0));
}
mat4 child_model() {
  return root_model() * glm::translate(mat4(1.0f), vec3(0, 1, 0)) *
         glm::rotate(mat4(1.0f), kPi / 4, vec3(1, 0, 0));
}

// Skeleton listed child-first (the builder sorts: built index 0 = root, 1 = child).
// Mesh 0: skinned by skin 0 (joints root, child) with inverse binds = inverse rest transforms, and
// one morph target. Mesh 1: rigid, hanging from the child. Mesh 2: rigid at the model root with a
// morph target.
RawModel test_model() {
  RawModel m;
  m.name = "bend";
  RawJoint child{"child", 1, {}, 1};
  child.rest.translation = vec3(0, 1, 0);
  child.rest.rotation = glm::angleAxis(kPi / 4, vec3(1, 0, 0));
  RawJoint root{"root", -1, {}, 0};
  root.rest.translation = vec3(1, 2, 3);
  root.rest.rotation = glm::angleAxis(kPi / 6, vec3(0, 1, 0));
  m.skeleton.joints = {child, root};

  Mesh skinned;
  skinned.name = "Body";
  skinned.skin = 0;
  MeshPart p;
  for (int i = 0; i < 21; ++i) {
    const float f = static_cast<float>(i);
    p.streams.positions.push_back(vec3(0.1f * f, 0.2f * f - 1.0f, 0.5f - 0.05f * f));
    p.streams.normals.push_back(glm::normalize(vec3(1.0f, 0.1f * f, -0.3f)));
    p.streams.tangents.push_back(vec4(glm::normalize(vec3(0.1f * f, -1.0f, 0.2f)), 1.0f));
    p.streams.joints.push_back(glm::u16vec4(0, 1, 0, 0));
    p.streams.weights.push_back(vec4(1.0f - f / 20.0f, f / 20.0f, 0, 0));
  }
  MorphTarget t;
  t.positions.assign(21, vec3(0, 0, 1));
  p.morphs.targets.push_back(t);
  skinned.parts.push_back(p);
  skinned.default_weights = {0.0f};
  m.meshes.push_back(skinned);

  Mesh rigid;
  rigid.name = "Hat";
  rigid.bone = 0;  // raw index of the child
  MeshPart rp;
  rp.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  rp.streams.normals.assign(3, vec3(0, 0, 1));
  rigid.parts.push_back(rp);
  m.meshes.push_back(rigid);

  Mesh loose;
  loose.name = "Loose";
  MeshPart lp;
  lp.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  MorphTarget lt;
  lt.positions = {{0, 0, 2}, {0, 0, 0}, {1, 1, 1}};
  lp.morphs.targets.push_back(lt);
  loose.parts.push_back(lp);
  loose.default_weights = {0.5f};
  m.meshes.push_back(loose);

  Skin s;
  s.joints = {1, 0};  // raw: root, child
  s.inverse_bind = {glm::inverse(root_model()), glm::inverse(child_model())};
  m.skins.push_back(s);
  return m;
}

class SkinMeshPart : public ::testing::Test {
 protected:
  void SetUp() override {
    auto built = build_model(test_model());
    ASSERT_TRUE(built) << built.error().to_string();
    model_ = std::move(*built);
  }
  Model model_;
  std::vector<mat4> palette_ = std::vector<mat4>(2);
};

TEST_F(SkinMeshPart, RestPoseReturnsTheBindPoseMesh) {
  const MeshPart& part = model_.meshes()[0].parts[0];
  std::vector<vec3> pos(21), nrm(21);
  std::vector<vec4> tan(21);
  ASSERT_TRUE(
      skin_mesh_part(model_, 0, 0, model_.rest_model_transforms(), {}, palette_, pos, nrm, tan));
  for (std::size_t v = 0; v < pos.size(); ++v) {
    expect_vec_near(pos[v], part.streams.positions[v], 1e-5f);
    expect_vec_near(nrm[v], part.streams.normals[v], 1e-5f);
    expect_vec_near(vec3(tan[v]), vec3(part.streams.tangents[v]), 1e-5f);
  }
}

TEST_F(SkinMeshPart, MovedSkeletonMovesSkinnedVerticesAndMorphsComeFirst) {
  // Every joint translated by (5, 0, 0) in model space: every skinned vertex moves by (5, 0, 0).
  std::vector<mat4> moved;
  const mat4 shift = glm::translate(mat4(1.0f), vec3(5, 0, 0));
  for (const mat4& m : model_.rest_model_transforms()) moved.push_back(shift * m);
  const MeshPart& part = model_.meshes()[0].parts[0];
  std::vector<vec3> pos(21);
  const std::vector<float> weights = {2.0f};
  ASSERT_TRUE(skin_mesh_part(model_, 0, 0, moved, weights, palette_, pos));
  for (std::size_t v = 0; v < pos.size(); ++v) {
    expect_vec_near(pos[v], part.streams.positions[v] + vec3(5, 0, 2), 1e-5f);
  }
}

TEST_F(SkinMeshPart, BendingTheChildMovesOnlyItsShare) {
  // Rotate the child 90 degrees more about its own X axis: a vertex weighted w on the child
  // lands at lerp(p, R p, w) with R the child's model-space rotation about its pivot.
  std::vector<mat4> pose(model_.rest_model_transforms().begin(),
                         model_.rest_model_transforms().end());
  const int child = model_.find_bone("child");
  ASSERT_EQ(child, 1);
  const mat4 extra = glm::rotate(mat4(1.0f), kPi / 2, vec3(1, 0, 0));
  pose[1] = child_model() * extra;
  const mat4 child_delta = pose[1] * glm::inverse(child_model());
  std::vector<vec3> pos(21);
  ASSERT_TRUE(skin_mesh_part(model_, 0, 0, pose, {}, palette_, pos));
  const MeshPart& part = model_.meshes()[0].parts[0];
  for (std::size_t v = 0; v < pos.size(); ++v) {
    const float w = static_cast<float>(v) / 20.0f;
    const vec3 p = part.streams.positions[v];
    const vec3 bent = vec3(child_delta * vec4(p, 1.0f));
    expect_vec_near(pos[v], (1.0f - w) * p + w * bent, 1e-5f);
  }
}

TEST_F(SkinMeshPart, NormalTransformReachesTheSkinning) {
  // Every joint scaled by (2, 1, 1) in model space: every palette matrix is that scale.
  std::vector<mat4> scaled;
  const mat4 scale = glm::scale(mat4(1.0f), vec3(2, 1, 1));
  for (const mat4& m : model_.rest_model_transforms()) scaled.push_back(scale * m);
  const MeshPart& part = model_.meshes()[0].parts[0];
  for (NormalTransform how : {NormalTransform::kInverseTranspose, NormalTransform::kMatrix}) {
    std::vector<vec3> pos(21), nrm(21);
    SkinMeshPartJob job;
    job.model = &model_;
    job.model_transforms = scaled;
    job.palette = palette_;
    job.out_positions = pos;
    job.out_normals = nrm;
    job.normal_transform = how;
    ASSERT_TRUE(job.run());
    const vec3 turn = how == NormalTransform::kMatrix ? vec3(2, 1, 1) : vec3(0.5f, 1, 1);
    for (std::size_t v = 0; v < nrm.size(); ++v)
      expect_vec_near(nrm[v], glm::normalize(turn * part.streams.normals[v]), 1e-5f);
  }
}

TEST_F(SkinMeshPart, RigidPartsFollowTheirBoneOrTheModelRoot) {
  std::vector<vec3> pos(3), nrm(3);
  ASSERT_TRUE(skin_mesh_part(model_, 1, 0, model_.rest_model_transforms(), {}, palette_, pos, nrm));
  const mat4 c = child_model();
  expect_vec_near(pos[0], vec3(c[3]), 1e-5f);
  expect_vec_near(pos[1], vec3(c * vec4(1, 0, 0, 1)), 1e-5f);
  expect_vec_near(nrm[2], glm::normalize(vec3(c * vec4(0, 0, 1, 0))), 1e-5f);

  // Mesh 2: no bone, default weight 0.5 when no weights are given.
  ASSERT_TRUE(skin_mesh_part(model_, 2, 0, model_.rest_model_transforms(), {}, {}, pos));
  expect_vec_near(pos[0], vec3(0, 0, 1), 1e-6f);
  expect_vec_near(pos[1], vec3(1, 0, 0), 1e-6f);
  expect_vec_near(pos[2], vec3(0.5f, 1.5f, 0.5f), 1e-6f);
  const std::vector<float> w = {-1.0f};
  ASSERT_TRUE(skin_mesh_part(model_, 2, 0, model_.rest_model_transforms(), w, {}, pos));
  expect_vec_near(pos[2], vec3(-1, 0, -1), 1e-6f);
}

TEST_F(SkinMeshPart, ValidatesEachRule) {
  std::vector<vec3> pos(21), nrm(21), small(3);
  std::vector<vec4> tan(21);
  SkinMeshPartJob good;
  good.model = &model_;
  good.model_transforms = model_.rest_model_transforms();
  good.palette = palette_;
  good.out_positions = pos;
  good.out_normals = nrm;
  good.out_tangents = tan;
  ASSERT_TRUE(good.validate());
  auto broken = [&](SkinMeshPartJob j, const char* needle) {
    const Status s = j.run();
    ASSERT_FALSE(s) << needle;
    EXPECT_NE(s.error().message.find(needle), std::string::npos) << s.error().message;
  };
  SkinMeshPartJob j = good;
  j.model = nullptr;
  broken(j, "model is null");
  j = good;
  j.mesh = 3;
  broken(j, "mesh 3 is out of range");
  j = good;
  j.part = 1;
  broken(j, "part 1 is out of range");
  j = good;
  j.model_transforms = j.model_transforms.first(1);
  broken(j, "model_transforms has 1 entries, expected 2");
  const std::vector<float> two = {1, 2};
  j = good;
  j.morph_weights = two;
  broken(j, "morph_weights has 2 entries, expected 1");
  j = good;
  j.palette = j.palette.first(1);
  broken(j, "palette has 1 entries, the skin needs 2");
  j = good;
  j.out_positions = small;
  broken(j, "out_positions has 3 entries, expected 21");
  j = good;
  j.out_normals = small;
  broken(j, "out_normals has 3 entries");
  j = good;
  j.out_tangents = j.out_tangents.first(2);
  broken(j, "out_tangents has 2 entries");
  j = good;
  j.mesh = 2;
  j.out_positions = small;
  j.out_normals = small;
  j.out_tangents = {};
  broken(j, "out_normals given but the part has no normals");
}

TEST(SkinMeshPartDemo, DemoQuadrupedRestPoseReturnsItsBindMesh) {
  auto model = build_demo_quadruped();
  ASSERT_TRUE(model) << model.error().to_string();
  std::vector<mat4> palette(static_cast<std::size_t>(model->skeleton().joint_count()));
  std::size_t checked = 0;
  for (std::size_t m = 0; m < model->meshes().size(); ++m) {
    const Mesh& mesh = model->meshes()[m];
    for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
      const VertexStreams& s = mesh.parts[p].streams;
      std::vector<vec3> pos(s.positions.size());
      ASSERT_TRUE(skin_mesh_part(*model, m, p, model->rest_model_transforms(), {}, palette, pos));
      if (mesh.skin < 0) continue;
      for (std::size_t v = 0; v < pos.size(); ++v) expect_vec_near(pos[v], s.positions[v], 1e-5f);
      checked += pos.size();
    }
  }
  EXPECT_GT(checked, 0u);
}

// Every skinned shared model, in its rest pose: all deformed vertices are finite and lie within
// ten times the model's rest bounds around their centre.
TEST(SkinMeshPartModels, SharedModelsRestPoseStaysFiniteAndBounded) {
  const std::string dir = CRITTER_SHARED_MODELS;
  for (const char* file :
       {"RiggedFigure/RiggedFigure.glb", "SimpleSkin/SimpleSkin.gltf", "girl/girl.glb",
        "greenman/greenman.glb", "Wizard/Wizard.glb", "ozz_cubicspline/cubicspline.gltf",
        "ozz_multiple_roots/multiple_roots.gltf"}) {
    SCOPED_TRACE(file);
    auto model = io::load(dir + "/" + file);
    ASSERT_TRUE(model) << model.error().to_string();
    ASSERT_FALSE(model->bounds().empty());
    const vec3 center = model->bounds().center();
    const float reach = 10.0f * std::max(glm::length(model->bounds().extent()), 1e-3f);
    std::size_t palette_size = 0;
    for (const Skin& s : model->skins()) palette_size = std::max(palette_size, s.joints.size());
    std::vector<mat4> palette(palette_size);
    std::size_t skinned = 0;
    for (std::size_t m = 0; m < model->meshes().size(); ++m) {
      const Mesh& mesh = model->meshes()[m];
      for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
        const VertexStreams& vs = mesh.parts[p].streams;
        std::vector<vec3> pos(vs.positions.size());
        std::vector<vec3> nrm(vs.normals.size());
        ASSERT_TRUE(
            skin_mesh_part(*model, m, p, model->rest_model_transforms(), {}, palette, pos, nrm));
        for (const vec3& v : pos) {
          ASSERT_TRUE(all_finite(v));
          ASSERT_LE(glm::length(v - center), reach);
        }
        for (const vec3& n : nrm) {
          ASSERT_TRUE(all_finite(n));
          ASSERT_LE(glm::length(n), 1.0f + 1e-5f);
        }
        if (mesh.skin >= 0) skinned += pos.size();
      }
    }
    EXPECT_GT(skinned, 0u) << "no skinned vertex";
  }
}

// Morphed shared models: each part's morph texture holds its deltas at the texel of the vertex
// (spec layout), and morphing with the default weights stays finite.
TEST(SkinMeshPartModels, SharedMorphModelsPackAndMorph) {
  const std::string dir = CRITTER_SHARED_MODELS;
  for (const char* file :
       {"AnimatedMorphSphere/AnimatedMorphSphere.gltf", "MorphStressTest/MorphStressTest.gltf",
        "MorphPrimitivesTest/MorphPrimitivesTest.gltf"}) {
    SCOPED_TRACE(file);
    auto model = io::load(dir + "/" + file);
    ASSERT_TRUE(model) << model.error().to_string();
    std::size_t packed = 0;
    for (std::size_t m = 0; m < model->meshes().size(); ++m) {
      const Mesh& mesh = model->meshes()[m];
      for (std::size_t p = 0; p < mesh.parts.size(); ++p) {
        const MeshPart& part = mesh.parts[p];
        if (part.morphs.empty()) continue;
        auto tex = pack_morph_texture(part.morphs, part.vertex_count(), mesh.name);
        ASSERT_TRUE(tex) << tex.error().to_string();
        EXPECT_EQ(tex->layers, 3 * part.morphs.target_count());
        EXPECT_GE(std::size_t{tex->width} * tex->height, part.vertex_count());
        EXPECT_LT(std::size_t{tex->width} * tex->height / 2,
                  std::max<std::size_t>(part.vertex_count(), 1));
        for (std::uint32_t t = 0; t < part.morphs.target_count(); ++t) {
          const MorphTarget& target = part.morphs.targets[t];
          const std::size_t v = part.vertex_count() - 1;
          if (!target.positions.empty()) {
            EXPECT_EQ(tex->texels[tex->offset(3 * t, v) + 1], target.positions[v].y);
          }
          if (!target.normals.empty()) {
            EXPECT_EQ(tex->texels[tex->offset(3 * t + 1, v) + 2], target.normals[v].z);
          }
        }
        std::vector<vec3> pos(part.vertex_count());
        std::vector<mat4> palette(model->skins().empty() ? 0 : model->skins()[0].joints.size());
        ASSERT_TRUE(skin_mesh_part(*model, m, p, model->rest_model_transforms(), {}, palette, pos));
        for (const vec3& v : pos) ASSERT_TRUE(all_finite(v));
        ++packed;
      }
    }
    EXPECT_GT(packed, 0u);
  }
}

}  // namespace
}  // namespace critter::deform
