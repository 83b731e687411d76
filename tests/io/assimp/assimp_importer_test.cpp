// SPDX-License-Identifier: MIT
// Assimp import: the shared Collada, B3D and OBJ models and Minetest's character.b3d load with
// the counts their files declare, warn about their quirks, cut named frame ranges, and - the main
// contract - pose exactly like Assimp's own scene: the reference below is computed straight from
// Assimp's aiScene (keys interpolated here, node transforms composed up the hierarchy) and
// compared with critter's SamplingJob plus a local-to-model pass.
#include "critter/io/assimp/assimp_importer.h"

#include <gtest/gtest.h>

#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/io/load.h"
#include "support/files.h"
#include "support/gltf_validation.h"

namespace critter {
namespace {

namespace fs = std::filesystem;
using testing::read_bytes;
using testing::ScratchDir;
using testing::write_file;

const std::string kModels = CRITTER_SHARED_MODELS;
const std::string kCollada =
    kModels + "/library_animation_clips_collada/library_animation_clips.dae";
const std::string kCart = kModels + "/minetest_cart_b3d/carts_cart.b3d";
const std::string kBoat = kModels + "/minetest_boat_obj/boats_boat.obj";
// Debian's minetest-data (DESIGN.md: where to find real models).
const std::string kCharacter =
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d";

bool has_warning(const Diagnostics& diag, const std::string& needle) {
  for (const Warning& w : diag.items()) {
    if (w.to_string().find(needle) != std::string::npos) return true;
  }
  return false;
}

std::string all_warnings(const Diagnostics& diag) {
  std::string out;
  for (const Warning& w : diag.items()) out += w.to_string() + "\n";
  return out;
}

// ------------------------------------------------------------------------------------------------
// Reference: Assimp's scene, animated by hand.

struct Reference {
  Assimp::Importer importer;
  const aiScene* scene = nullptr;
};

// Assimp 5.2's Collada parser cannot read numbers after blanks ("<color>  0.0 ..."), so the
// reference gets the same text with those blanks removed; everything else is Assimp as is.
void load_reference(const std::string& path, Reference& ref) {
  if (fs::path(path).extension() == ".dae") {
    const auto bytes = read_bytes(path);
    const std::string text(bytes.begin(), bytes.end());
    const std::string fixed = std::regex_replace(text, std::regex(">[ \t\r\n]+([^<\\s])"), ">$1");
    ref.scene = ref.importer.ReadFileFromMemory(fixed.data(), fixed.size(), 0, "dae");
  } else {
    ref.scene = ref.importer.ReadFile(path, 0);
  }
  ASSERT_NE(ref.scene, nullptr) << ref.importer.GetErrorString();
}

template <class Key>
std::pair<std::size_t, double> bracket(const Key* keys, unsigned n, double tick) {
  if (tick <= keys[0].mTime) return {0, 0.0};
  for (unsigned k = 0; k + 1 < n; ++k) {
    if (tick < keys[k + 1].mTime) {
      return {k, (tick - keys[k].mTime) / (keys[k + 1].mTime - keys[k].mTime)};
    }
  }
  return {n - 1, 0.0};
}

aiVector3D lerp_keys(const aiVectorKey* keys, unsigned n, double tick) {
  const auto [k, f] = bracket(keys, n, tick);
  if (f == 0.0) return keys[k].mValue;
  const aiVector3D a = keys[k].mValue, b = keys[k + 1].mValue;
  return a + (b - a) * static_cast<ai_real>(f);
}

aiQuaternion slerp_keys(const aiQuatKey* keys, unsigned n, double tick) {
  const auto [k, f] = bracket(keys, n, tick);
  if (f == 0.0) return keys[k].mValue;
  aiQuaternion out;
  aiQuaternion::Interpolate(out, keys[k].mValue, keys[k + 1].mValue, static_cast<ai_real>(f));
  return out.Normalize();
}

// Local transform of a node at `tick`: its channel's keys, components without keys taken from
// the node's own transformation.
aiMatrix4x4 local_at(const aiNode* node, const aiAnimation* anim, double tick) {
  const aiNodeAnim* ch = nullptr;
  for (unsigned c = 0; anim && c < anim->mNumChannels; ++c) {
    if (anim->mChannels[c]->mNodeName == node->mName) ch = anim->mChannels[c];
  }
  if (!ch) return node->mTransformation;
  aiVector3D t, s;
  aiQuaternion r;
  node->mTransformation.Decompose(s, r, t);
  if (ch->mNumPositionKeys) t = lerp_keys(ch->mPositionKeys, ch->mNumPositionKeys, tick);
  if (ch->mNumRotationKeys) r = slerp_keys(ch->mRotationKeys, ch->mNumRotationKeys, tick);
  if (ch->mNumScalingKeys) s = lerp_keys(ch->mScalingKeys, ch->mNumScalingKeys, tick);
  return aiMatrix4x4(s, r, t);
}

// World (model-space) matrix of every node, by name, at `tick`.
std::map<std::string, aiMatrix4x4> reference_world(const aiScene* scene, const aiAnimation* anim,
                                                   double tick) {
  std::map<std::string, aiMatrix4x4> out;
  std::function<void(const aiNode*, const aiMatrix4x4&)> visit = [&](const aiNode* node,
                                                                     const aiMatrix4x4& parent) {
    const aiMatrix4x4 world = parent * local_at(node, anim, tick);
    out.emplace(node->mName.C_Str(), world);
    for (unsigned c = 0; c < node->mNumChildren; ++c) visit(node->mChildren[c], world);
  };
  visit(scene->mRootNode, aiMatrix4x4());
  return out;
}

// critter's model-space joint matrices for clip `clip` at `seconds` (rest pose for clip -1).
std::vector<mat4> critter_world(const Model& model, int clip, float seconds) {
  const anim::MorphLayout layout = anim::MorphLayout::of(model);
  anim::Pose pose = anim::Pose::rest(model, layout);
  if (clip >= 0) {
    anim::SamplingContext ctx;
    anim::SamplingJob job;
    job.clip = &model.clips()[static_cast<std::size_t>(clip)];
    job.time = seconds;
    job.context = &ctx;
    job.rest = model.skeleton().rest_pose();
    job.default_weights = layout.defaults;
    job.weight_offsets = layout.offsets;
    job.output = pose.locals;
    job.output_weights = pose.weights;
    const Status st = job.run();
    EXPECT_TRUE(st) << st.error().to_string();
  }
  const auto parents = model.skeleton().parents();
  std::vector<mat4> world(parents.size());
  for (std::size_t j = 0; j < parents.size(); ++j) {
    const mat4 local = pose.locals[j].to_matrix();
    world[j] = parents[j] < 0 ? local : world[static_cast<std::size_t>(parents[j])] * local;
  }
  return world;
}

// Compares every joint's model-space matrix with Assimp's node at the same moment. critter time
// t is Assimp tick t * ticks_per_second + tick_shift (the B3D one-based frame shift).
void expect_poses_like_assimp(const Model& model, const aiScene* scene, int clip, int animation,
                              const std::vector<float>& seconds, double tick_shift) {
  const aiAnimation* anim = animation >= 0 ? scene->mAnimations[animation] : nullptr;
  const double tps = anim && anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : 25.0;
  const auto names = model.skeleton().names();
  const std::vector<mat4> rest = critter_world(model, -1, 0.0f);
  bool moved = false;
  for (float t : seconds) {
    const std::vector<mat4> got = critter_world(model, clip, t);
    for (std::size_t j = 0; j < got.size(); ++j) {
      for (int c = 0; c < 4; ++c) moved |= glm::length(got[j][c] - rest[j][c]) > 1e-3f;
    }
    const auto want = reference_world(scene, anim, t * tps + tick_shift);
    ASSERT_EQ(want.size(), got.size());
    for (std::size_t j = 0; j < got.size(); ++j) {
      const auto it = want.find(names[j]);
      ASSERT_NE(it, want.end()) << names[j];
      const aiMatrix4x4& w = it->second;
      // aiMatrix4x4 is row-major: w[row][col]; glm is got[col][row].
      for (int row = 0; row < 4; ++row) {
        for (int col = 0; col < 4; ++col) {
          const float expect = static_cast<float>(w[row][col]);
          EXPECT_NEAR(got[j][col][row], expect, 1e-4f * std::max(1.0f, std::abs(expect)))
              << "joint " << names[j] << " row " << row << " col " << col << " at t=" << t;
        }
      }
    }
  }
  // The comparison means something only if the clip moves the skeleton away from its rest pose.
  if (clip >= 0) {
    EXPECT_TRUE(moved) << "clip " << clip << " never leaves the rest pose";
  }
}

// ------------------------------------------------------------------------------------------------
// Collada

TEST(AssimpImporter, ColladaLoadsWithBothNamedClipsAndYUp) {
  Diagnostics diag;
  const auto model = io::import_assimp(kCollada, {}, &diag);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(model->format(), "collada");
  EXPECT_EQ(model->name(), "library_animation_clips");
  // <visual_scene> (Assimp's root) + Armature + 5 bone nodes + Cube.
  EXPECT_EQ(model->skeleton().joint_count(), 8);
  EXPECT_GE(model->find_bone("Armature"), 0);
  EXPECT_GE(model->find_bone("Cube"), 0);
  ASSERT_EQ(model->meshes().size(), 1u);
  ASSERT_EQ(model->skins().size(), 1u);
  // The skin names 5 joints; Assimp keeps the 4 that weight vertices.
  EXPECT_EQ(model->skins()[0].joints.size(), 4u);
  // 52 faces in the file's <polylist> (vcount), all triangles after triangulation.
  EXPECT_EQ(model->meshes()[0].parts[0].element_count(), 52u * 3u);
  // Two <animation_clip>s: "bend" with keys 0 .. 14/24 s, "turn" with keys 0 .. 20/24 s.
  ASSERT_EQ(model->clips().size(), 2u);
  EXPECT_EQ(model->clips()[0].name(), "bend");
  EXPECT_EQ(model->clips()[1].name(), "turn");
  EXPECT_NEAR(model->clips()[0].duration(), 14.0f / 24.0f, 1e-5f);
  EXPECT_NEAR(model->clips()[1].duration(), 20.0f / 24.0f, 1e-5f);
  EXPECT_EQ(model->find_clip("turn"), 1);
  // Z_UP: the root joint carries the rotation to +Y up, -90 degrees about X.
  const int root = 0;
  ASSERT_EQ(model->skeleton().parents()[root], -1);
  const quat r = model->skeleton().rest_pose()[root].rotation;
  const float h = std::sqrt(0.5f);
  EXPECT_NEAR(std::abs(glm::dot(r, quat_xyzw(-h, 0, 0, h))), 1.0f, 1e-6f);
  // The blanks fix is silent; nothing else in this file is a quirk.
  EXPECT_TRUE(diag.empty()) << all_warnings(diag);
  // Material: the Blinn diffuse colour 0.64.
  ASSERT_EQ(model->materials().size(), 1u);
  EXPECT_NEAR(model->materials()[0].base_color_factor.x, 0.64f, 1e-6f);
  EXPECT_EQ(model->materials()[0].metallic_factor, 0.0f);
}

TEST(AssimpImporter, ColladaRestPoseIsUprightAndInMetres) {
  const auto model = io::import_assimp(kCollada);
  ASSERT_TRUE(model) << model.error().to_string();
  // The cube's bones stand 2 units apart along the file's +Z (Z_UP), now +Y; the mesh spans
  // z in [-1, 7] in the file, so y in [-1, 7] here (unit meter = 1).
  const Aabb& b = model->bounds();
  EXPECT_NEAR(b.min.y, -1.0f, 1e-4f);
  EXPECT_NEAR(b.max.y, 7.0f, 1e-4f);
}

TEST(AssimpImporter, ColladaPosesLikeAssimp) {
  Reference ref;
  load_reference(kCollada, ref);
  ASSERT_EQ(ref.scene->mNumAnimations, 2u);
  const auto model = io::import_assimp(kCollada);
  ASSERT_TRUE(model) << model.error().to_string();
  expect_poses_like_assimp(*model, ref.scene, -1, -1, {0.0f}, 0.0);
  expect_poses_like_assimp(*model, ref.scene, 0, 0, {0.0f, 0.1f, 0.2917f, 0.45f, 0.5833f}, 0.0);
  expect_poses_like_assimp(*model, ref.scene, 1, 1, {0.0f, 0.13f, 0.4f, 0.61f, 0.8333f}, 0.0);
}

// ------------------------------------------------------------------------------------------------
// Blitz3D

TEST(AssimpImporter, CartB3dLoads) {
  Diagnostics diag;
  const auto model = io::import_assimp(kCart, {}, &diag);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(model->format(), "b3d");
  // NODE "Cube" holding the mesh, with child NODE "Body" (the one BONE).
  EXPECT_EQ(model->skeleton().joint_count(), 2);
  EXPECT_GE(model->find_bone("Body"), 0);
  ASSERT_EQ(model->meshes().size(), 1u);
  // TRIS: 28 triangles.
  EXPECT_EQ(model->meshes()[0].parts[0].element_count(), 28u * 3u);
  ASSERT_EQ(model->skins().size(), 1u);
  EXPECT_EQ(model->skins()[0].joints.size(), 1u);
  // ANIM: 3 frames at 60 fps; KEYS at frames 1..4 (one-based) -> 0 .. 3/60 s.
  ASSERT_EQ(model->clips().size(), 1u);
  EXPECT_EQ(model->clips()[0].name(), "animation_0");
  EXPECT_NEAR(model->clips()[0].duration(), 3.0f / 60.0f, 1e-6f);
  // TEXS "carts_cart.png", present beside the model.
  ASSERT_EQ(model->images().size(), 1u);
  EXPECT_FALSE(model->images()[0].missing);
  EXPECT_EQ(model->images()[0].uri, "carts_cart.png");
  EXPECT_EQ(fs::path(model->images()[0].resolved_path).filename(), "carts_cart.png");
  ASSERT_EQ(model->materials().size(), 1u);
  EXPECT_EQ(model->materials()[0].base_color_texture.image, 0);
  // Key 4 lies past the 3 declared frames: usable, so a warning.
  EXPECT_TRUE(has_warning(diag, "past the animation's declared duration")) << all_warnings(diag);
}

TEST(AssimpImporter, CartB3dPosesLikeAssimp) {
  Reference ref;
  load_reference(kCart, ref);
  const auto model = io::import_assimp(kCart);
  ASSERT_TRUE(model) << model.error().to_string();
  // critter frame 0 = B3D frame 1.
  expect_poses_like_assimp(*model, ref.scene, 0, 0, {0.0f, 0.01f, 1.5f / 60, 0.04f, 0.05f}, 1.0);
}

TEST(AssimpImporter, CharacterB3dLoadsDespiteTheKeyPastItsDuration) {
  Diagnostics diag;
  const auto model = io::import_assimp(kCharacter, {}, &diag);
  ASSERT_TRUE(model) << model.error().to_string();
  // Player > Body > Head, Arm_Left, Arm_Right, Leg_Right, Leg_Left.
  EXPECT_EQ(model->skeleton().joint_count(), 7);
  for (const char* name :
       {"Player", "Body", "Head", "Arm_Left", "Arm_Right", "Leg_Right", "Leg_Left"}) {
    EXPECT_GE(model->find_bone(name), 0) << name;
  }
  ASSERT_EQ(model->meshes().size(), 1u);
  // Six boxes of 12 triangles, the head with a second (hat) box: 84 triangles.
  EXPECT_EQ(model->meshes()[0].parts[0].element_count(), 84u * 3u);
  ASSERT_EQ(model->skins().size(), 1u);
  EXPECT_EQ(model->skins()[0].joints.size(), 6u);
  // ANIM: 220 frames at 60 fps; keys on frames 1..221 -> 0 .. 220/60 s.
  ASSERT_EQ(model->clips().size(), 1u);
  EXPECT_NEAR(model->clips()[0].duration(), 220.0f / 60.0f, 1e-5f);
  EXPECT_TRUE(has_warning(diag,
                          "a key at tick 221 lies past the animation's declared duration "
                          "of 220 ticks"))
      << all_warnings(diag);
}

TEST(AssimpImporter, CharacterB3dPosesLikeAssimp) {
  Reference ref;
  load_reference(kCharacter, ref);
  const auto model = io::import_assimp(kCharacter);
  ASSERT_TRUE(model) << model.error().to_string();
  expect_poses_like_assimp(*model, ref.scene, -1, -1, {0.0f}, 0.0);
  expect_poses_like_assimp(*model, ref.scene, 0, 0,
                           {0.0f, 0.5f, 1.0f, 2.0f, 2.81f, 2.8f + 0.5f / 60, 3.3f, 220.0f / 60},
                           1.0);
}

// Shared vertices draw exactly the triangles Assimp gives, corner by corner.
TEST(AssimpImporter, JoinedVerticesDrawAssimpsTriangles) {
  for (const std::string& path : {kCharacter, kCart, kBoat}) {
    Reference ref;
    load_reference(path, ref);
    ASSERT_EQ(ref.scene->mNumMeshes, 1u);
    const aiMesh& src = *ref.scene->mMeshes[0];
    const auto raw = io::import_assimp_raw(path);
    ASSERT_TRUE(raw) << raw.error().to_string();
    ASSERT_EQ(raw->meshes.size(), 1u);
    const MeshPart& part = raw->meshes[0].parts[0];
    const VertexStreams& s = part.streams;
    ASSERT_EQ(part.indices.size(), std::size_t{src.mNumFaces} * 3) << path;
    EXPECT_LT(s.vertex_count(), src.mNumVertices) << path;
    for (unsigned f = 0; f < src.mNumFaces; ++f) {
      ASSERT_EQ(src.mFaces[f].mNumIndices, 3u);
      for (unsigned k = 0; k < 3; ++k) {
        const unsigned a = src.mFaces[f].mIndices[k];
        const std::uint32_t v = part.indices[std::size_t{f} * 3 + k];
        ASSERT_LT(v, s.vertex_count());
        const aiVector3D& p = src.mVertices[a];
        EXPECT_EQ(s.positions[v], vec3(p.x, p.y, p.z)) << path << " face " << f;
        if (src.mNormals) {
          const aiVector3D& n = src.mNormals[a];
          EXPECT_EQ(s.normals[v], vec3(n.x, n.y, n.z)) << path << " face " << f;
        }
        if (src.mTextureCoords[0]) {
          const aiVector3D& uv = src.mTextureCoords[0][a];
          EXPECT_EQ(s.uv0[v], vec2(uv.x, 1.0f - uv.y)) << path << " face " << f;
        }
      }
    }
  }
}

TEST(AssimpImporter, CharacterB3dWithoutZeroBasedFramesKeepsFileFrames) {
  io::ImportOptions options;
  options.b3d_zero_based_frames = false;
  const auto model = io::import_assimp(kCharacter, options);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_NEAR(model->clips()[0].duration(), 221.0f / 60.0f, 1e-5f);
  Reference ref;
  load_reference(kCharacter, ref);
  expect_poses_like_assimp(*model, ref.scene, 0, 0, {0.0f, 1.0f / 60, 2.0f, 3.3f}, 0.0);
}

TEST(AssimpImporter, CharacterB3dSplitsIntoMinetestRanges) {
  io::ImportOptions options;
  const auto ranges = io::parse_clip_ranges(
      "stand:0-79,lay:162-166,walk:168-187,mine:189-198,"
      "walk_mine:200-219,sit:81-160");
  ASSERT_TRUE(ranges) << ranges.error().to_string();
  options.clips = *ranges;
  const auto model = io::import_assimp(kCharacter, options);
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_EQ(model->clips().size(), 6u);
  const std::pair<const char*, float> expected[] = {{"stand", 79}, {"lay", 4},        {"walk", 19},
                                                    {"mine", 9},   {"walk_mine", 19}, {"sit", 79}};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(model->clips()[i].name(), expected[i].first);
    EXPECT_NEAR(model->clips()[i].duration(), expected[i].second / 60.0f, 1e-5f);
  }
  // walk: every frame is keyed, so each track has keys at 0, 1/60, ..., 19/60.
  const Clip& walk = model->clips()[2];
  for (const Track& t : walk.tracks()) {
    const auto times = walk.track_times(t);
    ASSERT_EQ(times.size(), 20u);
    for (std::size_t k = 0; k < times.size(); ++k) {
      EXPECT_NEAR(times[k], static_cast<float>(k) / 60.0f, 1e-5f);
    }
  }
  // And it poses like Assimp's scene on file frames 169..188.
  Reference ref;
  load_reference(kCharacter, ref);
  expect_poses_like_assimp(*model, ref.scene, 2, 0, {0.0f, 0.05f, 0.1f, 0.25f, 19.0f / 60},
                           1.0 + 168.0);
}

TEST(AssimpImporter, LoadPassesClipRangesThrough) {
  io::LoadOptions options;
  options.clips = {{"walk", 168, 187}};
  const auto model = io::load(kCharacter, options);
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_EQ(model->clips().size(), 1u);
  EXPECT_EQ(model->clips()[0].name(), "walk");
  EXPECT_NEAR(model->clips()[0].duration(), 19.0f / 60.0f, 1e-5f);
}

// Minetest plays character.b3d's ranges at 30 fps (the file declares 60): the same frames last
// twice as long.
TEST(AssimpImporter, ClipRangesCountAtTheGivenRate) {
  io::LoadOptions options;
  options.clips = {{"walk", 168, 187}};
  options.clips_fps = 30.0;
  const auto model = io::load(kCharacter, options);
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_EQ(model->clips().size(), 1u);
  EXPECT_NEAR(model->clips()[0].duration(), 19.0f / 30.0f, 1e-5f);
  // Same frames (every one keyed), played at 30 fps: keys at 0, 1/30, ..., 19/30.
  const Clip& walk = model->clips()[0];
  for (const Track& t : walk.tracks()) {
    const auto times = walk.track_times(t);
    ASSERT_EQ(times.size(), 20u);
    for (std::size_t k = 0; k < times.size(); ++k) {
      EXPECT_NEAR(times[k], static_cast<float>(k) / 30.0f, 1e-5f);
    }
  }
  options.clips_fps = -1.0;
  const auto bad = io::load(kCharacter, options);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kUsage);
}

