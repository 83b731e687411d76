// SPDX-License-Identifier: MIT
#include "critter/asset/model.h"

#include <gtest/gtest.h>

#include "critter/asset/synthetic_character.h"

namespace critter {
namespace {

// Two joints listed child-first (so the builder must sort), one skinned quad, one rigid triangle
// hanging from the child joint, a morph target on the quad, a material, a clip.
RawModel valid_model() {
  RawModel m;
  m.name = "test";
  m.source_path = "test.gltf";
  RawJoint child{"child", 1, {}, 7};
  child.rest.translation = vec3(0, 1, 0);
  RawJoint root{"root", -1, {}, 3};
  root.rest.translation = vec3(10, 0, 0);
  m.skeleton.joints = {child, root};

  Mesh quad;
  quad.name = "Quad";
  quad.skin = 0;
  MeshPart p;
  p.streams.positions = {{0, 0, 0}, {1, 0, 0}, {1, 2, 0}, {0, 2, 0}};
  p.streams.normals.assign(4, vec3(0, 0, 1));
  p.streams.joints = {glm::u16vec4(0), glm::u16vec4(0), glm::u16vec4(1, 0, 0, 0),
                      glm::u16vec4(1, 0, 9, 0)};  // index 9 with zero weight is tolerated
  p.streams.weights = {vec4(1, 0, 0, 0), vec4(2, 0, 0, 0), vec4(1, 0, 0, 0), vec4(1, 0, 0, 0)};
  p.indices = {0, 1, 2, 0, 2, 3};
  p.material = 0;
  MorphTarget t;
  t.positions = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  p.morphs.targets.push_back(t);
  quad.parts.push_back(p);
  quad.default_weights = {0.5f};
  m.meshes.push_back(quad);

  Mesh tri;
  tri.name = "Tri";
  tri.bone = 0;  // the child joint (raw index)
  MeshPart tp;
  tp.streams.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  tri.parts.push_back(tp);
  m.meshes.push_back(tri);

  Skin s;
  s.name = "skin";
  s.joints = {1, 0};  // raw indices: root, child
  m.skins.push_back(s);

  Material mat;
  mat.name = "mat";
  m.materials.push_back(mat);

  RawClip clip;
  clip.name = "Wave";
  RawTrack tr;
  tr.target = TrackTarget::kTranslation;
  tr.index = 0;  // child (raw)
  tr.times = {0, 1};
  tr.values = {0, 1, 0, 0, 2, 0};
  clip.tracks.push_back(tr);
  m.clips.push_back(clip);
  return m;
}

TEST(BuildModel, BuildsAndRemapsJointReferences) {
  Diagnostics diag;
  auto model = build_model(valid_model(), &diag);
  ASSERT_TRUE(model) << model.error().to_string();
  const Skeleton& sk = model->skeleton();
  ASSERT_EQ(sk.joint_count(), 2);
  EXPECT_EQ(sk.names()[0], "root");
  EXPECT_EQ(sk.names()[1], "child");
  EXPECT_EQ(sk.source_indices()[0], 3);
  EXPECT_EQ(model->skins()[0].joints, (std::vector<std::int16_t>{0, 1}));
  EXPECT_EQ(model->meshes()[1].bone, 1);
  EXPECT_EQ(model->clips()[0].tracks()[0].index, 1);
  EXPECT_EQ(model->find_bone("CHILD"), 1);
  EXPECT_EQ(model->find_mesh("tri"), 1);
  EXPECT_EQ(model->find_clip("Wave"), 0);
  EXPECT_EQ(model->find_clip("run"), -1);
  EXPECT_TRUE(diag.empty());
}

TEST(BuildModel, RestModelTransformsChainParents) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model);
  const mat4& child = model->rest_model_transforms()[1];
  EXPECT_FLOAT_EQ(child[3].x, 10.0f);
  EXPECT_FLOAT_EQ(child[3].y, 1.0f);
}

