// SPDX-License-Identifier: MIT
// Every glTF of the shared model set loads, and its counts match the set's index (INDEX.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "critter/io/gltf/gltf_reader.h"
#include "critter/io/load.h"

namespace critter {
namespace {

namespace fs = std::filesystem;

std::string shared(const std::string& rel) {
  return std::string(CRITTER_SHARED_MODELS) + "/" + rel;
}

Model load_ok(const std::string& rel, Diagnostics* diag = nullptr) {
  auto m = io::load(shared(rel), {}, diag);
  EXPECT_TRUE(m.has_value()) << rel << ": " << (m ? "" : m.error().to_string());
  return m ? std::move(*m) : Model{};
}

std::size_t total_channels(const Clip& c) {
  return c.tracks().size();
}

TEST(SharedModels, EveryGltfAndGlbLoads) {
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(CRITTER_SHARED_MODELS)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    ++count;
    Diagnostics diag;
    auto m = io::load(entry.path().string(), {}, &diag);
    EXPECT_TRUE(m.has_value()) << entry.path() << ": " << (m ? "" : m.error().to_string());
  }
  EXPECT_EQ(count, 14);  // 4 .glb and 10 .gltf (INDEX.md)
}

TEST(SharedModels, RiggedFigure) {
  Model m = load_ok("RiggedFigure/RiggedFigure.glb");
  EXPECT_EQ(m.format(), "glb");
  ASSERT_EQ(m.skins().size(), 1u);
  EXPECT_EQ(m.skins()[0].joints.size(), 19u);
  EXPECT_GE(m.skins()[0].skeleton_root, 0);
  ASSERT_EQ(m.clips().size(), 1u);
  EXPECT_EQ(m.clips()[0].name(), "animation_0");
  EXPECT_EQ(total_channels(m.clips()[0]), 57u);
  EXPECT_NEAR(m.clips()[0].duration(), 1.25f, 0.01f);
}

TEST(SharedModels, SimpleSkin) {
  Model m = load_ok("SimpleSkin/SimpleSkin.gltf");
  EXPECT_EQ(m.format(), "gltf");
  ASSERT_EQ(m.skins().size(), 1u);
  EXPECT_EQ(m.skins()[0].joints.size(), 2u);
  ASSERT_EQ(m.clips().size(), 1u);
  ASSERT_EQ(total_channels(m.clips()[0]), 1u);
  EXPECT_EQ(m.clips()[0].tracks()[0].target, TrackTarget::kRotation);
  EXPECT_NEAR(m.clips()[0].duration(), 5.5f, 0.01f);
}

TEST(SharedModels, Girl) {
  Model m = load_ok("girl/girl.glb");
  ASSERT_EQ(m.skins().size(), 1u);
  EXPECT_EQ(m.skins()[0].joints.size(), 23u);
  ASSERT_EQ(m.clips().size(), 2u);
  EXPECT_EQ(m.clips()[0].name(), "IdleTrack");
  EXPECT_EQ(m.clips()[1].name(), "RunTrack");
  EXPECT_NEAR(m.clips()[0].duration(), 1.67f, 0.01f);
  EXPECT_NEAR(m.clips()[1].duration(), 1.0f, 0.01f);
  for (const Clip& c : m.clips()) EXPECT_EQ(total_channels(c), 69u) << c.name();
  EXPECT_EQ(m.images().size(), 1u);
  EXPECT_FALSE(m.images()[0].bytes.empty());
}

TEST(SharedModels, Greenman) {
  Model m = load_ok("greenman/greenman.glb");
  ASSERT_EQ(m.skins().size(), 1u);
  EXPECT_EQ(m.skins()[0].joints.size(), 12u);
  ASSERT_EQ(m.clips().size(), 4u);
  const char* names[] = {"0_pose", "1_idle", "2_move", "3_attack"};
  const float durations[] = {0.17f, 2.5f, 1.25f, 0.83f};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(m.clips()[i].name(), names[i]);
    EXPECT_NEAR(m.clips()[i].duration(), durations[i], 0.01f) << names[i];
    EXPECT_EQ(total_channels(m.clips()[i]), 36u) << names[i];
  }
}