TEST(AssimpImporter, ClipRangesOnAFileWithoutAnimationAreAUsageError) {
  io::ImportOptions options;
  options.clips = {{"walk", 1, 2}};
  const auto model = io::import_assimp(kBoat, options);
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code, ErrorCode::kUsage);
}

// ------------------------------------------------------------------------------------------------
// OBJ

// Triangles an OBJ's faces make: a face of n corners is n - 2 triangles.
std::size_t obj_triangles(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::size_t tris = 0;
  while (std::getline(in, line)) {
    if (line.rfind("f ", 0) != 0) continue;
    std::size_t corners = 0;
    bool in_token = false;
    for (char c : line.substr(2)) {
      const bool blank = c == ' ' || c == '\t' || c == '\r';
      if (!blank && !in_token) ++corners;
      in_token = !blank;
    }
    tris += corners - 2;
  }
  return tris;
}

TEST(AssimpImporter, BoatObjLoadsAndWarnsAboutItsMissingMaterialLibrary) {
  Diagnostics diag;
  const auto model = io::import_assimp(kBoat, {}, &diag);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(model->format(), "obj");
  EXPECT_TRUE(has_warning(diag, "mtllib 'boat.mtl': warning: material library not found"))
      << all_warnings(diag);
  EXPECT_EQ(diag.size(), 1u) << all_warnings(diag);
  ASSERT_EQ(model->meshes().size(), 1u);
  EXPECT_EQ(model->meshes()[0].skin, -1);
  EXPECT_TRUE(model->skins().empty());
  EXPECT_TRUE(model->clips().empty());
  const std::size_t tris = obj_triangles(kBoat);
  EXPECT_EQ(tris, 156u);
  EXPECT_EQ(model->meshes()[0].parts[0].element_count(), tris * 3);
  // 80 positions in the file; vertices split where faces give a corner another UV or normal.
  EXPECT_GE(model->meshes()[0].parts[0].vertex_count(), 80u);
  EXPECT_LE(model->meshes()[0].parts[0].vertex_count(), tris * 3);
}