TEST(BuildModel, NormalisesWeightsAndClearsUnusedJointIndices) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model);
  const VertexStreams& s = model->meshes()[0].parts[0].streams;
  EXPECT_FLOAT_EQ(s.weights[1].x, 1.0f);
  EXPECT_EQ(s.joints[3].z, 0);
}

TEST(BuildModel, BoundsUseRestSkinningAndBonePlacement) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model);
  // Identity inverse binds: quad vertices move with their joints (root at x=10, child at (10,1)).
  // Rigid triangle hangs from the child joint at (10,1,0).
  const Aabb& b = model->bounds();
  EXPECT_FLOAT_EQ(b.min.x, 10.0f);
  EXPECT_FLOAT_EQ(b.max.x, 11.0f);
  EXPECT_FLOAT_EQ(b.min.y, 0.0f);
  EXPECT_FLOAT_EQ(b.max.y, 3.0f);  // vertex (1,2,0) on the child: (11,3,0)
  EXPECT_GT(model->bounding_sphere().radius, 0.0f);
  EXPECT_FLOAT_EQ(model->meshes()[0].bounds.max.y, 2.0f);
}

TEST(BuildModel, VertexWithoutWeightIsBoundToJointZeroWithWarning) {
  RawModel raw = valid_model();
  raw.meshes[0].parts[0].streams.weights[2] = vec4(0.0f);
  Diagnostics diag;
  auto model = build_model(std::move(raw), &diag);
  ASSERT_TRUE(model);
  ASSERT_EQ(diag.size(), 1u);
  EXPECT_EQ(diag.items()[0].location, "/meshes/0/parts/0");
}

TEST(BuildModel, MissingDefaultWeightsBecomeZeros) {
  RawModel raw = valid_model();
  raw.meshes[0].default_weights.clear();
  auto model = build_model(std::move(raw));
  ASSERT_TRUE(model);
  EXPECT_EQ(model->meshes()[0].default_weights, std::vector<float>{0.0f});
}

struct Breaker {
  const char* name;
  void (*breaks)(RawModel&);
  ErrorCode code;
  const char* location;
};

class BuildModelValidity : public ::testing::TestWithParam<Breaker> {};