TEST(SharedModels, Wizard) {
  Model m = load_ok("Wizard/Wizard.glb");
  ASSERT_EQ(m.skins().size(), 1u);
  EXPECT_EQ(m.skins()[0].joints.size(), 32u);
  EXPECT_EQ(m.skeleton().joint_count(), 40);
  ASSERT_EQ(m.clips().size(), 11u);
  const char* names[] = {
      "Death", "Idle",   "Idle_Weapon",  "PickUp", "Punch", "RecieveHit", "RecieveHit_Attacking",
      "Run",   "Spell1", "Staff_Attack", "Walk"};
  for (int i = 0; i < 11; ++i) {
    EXPECT_NE(m.find_clip(names[i]), -1) << names[i];
    EXPECT_EQ(total_channels(m.clips()[i]), 96u) << m.clips()[i].name();
  }
  EXPECT_EQ(m.images().size(), 2u);
}

TEST(SharedModels, OzzCubicSpline) {
  Model m = load_ok("ozz_cubicspline/cubicspline.gltf");
  ASSERT_EQ(m.skins().size(), 1u);
  EXPECT_EQ(m.skins()[0].joints.size(), 4u);
  ASSERT_EQ(m.clips().size(), 1u);
  ASSERT_EQ(total_channels(m.clips()[0]), 2u);
  for (const Track& t : m.clips()[0].tracks()) {
    EXPECT_EQ(t.target, TrackTarget::kRotation);
    EXPECT_EQ(t.interpolation, Interpolation::kCubicSpline);
    EXPECT_EQ(t.stride(), 12u);
  }
  EXPECT_NEAR(m.clips()[0].duration(), 4.17f, 0.01f);
}

TEST(SharedModels, OzzMultipleRoots) {
  Model m = load_ok("ozz_multiple_roots/multiple_roots.gltf");
  ASSERT_EQ(m.skins().size(), 2u);
  EXPECT_EQ(m.skins()[0].joints.size(), 3u);
  EXPECT_EQ(m.skins()[1].joints.size(), 3u);
  ASSERT_EQ(m.meshes().size(), 2u);
  EXPECT_NE(m.meshes()[0].skin, m.meshes()[1].skin);
  ASSERT_EQ(m.clips().size(), 2u);
  EXPECT_EQ(m.clips()[0].name(), "animation1");
  EXPECT_EQ(m.clips()[1].name(), "animation2");
  for (const Clip& c : m.clips()) {
    EXPECT_EQ(total_channels(c), 2u);
    EXPECT_NEAR(c.duration(), 7.5f, 0.01f);
  }
}

TEST(SharedModels, MorphStressTest) {
  Diagnostics diag;
  Model m = load_ok("MorphStressTest/MorphStressTest.gltf", &diag);
  EXPECT_TRUE(diag.empty()) << diag.items()[0].to_string();
  ASSERT_EQ(m.meshes().size(), 1u);
  const Mesh& mesh = m.meshes()[0];
  ASSERT_EQ(mesh.parts.size(), 2u);
  EXPECT_EQ(mesh.morph_target_count(), 8u);
  for (const MeshPart& p : mesh.parts) {
    EXPECT_EQ(p.morphs.target_count(), 8u);
    EXPECT_FALSE(p.streams.uv1.empty());
  }
  ASSERT_EQ(m.clips().size(), 3u);
  const char* names[] = {"Individuals", "TheWave", "Pulse"};
  const float durations[] = {9.37f, 1.97f, 6.37f};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.clips()[i].name(), names[i]);
    EXPECT_NEAR(m.clips()[i].duration(), durations[i], 0.01f);
    ASSERT_EQ(m.clips()[i].tracks().size(), 1u);
    EXPECT_EQ(m.clips()[i].tracks()[0].target, TrackTarget::kWeights);
    EXPECT_EQ(m.clips()[i].tracks()[0].components, 8u);
  }
  ASSERT_EQ(m.images().size(), 3u);
  for (const Image& img : m.images()) {
    EXPECT_FALSE(img.missing) << img.uri;
    EXPECT_TRUE(fs::exists(img.resolved_path)) << img.resolved_path;
  }
  ASSERT_EQ(m.materials().size(), 2u);
  EXPECT_TRUE(m.materials()[0].double_sided);
  EXPECT_EQ(m.materials()[0].base_color_texture.image, 1);
  EXPECT_FLOAT_EQ(m.materials()[0].roughness_factor, 0.4f);
}