TEST(AssimpImporter, LoadDispatchesAssimpExtensions) {
  EXPECT_TRUE(io::is_assimp_extension("a/b/model.DAE"));
  EXPECT_TRUE(io::is_assimp_extension("x.b3d"));
  EXPECT_TRUE(io::is_assimp_extension("x.obj"));
  EXPECT_FALSE(io::is_assimp_extension("x.gltf"));
  EXPECT_FALSE(io::is_assimp_extension("x.glb"));
  EXPECT_FALSE(io::is_assimp_extension("x"));
  const auto model = io::load(kCart);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(model->format(), "b3d");
}

// ------------------------------------------------------------------------------------------------
// Skin weights, textures, morph targets

// A Valve SMD triangle whose first corner has six influences (weights sum to 1).
constexpr const char* kSixInfluences = R"(version 1
nodes
0 "root" -1
1 "b1" 0
2 "b2" 0
3 "b3" 0
4 "b4" 0
5 "b5" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 0
2 2 0 0 0 0 0
3 3 0 0 0 0 0
4 4 0 0 0 0 0
5 5 0 0 0 0 0
end
triangles
skin.png
0 0 0 0 0 0 1 0 0 6 0 0.04 1 0.08 2 0.12 3 0.16 4 0.28 5 0.32
0 1 0 0 0 0 1 1 0 1 1 1.0
0 0 1 0 0 0 1 0 1 1 2 1.0
end
)";