TEST_P(BuildModelValidity, ReportsTheBrokenRule) {
  RawModel raw = valid_model();
  GetParam().breaks(raw);
  auto model = build_model(std::move(raw));
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code, GetParam().code) << model.error().to_string();
  EXPECT_EQ(model.error().location, GetParam().location) << model.error().to_string();
  EXPECT_EQ(model.error().path, "test.gltf");
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BuildModelValidity,
    ::testing::Values(
        Breaker{"SkeletonCycle", [](RawModel& m) { m.skeleton.joints[1].parent = 0; },
                ErrorCode::kInvalid, "/joints/0 ('child')"},
        Breaker{"NormalsLength",
                [](RawModel& m) { m.meshes[0].parts[0].streams.normals.pop_back(); },
                ErrorCode::kInvalid, "/meshes/0/parts/0"},
        Breaker{"IndexPastVertices", [](RawModel& m) { m.meshes[0].parts[0].indices[4] = 4; },
                ErrorCode::kOutOfRange, "/meshes/0/parts/0"},
        Breaker{"PartialTriangle", [](RawModel& m) { m.meshes[0].parts[0].indices.pop_back(); },
                ErrorCode::kInvalid, "/meshes/0/parts/0"},
        Breaker{"NonIndexedPartialTriangle",
                [](RawModel& m) { m.meshes[1].parts[0].streams.positions.push_back(vec3(0)); },
                ErrorCode::kInvalid, "/meshes/1/parts/0"},
        Breaker{"NoVertices", [](RawModel& m) { m.meshes[1].parts[0].streams.positions.clear(); },
                ErrorCode::kInvalid, "/meshes/1/parts/0"},
        Breaker{"NanPosition",
                [](RawModel& m) {
                  m.meshes[1].parts[0].streams.positions[1].y =
                      std::numeric_limits<float>::quiet_NaN();
                },
                ErrorCode::kInvalid, "/meshes/1/parts/0"},
        Breaker{"SkinJointPastSkin",
                [](RawModel& m) { m.meshes[0].parts[0].streams.joints[0].x = 2; },
                ErrorCode::kOutOfRange, "/meshes/0/parts/0"},
        Breaker{"NegativeWeight",
                [](RawModel& m) { m.meshes[0].parts[0].streams.weights[0].y = -0.5f; },
                ErrorCode::kInvalid, "/meshes/0/parts/0"},
        Breaker{"JointsWithoutWeights",
                [](RawModel& m) { m.meshes[0].parts[0].streams.weights.clear(); },
                ErrorCode::kInvalid, "/meshes/0/parts/0"},
        Breaker{"MaterialOutOfRange", [](RawModel& m) { m.meshes[0].parts[0].material = 1; },
                ErrorCode::kOutOfRange, "/meshes/0/parts/0"},
        Breaker{"MorphDeltaLength",
                [](RawModel& m) { m.meshes[0].parts[0].morphs.targets[0].positions.pop_back(); },
                ErrorCode::kInvalid, "/meshes/0/parts/0/targets/0"},
        Breaker{"MorphCountMismatch", [](RawModel& m) { m.meshes[0].default_weights.push_back(0); },
                ErrorCode::kInvalid, "/meshes/0/parts/0"},
        Breaker{"MeshBoneOutOfRange", [](RawModel& m) { m.meshes[1].bone = 2; },
                ErrorCode::kOutOfRange, "/meshes/1"},
        Breaker{"MeshSkinOutOfRange", [](RawModel& m) { m.meshes[0].skin = 1; },
                ErrorCode::kOutOfRange, "/meshes/0"},
        Breaker{"MeshWithoutParts", [](RawModel& m) { m.meshes[1].parts.clear(); },
                ErrorCode::kInvalid, "/meshes/1"},
        Breaker{"SkinJointOutOfRange", [](RawModel& m) { m.skins[0].joints[1] = 5; },
                ErrorCode::kOutOfRange, "/skins/0/joints/1"},
        Breaker{"SkinWithoutJoints", [](RawModel& m) { m.skins[0].joints.clear(); },
                ErrorCode::kInvalid, "/skins/0"},
        Breaker{"InverseBindCount", [](RawModel& m) { m.skins[0].inverse_bind.assign(1, mat4(1)); },
                ErrorCode::kInvalid, "/skins/0"},
        Breaker{"InverseBindNan",
                [](RawModel& m) {
                  m.skins[0].inverse_bind.assign(2, mat4(1));
                  m.skins[0].inverse_bind[1][3].x = std::numeric_limits<float>::infinity();
                },
                ErrorCode::kInvalid, "/skins/0/inverse_bind/1"},
        Breaker{"TextureImageOutOfRange",
                [](RawModel& m) { m.materials[0].base_color_texture.image = 0; },
                ErrorCode::kOutOfRange, "/materials/0"},
        Breaker{"ImageWithoutData", [](RawModel& m) { m.images.push_back(Image{}); },
                ErrorCode::kInvalid, "/images/0"},
        Breaker{"ClipTrackOutOfRange", [](RawModel& m) { m.clips[0].tracks[0].index = 9; },
                ErrorCode::kOutOfRange, "/clips/0/tracks/0"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(AppendClips, CopiesTheModelAndAppendsClipsInBuiltJointOrder) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model) << model.error().to_string();
  RawClip extra;
  extra.name = "Extra";
  RawTrack rot;
  rot.target = TrackTarget::kRotation;
  rot.index = 0;  // built index: the root (the raw model listed it second)
  rot.components = 4;
  rot.times = {0, 2};
  rot.values = {0, 0, 0, 2, 0, 0, 2, 0};  // normalised to (0,0,0,1) and (0,0,1,0)
  extra.tracks.push_back(rot);
  RawTrack weights;
  weights.target = TrackTarget::kWeights;
  weights.index = 0;  // the quad, one morph target
  weights.components = 1;
  weights.times = {0.5f};
  weights.values = {0.25f};
  extra.tracks.push_back(weights);

  auto out = append_clips(*model, {extra});
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_EQ(out->clips().size(), 2u);
  EXPECT_EQ(out->clips()[0].name(), "Wave");
  EXPECT_EQ(out->clips()[0].tracks()[0].index, 1);
  const Clip& c = out->clips()[1];
  EXPECT_EQ(c.name(), "Extra");
  EXPECT_EQ(out->find_clip("extra"), 1);
  EXPECT_FLOAT_EQ(c.duration(), 2.0f);
  ASSERT_EQ(c.tracks().size(), 2u);
  EXPECT_EQ(c.tracks()[0].index, 0);  // not remapped
  EXPECT_FLOAT_EQ(c.track_values(c.tracks()[0])[3], 1.0f);
  EXPECT_FLOAT_EQ(c.track_values(c.tracks()[0])[6], 1.0f);
  EXPECT_FLOAT_EQ(c.track_values(c.tracks()[1])[0], 0.25f);

  // Everything else is the source's; the source keeps its one clip.
  EXPECT_EQ(model->clips().size(), 1u);
  EXPECT_EQ(out->name(), "test");
  EXPECT_EQ(out->source_path(), "test.gltf");
  ASSERT_EQ(out->skeleton().joint_count(), 2);
  EXPECT_EQ(out->skeleton().names()[1], "child");
  EXPECT_EQ(out->skins()[0].joints, (std::vector<std::int16_t>{0, 1}));
  ASSERT_EQ(out->meshes().size(), 2u);
  EXPECT_EQ(out->meshes()[0].default_weights, (std::vector<float>{0.5f}));
  EXPECT_EQ(out->materials().size(), 1u);
  EXPECT_FLOAT_EQ(out->rest_model_transforms()[1][3].x, 10.0f);
  EXPECT_FLOAT_EQ(out->rest_model_transforms()[1][3].y, 1.0f);
  EXPECT_EQ(out->bounds().min, model->bounds().min);
  EXPECT_EQ(out->bounds().max, model->bounds().max);
}