TEST(SharedModels, AnimatedMorphSphere) {
  Model m = load_ok("AnimatedMorphSphere/AnimatedMorphSphere.gltf");
  ASSERT_EQ(m.meshes().size(), 1u);
  EXPECT_EQ(m.meshes()[0].morph_target_count(), 2u);
  const MorphTarget& t = m.meshes()[0].parts[0].morphs.targets[0];
  EXPECT_FALSE(t.positions.empty());
  EXPECT_FALSE(t.normals.empty());
  EXPECT_FALSE(t.tangents.empty());
  ASSERT_EQ(m.clips().size(), 1u);
  EXPECT_EQ(m.clips()[0].name(), "Globe");
  EXPECT_NEAR(m.clips()[0].duration(), 7.2f, 0.01f);
}

TEST(SharedModels, MorphPrimitivesTest) {
  Diagnostics diag;
  Model m = load_ok("MorphPrimitivesTest/MorphPrimitivesTest.gltf", &diag);
  EXPECT_TRUE(diag.empty()) << diag.items()[0].to_string();
  ASSERT_EQ(m.meshes().size(), 1u);
  const Mesh& mesh = m.meshes()[0];
  ASSERT_EQ(mesh.parts.size(), 2u);
  for (const MeshPart& p : mesh.parts) EXPECT_EQ(p.morphs.target_count(), 1u);
  ASSERT_EQ(mesh.default_weights.size(), 1u);
  EXPECT_FLOAT_EQ(mesh.default_weights[0], 0.5f);
  EXPECT_TRUE(m.clips().empty());
  ASSERT_EQ(m.images().size(), 1u);
  EXPECT_FALSE(m.images()[0].missing);
  // The mesh hangs from node 1 ("mesh"), a child of node 0.
  EXPECT_EQ(m.skeleton().names()[static_cast<std::size_t>(mesh.bone)], "mesh");
}

TEST(SharedModels, AnimatedTriangle) {
  Model m = load_ok("AnimatedTriangle/AnimatedTriangle.gltf");
  ASSERT_EQ(m.clips().size(), 1u);
  EXPECT_NEAR(m.clips()[0].duration(), 1.0f, 0.01f);
  ASSERT_EQ(m.meshes().size(), 1u);
  EXPECT_EQ(m.meshes()[0].parts[0].vertex_count(), 3u);
}

TEST(SharedModels, AssimpInterpolation) {
  const std::pair<const char*, Interpolation> files[] = {
      {"animation_interpolation_step.gltf", Interpolation::kStep},
      {"animation_interpolation_linear.gltf", Interpolation::kLinear},
      {"animation_interpolation_cubic.gltf", Interpolation::kCubicSpline},
  };
  for (const auto& [file, interp] : files) {
    Model m = load_ok(std::string("assimp_interpolation_synthetic/") + file);
    EXPECT_EQ(m.skeleton().joint_count(), 1) << file;
    EXPECT_EQ(m.skeleton().names()[0], "Mover");
    ASSERT_EQ(m.clips().size(), 1u) << file;
    ASSERT_EQ(m.clips()[0].tracks().size(), 1u);
    EXPECT_EQ(m.clips()[0].tracks()[0].interpolation, interp) << file;
    EXPECT_EQ(m.clips()[0].tracks()[0].target, TrackTarget::kTranslation);
    EXPECT_NEAR(m.clips()[0].duration(), 1.0f, 0.01f);
  }
}

TEST(SharedModels, ObjGoesToTheAssimpImporter) {
  auto m = io::load(shared("minetest_boat_obj/boats_boat.obj"));
  ASSERT_TRUE(m.has_value()) << m.error().to_string();
  EXPECT_EQ(m->format(), "obj");
}

}  // namespace
}  // namespace critter