TEST(AssimpImporter, KeepsTheFourLargestInfluencesRenormalisedAndWarnsOnce) {
  const ScratchDir scratch("assimp_weights");
  const fs::path& dir = scratch.path();
  const fs::path file = dir / "six.smd";
  write_file(file, std::string_view(kSixInfluences));
  Diagnostics diag;
  const auto raw = io::import_assimp_raw(file.string(), {}, &diag);
  ASSERT_TRUE(raw) << raw.error().to_string();
  ASSERT_EQ(raw->meshes.size(), 1u);
  ASSERT_EQ(raw->skins.size(), 1u);
  const Skin& skin = raw->skins[0];
  const VertexStreams& s = raw->meshes[0].parts[0].streams;
  ASSERT_EQ(s.positions.size(), 3u);
  // Find the corner at the origin.
  std::size_t v0 = 3;
  for (std::size_t v = 0; v < 3; ++v) {
    if (s.positions[v] == vec3(0.0f)) v0 = v;
  }
  ASSERT_LT(v0, 3u);
  // Kept: 0.32 (b5), 0.28 (b4), 0.16 (b3), 0.12 (b2); sum 0.88.
  const float want[4] = {0.32f / 0.88f, 0.28f / 0.88f, 0.16f / 0.88f, 0.12f / 0.88f};
  const char* bones[4] = {"b5", "b4", "b3", "b2"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(s.weights[v0][k], want[k], 1e-6f) << k;
    const auto joint = skin.joints[s.joints[v0][k]];
    EXPECT_EQ(raw->skeleton.joints[static_cast<std::size_t>(joint)].name, bones[k]) << k;
  }
  int warned = 0;
  for (const Warning& w : diag.items()) {
    if (w.message.find("more than 4 skin influences") != std::string::npos) ++warned;
  }
  EXPECT_EQ(warned, 1) << all_warnings(diag);
  EXPECT_TRUE(has_warning(diag, "1 vertices have more than 4 skin influences"));
  // The triangle's material names "skin.png", which does not exist: a warning, image missing.
  ASSERT_EQ(raw->images.size(), 1u);
  EXPECT_TRUE(raw->images[0].missing);
  EXPECT_TRUE(has_warning(diag, "texture 'skin.png' not found")) << all_warnings(diag);
  // And it builds.
  EXPECT_TRUE(build_model(*raw));
}