TEST(AppendClips, NoClipsIsACopy) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model);
  auto out = append_clips(*model, {});
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_EQ(out->clips().size(), 1u);
  EXPECT_EQ(out->clips()[0].name(), "Wave");
  EXPECT_EQ(out->skeleton().joint_count(), 2);
}

TEST(AppendClips, ReportsTheBrokenClipByItsIndexInTheNewModel) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model);
  RawClip bad;
  bad.name = "Bad";
  RawTrack t;
  t.index = 2;  // the skeleton has 2 joints
  t.times = {0};
  t.values = {0, 0, 0};
  bad.tracks.push_back(t);
  auto out = append_clips(*model, {bad});
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, ErrorCode::kOutOfRange);
  EXPECT_EQ(out.error().path, "test.gltf");
  EXPECT_EQ(out.error().location, "/clips/1/tracks/0");

  // A weights track must have one component per morph target of its mesh (the quad has 1).
  RawClip weights;
  weights.name = "W";
  RawTrack w;
  w.target = TrackTarget::kWeights;
  w.index = 0;
  w.components = 2;
  w.times = {0};
  w.values = {0, 0};
  weights.tracks.push_back(w);
  auto out2 = append_clips(*model, {weights});
  ASSERT_FALSE(out2);
  EXPECT_EQ(out2.error().code, ErrorCode::kInvalid);
}