TEST(AssimpImporter, MissingTextureIsAWarningAndMarksTheImage) {
  const ScratchDir scratch("assimp_missing_texture");
  const fs::path& dir = scratch.path();
  const fs::path file = dir / "carts_cart.b3d";
  fs::copy_file(kCart, file);  // without carts_cart.png beside it
  Diagnostics diag;
  const auto model = io::import_assimp(file.string(), {}, &diag);
  ASSERT_TRUE(model) << model.error().to_string();
  ASSERT_EQ(model->images().size(), 1u);
  EXPECT_TRUE(model->images()[0].missing);
  EXPECT_TRUE(has_warning(diag, "texture 'carts_cart.png' not found; image 0 marked missing"))
      << all_warnings(diag);
}

TEST(AssimpImporter, MorphTargetsAndWeightTracksComeThrough) {
  // Any format Assimp reads lands in the same path; glTF through Assimp carries morph targets.
  const std::string path = kModels + "/AnimatedMorphSphere/AnimatedMorphSphere.gltf";
  const auto model = io::import_assimp(path);
  ASSERT_TRUE(model) << model.error().to_string();
  std::size_t morphing = 0;
  for (const Mesh& m : model->meshes()) {
    if (m.morph_target_count() == 0) continue;
    ++morphing;
    EXPECT_EQ(m.morph_target_count(), 2u);  // "blob" and "ship"
    EXPECT_FALSE(m.parts[0].morphs.targets[0].positions.empty());
  }
  EXPECT_EQ(morphing, 1u);
  ASSERT_EQ(model->clips().size(), 1u);
  bool weights = false;
  for (const Track& t : model->clips()[0].tracks()) {
    if (t.target == TrackTarget::kWeights) {
      weights = true;
      EXPECT_EQ(t.components, 2u);
    }
  }
  EXPECT_TRUE(weights);
}