TEST(AppendJoints, AddsJointsAfterTheModelsAndKeepsItsClips) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model) << model.error().to_string();
  // Built order: 0 root, 1 child. A joint under the child, then one under that.
  RawJoint a{"child.extra", 1, {}, -1};
  a.rest.translation = vec3(0, 0, 5);
  const RawJoint b{"child.extra.tip", 2, {}, -1};
  std::vector<Mesh> meshes(model->meshes().begin(), model->meshes().end());
  std::vector<Skin> skins(model->skins().begin(), model->skins().end());
  skins[0].joints.push_back(2);
  skins[0].inverse_bind.push_back(mat4(1.0f));
  meshes[0].parts[0].streams.joints[3] = glm::u16vec4(2, 0, 0, 0);

  auto out = append_joints(*model, {a, b}, meshes, skins);
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_EQ(out->skeleton().joint_count(), 4);
  EXPECT_EQ(out->skeleton().names()[1], "child");
  EXPECT_EQ(out->skeleton().names()[2], "child.extra");
  EXPECT_EQ(out->skeleton().parents()[3], 2);
  EXPECT_EQ(out->skeleton().source_indices()[0], 3);
  EXPECT_EQ(out->skeleton().source_indices()[2], -1);
  EXPECT_FLOAT_EQ(out->rest_model_transforms()[3][3].z, 5.0f);
  EXPECT_EQ(out->skins()[0].joints, (std::vector<std::int16_t>{0, 1, 2}));
  ASSERT_EQ(out->clips().size(), 1u);
  EXPECT_EQ(out->clips()[0].name(), "Wave");
  EXPECT_EQ(out->clips()[0].tracks()[0].index, 1);
  EXPECT_EQ(out->materials().size(), 1u);
  // The bounds are the new skinning's: vertex 3 (0, 2, 0) now rides the identity-bound joint.
  EXPECT_FLOAT_EQ(out->bounds().max.z, 5.0f);
  EXPECT_EQ(model->skeleton().joint_count(), 2);
}

TEST(AppendJoints, KeepsTheCompactClips) {
  auto model = with_compact_clips(*build_model(make_synthetic_character()), 1e-4f);
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_FALSE(model->compact_clips().empty());
  const RawJoint extra{"extra", 0, {}, -1};
  std::vector<Mesh> meshes(model->meshes().begin(), model->meshes().end());
  std::vector<Skin> skins(model->skins().begin(), model->skins().end());
  auto out = append_joints(*model, {extra}, meshes, skins);
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_EQ(out->compact_clips().size(), model->compact_clips().size());
  EXPECT_EQ(out->compact_clips()[0].byte_size(), model->compact_clips()[0].byte_size());
}

TEST(AppendJoints, AJointBeforeItsParentOrABrokenSkinIsAnError) {
  auto model = build_model(valid_model());
  ASSERT_TRUE(model);
  std::vector<Mesh> meshes(model->meshes().begin(), model->meshes().end());
  std::vector<Skin> skins(model->skins().begin(), model->skins().end());
  auto out = append_joints(*model, {RawJoint{"early", 2, {}, -1}}, meshes, skins);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().to_string(),
            "test.gltf:/joints/2: appended joint 'early' comes before its parent");
  skins[0].joints.push_back(7);
  out = append_joints(*model, {RawJoint{"fine", 0, {}, -1}}, meshes, skins);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, ErrorCode::kOutOfRange);
  EXPECT_EQ(out.error().location, "/skins/0/joints/2");
}

TEST(ReplaceMaterials, KeepsTheCompactClips) {
  auto model = with_compact_clips(*build_model(make_synthetic_character()), 1e-4f);
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_FALSE(model->compact_clips().empty());
  const std::vector<Material> materials(model->materials().begin(), model->materials().end());
  auto skinned = replace_materials(*model, materials, {});
  ASSERT_TRUE(skinned) << skinned.error().to_string();
  EXPECT_EQ(skinned->compact_clips().size(), model->compact_clips().size());
  EXPECT_EQ(skinned->compact_clips()[0].byte_size(), model->compact_clips()[0].byte_size());
}

}  // namespace
}  // namespace critter