TEST(AssimpImporter, FilesOutsideTheModelFolderNeedPermission) {
  const ScratchDir scratch("assimp_outside");
  const fs::path& dir = scratch.path();
  fs::create_directories(dir / "inner");
  const std::string obj = "mtllib ../outside.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n";
  const std::string mtl = "newmtl red\nKd 1 0 0\n";
  write_file(dir / "inner" / "m.obj", obj);
  write_file(dir / "outside.mtl", mtl);
  const std::string path = (dir / "inner" / "m.obj").string();

  Diagnostics refused;
  const auto a = io::import_assimp_raw(path, {}, &refused);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_TRUE(has_warning(refused, "refused to open a file outside the model's folder"))
      << all_warnings(refused);
  for (const Material& m : a->materials) EXPECT_NE(m.base_color_factor, vec4(1, 0, 0, 1));

  io::ImportOptions options;
  options.allow_outside_uris = true;
  Diagnostics allowed;
  const auto b = io::import_assimp_raw(path, options, &allowed);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_TRUE(allowed.empty()) << all_warnings(allowed);
  ASSERT_EQ(b->meshes.size(), 1u);
  const std::int32_t mat = b->meshes[0].parts[0].material;
  ASSERT_GE(mat, 0);
  EXPECT_EQ(b->materials[static_cast<std::size_t>(mat)].name, "red");
  EXPECT_EQ(b->materials[static_cast<std::size_t>(mat)].base_color_factor, vec4(1, 0, 0, 1));
}

// ------------------------------------------------------------------------------------------------
// Errors

TEST(AssimpImporter, MissingFileIsAnIoError) {
  const auto r = io::import_assimp(kModels + "/nowhere/none.b3d");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(r.error().path, kModels + "/nowhere/none.b3d");
}

TEST(AssimpImporter, FileOverTheLimitIsRefusedBeforeReading) {
  io::ImportOptions options;
  options.max_file_bytes = 100;
  const auto r = io::import_assimp(kCart, options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kLimit);
  EXPECT_EQ(r.error().to_string(), kCart + ": file is " + std::to_string(fs::file_size(kCart)) +
                                       " bytes, the limit is 100");
}

TEST(AssimpImporter, GarbageIsAParseErrorWithAssimpsMessage) {
  const ScratchDir scratch("assimp_garbage");
  const fs::path& dir = scratch.path();
  const fs::path file = dir / "noise.b3d";
  const std::string noise = "this is not a Blitz3D file at all";
  write_file(file, noise);
  const auto r = io::import_assimp(file.string());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(r.error().path, file.string());
  EXPECT_EQ(r.error().message.rfind("Assimp: ", 0), 0u) << r.error().to_string();
}

void expect_prefixes_fail_cleanly(const std::string& source, const std::string& name,
                                  const std::vector<std::size_t>& lengths) {
  const auto bytes = read_bytes(source);
  const ScratchDir scratch("assimp_truncated_" + name);
  const fs::path& dir = scratch.path();
  for (std::size_t n : lengths) {
    ASSERT_LT(n, bytes.size());
    const fs::path file = dir / (std::to_string(n) + "_" + name);
    write_file(file, std::span(bytes).first(n));
    Diagnostics diag;
    const auto r = io::import_assimp(file.string(), {}, &diag);
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().code, ErrorCode::kParse) << n;
    EXPECT_EQ(r.error().path, file.string()) << n;
    EXPECT_EQ(r.error().message.rfind("Assimp: ", 0), 0u) << r.error().to_string();
  }
}

TEST(AssimpImporter, TruncatedB3dFailsWithoutCrashing) {
  const auto cart = fs::file_size(kCart);
  expect_prefixes_fail_cleanly(kCart, "cart.b3d", {0, 3, 8, 12, 40, 100, 500, 1200, cart - 1});
  const auto size = fs::file_size(kCharacter);
  expect_prefixes_fail_cleanly(kCharacter, "character.b3d",
                               {16, 64, 1000, 5000, size / 2, size - 100, size - 1});
}

TEST(AssimpImporter, TruncatedColladaFailsWithoutCrashing) {
  const auto size = fs::file_size(kCollada);
  expect_prefixes_fail_cleanly(kCollada, "clips.dae",
                               {0, 10, 100, 1000, 5000, 9000, 20000, size / 2, size - 20});
}

TEST(AssimpImporter, TruncatedB3dPrefixIsALocatedParseError) {
  const auto bytes = read_bytes(kCart);
  const ScratchDir scratch("assimp_truncated_cart");
  const fs::path& dir = scratch.path();
  const fs::path file = dir / "half.b3d";
  write_file(file, std::span(bytes).first(bytes.size() / 2));
  const auto r = io::import_assimp(file.string());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(r.error().path, file.string());
  EXPECT_NE(r.error().message.find("B3D"), std::string::npos) << r.error().to_string();
}

}  // namespace
}  // namespace critter
